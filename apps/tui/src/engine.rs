//! Computer players, searching on their own thread so the screen keeps drawing.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::thread::JoinHandle;

use tns_board::{Board, Move};
use tns_nn::NeuralEvaluator;
use tns_search::{
    Evaluator, Heuristic, Limits, Report, Search, SearchConfig, SearchError, SearchResult,
};
use tns_tablebase::{Tablebase, WithTablebase};

/// The searcher a computer player keeps between moves. Players differ only in the evaluator.
pub type Engine = Search<Box<dyn Evaluator>>;

/// The transposition table of a computer player, in MiB.
pub const ENGINE_TT_MB: usize = 32;

/// A new engine searching with `evaluator`, with the threads and table of `budget` (a spec's
/// own `threads` and `tt`, or the game's defaults).
///
/// # Panics
/// Only on a machine without the memory for the table: a spec's limits are checked when it is
/// parsed (at most 64 threads and 4096 MiB).
pub fn engine(evaluator: Box<dyn Evaluator>, budget: &tns_match::Budget) -> Box<Engine> {
    Box::new(Search::new(evaluator, budget.config()).expect("a table within the bounds"))
}

/// The strongest evaluator there is, and the name the game gives it: with the tablebase, the
/// heuristic behind the table (the perfect player: exact in every position with no sheep in
/// hand, and in the placement phase, where its layers are built, searching only the moves that
/// keep the position's value); without it, the shipped network, the strongest player at equal
/// time.
pub fn evaluator(table: Option<Arc<Tablebase>>) -> (Box<dyn Evaluator>, &'static str) {
    match table.map(|t| WithTablebase::new(Heuristic::default(), t)) {
        Some(Ok(perfect)) => (Box::new(perfect), "the table"),
        _ => match tns_match::shipped_network() {
            Ok(net) => (Box::new(NeuralEvaluator::new(net)), "the network"),
            Err(_) => (Box::new(Heuristic::default()), "the heuristic"),
        },
    }
}

/// A hint: the move, and which player found it (`the table`, `the network`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The move.
    pub mv: Move,
    /// Who found it, as [`evaluator`] names it.
    pub by: &'static str,
}

/// Where a hint's answer comes: the hint, or why the search failed.
pub type HintAnswer = Receiver<Result<Option<Hint>, String>>;

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
/// there is, the perfect one when a table is given (exact where it holds the position, and in
/// the placement phase choosing only among the moves that keep the value). The answer comes on
/// the returned channel: the move and who found it, or why the search failed (a damaged
/// table).
pub fn start_hint(board: Board, history: Vec<Board>, table: Option<Arc<Tablebase>>) -> HintAnswer {
    let (tx, rx) = channel();
    let failed = tx.clone();
    let spawned = std::thread::Builder::new().name("hint".into()).spawn(move || {
        let config = SearchConfig::default().with_tt_mb(8);
        let (evaluator, by) = evaluator(table);
        let found = Search::new(evaluator, config).and_then(|mut s| {
            let limits = Limits::depth(20).with_time(std::time::Duration::from_millis(300));
            s.search(board, &history, limits, &AtomicBool::new(false), |_| {})
        });
        let hint = found.map(|r| r.best_move.map(|mv| Hint { mv, by }));
        let _ = tx.send(hint.map_err(|e| e.to_string()));
    });
    if let Err(e) = spawned {
        let _ = failed.send(Err(format!("cannot start the hint's thread: {e}")));
    }
    rx
}
