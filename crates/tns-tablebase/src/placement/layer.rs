//! A placement layer in memory: the tigers-to-move values of every position with a given number
//! of sheep placed, five slots a byte, and the counts of what it holds.

use tns_board::Side;

use crate::value::Wdl;

/// Slots packed in one byte: five base-3 digits (3^5 = 243 ≤ 256), 1.6 bits a slot.
pub(crate) const PER_BYTE: usize = 5;

/// `DIGITS[byte][k]`: the `k`-th base-3 digit of `byte` (the first slot is the lowest digit).
const DIGITS: [[u8; PER_BYTE]; 256] = {
    let mut t = [[0u8; PER_BYTE]; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = b;
        let mut k = 0;
        while k < PER_BYTE {
            #[expect(clippy::cast_possible_truncation, reason = "a base-3 digit")]
            let digit = (v % 3) as u8;
            t[b][k] = digit;
            v /= 3;
            k += 1;
        }
        b += 1;
    }
    t
};

/// The `k`-th slot's code (0 loss, 1 draw, 2 win) in a packed byte.
#[inline]
pub(crate) fn digit(byte: u8, k: usize) -> u8 {
    DIGITS[byte as usize][k]
}

/// Win/draw/loss codes (0, 1, 2), five slots a byte as base-3 digits, the first slot lowest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Codes {
    pub(crate) bytes: Vec<u8>,
    pub(crate) len: usize,
}

impl Codes {
    /// Bytes needed for `len` slots.
    pub(crate) const fn bytes_for(len: usize) -> usize {
        len.div_ceil(PER_BYTE)
    }

    /// Packs codes of one byte each (0, 1 or 2).
    pub(crate) fn pack(codes: &[u8]) -> Codes {
        let bytes = codes
            .chunks(PER_BYTE)
            .map(|c| c.iter().rev().fold(0u8, |b, &v| b * 3 + v.min(2)))
            .collect();
        Codes { bytes, len: codes.len() }
    }

    /// The code of slot `i` (`i < len`).
    #[inline]
    pub(crate) fn get(&self, i: usize) -> u8 {
        digit(self.bytes[i / PER_BYTE], i % PER_BYTE)
    }
}

/// Counts over one layer, dead count and side to move, each symmetry class of positions
/// counted once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerStats {
    /// Sheep placed so far (on the board and dead).
    pub placed: u8,
    /// Dead sheep.
    pub dead: u8,
    /// The side to move.
    pub side: Side,
    /// Positions.
    pub positions: u64,
    /// Positions the side to move wins.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions the side to move loses.
    pub losses: u64,
}

impl LayerStats {
    /// Nothing counted yet.
    pub(crate) const fn empty(placed: u8, dead: u8, side: Side) -> LayerStats {
        LayerStats { placed, dead, side, positions: 0, wins: 0, draws: 0, losses: 0 }
    }

    /// Counts one position.
    #[inline]
    pub(crate) fn add(&mut self, wdl: Wdl) {
        self.positions += 1;
        match wdl {
            Wdl::Win => self.wins += 1,
            Wdl::Draw => self.draws += 1,
            Wdl::Loss => self.losses += 1,
        }
    }

    /// The sum of two counts of the same slice.
    #[must_use]
    pub(crate) fn merge(self, other: LayerStats) -> LayerStats {
        LayerStats {
            positions: self.positions + other.positions,
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
            ..self
        }
    }
}

/// The tigers-to-move values of one layer, by dead count, and the counts of both sides to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Layer {
    /// Sheep placed.
    pub(crate) placed: u8,
    /// Tigers-to-move codes by dead count (none for the start layer, 0 placed).
    pub(crate) slices: Vec<Codes>,
    /// Counts for the sheep to move, by dead count.
    pub(crate) sheep_stats: Vec<LayerStats>,
    /// Counts for the tigers to move, by dead count.
    pub(crate) tiger_stats: Vec<LayerStats>,
}

/// Empty points in a position with `placed` sheep placed and `dead` of them dead.
#[inline]
pub(crate) const fn empties(placed: u8, dead: u8) -> usize {
    21 - (placed - dead) as usize
}

/// The dead counts a layer holds in a game won by `kills` kills: none to `kills - 1`, and no
/// more than were placed.
pub(crate) fn dead_counts(kills: u8, placed: u8) -> std::ops::RangeInclusive<u8> {
    0..=(kills - 1).min(placed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        #[expect(clippy::cast_sign_loss, reason = "i * 7 % 3 is 0 to 2")]
        let codes: Vec<u8> = (0..25).map(|i| (i * 7 % 3) as u8).chain([2, 2, 2, 2, 2]).collect();
        let packed = Codes::pack(&codes);
        assert_eq!(packed.bytes.len(), Codes::bytes_for(30));
        assert_eq!(packed.bytes[5], 242);
        for (i, &c) in codes.iter().enumerate() {
            assert_eq!(packed.get(i), c);
        }
    }
}
