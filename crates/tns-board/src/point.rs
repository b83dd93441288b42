//! Points of the board and their notation.

use std::fmt;
use std::str::FromStr;

use crate::Bitboard;
use crate::error::ParsePointError;
use crate::masks::{JUMP_TARGETS, NEIGHBOURS};

/// One of the 25 points of the board.
///
/// Point `(x, y)` has index `x + 5 * y`: `x` runs left to right (files `a` to `e`), `y` top to
/// bottom (ranks `5` down to `1`). So `a5` is `(0, 0)`, index 0, and `e1` is `(4, 4)`, index 24.
///
/// ```
/// use tns_board::Point;
///
/// let p: Point = "c3".parse()?;
/// assert_eq!((p.x(), p.y()), (2, 2));
/// assert_eq!(p.index(), 12);
/// assert_eq!(p.to_string(), "c3");
/// # Ok::<(), tns_board::ParsePointError>(())
/// ```
/// Each point also has a constant named by its notation, `Point::C3`, and its `Debug` is that
/// name:
///
/// ```
/// use tns_board::Point;
///
/// assert_eq!(Point::C3, "c3".parse()?);
/// assert_eq!(format!("{:?}", Point::A5), "A5");
/// assert_eq!(Point::try_from(24u8), Ok(Point::E1));
/// # Ok::<(), tns_board::ParsePointError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Point(u8);

/// The constants' names, by index: `A5`, `B5`, ... `E1`.
const NAMES: [&str; 25] = [
    "A5", "B5", "C5", "D5", "E5", "A4", "B4", "C4", "D4", "E4", "A3", "B3", "C3", "D3", "E3", "A2",
    "B2", "C2", "D2", "E2", "A1", "B1", "C1", "D1", "E1",
];

impl fmt::Debug for Point {
    /// The constant's name: `C3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(NAMES[self.index()])
    }
}

impl TryFrom<u8> for Point {
    type Error = ParsePointError;

    /// The point with this index (`x + 5 * y`).
    fn try_from(index: u8) -> Result<Point, ParsePointError> {
        Point::from_index(index).ok_or(ParsePointError::Index(index))
    }
}

#[expect(
    missing_docs,
    reason = "each constant is the point its name writes, as the type's docs say"
)]
impl Point {
    pub const A5: Point = Point(0);
    pub const B5: Point = Point(1);
    pub const C5: Point = Point(2);
    pub const D5: Point = Point(3);
    pub const E5: Point = Point(4);
    pub const A4: Point = Point(5);
    pub const B4: Point = Point(6);
    pub const C4: Point = Point(7);
    pub const D4: Point = Point(8);
    pub const E4: Point = Point(9);
    pub const A3: Point = Point(10);
    pub const B3: Point = Point(11);
    pub const C3: Point = Point(12);
    pub const D3: Point = Point(13);
    pub const E3: Point = Point(14);
    pub const A2: Point = Point(15);
    pub const B2: Point = Point(16);
    pub const C2: Point = Point(17);
    pub const D2: Point = Point(18);
    pub const E2: Point = Point(19);
    pub const A1: Point = Point(20);
    pub const B1: Point = Point(21);
    pub const C1: Point = Point(22);
    pub const D1: Point = Point(23);
    pub const E1: Point = Point(24);
}

impl Point {
    /// The number of points on the board.
    pub const COUNT: usize = 25;

    /// The point at `(x, y)`, or `None` if either coordinate is outside `0..5`.
    pub const fn new(x: u8, y: u8) -> Option<Point> {
        if x < 5 && y < 5 { Some(Point(x + 5 * y)) } else { None }
    }

    /// The point with the given index (`x + 5 * y`), or `None` if it is not below 25.
    pub const fn from_index(index: u8) -> Option<Point> {
        if index < 25 { Some(Point(index)) } else { None }
    }

    /// The point with the given index, which the caller guarantees is below 25.
    pub(crate) const fn from_index_unchecked(index: u8) -> Point {
        debug_assert!(index < 25);
        Point(index)
    }

    /// Every point, in index order.
    pub fn all() -> impl DoubleEndedIterator<Item = Point> + ExactSizeIterator + Clone {
        (0..25).map(Point)
    }

    /// The index `x + 5 * y`, in `0..25`; also the point's bit in a board mask.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The column, 0 (file `a`) to 4 (file `e`).
    pub const fn x(self) -> u8 {
        self.0 % 5
    }

    /// The row, 0 (rank `5`, the top) to 4 (rank `1`, the bottom).
    pub const fn y(self) -> u8 {
        self.0 / 5
    }

    /// The point's bit in a board mask.
    pub const fn bit(self) -> u32 {
        1 << self.0
    }

    /// Whether diagonal lines pass through this point (`x + y` even).
    pub const fn has_diagonals(self) -> bool {
        (self.x() + self.y()).is_multiple_of(2)
    }

    /// The points one step away along a drawn line: where a piece here can step.
    ///
    /// ```
    /// use tns_board::Point;
    ///
    /// let b4: Point = "b4".parse()?;
    /// let names: Vec<String> = b4.neighbours().iter().map(|p| p.to_string()).collect();
    /// assert_eq!(names, ["a5", "b5", "c5", "a4", "c4", "a3", "b3", "c3"]);
    /// let b5: Point = "b5".parse()?;
    /// assert_eq!(b5.neighbours().len(), 3); // no diagonals through b5
    /// # Ok::<(), tns_board::ParsePointError>(())
    /// ```
    pub const fn neighbours(self) -> Bitboard {
        Bitboard::from_bits_truncate(NEIGHBOURS[self.0 as usize])
    }

    /// The points two steps away along a drawn line: where a tiger here lands when it jumps.
    pub const fn jump_targets(self) -> Bitboard {
        Bitboard::from_bits_truncate(JUMP_TARGETS[self.0 as usize])
    }

    /// The point a jump from here to `to` passes over, when `to` is one of
    /// [`jump_targets`](Point::jump_targets).
    pub const fn jumped_over(self, to: Point) -> Option<Point> {
        if self.jump_targets().contains(to) {
            Point::from_index(u8::midpoint(self.0, to.0))
        } else {
            None
        }
    }

    /// The file letter, `'a'` to `'e'`.
    pub const fn file_char(self) -> char {
        (b'a' + self.x()) as char
    }

    /// The rank digit, `'5'` (top) to `'1'` (bottom).
    pub const fn rank_char(self) -> char {
        (b'5' - self.y()) as char
    }

    /// Parses a point from the first two bytes of `s`, as used inside move notation.
    pub(crate) fn parse_prefix(s: &str) -> Result<Point, ParsePointError> {
        let bytes = s.as_bytes();
        let (Some(&file), Some(&rank)) = (bytes.first(), bytes.get(1)) else {
            return Err(ParsePointError::TooShort(s.to_owned()));
        };
        let x = match file {
            b'a'..=b'e' => file - b'a',
            b'A'..=b'E' => file - b'A',
            _ => return Err(ParsePointError::BadFile(char_at(s, 0))),
        };
        let y = match rank {
            b'1'..=b'5' => b'5' - rank,
            _ => return Err(ParsePointError::BadRank(char_at(s, 1))),
        };
        Ok(Point(x + 5 * y))
    }
}

/// The character that starts at byte `i` of `s`, or the replacement character if `i` is not on a
/// character boundary (non-ASCII input).
fn char_at(s: &str, i: usize) -> char {
    s.get(i..).and_then(|t| t.chars().next()).unwrap_or(char::REPLACEMENT_CHARACTER)
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

impl FromStr for Point {
    type Err = ParsePointError;

    /// Parses `a5` to `e1` (the file letter may be upper case).
    fn from_str(s: &str) -> Result<Point, ParsePointError> {
        let p = Point::parse_prefix(s)?;
        if s.len() > 2 {
            return Err(ParsePointError::TrailingInput(s.to_owned()));
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_and_centre() {
        assert_eq!(Point::new(0, 0).unwrap().to_string(), "a5");
        assert_eq!(Point::new(4, 4).unwrap().to_string(), "e1");
        assert_eq!(Point::new(2, 2).unwrap().to_string(), "c3");
        assert_eq!(Point::new(5, 0), None);
        assert_eq!(Point::from_index(25), None);
    }

    #[test]
    fn round_trip_all() {
        for p in Point::all() {
            assert_eq!(p.to_string().parse::<Point>(), Ok(p));
            // The constant's name is the notation in capitals, and Debug says it.
            assert_eq!(format!("{p:?}"), p.to_string().to_uppercase());
            assert_eq!(Point::try_from(u8::try_from(p.index()).unwrap()), Ok(p));
        }
        assert_eq!(Point::try_from(25u8), Err(ParsePointError::Index(25)));
        assert_eq!((Point::A5.index(), Point::C3.index(), Point::E1.index()), (0, 12, 24));
    }

    #[test]
    fn parse_errors() {
        assert_eq!("".parse::<Point>(), Err(ParsePointError::TooShort(String::new())));
        assert_eq!("f1".parse::<Point>(), Err(ParsePointError::BadFile('f')));
        assert_eq!("a6".parse::<Point>(), Err(ParsePointError::BadRank('6')));
        assert_eq!("a0".parse::<Point>(), Err(ParsePointError::BadRank('0')));
        assert_eq!("a1x".parse::<Point>(), Err(ParsePointError::TrailingInput("a1x".into())));
        assert_eq!("é1".parse::<Point>(), Err(ParsePointError::BadFile('é')));
        assert_eq!("aé".parse::<Point>(), Err(ParsePointError::BadRank('é')));
    }
}
