//! The hint's search, on its own thread: the strongest player there is for the position, for a
//! moment.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, channel};

use tns_board::{Board, Move};
use tns_match::{Budget, PlayerKind, PlayerSpec};
use tns_tablebase::Tablebase;

/// The name the game gives the player a spec builds, in "hint from the strongest": the
/// level's name where there is one.
pub fn who(spec: &PlayerSpec) -> &'static str {
    match spec.kind {
        PlayerKind::Perfect { .. } => "the table",
        PlayerKind::Network(_) => "the strongest",
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
