//! `tns-bench match`: engine against engine, with a progress bar, Elo, SPRT and records.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use tns_board::{Board, Game, GameRecord, RecordResult, Side};
use tns_match::{
    Budget, Colours, GameReport, MatchConfig, PlayerSpec, Sprt, SprtDecision, Standings, Tally,
    Termination,
};

#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("players").required(true).args(["engines", "sheep"]))]
pub struct Args {
    /// Two players, each playing both sides: a level (`random`, `easy`, `medium`, `hard`,
    /// `strongest`, `perfect`), a player spec (`heuristic`, `network`, a weights file) with
    /// options after a colon (e.g. `heuristic:time=0.2,dead=350`), or `cmd:PROGRAM [ARGS]` for
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
    /// A time control on each side's clock instead of a time a move: BASE+INC in seconds
    /// (`10+0.1`), or MOVES/BASE+INC (`40/60+0.5`). A flag that falls loses the game.
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
    #[arg(long, num_args = 2..=4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"])]
    sprt: Option<Vec<f64>>,
    /// The tablebase's directory, for perfect players and those with `table=on`.
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
/// game records, each cut to its `Opening` tag's number of moves when it has one. Anything but
/// a plain file (a FIFO, a directory, a device) is refused.
fn read_openings(path: &std::path::Path) -> Result<Vec<Game>, String> {
    let text = tns_file::read_text(path, crate::RECORDS_LIMIT)
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
            .map_err(|e| format!("--tablebase: {e}"))?;
        config.tablebase = Some(std::sync::Arc::new(table));
    }
    Ok((config, sprt))
}

/// Each player's move times and overruns, as the match goes.
#[derive(Debug, Default)]
struct Timing {
    moves: u64,
    total: Duration,
    max: Duration,
    /// Moves past the player's time a move, or past its clock, within the margin.
    overruns: u64,
    /// The most a move went past the player's time a move.
    worst_overrun: Duration,
    time_losses: u64,
}

impl Timing {
    fn add(&mut self, times: impl Iterator<Item = Duration>, movetime: Option<Duration>) {
        for t in times {
            self.moves += 1;
            self.total += t;
            self.max = self.max.max(t);
            if let Some(limit) = movetime.filter(|&limit| t > limit) {
                self.overruns += 1;
                self.worst_overrun = self.worst_overrun.max(t.saturating_sub(limit));
            }
        }
    }
}

/// How well a player's chances foretold its games: each move's reading against the game's
/// result for the side it moved for.
#[derive(Debug, Default)]
struct Foresight {
    readings: u64,
    brier: f64,
    likeliest_came: u64,
}

impl Foresight {
    fn add(
        &mut self,
        readings: impl Iterator<Item = tns_search::Chances>,
        result: tns_search::Wdl,
    ) {
        for chances in readings {
            self.readings += 1;
            self.brier += chances.brier(result);
            self.likeliest_came += u64::from(chances.likeliest() == result);
        }
    }
}

/// Checks that the records file can be written, before any game is played (a directory, a
/// folder without permission, a missing folder all fail here).
fn check_records(path: &std::path::Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!("--records {}: is a directory", path.display()));
    }
    tns_file::write_atomically(path, b"")
        .map_err(|e| format!("--records {}: cannot write it: {e}", path.display()))
}

/// Today's date in a record's `Date` tag form.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = tns_board::utc_date(secs);
    format!("{year:04}.{month:02}.{day:02}")
}

/// What the match keeps as its games finish: the standings, the players' times and forfeits,
/// the records, the SPRT's decision.
struct Progress<'a> {
    args: &'a Args,
    config: &'a MatchConfig,
    sprt: Option<Sprt>,
    names: [String; 2],
    movetimes: [Option<Duration>; 2],
    bar: ProgressBar,
    stop: &'a AtomicBool,
    standings: Standings,
    verdict: SprtDecision,
    timing: [Timing; 2],
    foresight: [Foresight; 2],
    /// Forfeits by player: how many, and the first reason.
    forfeits: Vec<(String, u32, String)>,
    records: String,
    last_save: Instant,
    save_failed: bool,
    date: String,
    /// Games that finished after the SPRT decided (under way when it did), left out.
    after_decision: u32,
}

impl Progress<'_> {
    fn game(&mut self, game: &GameReport) {
        if self.verdict != SprtDecision::Continue {
            // Decided on whole pairs: a game that was under way then is not counted.
            self.after_decision += 1;
            return;
        }
        self.standings.add(game);
        let [name_a, name_b] = &self.names;
        let (sheep, tiger) = match game.a_side {
            Side::Sheep => (name_a.clone(), name_b.clone()),
            Side::Tiger => (name_b.clone(), name_a.clone()),
        };
        let played = &game.played;
        for side in [Side::Sheep, Side::Tiger] {
            let who = usize::from(side != game.a_side);
            let t = &mut self.timing[who];
            t.add(played.times_of(side), self.movetimes[who]);
            self.foresight[who].add(played.readings_of(side), played.result_for(side));
            t.overruns += u64::from(played.clock_overruns[usize::from(side == Side::Tiger)]);
            if matches!(played.termination, Termination::Time { side: lost, .. } if lost == side) {
                t.time_losses += 1;
            }
        }
        if let Termination::Forfeit { side, reason } = &played.termination {
            let who = if *side == Side::Sheep { &sheep } else { &tiger };
            match self.forfeits.iter_mut().find(|(name, _, _)| name == who) {
                Some(entry) => entry.1 += 1,
                None => self.forfeits.push((who.clone(), 1, reason.clone())),
            }
        }
        if self.args.verbose {
            let mut line = format!(
                "game {:>4}: {sheep} (sheep) vs {tiger} (tigers): {} by {}, {} plies",
                game.index + 1,
                match played.result {
                    RecordResult::SheepWin => "sheep win",
                    RecordResult::TigerWin => "tigers win",
                    RecordResult::Draw | RecordResult::Unfinished => "draw",
                },
                played.termination,
                played.game.len()
            );
            // What each side's player read at its last move, where it reads chances.
            let last: Vec<String> = [Side::Sheep, Side::Tiger]
                .into_iter()
                .filter_map(|side| {
                    let chances = played.readings_of(side).last()?;
                    let who =
                        if side == Side::Sheep { "the sheep's player" } else { "the tigers'" };
                    Some(format!("{who} {}", chances.describe(side)))
                })
                .collect();
            if !last.is_empty() {
                let _ = write!(line, "; last readings: {}", last.join(", "));
            }
            self.say(line);
        }
        self.record(game, &sheep, &tiger);
        let total = self.standings.a_total();
        let mut message = format!("{} {}", self.names[0], score_text(&total));
        if let Some(sprt) = &self.sprt {
            // With pairs, decided only between pairs, on the pentanomial counts.
            let (llr, decision) = sprt_state(sprt, &self.standings, self.config.colours);
            let _ = write!(message, " llr {llr:.2}");
            if let Some(decision) = decision {
                self.verdict = decision;
                if decision != SprtDecision::Continue {
                    self.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        self.bar.set_message(message);
        self.bar.inc(1);
    }

    /// A line above the bar on a terminal; a hidden bar (output piped) would swallow it.
    fn say(&self, line: String) {
        if self.bar.is_hidden() {
            say!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    /// Adds the game to the records, and saves them every few seconds; a failed save is told
    /// at once and tried again after each game.
    fn record(&mut self, game: &GameReport, sheep: &str, tiger: &str) {
        let Some(path) = &self.args.records else { return };
        let mut record = game.played.record(sheep, tiger);
        let opening = if self.config.book.is_empty() { self.config.openings } else { 0 };
        let round = (game.index + 1).to_string();
        let tags = [
            ("Event", "tns-bench match".to_string()),
            ("Date", self.date.clone()),
            ("Round", round.clone()),
            ("Game", round),
            ("Opening", opening.to_string()),
        ];
        // Fixed, valid names: setting them cannot fail.
        for (name, value) in tags {
            let _ = record.set_tag(name, &value);
        }
        let _ = writeln!(self.records, "{record}");
        if self.last_save.elapsed() >= SAVE_EVERY || self.save_failed {
            match tns_file::write_atomically(path, self.records.as_bytes()) {
                Ok(()) => self.save_failed = false,
                Err(e) => {
                    if !self.save_failed {
                        self.say(format!(
                            "tns-bench: cannot write the records to {}: {e} (trying again after \
                             each game)",
                            path.display()
                        ));
                    }
                    self.save_failed = true;
                }
            }
            self.last_save = Instant::now();
        }
    }
}

pub fn run(args: &Args) -> Result<(), String> {
    let (config, sprt) = config(args)?;
    if let Some(path) = &args.records {
        check_records(path)?;
    }
    print_header(args, &config);
    let bar = ProgressBar::new(u64::from(config.games));
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games [{elapsed_precise}<{eta}] {msg}")
            .map_err(|e| e.to_string())?,
    );
    // Ctrl+C ends the match after the games under way are dropped, with the summary so far.
    let stop = Arc::new(AtomicBool::new(false));
    let interrupted = on_ctrl_c(&stop);
    let movetime = |spec: &PlayerSpec| {
        let time = spec.budget(config.defaults).time.filter(|_| config.time_control.is_none());
        time.map(Duration::from_secs_f64)
    };
    let mut progress = Progress {
        args,
        config: &config,
        sprt,
        names: [config.a.to_string(), config.b.to_string()],
        movetimes: [movetime(&config.a), movetime(&config.b)],
        bar,
        stop: &stop,
        standings: Standings::default(),
        verdict: SprtDecision::Continue,
        timing: [Timing::default(), Timing::default()],
        foresight: [Foresight::default(), Foresight::default()],
        forfeits: Vec::new(),
        records: String::new(),
        last_save: Instant::now(),
        save_failed: false,
        date: today(),
        after_decision: 0,
    };
    let started = Instant::now();
    let finished = tns_match::run_match(&config, &stop, |game| progress.game(game));
    progress.bar.finish_and_clear();
    // The summary, whatever happened: a failed match or records file is told after it.
    let mut failure = finished.err().map(|e| e.to_string());
    if let Some(path) = &args.records
        && let Err(e) = tns_file::write_atomically(path, progress.records.as_bytes())
    {
        failure.get_or_insert(format!("cannot write {}: {e}", path.display()));
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

/// The match's last lines: the table, the SPRT, the statistics, the times, the forfeits.
fn summary(progress: &Progress, elapsed: Duration) {
    let (config, standings) = (progress.config, &progress.standings);
    let [name_a, name_b] = &progress.names;
    print_report(standings, name_a, name_b, elapsed);
    if let Some(sprt) = &progress.sprt {
        print_sprt(sprt, progress.verdict, standings, config.colours);
        if progress.after_decision > 0 {
            say!(
                "{} game(s) under way when the test decided finished after it: not counted",
                progress.after_decision
            );
        }
    }
    print_statistics(standings, name_a, name_b);
    print_timing(&progress.timing, [name_a, name_b], config.time_control.is_some());
    let external = |spec: &PlayerSpec| matches!(spec.kind, tns_match::PlayerKind::External(_));
    if progress.forfeits.is_empty() && (external(&config.a) || external(&config.b)) {
        say!("forfeits: none");
    }
    for (name, count, reason) in &progress.forfeits {
        say!("forfeits: {name} {count} (the first: {reason})");
    }
    print_foresight(&progress.foresight, [name_a, name_b]);
}

/// How well each player's chances foretold the results, for the players that read any: the
/// mean Brier score of its readings (0 is every result foretold for certain; a player that
/// always says a third each scores 0.67), and how often the likeliest result came. The chances
/// are fitted to the solved game, that is to perfect play on both sides: against a weaker
/// opponent the results come out better than they read.
fn print_foresight(foresight: &[Foresight; 2], names: [&str; 2]) {
    for (f, name) in foresight.iter().zip(names) {
        if f.readings == 0 {
            continue;
        }
        #[expect(clippy::cast_precision_loss, reason = "counts of moves, far below 2^52")]
        let (brier, came) =
            (f.brier / f.readings as f64, f.likeliest_came as f64 / f.readings as f64);
        say!(
            "chances: {name}'s readings against the results: Brier score {brier:.3} over {} \
             moves (0: foretold for certain), the likeliest result came {:.1}% of the time",
            f.readings,
            100.0 * came
        );
    }
}

/// The SPRT's ratio now, and a decision when one may be taken: with alternating colours only
/// once a pair is whole (on the pentanomial counts), else after every game.
fn sprt_state(sprt: &Sprt, standings: &Standings, colours: Colours) -> (f64, Option<SprtDecision>) {
    match colours {
        Colours::Alternate => {
            let llr = sprt.llr_pairs(&standings.pairs);
            let whole = standings.a_total().games() == 2 * standings.pairs.pairs();
            (llr, whole.then(|| sprt.decide(llr)))
        }
        Colours::Fixed => {
            let llr = sprt.llr(&standings.a_total());
            (llr, Some(sprt.decide(llr)))
        }
    }
}

/// The time the players took a move, and their overruns.
fn print_timing(timing: &[Timing; 2], names: [&str; 2], clocks: bool) {
    for (t, name) in timing.iter().zip(names) {
        if t.moves == 0 {
            continue;
        }
        let mean = t.total / u32::try_from(t.moves).unwrap_or(u32::MAX);
        // A search stops at its limit, between two checks of the clock: most moves end a
        // little after it, so the count says by how much at most.
        let past = if clocks {
            "past their clock within the margin".to_string()
        } else if t.overruns > 0 {
            format!("past their time, by at most {:.1} ms", 1000.0 * t.worst_overrun.as_secs_f64())
        } else {
            "past their time".to_string()
        };
        say!(
            "time {name}: {} moves, mean {:.1} ms, max {:.1} ms; {} {past}{}",
            t.moves,
            1000.0 * mean.as_secs_f64(),
            1000.0 * t.max.as_secs_f64(),
            t.overruns,
            if clocks { format!(", {} lost on time", t.time_losses) } else { String::new() }
        );
    }
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
        tns_match::PlayerKind::Random => "random moves".to_string(),
        tns_match::PlayerKind::External(_) => format!("{} through TSI", budget_text(budget)),
        tns_match::PlayerKind::Heuristic(_) if spec.table => {
            format!("{} with the table's movement phase", budget_text(budget))
        }
        tns_match::PlayerKind::Heuristic(_) if spec.endgame => {
            format!("{} with the endgame built in", budget_text(budget))
        }
        tns_match::PlayerKind::Heuristic(_) => budget_text(budget),
        tns_match::PlayerKind::Neural(_) if spec.table => {
            format!("{} with the network and the table's movement phase", budget_text(budget))
        }
        tns_match::PlayerKind::Neural(_) if spec.endgame => {
            format!("{} with the network and the endgame built in", budget_text(budget))
        }
        tns_match::PlayerKind::Neural(_) => format!("{} with the network", budget_text(budget)),
        tns_match::PlayerKind::Perfect { .. } => {
            format!("{} with the tablebase", budget_text(budget))
        }
    };
    say!(
        "limits: {name_a}: {}; {name_b}: {}",
        describe(&config.a, budget_a),
        describe(&config.b, budget_b)
    );
    if let Some(tc) = config.time_control {
        say!(
            "time control {tc} a side (seconds, plus the increment a move), a flag falls {} ms \
             past the clock",
            config.margin.as_millis()
        );
    }
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
        (None, None) => "on the clock".into(),
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

fn print_sprt(sprt: &Sprt, verdict: SprtDecision, standings: &Standings, colours: Colours) {
    let (lower, upper) = sprt.bounds();
    let (llr, _) = sprt_state(sprt, standings, colours);
    let counts = match colours {
        Colours::Alternate => format!("pentanomial {}", standings.pairs),
        Colours::Fixed => "trinomial".to_string(),
    };
    let decided = match verdict {
        SprtDecision::H0 => "H0 accepted",
        SprtDecision::H1 => "H1 accepted",
        SprtDecision::Continue => "undecided",
    };
    say!(
        "sprt elo0 {} elo1 {} alpha {} beta {} ({counts}): llr {llr:.2} in [{lower:.2}, \
         {upper:.2}], {decided}",
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta
    );
}
