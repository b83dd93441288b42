//! One engine session: the options, the game, and the search running on its own thread so
//! that `stop`, `isready` and `quit` are answered while it thinks.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use tns_board::{Game, KILLS_TO_WIN, Move};
use tns_match::{Budget, PlayerSpec};
use tns_search::{Evaluator, Limits, Report, Search, SearchConfig, plies_to_end};
use tns_tablebase::Tablebase;

use crate::command::{Command, parse};

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
    evaluator: PlayerSpec,
    tablebase: Option<PathBuf>,
}

const MAX_THREADS: usize = 64;
const MAX_HASH_MB: usize = 4096;
const DEFAULT_HASH_MB: usize = 32;

/// A search under way.
#[derive(Debug)]
struct Running {
    stop: Arc<AtomicBool>,
    /// Raised just before `bestmove` is sent, so a command that follows it never finds the
    /// search still "running".
    answered: Arc<AtomicBool>,
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

/// An `info` line for one completed iteration.
pub fn info_line(r: &Report) -> String {
    let score = match plies_to_end(r.score) {
        Some(n) if r.score > 0 => format!("win {n}"),
        Some(n) => format!("loss {n}"),
        None => format!("cp {}", r.score),
    };
    let pv: Vec<String> = r.pv.iter().map(Move::to_string).collect();
    format!(
        "info depth {} score {score} nodes {} nps {} time {} pv {}",
        r.depth,
        r.nodes,
        r.nps,
        r.time.as_millis(),
        pv.join(" ")
    )
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
            // The strongest player without the table; the heuristic were its bytes damaged.
            evaluator: PlayerSpec::network().unwrap_or_else(|_| PlayerSpec::heuristic()),
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
        self.say(&format!("info string error: {what}"));
    }

    /// Handles one line of input.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.reap();
        let command = match parse(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                self.error(&e.to_string());
                return Flow::Continue;
            }
        };
        let busy = self.running.is_some();
        match command {
            Command::Tsi => self.identify(),
            Command::IsReady => self.say("readyok"),
            Command::Stop => self.stop_search(),
            Command::Quit => {
                self.finish();
                return Flow::Quit;
            }
            Command::SetOption { .. }
            | Command::NewGame
            | Command::Position { .. }
            | Command::Go { .. }
                if busy =>
            {
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
            Command::Go { limits, infinite } => self.go(limits, infinite),
        }
        Flow::Continue
    }

    fn identify(&self) {
        self.say(&format!("id name tns-engine {}", env!("CARGO_PKG_VERSION")));
        self.say("id author The Tigers and Sheep developers");
        self.say(&format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"));
        self.say(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        self.say("option name Evaluator type string default network");
        self.say("option name Tablebase type string default <empty>");
        self.say("tsiok");
    }

    /// A searcher for the current options and `table`.
    fn searcher(&self, table: Option<&Arc<Tablebase>>) -> Result<Box<Engine>, String> {
        let spec = &self.options.evaluator;
        let evaluator = spec
            .evaluator(table)
            .map_err(|e| format!("{e} (set the Tablebase option to its folder first)"))?
            .ok_or_else(|| format!("{} does not search: choose an evaluator", spec.name))?;
        let defaults = Budget {
            time: None,
            depth: None,
            threads: self.options.threads,
            tt_mb: self.options.hash_mb,
        };
        let budget = spec.budget(defaults);
        let config = SearchConfig {
            threads: budget.threads,
            tt_mb: budget.tt_mb,
            ..SearchConfig::default()
        };
        Ok(Box::new(Search::new(evaluator, config)))
    }

    /// Builds the searcher for the current options; on error nothing changes.
    fn rebuild(&mut self) -> Result<(), String> {
        self.engine = Some(self.searcher(self.table.as_ref())?);
        Ok(())
    }

    /// Loads the table in `dir` (none for an empty value) and builds the searcher with it; on
    /// error nothing changes.
    fn set_tablebase(&mut self, dir: Option<PathBuf>) -> Result<(), String> {
        let table = match &dir {
            Some(dir) => Some(Arc::new(
                Tablebase::load(KILLS_TO_WIN, dir)
                    .map_err(|e| format!("no tablebase in {}: {e}", dir.display()))?,
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
        let number = |max: usize| {
            value.parse::<usize>().ok().filter(|n| (1..=max).contains(n)).ok_or_else(|| {
                format!("{name} must be a whole number from 1 to {max}, not {value:?}")
            })
        };
        let result = match name.to_ascii_lowercase().as_str() {
            "threads" => number(MAX_THREADS).and_then(|n| {
                self.options.threads = n;
                self.rebuild()
            }),
            "hash" => number(MAX_HASH_MB).and_then(|n| {
                self.options.hash_mb = n;
                self.rebuild()
            }),
            "evaluator" => {
                value.parse::<PlayerSpec>().map_err(|e| e.to_string()).and_then(|spec| {
                    self.options.evaluator = spec;
                    self.rebuild()
                })
            }
            "tablebase" => {
                let dir = (!value.is_empty()).then(|| PathBuf::from(value));
                self.set_tablebase(dir)
            }
            _ => Err(format!("unknown option {name:?} (Threads, Hash, Evaluator, Tablebase)")),
        };
        if let Err(e) = result {
            self.options = before;
            self.error(&e);
        }
    }

    fn go(&mut self, limits: Limits, infinite: bool) {
        if self.game.outcome().is_some() {
            self.say("bestmove none");
            return;
        }
        let Some(mut engine) = self.engine.take() else {
            self.error("no evaluator: set the Evaluator option");
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let done = Arc::clone(&answered);
        let out = Arc::clone(&self.out);
        let board = self.game.board();
        let history = self.game.previous().to_vec();
        let thread = std::thread::spawn(move || {
            let result =
                engine.search(board, &history, limits, &flag, |r| send(&out, &info_line(r)));
            // After `go infinite` the answer waits for `stop`, even if the search ended first.
            while infinite && !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            // A search that fails (a damaged table) says why, and still answers the `go`.
            let best = match result {
                Ok(result) => result.best_move,
                Err(e) => {
                    send(&out, &format!("info string error: the search failed: {e}"));
                    None
                }
            };
            let best = best.map_or_else(|| "none".to_string(), |m| m.to_string());
            done.store(true, Ordering::Release);
            send(&out, &format!("bestmove {best}"));
            engine
        });
        self.running = Some(Running { stop, answered, thread });
    }

    /// Takes the engine back from a search that has answered (waiting the moment it takes
    /// its thread to end).
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.answered.load(Ordering::Acquire)) {
            self.join();
        }
    }

    fn join(&mut self) {
        if let Some(running) = self.running.take() {
            if let Ok(engine) = running.thread.join() {
                self.engine = Some(engine);
            } else {
                self.error("the search failed; starting a new searcher");
                let _ = self.rebuild();
            }
        }
    }

    fn stop_search(&mut self) {
        if let Some(running) = &self.running {
            running.stop.store(true, Ordering::Relaxed);
        }
        self.join();
    }

    /// Stops any search and waits for its `bestmove`: call before exiting.
    pub fn finish(&mut self) {
        self.stop_search();
    }
}
