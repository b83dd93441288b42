//! Computer players, searching on their own thread so the screen keeps drawing.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::thread::JoinHandle;

use tns_board::{Board, Move};
use tns_match::{Budget, PlayerKind, PlayerSpec, Searcher};
use tns_search::{Limits, Report, SearchError, SearchResult};
use tns_tablebase::Tablebase;

/// The searcher a computer player keeps between moves. Players differ only in the evaluator.
pub type Engine = Searcher;

/// The transposition table of a computer player, in MiB.
pub const ENGINE_TT_MB: usize = 32;

/// The strongest player without a table, with the threads and table of `budget` (a spec's own
/// `threads` and `tt`, or the game's defaults).
///
/// # Panics
/// Only on a machine without the memory for the table: a spec's limits are checked when it is
/// parsed (at most 64 threads and 4096 MiB).
pub fn engine(budget: Budget) -> Box<Engine> {
    let search = PlayerSpec::strongest().searcher(budget, None);
    Box::new(search.ok().flatten().expect("a table within the bounds"))
}

/// The name the game gives the player a spec builds, in "hint from the strongest": the
/// level's name where there is one.
pub fn who(spec: &PlayerSpec) -> &'static str {
    match spec.kind {
        PlayerKind::Perfect { .. } => "the table",
        PlayerKind::Neural(_) => "the strongest",
        _ => "the heuristic",
    }
}

/// A hint: the move, and which player found it (`the table`, `the network`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The move.
    pub mv: Move,
    /// Who found it, as [`who`] names it.
    pub by: &'static str,
}

/// Where a hint's answer comes: the hint, or why the search failed.
pub type HintAnswer = Receiver<anyhow::Result<Option<Hint>>>;

/// What a search thread sends back.
#[derive(Debug)]
enum Message {
    Progress(Report),
    Done(Result<SearchResult, SearchError>, Box<Engine>),
}

/// A search running on its own thread.
#[derive(Debug)]
pub struct Thinking {
    stop: Arc<AtomicBool>,
    messages: Receiver<Message>,
    thread: Option<JoinHandle<()>>,
    /// The latest completed iteration.
    pub progress: Option<Report>,
    /// The length of the game's history when the search started: a result for another
    /// position is stale.
    pub ply: usize,
}

/// How a poll of a search went.
#[derive(Debug)]
pub enum Poll {
    /// Still searching.
    Running,
    /// Finished, with the move (if any) or why the search failed (a damaged table), and the
    /// engine back for the next search.
    Done(Result<SearchResult, SearchError>, Box<Engine>),
    /// The thread died without an answer (it panicked).
    Lost,
}

impl Thinking {
    /// Starts searching `board` on a new thread.
    pub fn start(
        mut engine: Box<Engine>,
        board: Board,
        history: Vec<Board>,
        limits: Limits,
        ply: usize,
    ) -> Thinking {
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, messages) = channel();
        let flag = Arc::clone(&stop);
        // A thread that cannot be started drops its channel: the poll says the engine is lost.
        let thread = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let progress = tx.clone();
                let result = engine.search(board, &history, limits, &flag, |r| {
                    let _ = progress.send(Message::Progress(r.clone()));
                });
                let _ = tx.send(Message::Done(result, engine));
            })
            .ok();
        Thinking { stop, messages, thread, progress: None, ply }
    }

    /// Asks the search to stop soon (it still answers with its best move so far).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Collects progress, and the result once there is one.
    pub fn poll(&mut self) -> Poll {
        loop {
            match self.messages.try_recv() {
                Ok(Message::Progress(r)) => self.progress = Some(r),
                Ok(Message::Done(result, engine)) => {
                    if let Some(t) = self.thread.take() {
                        let _ = t.join();
                    }
                    return Poll::Done(result, engine);
                }
                Err(TryRecvError::Empty) => return Poll::Running,
                Err(TryRecvError::Disconnected) => return Poll::Lost,
            }
        }
    }

    /// Stops the search and waits for its engine.
    pub fn cancel(mut self) -> Option<Box<Engine>> {
        self.stop();
        loop {
            match self.poll() {
                Poll::Done(_, engine) => return Some(engine),
                Poll::Lost => return None,
                Poll::Running => std::thread::sleep(std::time::Duration::from_millis(1)),
            }
        }
    }
}

impl Drop for Thinking {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Works out a hint on its own thread: a short search (at most 300 ms) by the strongest player
/// there is: the perfect one where a table holds the position (exact, and in the placement
/// phase choosing only among the moves that keep the value), else the network (`table=on` when
/// there is a table: its search takes the movement phase's exact values). The answer comes on
/// the returned channel: the move and who found it, or why the search failed (a damaged
/// table).
pub fn start_hint(board: Board, history: Vec<Board>, table: Option<Arc<Tablebase>>) -> HintAnswer {
    let (tx, rx) = channel();
    let failed = tx.clone();
    let spawned = std::thread::Builder::new().name("hint".into()).spawn(move || {
        let budget = Budget { time: Some(0.3), depth: Some(20), threads: 1, tt_mb: 8 };
        let spec = PlayerSpec::strongest_at(board, table.as_ref());
        let hint = match spec.map(|spec| (who(&spec), spec.searcher(budget, table.as_ref()))) {
            Err(e) => Err(anyhow::Error::new(e).context("the tablebase failed")),
            Ok((by, Ok(Some(mut search)))) => search
                .search(board, &history, budget.limits(), &AtomicBool::new(false), |_| {})
                .map(|r| r.best_move.map(|mv| Hint { mv, by }))
                .map_err(anyhow::Error::new),
            Ok((_, Ok(None))) => Ok(None),
            Ok((_, Err(e))) => Err(anyhow::Error::new(e)),
        };
        let _ = tx.send(hint);
    });
    if let Err(e) = spawned {
        let _ = failed.send(Err(anyhow::Error::new(e).context("cannot start the hint's thread")));
    }
    rx
}
