//! What a search reports after each iteration, and what it returns.

use std::time::Duration;

use tns_board::Move;

use crate::score::Score;
use crate::stats::Stats;
use crate::wdl::Chances;

/// What the search reports after each completed iteration (one report a line with
/// [`Search::set_multipv`](crate::Search::set_multipv)), and once more when a limit or a stop
/// ends an iteration under way that has found a better move than the last completed one
/// (`lower_bound` set: the move the search returns, at the unfinished depth).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The deepest ply the main thread reached in it, quiescent lines and all (UCI's
    /// `seldepth`).
    pub seldepth: u32,
    /// Which line this is, from 1 (the best) to the number of lines asked for.
    pub multipv: usize,
    /// How full the transposition table is, in thousandths.
    pub hashfull: u32,
    /// Positions whose exact value the evaluator gave (tablebase hits), over all threads.
    pub tbhits: u64,
    /// The root score from the side to move's view; shown to people as
    /// [`Score::shown`] with `chances`.
    pub score: Score,
    /// The chances of a win, a draw and a loss for the side to move that the evaluator reads
    /// in `score` ([`Evaluator::chances`](crate::Evaluator::chances)).
    pub chances: Chances,
    /// Nodes searched so far, over all threads.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Move>,
    /// Whether the iteration was stopped under way: `score` is then only a lower bound on the
    /// root's value at `depth` (the moves not yet searched might score higher), as UCI's
    /// `lowerbound` says.
    pub lower_bound: bool,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchResult {
    /// The best move of the last completed iteration, or, when the search was stopped within
    /// the next one after that iteration had searched this move to the end and found a better
    /// one, that better one (one line only); `None` only when the game is over (no legal move,
    /// or the root drawn by repetition).
    pub best_move: Option<Move>,
    /// Its score from the side to move's view.
    pub score: Score,
    /// The chances the evaluator reads in `score` (see [`Report::chances`]).
    pub chances: Chances,
    /// The depth of the last completed iteration (0 if none completed).
    pub depth: u32,
    /// Nodes searched, over all threads.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// The principal variation of the best move (of the iteration it was found in).
    pub pv: Vec<Move>,
    /// Counters, with the `search-stats` feature.
    pub stats: Stats,
}
