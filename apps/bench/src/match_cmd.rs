//! `tns-bench match`: engine against engine, with a progress bar, Elo, SPRT and records.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use tns_match::{
    Budget, Colours, GameReport, MatchConfig, PlayerSpec, Sprt, Standings, Tally, Verdict,
};

#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("players").required(true).args(["engines", "sheep"]))]
pub struct Args {
    /// Two players, each playing both sides: `heuristic`, `perfect`, `random`, or a weights file, with
    /// options after a colon (e.g. `heuristic:time=0.2,dead=350`).
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
    #[arg(long, conflicts_with = "depth")]
    time: Option<f64>,
    /// Plies per move, for players that set no limit of their own.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=120))]
    depth: Option<u32>,
    /// Games to play (with --engines, rounded up to whole pairs).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    games: u32,
    /// Random plies at the start of each game (a pair of games shares its opening).
    #[arg(long, default_value_t = 4)]
    openings: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    concurrency: u32,
    /// Search threads per player.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Table size per player, in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    tt_mb: u32,
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

/// The match's settings from the command line, and the SPRT if one was asked for.
fn config(args: &Args) -> Result<(MatchConfig, Option<Sprt>), String> {
    let (a, b, colours) = match (&args.engines, &args.sheep, &args.tiger) {
        (Some(pair), _, _) => (pair[0].clone(), pair[1].clone(), Colours::Alternate),
        (None, Some(sheep), Some(tiger)) => (sheep.clone(), tiger.clone(), Colours::Fixed),
        _ => return Err("name the players with --engines A B, or --sheep A --tiger B".into()),
    };
    if let Some(t) = args.time
        && !(t.is_finite() && t > 0.0 && t < 1e6)
    {
        return Err(format!("--time must be a positive number of seconds, not {t}"));
    }
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
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
            threads: args.threads as usize,
            tt_mb: args.tt_mb as usize,
        },
        tablebase: None,
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
    println!(
        "{name_a} vs {name_b}: {games} games, {} opening plies, seed {}, {} at a time",
        config.openings, config.seed, config.concurrency
    );
    let (budget_a, budget_b) = (config.a.budget(config.defaults), config.b.budget(config.defaults));
    let describe = |spec: &PlayerSpec, budget| match spec.kind {
        tns_match::Kind::Random => "random moves".to_string(),
        tns_match::Kind::Heuristic(_) => budget_text(budget),
        tns_match::Kind::Neural(_) => format!("{} with the network", budget_text(budget)),
        tns_match::Kind::Perfect(_) => format!("{} with the tablebase", budget_text(budget)),
    };
    println!(
        "limits: {name_a}: {}; {name_b}: {}",
        describe(&config.a, budget_a),
        describe(&config.b, budget_b)
    );

    let bar = ProgressBar::new(u64::from(games));
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games [{elapsed_precise}<{eta}] {msg}")
            .map_err(|e| e.to_string())?,
    );
    let stop = AtomicBool::new(false);
    let mut records = String::new();
    let mut last_save = Instant::now();
    let mut verdict = Verdict::Continue;
    let mut save_error = None;
    let started = Instant::now();
    let mut standings = Standings::default();
    let finished = tns_match::run_match(&config, &stop, |game: &GameReport| {
        standings.add(game);
        let total = standings.a_total();
        if let Some(path) = &args.records {
            let (sheep, tiger) = match game.a_side {
                tns_board::Side::Sheep => (&name_a, &name_b),
                tns_board::Side::Tiger => (&name_b, &name_a),
            };
            let mut record = game.played.record(sheep, tiger);
            record.tags.push(("Game".into(), (game.index + 1).to_string()));
            record.tags.push(("Opening".into(), config.openings.to_string()));
            let _ = writeln!(records, "{record}");
            if last_save.elapsed() >= SAVE_EVERY {
                save_error = tns_board::write_atomically(path, records.as_bytes()).err();
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
        tns_board::write_atomically(path, records.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(e) = save_error {
        eprintln!("tns-bench: a save of the records failed during the match: {e}");
    }
    print_report(&standings, &name_a, &name_b, started.elapsed());
    if let Some(sprt) = &sprt {
        print_sprt(sprt, verdict, &standings.a_total());
    }
    let total = standings.a_total();
    if let (Some(score), Some(elo)) = (total.score(), total.elo()) {
        println!("score {name_a} vs {name_b}: {:.1}%", 100.0 * score);
        println!("elo {elo}");
    }
    Ok(())
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
    println!("{:width$}  games  wins draws losses  score", "");
    for (name, t) in rows.iter().filter(|(_, t)| t.games() > 0) {
        println!(
            "{name:width$}  {:5}  {:4} {:5} {:6}  {:5.1}%",
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score().unwrap_or(0.5)
        );
    }
    println!("time {:.1} s", elapsed.as_secs_f64());
}

fn print_sprt(sprt: &Sprt, verdict: Verdict, total: &Tally) {
    let (lower, upper) = sprt.bounds();
    let decided = match verdict {
        Verdict::H0 => "H0 accepted",
        Verdict::H1 => "H1 accepted",
        Verdict::Continue => "undecided",
    };
    println!(
        "sprt elo0 {} elo1 {} alpha {} beta {}: llr {:.2} in [{lower:.2}, {upper:.2}], {decided}",
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        sprt.llr(total)
    );
}
