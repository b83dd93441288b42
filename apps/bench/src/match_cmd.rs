//! `tns-bench match`: engine against engine, with a progress bar, Elo, SPRT and records.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use indicatif::{ProgressBar, ProgressStyle};
use tns_match::{Budget, Colours, MatchConfig, PlayerSpec, Sprt};

use crate::ctrl_c::on_ctrl_c;
use crate::match_progress::Progress;
use crate::match_report::{print_header, summary};
use crate::openings::read_openings;

#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("players").required(true).args(["engines", "sheep"]))]
pub struct Args {
    /// Two players, each playing both sides: a level (`random`, `easy`, `medium`, `hard`,
    /// `strongest`, `perfect`), a player spec (`heuristic`, `network`, a weights file) with
    /// options after a colon (e.g. `hard:time=0.2,dead=350`), or `cmd:PROGRAM [ARGS]` for
    /// another program speaking the TSI protocol (docs/protocol.md, docs/players.md).
    #[arg(long, num_args = 2, value_names = ["A", "B"], conflicts_with_all = ["sheep", "tiger"])]
    engines: Option<Vec<PlayerSpec>>,
    /// The player of the sheep in every game (with --tiger).
    #[arg(long, requires = "tiger")]
    sheep: Option<PlayerSpec>,
    /// The player of the tigers in every game (with --sheep).
    #[arg(long, requires = "sheep")]
    tiger: Option<PlayerSpec>,
    /// Seconds per move, for players that set no limit of their own [default: 0.1 unless
    /// --depth or --tc is given].
    #[arg(long, conflicts_with_all = ["depth", "tc"], value_parser = tns_match::limit::seconds)]
    time: Option<f64>,
    /// A time control on each side's clock instead of a time a move: BASE+INC, the base in
    /// minutes (`5+3`) or in seconds with an `s` (`10s+0.1`) and the increment in seconds, or
    /// MOVES/BASE+INC (`40/1+0.5`). A flag that falls loses the game.
    #[arg(long, value_name = "TC")]
    tc: Option<tns_match::TimeControl>,
    /// Milliseconds a move may go past its time (a move's, or its clock) before it counts:
    /// an external program's later answer forfeits, a later move on the clock loses on time.
    /// Moves past their time but within the margin are counted and reported.
    #[arg(long, value_name = "MS", default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    margin: u64,
    /// Plies per move, for players that set no limit of their own.
    #[arg(long, value_parser = tns_match::limit::depth)]
    depth: Option<u32>,
    /// Games to play (with --engines, rounded up to whole pairs).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    games: u32,
    /// Random plies at the start of each game (a pair of games shares its opening).
    #[arg(long, default_value_t = 4, conflicts_with = "openings_file")]
    openings: usize,
    /// Openings from FILE instead of random ones: positions, one a line, or game records (a
    /// record's `Opening` tag, if any, says how many of its moves to keep). Each is played by
    /// one pair of games, in turn.
    #[arg(long, value_name = "FILE")]
    openings_file: Option<PathBuf>,
    /// A line for every finished game: its number, who played which side, the result and why.
    #[arg(long, short)]
    verbose: bool,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    concurrency: u32,
    /// Search threads per player.
    #[arg(long, default_value_t = 1, value_parser = tns_match::limit::threads)]
    threads: usize,
    /// Table size per player, in MiB.
    #[arg(long, default_value_t = 16, value_parser = tns_match::limit::hash_mb)]
    tt_mb: usize,
    /// Plies after which a game is scored a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Stop when a sequential probability ratio test decides between H0: Elo = ELO0 and
    /// H1: Elo = ELO1, with error rates ALPHA and BETA (0.05 each unless given).
    #[arg(long, num_args = 2..=4, allow_negative_numbers = true, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"])]
    sprt: Option<Vec<f64>>,
    /// The tablebase's directory, for perfect players and those with `table=on`.
    #[arg(long, default_value = "tablebase")]
    tablebase: PathBuf,
    /// Write every game to FILE in the game-record notation, each as it finishes (a new or
    /// empty file: one that holds games is never written over).
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
}

fn parse_sprt(values: &[f64]) -> anyhow::Result<Sprt> {
    let sprt = Sprt {
        elo0: values[0],
        elo1: values[1],
        alpha: values.get(2).copied().unwrap_or(0.05),
        beta: values.get(3).copied().unwrap_or(0.05),
    };
    let rate = |p: f64| p > 0.0 && p < 0.5;
    // Beyond a thousand Elo a side scores over 99.6%: a certainty, not a hypothesis to test.
    let elo = |e: f64| e.is_finite() && e.abs() <= 1000.0;
    if !(elo(sprt.elo0) && elo(sprt.elo1) && sprt.elo0 < sprt.elo1) {
        bail!(
            "--sprt needs -1000 <= ELO0 < ELO1 <= 1000, got {} and {}",
            crate::short_number(sprt.elo0),
            crate::short_number(sprt.elo1)
        );
    }
    if !(rate(sprt.alpha) && rate(sprt.beta)) {
        bail!(
            "--sprt error rates must lie between 0 and 0.5, got {} and {}",
            sprt.alpha,
            sprt.beta
        );
    }
    Ok(sprt)
}

/// The match's settings from the command line, and the SPRT if one was asked for.
fn config(args: &Args) -> anyhow::Result<(MatchConfig, Option<Sprt>)> {
    let (a, b, colours) = match (&args.engines, &args.sheep, &args.tiger) {
        (Some(pair), _, _) => (pair[0].clone(), pair[1].clone(), Colours::Alternate),
        (None, Some(sheep), Some(tiger)) => (sheep.clone(), tiger.clone(), Colours::Fixed),
        _ => bail!("name the players with --engines A B, or --sheep A --tiger B"),
    };
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    let book = match &args.openings_file {
        Some(path) => read_openings(path)?,
        None => Vec::new(),
    };
    let games = match colours {
        Colours::Alternate => args.games.div_ceil(2) * 2,
        Colours::Fixed => args.games,
    };
    let mut config = MatchConfig {
        a,
        b,
        colours,
        games,
        openings: args.openings,
        seed: args.seed,
        concurrency: args.concurrency as usize,
        max_plies: args.max_plies,
        defaults: Budget {
            time: args.time.or(if args.depth.is_none() && args.tc.is_none() {
                Some(0.1)
            } else {
                None
            }),
            depth: args.depth,
            threads: args.threads,
            tt_mb: args.tt_mb,
        },
        time_control: args.tc,
        margin: Duration::from_millis(args.margin),
        tablebase: None,
        book,
    };
    // The perfect player and `table=on` search with the table; no one else reads it.
    if config.a.needs_tablebase() || config.b.needs_tablebase() {
        let table = tns_tablebase::Tablebase::load(tns_board::KILLS_TO_WIN, &args.tablebase)
            .context("--tablebase")?;
        config.tablebase = Some(std::sync::Arc::new(table));
    }
    Ok((config, sprt))
}

/// Opens the records file before any game is played: a directory, a FIFO, a folder without
/// permission, a missing folder all fail here, and so does a file that holds games already
/// (a match never writes over games another one kept).
fn open_records(path: &std::path::Path) -> anyhow::Result<tns_file::AppendFile> {
    tns_file::AppendFile::create_empty(path).map_err(|e| {
        let why = if e.kind() == std::io::ErrorKind::AlreadyExists {
            "it holds games already (a match stopped before?): name another file, or move it away"
                .to_owned()
        } else {
            e.to_string()
        };
        anyhow::anyhow!("--records {}: {why}", path.display())
    })
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let (config, sprt) = config(args)?;
    let records = match &args.records {
        Some(path) => Some((path.as_path(), open_records(path)?)),
        None => None,
    };
    print_header(&config, args.openings_file.as_deref());
    let bar = ProgressBar::new(u64::from(config.games));
    bar.set_style(ProgressStyle::with_template(
        "{bar:30} {pos}/{len} games [{elapsed_precise}<{eta}] {msg}",
    )?);
    // Ctrl+C ends the match after the games under way are dropped, with the summary so far.
    let stop = Arc::new(AtomicBool::new(false));
    let interrupted = on_ctrl_c(&stop);
    let mut progress = Progress::new(&config, sprt, args.verbose, records, bar, &stop);
    let started = Instant::now();
    let finished = tns_match::run_match(&config, &stop, |game| progress.game(game));
    progress.bar.finish_and_clear();
    // The summary, whatever happened: a failed match or records file is told after it.
    progress.finish_records();
    let mut failure = progress.records_failed.take();
    if let Err(e) = finished {
        failure.get_or_insert(e.into());
    }
    if interrupted.load(Ordering::SeqCst) {
        say!(
            "stopped by Ctrl+C after {} of {} games: the summary so far",
            progress.standings.a_total().games(),
            config.games
        );
    }
    summary(&progress, started.elapsed());
    failure.map_or(Ok(()), Err)
}
