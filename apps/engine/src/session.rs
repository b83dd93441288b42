//! One engine session: the options, the game, and the search running on its own thread so
//! that `stop`, `isready` and `quit` are answered while it thinks.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{Context as _, anyhow, bail};
use tns_board::{Game, KILLS_TO_WIN, MAX_MOVES, Move, Side};
use tns_match::{Budget, PlayerError, PlayerSpec, limit};
use tns_search::{
    Clock, Evaluator, Expected, Limits, MAX_THREADS, MAX_TT_MB, Parts, Report, Score, Search,
};
use tns_tablebase::Tablebase;

use tns_match::protocol::{
    Command, CommandError, ERROR_PREFIX, Go, Reply, TimeLeft, parse, quote, quote_to,
};

/// Where the engine's lines go: standard output in the program, a buffer in tests.
pub type Output = Arc<Mutex<dyn Write + Send>>;

/// The searcher; engines differ only in their evaluator.
type Engine = Search<Box<dyn Evaluator>>;

/// Whether to read on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was given.
    Quit,
}

/// The settable options, as the `option` lines describe them.
#[derive(Clone, Debug)]
struct Options {
    threads: usize,
    hash_mb: usize,
    multipv: usize,
    /// The search's parts that `TimeStability`, `PVS` and `Killers` switch (docs/search.md says
    /// why the defaults are what they are).
    parts: Parts,
    /// Whether `info` lines carry the chances of a win, a draw and a loss (`ShowWDL`, as
    /// UCI's `UCI_ShowWDL`).
    show_wdl: bool,
    evaluator: PlayerSpec,
    /// Whether `Evaluator` was set: left to its default, the network searches with the table's
    /// movement phase once `Tablebase` is set (`strongest:table=on`), as chess engines use their
    /// endgame tables once given a path.
    evaluator_set: bool,
    tablebase: Option<PathBuf>,
}

const DEFAULT_HASH_MB: usize = 32;

/// The longest an error line may be: what was wrong is quoted short.
const MAX_ERROR: usize = 300;

/// A search under way.
#[derive(Debug)]
struct Running {
    stop: Arc<AtomicBool>,
    /// Raised just before `bestmove` is sent, so a command that follows it never finds the
    /// search still "running".
    answered: Arc<AtomicBool>,
    /// `go infinite`: the answer waits for `stop`.
    infinite: bool,
    /// The `bestmove none` owed to `go`s refused while this search ran, sent right after its
    /// own `bestmove` so that the answers come in the order of the `go`s; `None` once it has
    /// answered.
    owed: Arc<std::sync::Mutex<Option<u32>>>,
    thread: JoinHandle<Box<Engine>>,
}

/// The engine's state between commands.
pub struct Session {
    out: Output,
    options: Options,
    table: Option<Arc<Tablebase>>,
    /// The searcher, while no search runs.
    engine: Option<Box<Engine>>,
    running: Option<Running>,
    game: Game,
}

fn send(out: &Output, line: &str) {
    // A closed output means the controller has gone; the next read of the input ends the
    // session, so a failed write is not an error here.
    if let Ok(mut out) = out.lock() {
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
}

/// An `info` line for one completed iteration (one line of it, with `MultiPV`), or for one
/// stopped under way whose better move is played (its score marked `lowerbound`); with
/// `show_wdl`, the chances of a win, a draw and a loss for the side to move in permille after
/// the score (`wdl 120 800 80`).
pub fn info_line(r: &Report, show_wdl: bool) -> String {
    let mut score = match r.score.plies_to_end() {
        Some(n) if r.score > Score::DRAW => format!("win {n}"),
        Some(n) => format!("loss {n}"),
        // The expected result from the chances: one unit whatever the evaluator searched on.
        None => format!("cp {}", Expected::of(r.chances)),
    };
    if r.lower_bound {
        score.push_str(" lowerbound");
    }
    if show_wdl {
        let c = r.chances;
        score = format!("{score} wdl {} {} {}", c.win, c.draw, c.loss);
    }
    let pv: Vec<String> = r.pv.iter().map(Move::to_string).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {} nps {} hashfull {} tbhits {} \
         time {} pv {}",
        r.depth,
        r.seldepth,
        r.multipv,
        r.nodes,
        r.nps,
        r.hashfull,
        r.tbhits,
        r.time.as_millis(),
        pv.join(" ")
    )
}

/// The search limits of a `go`: its own, and those of the side to move's clock, if given.
///
/// # Errors
/// What is missing: a clock for the other side only.
fn go_limits(go: &Go, side: Side) -> anyhow::Result<Limits> {
    let TimeLeft { stime, ttime, sinc, tinc, movestogo } = go.time_left;
    let (own, increment, word) = match side {
        Side::Sheep => (stime, sinc, "stime"),
        Side::Tiger => (ttime, tinc, "ttime"),
    };
    let mut limits = go.limits.clone();
    match own {
        Some(ms) => {
            let mut clock = Clock::new(Duration::from_millis(ms))
                .with_increment(Duration::from_millis(increment.unwrap_or(0)));
            if let Some(n) = movestogo {
                clock = clock.with_moves_to_go(n);
            }
            let timed = clock.limits();
            limits.target = timed.target;
            limits.time = match (limits.time, timed.time) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        None if stime.is_some() || ttime.is_some() => {
            bail!("the {} are to move but {word} is missing", side.plural());
        }
        None => {}
    }
    Ok(limits)
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("options", &self.options)
            .field("searching", &self.running.is_some())
            .field("game", &self.game)
            .finish_non_exhaustive()
    }
}

impl Session {
    /// A session writing to `out`, with the default options and the game at the start.
    pub fn new(out: Output) -> Session {
        let options = Options {
            threads: 1,
            hash_mb: DEFAULT_HASH_MB,
            multipv: 1,
            parts: Parts::DEFAULT,
            show_wdl: false,
            // The strongest player without the table; the heuristic were its bytes damaged.
            evaluator: PlayerSpec::network().unwrap_or_else(|_| PlayerSpec::heuristic()),
            evaluator_set: false,
            tablebase: None,
        };
        let mut session =
            Session { out, options, table: None, engine: None, running: None, game: Game::new() };
        // Neither needs a table, so this cannot fail.
        let _ = session.rebuild();
        session
    }

    fn say(&self, line: &str) {
        send(&self.out, line);
    }

    fn error(&self, what: &str) {
        self.say(&format!("{ERROR_PREFIX}{}", quote_to(what, MAX_ERROR)));
    }

    /// An error line for `error` and its causes.
    fn fail(&self, error: &anyhow::Error) {
        self.error(&tns_file::one_line(error.as_ref()));
    }

    /// Answers a line longer than `limit` bytes, which the reader skipped (`start` is what it
    /// kept of it): one error line, as for any line the engine cannot use, and, for a `go`,
    /// the `bestmove` every `go` is owed.
    pub fn handle_line_too_long(&mut self, limit: usize, start: &[u8]) {
        self.error(&format!("a line longer than {limit} bytes: skipped"));
        let first = start.split(u8::is_ascii_whitespace).find(|w| !w.is_empty());
        if first == Some(b"go".as_slice()) {
            self.owe_bestmove();
        }
    }

    /// Handles one line of input.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.reap();
        let command = match parse(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                self.error(&e.to_string());
                // Every `go` gets its `bestmove`, a refused one too, in order.
                if matches!(e, CommandError::Go(_)) {
                    self.owe_bestmove();
                }
                return Flow::Continue;
            }
        };
        let busy = self.running.is_some();
        match command {
            Command::Tsi => self.identify(),
            Command::IsReady => self.say(&Reply::ReadyOk.to_string()),
            Command::Stop => self.stop_search(),
            Command::Quit => {
                self.stop_search();
                return Flow::Quit;
            }
            Command::Go(_) if busy => {
                self.error("still searching: send stop first");
                self.owe_bestmove();
            }
            Command::SetOption { .. } | Command::NewGame | Command::Position { .. } if busy => {
                self.error("still searching: send stop first");
            }
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::NewGame => {
                self.game = Game::new();
                if let Some(engine) = &mut self.engine {
                    engine.clear();
                }
            }
            Command::Position { start, moves } => {
                let mut game = Game::from_position(start);
                for (i, &m) in moves.iter().enumerate() {
                    if let Err(e) = game.play(m) {
                        self.error(&format!("illegal move {m} (move {} of the list): {e}", i + 1));
                        return Flow::Continue;
                    }
                }
                self.game = game;
            }
            Command::Go(go) => self.go(&go),
        }
        Flow::Continue
    }

    fn identify(&self) {
        self.say(&format!("id name tns-engine {}", env!("CARGO_PKG_VERSION")));
        self.say("id author The Tigers and Sheep developers");
        self.say(&format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"));
        self.say(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_TT_MB}"
        ));
        self.say(&format!("option name MultiPV type spin default 1 min 1 max {MAX_MOVES}"));
        self.say("option name TimeStability type check default true");
        self.say("option name PVS type check default false");
        self.say("option name Killers type check default true");
        self.say("option name ShowWDL type check default false");
        self.say("option name Evaluator type string default network");
        self.say("option name Tablebase type string default <empty>");
        self.say(&Reply::TsiOk.to_string());
    }

    /// A searcher for the current options and `table`.
    fn searcher(&self, table: Option<&Arc<Tablebase>>) -> anyhow::Result<Box<Engine>> {
        let spec = &if table.is_some() && !self.options.evaluator_set {
            self.options.evaluator.clone().using_table()
        } else {
            self.options.evaluator.clone()
        };
        let evaluator = match spec.evaluator(table) {
            Err(e @ PlayerError::NoTablebase) => {
                bail!("{e} (set the Tablebase option to its folder first)")
            }
            other => other?,
        };
        let Some(evaluator) = evaluator else {
            bail!("{spec} does not search: choose an evaluator");
        };
        let defaults = Budget {
            time: None,
            depth: None,
            threads: self.options.threads,
            tt_mb: self.options.hash_mb,
        };
        let budget = spec.budget(defaults);
        let mut config = budget.config();
        config.parts = self.options.parts;
        let mut search = Search::new(evaluator, config)?;
        search.set_multipv(self.options.multipv);
        Ok(Box::new(search))
    }

    /// Builds the searcher for the current options; on error nothing changes.
    fn rebuild(&mut self) -> anyhow::Result<()> {
        self.engine = Some(self.searcher(self.table.as_ref())?);
        Ok(())
    }

    /// Loads the table in `dir` (none for an empty value) and builds the searcher with it; on
    /// error nothing changes.
    fn set_tablebase(&mut self, dir: Option<PathBuf>) -> anyhow::Result<()> {
        let table = match &dir {
            Some(dir) => Some(Arc::new(
                Tablebase::load(KILLS_TO_WIN, dir)
                    .with_context(|| format!("no tablebase in {}", dir.display()))?,
            )),
            None => None,
        };
        self.engine = Some(self.searcher(table.as_ref())?);
        self.table = table;
        self.options.tablebase = dir;
        Ok(())
    }

    fn set_option(&mut self, name: &str, value: &str) {
        let before = self.options.clone();
        let result = match name.to_ascii_lowercase().as_str() {
            "threads" => limit::threads(value).map_err(anyhow::Error::from).and_then(|n| {
                self.options.threads = n;
                self.rebuild()
            }),
            "hash" => limit::hash_mb(value).map_err(anyhow::Error::from).and_then(|n| {
                self.options.hash_mb = n;
                self.rebuild()
            }),
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_MOVES).contains(&n) => {
                    self.options.multipv = n;
                    if let Some(engine) = &mut self.engine {
                        engine.set_multipv(n);
                    }
                    Ok(())
                }
                _ => Err(anyhow!(
                    "MultiPV must be a whole number from 1 to {MAX_MOVES}, not {:?}",
                    quote(value)
                )),
            },
            "timestability" | "pvs" | "killers" => match value {
                "true" | "false" => {
                    let on = value == "true";
                    let parts = &mut self.options.parts;
                    match name.to_ascii_lowercase().as_str() {
                        "pvs" => parts.pvs = on,
                        "killers" => parts.killers = on,
                        _ => parts.stability = on,
                    }
                    self.rebuild()
                }
                _ => {
                    let name = match name.to_ascii_lowercase().as_str() {
                        "pvs" => "PVS",
                        "killers" => "Killers",
                        _ => "TimeStability",
                    };
                    Err(anyhow!("{name} is true or false, not {:?}", quote(value)))
                }
            },
            "showwdl" | "uci_showwdl" => match value {
                "true" | "false" => {
                    self.options.show_wdl = value == "true";
                    Ok(())
                }
                _ => Err(anyhow!("ShowWDL is true or false, not {:?}", quote(value))),
            },
            "evaluator" => {
                value.parse::<PlayerSpec>().map_err(anyhow::Error::from).and_then(|spec| {
                    self.options.evaluator = spec;
                    self.options.evaluator_set = true;
                    self.rebuild()
                })
            }
            "tablebase" => {
                let dir = (!value.is_empty()).then(|| PathBuf::from(value));
                self.set_tablebase(dir)
            }
            _ => Err(anyhow!(
                "unknown option {:?} (Threads, Hash, MultiPV, TimeStability, PVS, Killers, ShowWDL, Evaluator, Tablebase)",
                quote(name)
            )),
        };
        if let Err(e) = result {
            self.options = before;
            self.fail(&e);
        }
    }

    fn go(&mut self, go: &Go) {
        if self.game.outcome().is_some() {
            self.say(&Reply::BestMove(None).to_string());
            return;
        }
        let limits = match go_limits(go, self.game.board().side_to_move()) {
            Ok(limits) => limits,
            Err(e) => {
                self.fail(&e);
                self.say(&Reply::BestMove(None).to_string());
                return;
            }
        };
        // Moves not legal here are ignored; a list with none left names nothing to choose
        // from, and searching every move instead would play one the caller excluded.
        if let Some(moves) = &limits.moves
            && !self.game.board().legal_moves().iter().any(|m| moves.contains(m))
        {
            self.error("searchmoves names no legal move in this position");
            self.say(&Reply::BestMove(None).to_string());
            return;
        }
        let Some(mut engine) = self.engine.take() else {
            self.error("no evaluator: set the Evaluator option");
            self.say(&Reply::BestMove(None).to_string());
            return;
        };
        let infinite = go.infinite;
        let stop = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let done = Arc::clone(&answered);
        let out = Arc::clone(&self.out);
        let show_wdl = self.options.show_wdl;
        let owed = Arc::new(std::sync::Mutex::new(Some(0)));
        let owing = Arc::clone(&owed);
        let board = self.game.board();
        let history = self.game.previous().to_vec();
        let spawned = std::thread::Builder::new().name("search".into()).spawn(move || {
            let result = engine.search(board, &history, limits, &flag, |r| {
                send(&out, &info_line(r, show_wdl));
            });
            // After `go infinite` the answer waits for `stop`, even if the search ended first.
            while infinite && !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            // A search that fails (a damaged table, a thread it could not start) says why,
            // and still answers the `go`.
            let best = match result {
                Ok(result) => result.best_move,
                Err(e) => {
                    send(&out, &format!("{ERROR_PREFIX}the search failed: {e}"));
                    None
                }
            };
            let mut owing = owing.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            done.store(true, Ordering::Release);
            send(&out, &Reply::BestMove(best).to_string());
            for _ in 0..owing.take().unwrap_or(0) {
                send(&out, &Reply::BestMove(None).to_string());
            }
            drop(owing);
            engine
        });
        match spawned {
            Ok(thread) => self.running = Some(Running { stop, answered, infinite, owed, thread }),
            Err(e) => {
                // The engine went with the thread that never started: a new one for next time.
                self.error(&format!("cannot start the search's thread: {e}"));
                self.say(&Reply::BestMove(None).to_string());
                if let Err(e) = self.rebuild() {
                    self.fail(&e);
                }
            }
        }
    }

    /// Takes the engine back from a search that has answered (waiting the moment it takes
    /// its thread to end).
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.answered.load(Ordering::Acquire)) {
            self.join();
        }
    }

    /// A `bestmove none` for a `go` refused: after the running search's own answer, if one runs
    /// and has not answered yet, else now.
    fn owe_bestmove(&mut self) {
        if let Some(running) = &self.running {
            let mut owed = running.owed.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(n) = owed.as_mut() {
                *n += 1;
                return;
            }
        }
        self.say(&Reply::BestMove(None).to_string());
    }

    fn join(&mut self) {
        if let Some(running) = self.running.take() {
            let answered = Arc::clone(&running.answered);
            let owed = Arc::clone(&running.owed);
            if let Ok(engine) = running.thread.join() {
                self.engine = Some(engine);
            } else {
                self.error("the search failed; starting a new searcher");
                // The `go` still gets its one answer, and the refused ones theirs after it.
                if !answered.load(Ordering::Acquire) {
                    self.say(&Reply::BestMove(None).to_string());
                }
                let owed = owed.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
                for _ in 0..owed.unwrap_or(0) {
                    self.say(&Reply::BestMove(None).to_string());
                }
                if let Err(e) = self.rebuild() {
                    self.fail(&e);
                }
            }
        }
    }

    fn stop_search(&mut self) {
        if let Some(running) = &self.running {
            running.stop.store(true, Ordering::Relaxed);
        }
        self.join();
    }

    /// The input has ended: a search with limits of its own runs to its end and answers, a
    /// `go infinite` (which would never end) is stopped. Call before exiting.
    pub fn finish(&mut self) {
        if self.running.as_ref().is_some_and(|r| !r.infinite) {
            self.join();
        } else {
            self.stop_search();
        }
    }
}
