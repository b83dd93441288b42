//! A computer's move, chosen on its own thread by the seat's player so that the screen keeps
//! drawing: the search's reports as it deepens, then the move, what the search found, and the
//! player back for its next move.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::thread::JoinHandle;

use tns_board::{Game, Move};
use tns_match::{Budget, ChooseError, Player, PlayerSpec};
use tns_search::{Limits, Report, SearchResult};

/// The transposition table of a computer player, in MiB.
pub const SEARCH_TT_MB: usize = 32;

/// The strongest player without a table, with the threads and transposition table of
/// `budget` (a spec's own `threads` and `tt`, or the game's defaults).
///
/// # Panics
/// Only on a machine without the memory for the table: a spec's limits are checked when it is
/// parsed (at most 64 threads and 4096 MiB).
pub fn strongest(budget: Budget) -> Box<dyn Player> {
    PlayerSpec::strongest().build(budget, None).expect("a table within the bounds")
}

/// A player's choice, as its thread sends it back.
pub struct Chosen {
    /// The move, or why there is none.
    pub result: Result<Move, ChooseError>,
    /// What the search behind it found, for a player that searches.
    pub search: Option<SearchResult>,
    /// The player, back for its next move.
    pub player: Box<dyn Player>,
}

impl std::fmt::Debug for Chosen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Chosen").field("result", &self.result).finish_non_exhaustive()
    }
}

/// What the thread sends back.
enum Message {
    Progress(Report),
    Done(Box<Chosen>),
}

/// A player choosing its move on its own thread.
pub struct Thinking {
    stop: Arc<AtomicBool>,
    messages: Receiver<Message>,
    thread: Option<JoinHandle<()>>,
    /// The latest completed iteration of its search.
    pub progress: Option<Report>,
    /// The length of the game's history when it started: a choice for another position is
    /// stale.
    pub ply: usize,
}

impl std::fmt::Debug for Thinking {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Thinking").field("ply", &self.ply).finish_non_exhaustive()
    }
}

/// How a poll of a player went.
#[derive(Debug)]
pub enum Poll {
    /// Still choosing.
    Running,
    /// Done: its choice, and the player back.
    Done(Box<Chosen>),
    /// The thread died without an answer (it panicked).
    Lost,
}

impl Thinking {
    /// Starts `player` choosing its move in `game` within `limits`, on a new thread.
    pub fn start(mut player: Box<dyn Player>, game: Game, limits: Limits) -> Thinking {
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, messages) = channel();
        let flag = Arc::clone(&stop);
        let ply = game.len();
        // A thread that cannot be started drops its channel: the poll says the player is lost.
        let thread = std::thread::Builder::new()
            .name("computer".into())
            .spawn(move || {
                let progress = tx.clone();
                let mut watch = |r: &Report| {
                    let _ = progress.send(Message::Progress(r.clone()));
                };
                let result = player.choose_watched(&game, &limits, &flag, &mut watch);
                let search = player.last_search().cloned();
                let _ = tx.send(Message::Done(Box::new(Chosen { result, search, player })));
            })
            .ok();
        Thinking { stop, messages, thread, progress: None, ply }
    }

    /// Asks the player to stop soon (a search still answers with its best move so far).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Collects progress, and the choice once there is one.
    pub fn poll(&mut self) -> Poll {
        loop {
            match self.messages.try_recv() {
                Ok(Message::Progress(r)) => self.progress = Some(r),
                Ok(Message::Done(chosen)) => {
                    if let Some(t) = self.thread.take() {
                        let _ = t.join();
                    }
                    return Poll::Done(chosen);
                }
                Err(TryRecvError::Empty) => return Poll::Running,
                Err(TryRecvError::Disconnected) => return Poll::Lost,
            }
        }
    }

    /// Stops the player and waits for it to come back.
    pub fn cancel(mut self) -> Option<Box<dyn Player>> {
        self.stop();
        loop {
            match self.poll() {
                Poll::Done(chosen) => return Some(chosen.player),
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
