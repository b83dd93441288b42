//! Threefold repetition.

use crate::Board;

/// Earlier occurrences of a position that make it a draw: the third time is a draw, so two
/// earlier ones.
pub const REPETITION_DRAW: usize = 2;

/// How many times `board` (same pieces, same side to move, same sheep in hand) occurred among
/// `previous`, the earlier positions of the game, oldest first.
///
/// Placements and kills can never be undone, so nothing repeats while sheep are in hand, and
/// the scan stops at the first earlier position with a different number of sheep on the board.
///
/// ```
/// use tns_board::{Board, repetitions};
///
/// let a: Board = "TSSST/SSSSS/SS1SS/SSSSS/T1S1T t 0".parse()?;
/// let b = a.after("e1d1".parse()?)?;
/// let c = b.after("c1b1".parse()?)?;
/// let d = c.after("d1e1".parse()?)?;
/// let e = d.after("b1c1".parse()?)?;
/// assert_eq!(e, a);
/// assert_eq!(repetitions(&[a, b, c, d], &e), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn repetitions(previous: &[Board], board: &Board) -> usize {
    repetition_candidates(*board, previous.iter().rev().copied()).filter(|b| b == board).count()
}

/// The earlier positions that could be `board` again: from `earlier`, the positions before
/// `board` latest first (one a ply, the sides taking turns), every second one (those with the
/// same side to move), for as long as nothing irreversible happened in between (a placement or
/// a kill changes the sheep in hand or on the board, and none comes back). Empty while sheep
/// are in hand.
///
/// [`repetitions`] counts the matches among them; the search scans its own line and the game
/// before it through the same function.
///
/// ```
/// use tns_board::{Board, repetition_candidates};
///
/// let a: Board = "TSSST/SSSSS/SS1SS/SSSSS/T1S1T t 0".parse()?;
/// let b = a.after("e1d1".parse()?)?;
/// let c = b.after("c1b1".parse()?)?;
/// // From c, only a has the same side to move.
/// assert_eq!(repetition_candidates(c, [b, a]).collect::<Vec<_>>(), [a]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[inline]
pub fn repetition_candidates(
    board: Board,
    earlier: impl IntoIterator<Item = Board>,
) -> impl Iterator<Item = Board> {
    let sheep = board.sheep_on_board();
    let settled = board.in_hand() == 0;
    earlier
        .into_iter()
        .skip(1)
        .step_by(2)
        .take_while(move |b| settled && b.sheep_on_board() == sheep && b.in_hand() == 0)
}
