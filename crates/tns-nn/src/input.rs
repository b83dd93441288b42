//! What the network sees: the raw position and nothing else.
//!
//! 52 inputs: one for each point a tiger stands on (25), one for each point a sheep stands on
//! (25), the sheep still in hand divided by 20, and 1 when the tigers are to move. Everything
//! else (dead sheep, threats, trapped tigers) the network has to learn.

// Casts allowed in this file only:
// narrowing casts of values that fit by construction (point indices under 25, move counts, table indices, durations in milliseconds).
#![allow(clippy::cast_possible_truncation)]

use tns_board::{Board, Side, TOTAL_SHEEP};

/// The number of inputs.
pub const INPUTS: usize = 52;
/// The input holding the sheep in hand (divided by 20).
pub(crate) const IN_HAND: usize = 50;
/// The input that is 1 when the tigers are to move.
pub(crate) const TIGER_TO_MOVE: usize = 51;

/// The inputs of a position as a sparse list: the indices that are 1, and the one input with
/// another value (sheep in hand). At most 25 ones.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Features {
    pub(crate) ones: [u8; 26],
    pub(crate) len: usize,
    pub(crate) in_hand: f32,
}

impl Features {
    #[inline]
    pub(crate) fn of(board: Board) -> Features {
        let mut ones = [0u8; 26];
        let mut len = 0;
        for p in board.tigers() {
            ones[len] = p.index() as u8;
            len += 1;
        }
        for p in board.sheep() {
            if len < ones.len() {
                ones[len] = 25 + p.index() as u8;
                len += 1;
            }
        }
        if board.side_to_move() == Side::Tiger && len < ones.len() {
            ones[len] = TIGER_TO_MOVE as u8;
            len += 1;
        }
        Features { ones, len, in_hand: f32::from(board.in_hand()) / f32::from(TOTAL_SHEEP) }
    }

    /// The features as a dense vector.
    pub(crate) fn dense(&self) -> [f32; INPUTS] {
        let mut x = [0.0; INPUTS];
        for &i in &self.ones[..self.len] {
            x[usize::from(i)] = 1.0;
        }
        x[IN_HAND] = self.in_hand;
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let f = Features::of(Board::START);
        assert_eq!(f.len, 4);
        assert!((f.in_hand - 1.0).abs() < f32::EPSILON);
        let x = f.dense();
        assert_eq!(x.iter().filter(|&&v| v > 0.5).count(), 5);
        assert!(x[TIGER_TO_MOVE].abs() < f32::EPSILON);
    }

    #[test]
    fn at_most_twenty_five_ones() {
        // 4 tigers and 20 sheep, tigers to move: 25 ones.
        let b: Board = "TSSST/SSSSS/SS1SS/SSSSS/TSSST t 0".parse().unwrap();
        let f = Features::of(b);
        assert_eq!(f.len, 25);
        assert!(f.dense()[TIGER_TO_MOVE] > 0.5);
    }
}
