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
    if board.in_hand() > 0 {
        return 0;
    }
    let sheep = board.sheep_on_board();
    previous
        .iter()
        .rev()
        .take_while(|b| b.sheep_on_board() == sheep && b.in_hand() == 0)
        .filter(|b| *b == board)
        .count()
}
