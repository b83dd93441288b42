//! `tns-tablebase`: build the tablebase (the movement phase, then the placement phase), probe
//! it, count it and verify it.

// Casts allowed in this file only: counts far below 2^52 turned into f64 (for rates, statistics, coordinates).
#![allow(clippy::cast_precision_loss)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use tns_board::{Board, Side, TOTAL_SHEEP};
use tns_tablebase::{
    BuildEvent, LayerStats, PlacementEvent, SliceProgress, Tablebase, Verdict, Wdl,
};

/// Prints a line to standard output; when the reader has gone (`| head`), ends quietly.
macro_rules! say {
    () => { say(format_args!("")) };
    ($($arg:tt)*) => { say(format_args!($($arg)*)) };
}

fn say(line: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    if let Err(e) = writeln!(std::io::stdout().lock(), "{line}")
        && e.kind() == std::io::ErrorKind::BrokenPipe
    {
        std::process::exit(0);
    }
}

#[derive(Parser, Debug)]
#[command(
    name = "tns-tablebase",
    version,
    about = "Tigers and Sheep solved: the movement phase, and the placement phase on top"
)]
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
    /// Solve every slice (and with --placement, every placement layer) not already in the
    /// directory, saving each as it is finished; a stopped build resumes where it was.
    Build {
        /// Also solve the placement phase, from 19 sheep placed down to the start.
        #[arg(long)]
        placement: bool,
        /// Solve the placement layers only down to this many sheep placed (implies
        /// --placement): a part of the table, for tests and quick looks.
        #[arg(long, value_name = "P", value_parser = clap::value_parser!(u8).range(0..=19))]
        from_placed: Option<u8>,
    },
    /// The value of a position, and of each of its moves, best first.
    Probe {
        /// The position, e.g. "SSSSS/S1TTS/STS2/S1S1S/TSSSS s 0".
        position: String,
    },
    /// A perfect game from a position (the start unless given): at each ply the verdict, how
    /// many legal moves keep it, and the move the perfect player chooses among them.
    Line {
        /// The position to start from.
        #[arg(default_value = "T3T/5/5/5/T3T s 20")]
        position: String,
        /// The depth of the perfect player's search among the moves that keep the value.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
        /// Plies to play at most.
        #[arg(long, default_value_t = 200)]
        plies: usize,
    },
    /// Every position reachable from the start in up to PLIES plies (each symmetry class once):
    /// per ply, how many are won, drawn and lost for the side to move, and how many of the
    /// moves from drawn positions lose.
    Reach {
        /// The deepest ply.
        #[arg(default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=12))]
        plies: u32,
    },
    /// Positions of a placement layer with a given value for the side to move, the first of
    /// their symmetry classes in index order.
    Examples {
        /// Sheep placed (0 to 19).
        #[arg(long, value_parser = clap::value_parser!(u8).range(0..=19))]
        placed: u8,
        /// Dead sheep.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=4))]
        dead: u8,
        /// The side to move: sheep or tigers.
        #[arg(long, value_parser = parse_side)]
        side: Side,
        /// The value for the side to move: win, draw or loss.
        #[arg(long, value_parser = parse_wdl)]
        result: Wdl,
        /// How many to show.
        #[arg(long, default_value_t = 5)]
        count: usize,
    },
    /// Positions, wins, draws and losses for each dead count and side to move, and for each
    /// placement layer that is built.
    Stats,
    /// Convert a table built in the uncompressed format (version 1) to the compressed one, in
    /// place and without solving anything again; a stopped conversion resumes.
    Compress,
    /// Check every stored value against the values of its moves (the placement layers too,
    /// when built).
    Verify {
        /// Only check every block of every file against its checksum (seconds a gigabyte),
        /// not the values against their moves.
        #[arg(long, conflicts_with_all = ["placement_only", "sample", "layers"])]
        checksums: bool,
        /// Only the placement layers.
        #[arg(long)]
        placement_only: bool,
        /// Instead of the complete check of the placement layers, check this many random
        /// positions of each (minutes for the whole game, where the complete check takes hours).
        #[arg(long, value_name = "N", conflicts_with = "layers")]
        sample: Option<usize>,
        /// Only the placement layers from A to B sheep placed (each is checked against the
        /// stored values of the next), so the whole game can be verified a part at a time.
        #[arg(long, value_name = "A-B", value_parser = parse_layers)]
        layers: Option<(u8, u8)>,
    },
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
        Command::Build { placement, from_placed } => {
            let mut table = build(cli)?;
            if *placement || from_placed.is_some() {
                build_placement(cli, &mut table, from_placed.unwrap_or(0))?;
            }
            Ok(())
        }
        Command::Probe { position } => probe(cli, position),
        Command::Stats => stats(cli),
        Command::Examples { placed, dead, side, result, count } => {
            let table = load(cli)?;
            let found = table
                .placement_examples(*placed, *dead, *side, *result, *count)
                .map_err(|e| e.to_string())?;
            if found.is_empty() {
                say!("none");
            }
            for board in found {
                say!("{board}");
            }
            Ok(())
        }
        Command::Line { position, depth, plies } => line(cli, position, *depth, *plies),
        Command::Reach { plies } => reach(cli, *plies),
        Command::Verify { checksums: true, .. } => checksums(cli),
        Command::Verify { placement_only, sample, layers, .. } => {
            verify(cli, *placement_only, *sample, *layers)
        }
        Command::Compress => compress(cli),
    }
}

fn parse_side(text: &str) -> Result<Side, String> {
    match text {
        "sheep" | "s" => Ok(Side::Sheep),
        "tigers" | "tiger" | "t" => Ok(Side::Tiger),
        _ => Err(format!("expected sheep or tigers, not {text:?}")),
    }
}

fn parse_wdl(text: &str) -> Result<Wdl, String> {
    match text {
        "win" => Ok(Wdl::Win),
        "draw" => Ok(Wdl::Draw),
        "loss" => Ok(Wdl::Loss),
        _ => Err(format!("expected win, draw or loss, not {text:?}")),
    }
}

fn parse_layers(text: &str) -> Result<(u8, u8), String> {
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let parse = |s: &str| s.trim().parse::<u8>().ok().filter(|&n| n <= 19);
    match (parse(a), parse(b)) {
        (Some(a), Some(b)) if a <= b => Ok((a, b)),
        _ => Err(format!("expected layers A-B with 0 <= A <= B <= 19, not {text:?}")),
    }
}

fn verify(
    cli: &Cli,
    placement_only: bool,
    sample: Option<usize>,
    layers: Option<(u8, u8)>,
) -> Result<(), String> {
    let table = load(cli)?;
    if !placement_only {
        let start = Instant::now();
        table.verify().map_err(|e| format!("verification failed: {e}"))?;
        say!(
            "movement phase verified: every value agrees with its moves ({:.1} s)",
            secs(start.elapsed())
        );
    }
    match table.placement_from() {
        None if placement_only => Err("no placement layer is built (build --placement)".into()),
        None => Ok(()),
        Some(from) if sample.is_some() => {
            let start = Instant::now();
            let n = sample.unwrap_or(0);
            let checked = table
                .verify_placement_sample(n, 1)
                .map_err(|e| format!("verification failed: {e}"))?;
            say!(
                "placement phase sampled from {from} placed: {checked} positions agree with \
                 their moves ({:.1} s)",
                secs(start.elapsed())
            );
            Ok(())
        }
        Some(from) => {
            let start = Instant::now();
            let (from, to) = layers.unwrap_or((from, 19));
            table
                .verify_placement_layers(from..=to, |placed| {
                    say!("layer {placed} placed verified ({:.1} s)", secs(start.elapsed()));
                })
                .map_err(|e| format!("verification failed: {e}"))?;
            say!(
                "placement layers {from} to {to} placed verified: every value agrees with its \
                 moves ({:.1} s)",
                secs(start.elapsed())
            );
            Ok(())
        }
    }
}

fn checksums(cli: &Cli) -> Result<(), String> {
    let start = Instant::now();
    let files = Tablebase::check_files(cli.kills, &cli.dir, |f| {
        say!("{}: every block checked ({:.1} MB)", f.path.display(), f.bytes as f64 / 1e6);
    })
    .map_err(|e| e.to_string())?;
    if files.is_empty() {
        return Err(format!("no table files in {} (tns-tablebase build)", cli.dir.display()));
    }
    let bytes: u64 = files.iter().map(|f| f.bytes).sum();
    say!(
        "{} files, {:.2} GB: every block agrees with its checksum ({:.1} s)",
        files.len(),
        bytes as f64 / 1e9,
        secs(start.elapsed())
    );
    Ok(())
}

fn compress(cli: &Cli) -> Result<(), String> {
    let start = Instant::now();
    let files = Tablebase::convert(cli.kills, &cli.dir, |f| {
        let what = if f.converted { "converted" } else { "already compressed, checked" };
        say!("{}: {what} ({:.1} MB)", f.path.display(), f.bytes as f64 / 1e6);
    })
    .map_err(|e| e.to_string())?;
    if files.is_empty() {
        return Err(format!("no table files in {} (tns-tablebase build)", cli.dir.display()));
    }
    let bytes: u64 = files.iter().map(|f| f.bytes).sum();
    say!(
        "{} files, {:.2} GB in all ({} converted, {:.1} s)",
        files.len(),
        bytes as f64 / 1e9,
        files.iter().filter(|f| f.converted).count(),
        secs(start.elapsed())
    );
    Ok(())
}

fn build_placement(cli: &Cli, table: &mut Tablebase, from: u8) -> Result<(), String> {
    let start = Instant::now();
    let bar = ProgressBar::new(1);
    bar.set_style(
        ProgressStyle::with_template(
            "layer {msg} {wide_bar} {percent:>3}% [{elapsed_precise}, about {eta} to go]",
        )
        .map_err(|e| e.to_string())?,
    );
    let sizes = std::sync::Mutex::new(Vec::new());
    table
        .build_placement(&cli.dir, from, &|event| match event {
            PlacementEvent::Found { placed } => {
                bar.suspend(|| say!("layer {placed} placed: already built, every block checked"));
            }
            PlacementEvent::Converted { placed } => {
                bar.suspend(|| say!("layer {placed} placed: converted to the compressed format"));
            }
            PlacementEvent::Damaged { placed, error } => {
                bar.suspend(|| say!("layer {placed} placed: damaged ({error}); building it again"));
            }
            PlacementEvent::Started { placed, work } => {
                bar.reset();
                bar.set_length(work);
                bar.set_message(format!("{placed:>2} placed"));
            }
            PlacementEvent::Progress { done, .. } => bar.set_position(done),
            PlacementEvent::Finished { placed, time, path, bytes } => {
                bar.suspend(|| {
                    say!(
                        "layer {placed} placed: built in {:.1} s, {} ({:.1} MB)",
                        secs(time),
                        path.display(),
                        bytes as f64 / 1e6
                    );
                });
                if let Ok(mut sizes) = sizes.lock() {
                    sizes.push(bytes);
                }
            }
        })
        .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    let total: u64 = std::fs::read_dir(&cli.dir)
        .map_err(|e| format!("{}: {e}", cli.dir.display()))?
        .flatten()
        .filter(|f| f.path().extension().is_some_and(|x| x == "tnspl"))
        .filter_map(|f| f.metadata().ok())
        .map(|m| m.len())
        .sum();
    say!(
        "placement layers {from} to 19 placed are in {} ({:.2} GB of layer files); this run took {:.1} s",
        cli.dir.display(),
        total as f64 / 1e9,
        secs(start.elapsed())
    );
    Ok(())
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn load(cli: &Cli) -> Result<Tablebase, String> {
    Tablebase::load(cli.kills, &cli.dir).map_err(|e| e.to_string())
}

fn build(cli: &Cli) -> Result<Tablebase, String> {
    let start = Instant::now();
    // The bar counts slots (both sides of each slice), so a slice weighs what it holds; a
    // slice already built counts at once.
    let slots: Vec<(u8, usize)> = Tablebase::slice_slots(cli.kills).map_err(|e| e.to_string())?;
    let weight =
        |dead: u8| slots.iter().find(|&&(d, _)| d == dead).map_or(0, |&(_, s)| 2 * s as u64);
    let bar = ProgressBar::new(slots.iter().map(|&(d, _)| weight(d)).sum());
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {percent:>3}% [{elapsed_precise}<{eta_precise}] {msg}",
        )
        .map_err(|e| e.to_string())?,
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    let table = Tablebase::build(cli.kills, Some(&cli.dir), |event| match event {
        BuildEvent::Loaded { dead } => {
            bar.inc(weight(dead));
            bar.suspend(|| say!("slice {dead} dead: already built, every block checked"));
        }
        BuildEvent::Damaged { dead } => {
            bar.suspend(|| say!("slice {dead} dead: damaged; building it again"));
        }
        BuildEvent::Converted { dead } => {
            bar.suspend(|| say!("slice {dead} dead: converted to the compressed format"));
        }
        BuildEvent::Started { dead, slots } => {
            bar.set_message(format!("slice {dead} dead ({slots} slots a side): first pass"));
        }
        BuildEvent::Progress { dead, step: SliceProgress::Initialised } => {
            bar.set_message(format!("slice {dead} dead: first pass done"));
        }
        BuildEvent::Progress { dead, step: SliceProgress::Distance(n) } => {
            bar.set_message(format!("slice {dead} dead: distance {n} done"));
        }
        BuildEvent::Finished { dead, time } => {
            bar.inc(weight(dead));
            bar.suspend(|| say!("slice {dead} dead: built in {:.1} s", secs(time)));
        }
    })
    .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    let size: u64 = std::fs::read_dir(&cli.dir)
        .map_err(|e| format!("{}: {e}", cli.dir.display()))?
        .flatten()
        .filter(|f| {
            let path = f.path();
            path.extension().is_some_and(|x| x == "tnstb")
                && f.file_name().to_string_lossy().starts_with(&format!("k{}-", cli.kills))
        })
        .filter_map(|f| f.metadata().ok())
        .map(|m| m.len())
        .sum();
    say!(
        "movement phase: {} slices in {} ({:.1} MB of slice files); this run took {:.1} s",
        slots.len(),
        cli.dir.display(),
        size as f64 / 1e6,
        secs(start.elapsed())
    );
    Ok(table)
}

fn describe(verdict: Verdict, side: Side) -> String {
    verdict.describe(side)
}

fn probe(cli: &Cli, position: &str) -> Result<(), String> {
    let board: Board = position.parse().map_err(|e| format!("bad position {position:?}: {e}"))?;
    if board.dead() >= cli.kills {
        return Err(format!("the game is over: {} sheep are dead", board.dead()));
    }
    let table = load(cli)?;
    let side = board.side_to_move();
    let verdict = match table.verdict(board) {
        Ok(verdict) => verdict,
        Err(tns_tablebase::TablebaseError::NoLayer(_)) => {
            return Err(not_built(&table, board));
        }
        Err(e) => return Err(e.to_string()),
    };
    match verdict.value {
        Some(value) => {
            say!("{board}: {} ({value} for the side to move)", describe(verdict, side));
        }
        None => {
            say!("{board}: {} ({} for the side to move)", describe(verdict, side), verdict.wdl);
        }
    }
    let verdicts = table.verdicts(board).map_err(|e| e.to_string())?;
    for (m, v) in verdicts {
        // After the move the other side is to move: say it from the mover's side.
        say!("  {:6} {}", m.to_string(), describe(v, side));
    }
    Ok(())
}

/// Why the table cannot answer for a placement position: its layers are not built that far.
fn not_built(table: &Tablebase, board: Board) -> String {
    let placed = TOTAL_SHEEP - board.in_hand();
    match table.placement_from() {
        None => "positions with sheep in hand need the placement layers: run \
                     `tns-tablebase build --placement`"
            .into(),
        Some(from) => format!(
            "the placement layers are built from {from} placed; this position has {placed} \
                 (build further with `--from-placed {}`)",
            placed.min(from.saturating_sub(1))
        ),
    }
}

fn line(cli: &Cli, position: &str, depth: u32, plies: usize) -> Result<(), String> {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use tns_search::{Heuristic, Limits, Search, SearchConfig};

    let board: Board = position.parse().map_err(|e| format!("bad position {position:?}: {e}"))?;
    if cli.kills != tns_board::KILLS_TO_WIN {
        return Err("the perfect player plays the real game: leave out --kills".into());
    }
    let table = Arc::new(load(cli)?);
    let evaluator = tns_tablebase::WithTablebase::new(Heuristic::default(), Arc::clone(&table))
        .map_err(|e| e.to_string())?;
    let mut search = Search::new(evaluator, SearchConfig::default().with_tt_mb(16))
        .map_err(|e| e.to_string())?;
    let mut game = tns_board::Game::from_position(board);
    say!("{:>4} {:<28} {:>6} {:>5}  {:<6} verdict", "ply", "position", "moves", "keep", "move");
    while game.outcome().is_none() && game.len() < plies {
        let board = game.board();
        let side = board.side_to_move();
        let verdicts = table.verdicts(board).map_err(|e| format!("{board}: {e}"))?;
        let best = verdicts.first().map(|v| v.1).ok_or("no legal move")?;
        let keep = verdicts.iter().filter(|v| v.1.wdl == best.wdl).count();
        let stop = AtomicBool::new(false);
        let m = search
            .search(board, game.previous(), Limits::depth(depth), &stop, |_| {})
            .map_err(|e| e.to_string())?
            .best_move
            .ok_or("no legal move")?;
        say!(
            "{:>4} {:<28} {:>6} {:>5}  {:<6} {}",
            game.len() + 1,
            board.to_string(),
            verdicts.len(),
            keep,
            m.to_string(),
            describe(best, side)
        );
        game.play(m).map_err(|e| e.to_string())?;
    }
    if let Some(outcome) = game.outcome() {
        say!("{outcome}");
    }
    Ok(())
}

fn reach(cli: &Cli, plies: u32) -> Result<(), String> {
    let table = load(cli)?;
    let mut layer = std::collections::HashSet::from([Board::START]);
    say!(
        "{:>4} {:>10} {:>10} {:>10} {:>10} {:>16} {:>14}",
        "ply",
        "positions",
        "wins",
        "draws",
        "losses",
        "moves from draws",
        "of them losing"
    );
    for ply in 1..=plies {
        let (mut wdl, mut moves, mut losing) = ([0u64; 3], 0u64, 0u64);
        let mut next = std::collections::HashSet::new();
        for &board in &layer {
            let verdicts = table.verdicts(board).map_err(|e| format!("{board}: {e}"))?;
            let value = verdicts.first().map_or(Wdl::Loss, |v| v.1.wdl);
            wdl[value as usize] += 1;
            if value == Wdl::Draw {
                moves += verdicts.len() as u64;
                losing += verdicts.iter().filter(|v| v.1.wdl == Wdl::Loss).count() as u64;
            }
            for (m, _) in verdicts {
                let child = board.after_unchecked(m);
                if child.dead() < cli.kills {
                    next.insert(child.canonical().0);
                }
            }
        }
        say!(
            "{ply:>4} {:>10} {:>10} {:>10} {:>10} {moves:>16} {losing:>14}",
            layer.len(),
            wdl[2],
            wdl[1],
            wdl[0]
        );
        layer = next;
    }
    Ok(())
}

fn stats(cli: &Cli) -> Result<(), String> {
    let table = load(cli)?;
    say!(
        "{:>4} {:>6} {:>12} {:>12} {:>12} {:>12} {:>8}",
        "dead",
        "to move",
        "positions",
        "wins",
        "draws",
        "losses",
        "longest"
    );
    let mut total = 0;
    for s in table.stats() {
        let side = match s.side {
            Side::Sheep => "sheep",
            Side::Tiger => "tigers",
        };
        say!(
            "{:>4} {:>7} {:>12} {:>12} {:>12} {:>12} {:>8}",
            s.dead,
            side,
            s.positions,
            s.wins,
            s.draws,
            s.losses,
            s.longest_win
        );
        total += s.positions;
    }
    say!("total positions {total}");
    let layers = table.placement_stats();
    if !layers.is_empty() {
        say!();
        print_layers(&layers);
    }
    Ok(())
}

fn print_layers(layers: &[LayerStats]) {
    say!(
        "{:>6} {:>4} {:>7} {:>14} {:>14} {:>14} {:>14}",
        "placed",
        "dead",
        "to move",
        "positions",
        "wins",
        "draws",
        "losses"
    );
    let mut total = [0u64; 4];
    for s in layers {
        let side = match s.side {
            Side::Sheep => "sheep",
            Side::Tiger => "tigers",
        };
        say!(
            "{:>6} {:>4} {:>7} {:>14} {:>14} {:>14} {:>14}",
            s.placed,
            s.dead,
            side,
            s.positions,
            s.wins,
            s.draws,
            s.losses
        );
        for (t, n) in total.iter_mut().zip([s.positions, s.wins, s.draws, s.losses]) {
            *t += n;
        }
    }
    say!(
        "{:>6} {:>4} {:>7} {:>14} {:>14} {:>14} {:>14}",
        "all",
        "",
        "both",
        total[0],
        total[1],
        total[2],
        total[3]
    );
}
