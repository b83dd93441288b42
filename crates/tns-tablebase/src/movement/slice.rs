//! A solved slice: the values of every position with a given number of dead sheep.

use tns_board::{Board, Side};

use crate::index::Indexer;
use crate::value::{Packed, Value, unpack};

/// The values of one slice, both sides to move, one slot per symmetry class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Slice {
    /// Kills that win the game this slice was built for.
    pub(crate) kills: u8,
    /// Dead sheep in every position of the slice.
    pub(crate) dead: u8,
    /// Packed values, by side to move (sheep, then tigers), by index.
    pub(crate) values: [Vec<Packed>; 2],
}

impl Slice {
    /// Empty points in each position of the slice.
    pub(crate) fn empties(&self) -> usize {
        usize::from(self.dead) + 1
    }

    /// The value of `board`, which must have no sheep in hand and this slice's dead count;
    /// `None` otherwise.
    #[inline]
    pub(crate) fn get(&self, indexer: &Indexer, board: Board) -> Option<Value> {
        if board.in_hand() != 0 || board.dead() != self.dead {
            return None;
        }
        let index = indexer.index(board);
        unpack(*self.values[board.side_to_move() as usize].get(index)?)
    }

    /// The packed values of one side.
    pub(crate) fn side(&self, side: Side) -> &[Packed] {
        &self.values[side as usize]
    }
}
