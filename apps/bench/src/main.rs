//! `tns-bench`: perft, search benchmarks and engine matches.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `println!` for output that may go into a pipe: when the reader has gone (`| head`), the
/// program ends quietly instead of panicking.
macro_rules! say {
    () => { $crate::say(format_args!("")) };
    ($($arg:tt)*) => { $crate::say(format_args!($($arg)*)) };
}

fn say(line: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    if let Err(e) = writeln!(std::io::stdout().lock(), "{line}")
        && e.kind() == std::io::ErrorKind::BrokenPipe
    {
        std::process::exit(0);
    }
}

/// The largest records or openings file read: a million games is about 600 MB.
const RECORDS_LIMIT: u64 = 4 << 30;

/// A number from the command line as an error quotes it: as written where it is of a usual
/// size, in scientific notation where it would run to hundreds of digits (`1e308`).
fn short_number(x: f64) -> String {
    if x.is_finite() && (x == 0.0 || (1e-4..1e6).contains(&x.abs())) {
        x.to_string()
    } else {
        format!("{x:e}")
    }
}

mod analyse;
mod audit_cmd;
mod bot_cmd;
mod ctrl_c;
mod draw_cmd;
mod http_reader;
mod load_cmd;
mod match_cmd;
mod match_progress;
mod match_report;
mod online_load_cmd;
mod openings;
mod perft;
mod puzzles_cmd;
mod review_cmd;
mod search_cmd;

#[derive(Parser, Debug)]
#[command(
    name = "tns-bench",
    version,
    about = "Benchmarks and tests for the Tigers and Sheep engine"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Draw a position, or a recorded game as a strip or an animation, as an SVG picture.
    Draw(draw_cmd::Args),
    /// Count the leaves of the legal-move tree, one line per depth up to DEPTH.
    Perft(perft::Args),
    /// Search one position and print each completed iteration, then the best move.
    Analyse(analyse::Args),
    /// Search the six bench positions to a fixed depth and print nodes, time and speed.
    Search(search_cmd::Args),
    /// Play engines against each other and report the score, the Elo difference and, with
    /// --sprt, a sequential test.
    Match(Box<match_cmd::Args>),
    /// Check every move of a file of game records against the solved game: per player, the
    /// moves that gave up a win or a draw, by phase, and where each game first went wrong.
    Audit(audit_cmd::Args),
    /// The shipped puzzles tried by players: how many each solves (its first move among the
    /// answers), and the rating that score is worth on them.
    Puzzles(puzzles_cmd::Args),
    /// Review one game against the solved game: the value along its plies, every move that
    /// gave a result up with a move that kept it, and each side's first mistake.
    Review(review_cmd::Args),
    /// Play an online game on a tns-web server with any engine, through its API: take a seat
    /// by its link (--join), or create a game (--server) and play one side until it ends.
    Bot(Box<bot_cmd::Args>),
    /// A bounded load test of tns-web on this machine: connections kept alive asking
    /// positions, then the rate and the latency percentiles.
    Load(load_cmd::Args),
    /// A load test of tns-web's online games on this machine: so many friend-against-friend
    /// games at once, each player following its stream and moving as fast as it is answered;
    /// then the latency from a move to the opponent's stream, lost events, errors, memory.
    OnlineLoad(online_load_cmd::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Analyse(args) => analyse::run(&args),
        Command::Match(args) => match_cmd::run(&args),
        Command::Search(args) => search_cmd::run(&args),
        Command::Audit(args) => audit_cmd::run(&args),
        Command::Draw(args) => draw_cmd::run(&args),
        Command::Load(args) => load_cmd::run(&args),
        Command::OnlineLoad(args) => online_load_cmd::run(&args),
        Command::Bot(args) => bot_cmd::run(&args),
        Command::Review(args) => review_cmd::run(&args),
        Command::Puzzles(args) => puzzles_cmd::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("tns-bench: {}", tns_file::one_line(error.as_ref()));
            ExitCode::FAILURE
        }
    }
}
