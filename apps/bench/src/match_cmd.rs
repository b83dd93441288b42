//! `tns-bench match`: engine against engine, with a progress bar, Elo, SPRT and records.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use tns_board::{Board, Game, GameRecord, RecordResult};
use tns_match::{
    Budget, Colours, GameReport, MatchConfig, PlayerSpec, Sprt, Standings, Tally, Verdict,
};

#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("players").required(true).args(["engines", "sheep"]))]
pub struct Args {
    /// Two players, each playing both sides: `heuristic`, `network`, `perfect`, `random`, or a weights file, with
    /// options after a colon (e.g. `heuristic:time=0.2,dead=350`), or `cmd:PROGRAM [ARGS]` for
    /// another program speaking the TSI protocol (docs/protocol.md).
    #[arg(long, num_args = 2, value_names = ["A", "B"], conflicts_with_all = ["sheep", "tiger"])]
    engines: Option<Vec<PlayerSpec>>,
    /// The player of the sheep in every game (with --tiger).
    #[arg(long, requires = "tiger")]
    sheep: Option<PlayerSpec>,
    /// The player of the tigers in every game (with --sheep).
    #[arg(long, requires = "sheep")]
    tiger: Option<PlayerSpec>,
    /// Seconds per move, for players that set no limit of their own [default: 0.1 unless
    /// --depth is given].
    #[arg(long, conflicts_with = "depth", value_parser = tns_match::limit::seconds)]
    time: Option<f64>,
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
    #[arg(long, num_args = 2..=4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"])]
    sprt: Option<Vec<f64>>,
    /// The tablebase's directory, for perfect players.
    #[arg(long, default_value = "tablebase")]
    tablebase: PathBuf,
    /// Write every game to FILE in the game-record notation.
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
}

/// How often the records file is rewritten during a match.
const SAVE_EVERY: Duration = Duration::from_secs(5);

fn parse_sprt(values: &[f64]) -> Result<Sprt, String> {
    let sprt = Sprt {
        elo0: values[0],
        elo1: values[1],
        alpha: values.get(2).copied().unwrap_or(0.05),
        beta: values.get(3).copied().unwrap_or(0.05),
    };
    let rate = |p: f64| p > 0.0 && p < 0.5;
    if !(sprt.elo0.is_finite() && sprt.elo1.is_finite() && sprt.elo0 < sprt.elo1) {
        return Err(format!("--sprt needs ELO0 < ELO1, got {} and {}", sprt.elo0, sprt.elo1));
    }
    if !(rate(sprt.alpha) && rate(sprt.beta)) {
        return Err(format!(
            "--sprt error rates must lie between 0 and 0.5, got {} and {}",
            sprt.alpha, sprt.beta
        ));
    }
    Ok(sprt)
}

/// The openings in a file: positions one a line (blank lines and `#` comments skipped), or else
/// game records, each cut to its `Opening` tag's number of moves when it has one.
fn read_openings(path: &std::path::Path) -> Result<Vec<Game>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("--openings-file {}: {e}", path.display()))?;
    let at = |what: String| format!("--openings-file {}: {what}", path.display());
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let looks_like_records = lines.iter().any(|(_, l)| l.starts_with('['));
    let games: Vec<Game> = if looks_like_records {
        let records = GameRecord::parse_all(&text).map_err(|e| at(e.to_string()))?;
        records
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let mut game = r.replay().map_err(|e| at(format!("record {}: {e}", i + 1)))?;
                if let Some(keep) = r.tag("Opening").and_then(|t| t.parse::<usize>().ok()) {
                    game.truncate(keep.min(game.len()));
                }
                Ok(game)
            })
            .collect::<Result<_, String>>()?
    } else {
        lines
            .iter()
            .map(|(n, l)| {
                l.parse::<Board>()
                    .map(Game::from_position)
                    .map_err(|e| at(format!("line {n}: {l:?}: {e}")))
            })
            .collect::<Result<_, String>>()?
    };
    if games.is_empty() {
        return Err(at("no openings in it".into()));
    }
    if let Some(i) = games.iter().position(|g| g.outcome().is_some()) {
        return Err(at(format!("opening {} is a finished game: nothing left to play", i + 1)));
    }
    Ok(games)
}

/// The match's settings from the command line, and the SPRT if one was asked for.
fn config(args: &Args) -> Result<(MatchConfig, Option<Sprt>), String> {
    let (a, b, colours) = match (&args.engines, &args.sheep, &args.tiger) {
        (Some(pair), _, _) => (pair[0].clone(), pair[1].clone(), Colours::Alternate),
        (None, Some(sheep), Some(tiger)) => (sheep.clone(), tiger.clone(), Colours::Fixed),
        _ => return Err("name the players with --engines A B, or --sheep A --tiger B".into()),
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
            time: args.time.or(if args.depth.is_none() { Some(0.1) } else { None }),
            depth: args.depth,
            threads: args.threads,
            tt_mb: args.tt_mb,
        },
        tablebase: None,
        book,
    };
    let perfect = |spec: &PlayerSpec| matches!(spec.kind, tns_match::Kind::Perfect(_));
    if perfect(&config.a) || perfect(&config.b) {
        let table = tns_tablebase::Tablebase::load(tns_board::KILLS_TO_WIN, &args.tablebase)
            .map_err(|e| format!("--tablebase: {e}"))?;
        config.tablebase = Some(std::sync::Arc::new(table));
    }
    Ok((config, sprt))
}

pub fn run(args: &Args) -> Result<(), String> {
    let (config, sprt) = config(args)?;
    let games = config.games;
    let (name_a, name_b) = (config.a.to_string(), config.b.to_string());
    print_header(args, &config);
    let bar = ProgressBar::new(u64::from(games));
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games [{elapsed_precise}<{eta}] {msg}")
            .map_err(|e| e.to_string())?,
    );
    // Ctrl+C ends the match after the games under way are dropped, with the summary so far.
    let stop = Arc::new(AtomicBool::new(false));
    let interrupted = on_ctrl_c(&stop);
    let mut records = String::new();
    let mut last_save = Instant::now();
    let mut verdict = Verdict::Continue;
    let mut save_error = None;
    let started = Instant::now();
    let mut standings = Standings::default();
    // Forfeits by player: how many, and the first reason.
    let mut forfeits: Vec<(String, u32, String)> = Vec::new();
    let finished = tns_match::run_match(&config, &stop, |game: &GameReport| {
        standings.add(game);
        let total = standings.a_total();
        let (sheep, tiger) = match game.a_side {
            tns_board::Side::Sheep => (&name_a, &name_b),
            tns_board::Side::Tiger => (&name_b, &name_a),
        };
        if let tns_match::Termination::Forfeit { side, reason } = &game.played.termination {
            let who = if *side == tns_board::Side::Sheep { sheep } else { tiger };
            match forfeits.iter_mut().find(|(name, _, _)| name == who) {
                Some(entry) => entry.1 += 1,
                None => forfeits.push((who.clone(), 1, reason.clone())),
            }
        }
        if args.verbose {
            let line = format!(
                "game {:>4}: {sheep} (sheep) vs {tiger} (tigers): {} by {}, {} plies",
                game.index + 1,
                match game.played.result {
                    RecordResult::SheepWin => "sheep win",
                    RecordResult::TigerWin => "tigers win",
                    RecordResult::Draw | RecordResult::Unfinished => "draw",
                },
                game.played.termination,
                game.played.game.len()
            );
            // Above the bar on a terminal; a hidden bar (output piped) would swallow it.
            if bar.is_hidden() {
                say!("{line}");
            } else {
                bar.println(line);
            }
        }
        if let Some(path) = &args.records {
            let mut record = game.played.record(sheep, tiger);
            record.tags.push(("Game".into(), (game.index + 1).to_string()));
            let opening = if config.book.is_empty() { config.openings } else { 0 };
            record.tags.push(("Opening".into(), opening.to_string()));
            let _ = writeln!(records, "{record}");
            if last_save.elapsed() >= SAVE_EVERY {
                save_error = tns_file::write_atomically(path, records.as_bytes()).err();
                last_save = Instant::now();
            }
        }
        let mut message = format!("{name_a} {}", score_text(&total));
        if let Some(sprt) = &sprt {
            let _ = write!(message, " llr {:.2}", sprt.llr(&total));
            verdict = sprt.verdict(&total);
            if verdict != Verdict::Continue {
                stop.store(true, Ordering::Relaxed);
            }
        }
        bar.set_message(message);
        bar.inc(1);
    });
    finished.map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    if let Some(path) = &args.records {
        tns_file::write_atomically(path, records.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(e) = save_error {
        eprintln!("tns-bench: a save of the records failed during the match: {e}");
    }
    if interrupted.load(Ordering::SeqCst) {
        say!(
            "stopped by Ctrl+C after {} of {games} games: the summary so far",
            standings.a_total().games()
        );
    }
    print_report(&standings, &name_a, &name_b, started.elapsed());
    if let Some(sprt) = &sprt {
        print_sprt(sprt, verdict, &standings.a_total());
    }
    print_statistics(&standings, &name_a, &name_b);
    let external = |spec: &PlayerSpec| matches!(spec.kind, tns_match::Kind::External(_));
    if forfeits.is_empty() && (external(&config.a) || external(&config.b)) {
        say!("forfeits: none");
    }
    for (name, count, reason) in &forfeits {
        say!("forfeits: {name} {count} (the first: {reason})");
    }
    Ok(())
}

/// The match's first lines: who plays, how many games from which openings, with what limits.
fn print_header(args: &Args, config: &MatchConfig) {
    let (name_a, name_b) = (&config.a.name, &config.b.name);
    let openings = match &args.openings_file {
        Some(path) => format!("{} openings from {}", config.book.len(), path.display()),
        None => format!("{} random opening plies, seed {}", config.openings, config.seed),
    };
    say!(
        "{name_a} vs {name_b}: {} games, {openings}, {} at a time",
        config.games,
        config.concurrency
    );
    let (budget_a, budget_b) = (config.a.budget(config.defaults), config.b.budget(config.defaults));
    let describe = |spec: &PlayerSpec, budget| match spec.kind {
        tns_match::Kind::Random => "random moves".to_string(),
        tns_match::Kind::External(_) => format!("{} through TSI", budget_text(budget)),
        tns_match::Kind::Heuristic(_) => budget_text(budget),
        tns_match::Kind::Neural(_) => format!("{} with the network", budget_text(budget)),
        tns_match::Kind::Perfect(_) => format!("{} with the tablebase", budget_text(budget)),
    };
    say!(
        "limits: {name_a}: {}; {name_b}: {}",
        describe(&config.a, budget_a),
        describe(&config.b, budget_b)
    );
}

/// Ctrl+C raises `stop` (the match ends with the summary so far) and, the second time, quits
/// at once. Returns the flag that says it was pressed.
fn on_ctrl_c(stop: &Arc<AtomicBool>) -> Arc<AtomicBool> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let (stop, pressed) = (Arc::clone(stop), Arc::clone(&interrupted));
    // Fails only if a handler is already set, which nothing else here does.
    let _ = ctrlc::set_handler(move || {
        if pressed.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        stop.store(true, Ordering::SeqCst);
    });
    interrupted
}

/// Fewer games than this, and the figures are said to be a rough guide only.
const FEW_GAMES: u32 = 30;

/// Score, draw ratio, LOS, Elo from games and from pairs, as engine testers know them.
fn print_statistics(standings: &Standings, name_a: &str, name_b: &str) {
    let total = standings.a_total();
    let (Some(score), Some(elo), Some(draws)) = (total.score(), total.elo(), total.draw_ratio())
    else {
        say!("no game finished: nothing to report");
        return;
    };
    say!("score {name_a} vs {name_b}: {:.1}%", 100.0 * score);
    say!("draw ratio {:.1}%", 100.0 * draws);
    match total.los() {
        Some(los) => say!("los {:.1}% (the chance that {name_a} is the stronger)", 100.0 * los),
        None => say!("los unknown: no game was won or lost"),
    }
    say!("elo {elo}");
    let pairs = &standings.pairs;
    if let Some(pair_elo) = pairs.elo() {
        say!("pentanomial {pairs} over {} pairs (0 to 2 points for {name_a})", pairs.pairs());
        say!("elo from pairs {pair_elo}");
    }
    if total.games() < FEW_GAMES {
        say!(
            "note: {} games is too small a sample for these figures to mean much; play at least \
             {FEW_GAMES}, better hundreds",
            total.games()
        );
    }
}

fn budget_text(b: Budget) -> String {
    let limit = match (b.time, b.depth) {
        (_, Some(d)) => format!("depth {d}"),
        (Some(t), None) => format!("{t} s a move"),
        (None, None) => "no limit".into(),
    };
    format!("{limit}, {} thread(s), {} MiB", b.threads, b.tt_mb)
}

fn score_text(t: &Tally) -> String {
    format!("+{} ={} -{} ({:.1}%)", t.wins, t.draws, t.losses, 100.0 * t.score().unwrap_or(0.5))
}

fn print_report(standings: &Standings, name_a: &str, name_b: &str, elapsed: Duration) {
    let rows = [
        (format!("{name_a} as sheep"), standings.a_as_sheep),
        (format!("{name_a} as tigers"), standings.a_as_tiger),
        (format!("{name_b} as sheep"), standings.a_as_tiger.flipped()),
        (format!("{name_b} as tigers"), standings.a_as_sheep.flipped()),
        (format!("{name_a} overall"), standings.a_total()),
    ];
    let width = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    say!("{:width$}  games  wins draws losses  score", "");
    for (name, t) in rows.iter().filter(|(_, t)| t.games() > 0) {
        say!(
            "{name:width$}  {:5}  {:4} {:5} {:6}  {:5.1}%",
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score().unwrap_or(0.5)
        );
    }
    say!("time {:.1} s", elapsed.as_secs_f64());
}

fn print_sprt(sprt: &Sprt, verdict: Verdict, total: &Tally) {
    let (lower, upper) = sprt.bounds();
    let decided = match verdict {
        Verdict::H0 => "H0 accepted",
        Verdict::H1 => "H1 accepted",
        Verdict::Continue => "undecided",
    };
    say!(
        "sprt elo0 {} elo1 {} alpha {} beta {}: llr {:.2} in [{lower:.2}, {upper:.2}], {decided}",
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        sprt.llr(total)
    );
}
