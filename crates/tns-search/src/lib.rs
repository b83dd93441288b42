//! Alpha-beta search for Tigers and Sheep, generic over an [`Evaluator`].
//!
//! [`Search`] runs negamax alpha-beta with iterative deepening on `Copy` boards. Its
//! [transposition table](TranspositionTable) is keyed by a position's canonical symmetric image,
//! so the 8 symmetric forms of a position share one entry, and it is shared by all threads (lazy
//! SMP). Moves are ordered by the table's move, then kills, then history; killer moves are
//! there too but off by default, since they cost more nodes than they save here ([`Parts`]).
//! Wins and losses are scored by their distance ([`win_in`], [`describe`]), and positions that
//! repeat the game's history or the current line score as draws.
//!
//! The evaluator is a type parameter: [`Heuristic`] is the hand-written one; a network or a
//! tablebase implements the same trait and uses the same search.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use tns_board::Board;
//! use tns_search::{Heuristic, Limits, Search, SearchConfig};
//!
//! let mut search = Search::new(Heuristic::default(), SearchConfig::default());
//! let stop = AtomicBool::new(false);
//! let result = search.search(Board::START, &[], Limits::depth(4), &stop, |report| {
//!     assert!(report.depth >= 1 && !report.pv.is_empty());
//! });
//! let best = result.best_move.expect("the start has moves");
//! assert!(Board::START.check_move(best).is_ok());
//! assert_eq!(result.depth, 4);
//! ```

#![warn(missing_docs)]

mod eval;
mod heuristic;
mod limits;
mod ordering;
mod score;
mod search;
mod stats;
mod tt;

pub use eval::Evaluator;
pub use heuristic::{Heuristic, Weights};
pub use limits::Limits;
pub use score::{
    DRAW, EVAL_LIMIT, INFINITY, MAX_PLY, WIN, WIN_THRESHOLD, describe, is_decisive, loss_in,
    plies_to_end, win_in,
};
pub use search::{Parts, Report, Search, SearchConfig, SearchResult};
pub use stats::Stats;
pub use tt::{Bound, Entry, TranspositionTable};
