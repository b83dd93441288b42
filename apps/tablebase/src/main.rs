//! `tns-tablebase`: build the movement-phase tablebase, probe it, count it and verify it.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use tns_board::{Board, Side};
use tns_tablebase::{BuildEvent, SliceProgress, Tablebase, Value};

#[derive(Parser, Debug)]
#[command(name = "tns-tablebase", version, about = "The solved movement phase of Tigers and Sheep")]
struct Cli {
    /// Kills that win the game (5 in the real game; fewer builds a small variant in seconds).
    #[arg(long, global = true, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=5))]
    kills: u8,
    /// The directory of the table's files.
    #[arg(long, global = true, default_value = "tablebase")]
    dir: PathBuf,
    /// Threads (all cores unless given).
    #[arg(long, global = true, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve every slice not already in the directory, saving each as it is finished.
    Build,
    /// The value of a position with no sheep in hand, and of each of its moves.
    Probe {
        /// The position, e.g. "SSSSS/S1TTS/STS2/S1S1S/TSSSS s 0".
        position: String,
    },
    /// Positions, wins, draws and losses for each dead count and side to move.
    Stats,
    /// Check every stored value against the values of its moves.
    Verify,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = cli.threads {
        pool = pool.num_threads(n as usize);
    }
    let result = match pool.build() {
        Ok(pool) => pool.install(|| run(&cli)),
        Err(e) => Err(format!("cannot start threads: {e}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tns-tablebase: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> Result<(), String> {
    match &cli.command {
        Command::Build => build(cli),
        Command::Probe { position } => probe(cli, position),
        Command::Stats => stats(cli),
        Command::Verify => {
            let table = load(cli)?;
            let start = Instant::now();
            table.verify().map_err(|e| format!("verification failed: {e}"))?;
            println!(
                "verified: every value agrees with its moves ({:.1} s)",
                secs(start.elapsed())
            );
            Ok(())
        }
    }
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn load(cli: &Cli) -> Result<Tablebase, String> {
    Tablebase::load(cli.kills, &cli.dir).map_err(|e| e.to_string())
}

fn build(cli: &Cli) -> Result<(), String> {
    let start = Instant::now();
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
            .map_err(|e| e.to_string())?,
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    Tablebase::build(cli.kills, Some(&cli.dir), |event| match event {
        BuildEvent::Loaded { dead } => bar.suspend(|| println!("slice {dead} dead: already built")),
        BuildEvent::Started { dead, slots } => {
            bar.set_message(format!("slice {dead} dead: {slots} slots a side, first pass"));
        }
        BuildEvent::Progress { dead, step: SliceProgress::Initialised } => {
            bar.set_message(format!("slice {dead} dead: first pass done"));
        }
        BuildEvent::Progress { dead, step: SliceProgress::Distance(n) } => {
            bar.set_message(format!("slice {dead} dead: distance {n} done"));
        }
        BuildEvent::Finished { dead, time } => {
            bar.suspend(|| println!("slice {dead} dead: built in {:.1} s", secs(time)));
        }
    })
    .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    println!("built {} in {:.1} s", cli.dir.display(), secs(start.elapsed()));
    Ok(())
}

fn describe(value: Value, side: Side) -> String {
    let (winner, loser) = match side {
        Side::Sheep => ("Sheep", "Tigers"),
        Side::Tiger => ("Tigers", "Sheep"),
    };
    match value {
        Value::Win(n) => format!("{winner} win in {n}"),
        Value::Loss(n) => format!("{loser} win in {n}"),
        Value::Draw => "Draw".into(),
    }
}

fn probe(cli: &Cli, position: &str) -> Result<(), String> {
    let board: Board = position.parse().map_err(|e| format!("bad position {position:?}: {e}"))?;
    if board.in_hand() > 0 {
        return Err("the table holds only positions with no sheep in hand".into());
    }
    if board.dead() >= cli.kills {
        return Err(format!("the game is over: {} sheep are dead", board.dead()));
    }
    let table = load(cli)?;
    let side = board.side_to_move();
    let value = table.probe(board).ok_or("the table does not hold this position")?;
    println!("{board}: {} ({value} for the side to move)", describe(value, side));
    for (m, v) in table.moves(board).unwrap_or_default() {
        // After the move the other side is to move: say it from the mover's side.
        println!("  {m:6} {}", describe(v, side));
    }
    Ok(())
}

fn stats(cli: &Cli) -> Result<(), String> {
    let table = load(cli)?;
    println!(
        "{:>4} {:>6} {:>12} {:>12} {:>12} {:>12} {:>8}",
        "dead", "to move", "positions", "wins", "draws", "losses", "longest"
    );
    let mut total = 0;
    for s in table.stats() {
        let side = match s.side {
            Side::Sheep => "sheep",
            Side::Tiger => "tigers",
        };
        println!(
            "{:>4} {:>7} {:>12} {:>12} {:>12} {:>12} {:>8}",
            s.dead, side, s.positions, s.wins, s.draws, s.losses, s.longest_win
        );
        total += s.positions;
    }
    println!("total positions {total}");
    Ok(())
}
