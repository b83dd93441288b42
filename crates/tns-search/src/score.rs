//! Scores: evaluations and wins or losses that encode their distance.
//!
//! A score is an `i32` from the side to move's point of view. A win `n` plies from the root of
//! the search is [`WIN`]` - n`, a loss `-(WIN - n)`; evaluations stay within [`EVAL_LIMIT`]. So
//! the engine prefers the fastest win and the slowest loss.

use tns_board::Side;

/// The score of a win at the root (never reached: a win is at least one ply away).
pub const WIN: i32 = 30_000;
/// The deepest ply the search can reach.
pub const MAX_PLY: usize = 128;
/// Scores at or beyond this magnitude are wins or losses: up to 5,000 plies away, far more
/// than the search reaches, so a tablebase's long wins still count as wins.
pub const WIN_THRESHOLD: i32 = WIN - 5_000;
/// Evaluations are clamped to `±EVAL_LIMIT`, well inside the win scores.
pub const EVAL_LIMIT: i32 = 20_000;
/// A draw.
pub const DRAW: i32 = 0;
/// Beyond every score, for the search window.
pub const INFINITY: i32 = 32_000;

/// The score of a win `ply` plies from the root (a ply beyond 5,000, which no search reaches,
/// counts as 5,000, so the score is still a win).
pub const fn win_in(ply: usize) -> i32 {
    WIN - plies(ply)
}

/// The score of a loss `ply` plies from the root (beyond 5,000 as [`win_in`]).
pub const fn loss_in(ply: usize) -> i32 {
    -WIN + plies(ply)
}

/// `ply` as a score's distance, at most `WIN - WIN_THRESHOLD` (5,000).
#[expect(clippy::cast_possible_truncation, clippy::cast_possible_wrap, reason = "at most 5,000")]
const fn plies(ply: usize) -> i32 {
    const MOST: usize = (WIN - WIN_THRESHOLD) as usize;
    (if ply < MOST { ply } else { MOST }) as i32
}

/// Whether a score is a forced win or loss.
pub const fn is_decisive(score: i32) -> bool {
    score.abs() >= WIN_THRESHOLD
}

/// For a forced win or loss, the number of plies to the end; `None` for other scores.
pub const fn plies_to_end(score: i32) -> Option<i32> {
    if is_decisive(score) { Some(WIN - score.abs()) } else { None }
}

/// A search's score in the one unit every front end prints: a forced end as the search found
/// it, else the expected result for the side to move that `chances` give (the chance of a win
/// less that of a loss), in hundredths of a percent of a certain win
/// ([`CERTAIN_WIN`](crate::CERTAIN_WIN)). Whatever scale the evaluator searched on (the
/// heuristic's, the raw network's, a calibrated one), the number means the same.
///
/// ```
/// use tns_search::{Chances, shown_score, win_in};
///
/// let chances = Chances { win: 30, draw: 950, loss: 20 };
/// assert_eq!(shown_score(364, chances), 100, "1% better than even, whatever 364 meant");
/// assert_eq!(shown_score(win_in(7), chances), win_in(7));
/// ```
pub fn shown_score(score: i32, chances: crate::Chances) -> i32 {
    if is_decisive(score) { score } else { chances.expected() * 10 }
}

/// A score as a person reads it, given the side to move: `"Tigers win in 7"` (plies),
/// `"Sheep win in 2"` (the words of the tablebase's verdicts), or, for a
/// [shown score](shown_score), the tigers' expected result in percent of a certain win, such
/// as `"+1.25"`.
///
/// ```
/// use tns_board::Side;
/// use tns_search::{describe, win_in};
///
/// assert_eq!(describe(win_in(7), Side::Tiger), "Tigers win in 7");
/// assert_eq!(describe(win_in(3), Side::Sheep), "Sheep win in 3");
/// assert_eq!(describe(-win_in(4), Side::Sheep), "Tigers win in 4");
/// assert_eq!(describe(-150, Side::Tiger), "-1.50");
/// ```
pub fn describe(score: i32, side_to_move: Side) -> String {
    let tiger_view = score * side_to_move.sign();
    match plies_to_end(score) {
        Some(n) => {
            let winner = if tiger_view > 0 { Side::Tiger } else { Side::Sheep };
            format!("{} win in {n}", winner.plural())
        }
        None => format!("{:+.2}", f64::from(tiger_view) / 100.0),
    }
}

/// Converts a score relative to the root into one relative to the node at `ply`, for storing in
/// the transposition table (wins count from the node, so they stay true wherever it recurs).
pub(crate) const fn to_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_THRESHOLD {
        score + plies(ply)
    } else if score <= -WIN_THRESHOLD {
        score - plies(ply)
    } else {
        score
    }
}

/// The inverse of [`to_table`].
pub(crate) const fn from_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_THRESHOLD {
        score - plies(ply)
    } else if score <= -WIN_THRESHOLD {
        score + plies(ply)
    } else {
        score
    }
}
