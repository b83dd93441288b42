//! Sets of points.

// Casts allowed in this file only:
// narrowing casts of values that fit by construction (point indices under 25, move counts, table indices, durations in milliseconds).
#![allow(clippy::cast_possible_truncation)]

use std::fmt;
use std::ops::{BitAnd, BitOr, BitXor, Not};

use crate::Point;
use crate::masks::BOARD;

/// A set of points, one bit per point (bit `x + 5 * y`).
///
/// ```
/// use tns_board::{Board, Point};
///
/// let tigers = Board::START.tigers();
/// assert_eq!(tigers.len(), 4);
/// assert!(tigers.contains("a5".parse::<Point>()?));
/// let names: Vec<String> = tigers.iter().map(|p| p.to_string()).collect();
/// assert_eq!(names, ["a5", "e5", "a1", "e1"]);
/// # Ok::<(), tns_board::ParsePointError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(u32);

impl Bitboard {
    /// No points.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 25 points.
    pub const ALL: Bitboard = Bitboard(BOARD);
    /// The 16 points on the board's edge (its outer square).
    pub const EDGE: Bitboard = Bitboard(0b11111_10001_10001_10001_11111);

    /// The set with the given bits, or `None` if a bit above 24 is set.
    pub const fn from_bits(bits: u32) -> Option<Bitboard> {
        if bits & !BOARD == 0 { Some(Bitboard(bits)) } else { None }
    }

    /// The set with the given bits; bits above 24 are dropped.
    pub const fn from_bits_truncate(bits: u32) -> Bitboard {
        Bitboard(bits & BOARD)
    }

    /// The set holding one point.
    pub const fn from_point(p: Point) -> Bitboard {
        Bitboard(p.bit())
    }

    /// The raw bits.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Whether `p` is in the set.
    pub const fn contains(self, p: Point) -> bool {
        self.0 & p.bit() != 0
    }

    /// The number of points in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set with `p` added.
    #[must_use]
    pub const fn with(self, p: Point) -> Bitboard {
        Bitboard(self.0 | p.bit())
    }

    /// The set with `p` removed.
    #[must_use]
    pub const fn without(self, p: Point) -> Bitboard {
        Bitboard(self.0 & !p.bit())
    }

    /// The points in index order.
    pub const fn iter(self) -> Points {
        Points(self.0)
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & BOARD)
    }
}

impl IntoIterator for Bitboard {
    type Item = Point;
    type IntoIter = Points;
    fn into_iter(self) -> Points {
        self.iter()
    }
}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Iterator over the points of a [`Bitboard`], lowest index first.
#[derive(Clone, Debug)]
pub struct Points(u32);

impl Iterator for Points {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Point::from_index_unchecked(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Points {
    fn next_back(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let i = 31 - self.0.leading_zeros() as u8;
        self.0 &= !(1 << i);
        Some(Point::from_index_unchecked(i))
    }
}

impl ExactSizeIterator for Points {}
