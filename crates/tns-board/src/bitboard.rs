//! Sets of points.

use std::fmt;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};

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
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
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

impl BitAndAssign for Bitboard {
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for Bitboard {
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitXorAssign for Bitboard {
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

impl Sub for Bitboard {
    type Output = Bitboard;
    /// The points of `self` that are not in `rhs`.
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl SubAssign for Bitboard {
    fn sub_assign(&mut self, rhs: Bitboard) {
        self.0 &= !rhs.0;
    }
}

impl fmt::Display for Bitboard {
    /// The board as five ranks, `x` for a point in the set and `.` for one not, rank 5 first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..5u8 {
            if y > 0 {
                f.write_str("\n")?;
            }
            for x in 0..5u8 {
                let p = Point::new(x, y).ok_or(fmt::Error)?;
                f.write_str(if self.contains(p) { "x" } else { "." })?;
            }
        }
        Ok(())
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
        #[expect(clippy::cast_possible_truncation, reason = "a set bit's index, under 32")]
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
        #[expect(clippy::cast_possible_truncation, reason = "a set bit's index, under 32")]
        let i = 31 - self.0.leading_zeros() as u8;
        self.0 &= !(1 << i);
        Some(Point::from_index_unchecked(i))
    }
}

impl ExactSizeIterator for Points {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_combine_in_place_and_print_as_a_board() {
        let (a, b) = (Bitboard::from_point(Point::A5), Bitboard::from_point(Point::C3));
        let mut set = a;
        set |= b;
        assert_eq!(set, a | b);
        assert_eq!(set - a, b);
        set -= b;
        assert_eq!(set, a);
        set ^= a;
        assert!(set.is_empty());
        let mut all = Bitboard::ALL;
        all &= Bitboard::EDGE;
        assert_eq!(all.len(), 16);
        assert!(a < b, "ordered by bits");
        assert_eq!((a | b).to_string(), "x....\n.....\n..x..\n.....\n.....");
    }
}
