//! Moves, their notation, and the fixed-capacity move list.

use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use crate::Point;
use crate::error::ParseMoveError;

/// A move, without the side that plays it (the position knows whose turn it is).
///
/// Notation: a placement is its point (`c3`); a step or a jump is its two points (`a5b4`,
/// `a5c3`), and a jump may be written with an `x` between them as the game shows kills
/// (`a5xc3`). A two-point move whose points are two apart in a straight line parses as a jump,
/// any other as a step; whether it is legal is for [`Board::check_move`](crate::Board::check_move)
/// to say.
///
/// ```
/// use tns_board::{Move, Point};
///
/// let m: Move = "a5c3".parse()?;
/// assert!(m.is_jump());
/// assert_eq!(m.captured(), Some(Point::B4));
/// assert_eq!("a5xc3".parse::<Move>()?, m);
/// assert_eq!("c3".parse::<Move>()?, Move::Place(Point::C3));
/// // Debug shows the points' names.
/// assert_eq!(format!("{:?}", Move::Step { from: Point::A5, to: Point::B4 }), "Step { from: A5, to: B4 }");
/// # Ok::<(), tns_board::ParseMoveError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A sheep placed from the hand on an empty point.
    Place(Point),
    /// A sheep or a tiger moved one point along a line.
    Step {
        /// Where the piece starts.
        from: Point,
        /// Where it ends.
        to: Point,
    },
    /// A tiger jumping over a sheep two points along a line, killing it.
    Jump {
        /// Where the tiger starts.
        from: Point,
        /// Where it lands.
        to: Point,
    },
}

impl Move {
    /// The point the piece ends on.
    pub const fn to(self) -> Point {
        match self {
            Move::Place(to) | Move::Step { to, .. } | Move::Jump { to, .. } => to,
        }
    }

    /// The point the piece starts from, `None` for a placement.
    pub const fn from(self) -> Option<Point> {
        match self {
            Move::Place(_) => None,
            Move::Step { from, .. } | Move::Jump { from, .. } => Some(from),
        }
    }

    /// Whether this is a jump (a kill).
    pub const fn is_jump(self) -> bool {
        matches!(self, Move::Jump { .. })
    }

    /// The point of the sheep a jump kills (halfway between its ends), `None` for other moves.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "the midpoint of two point indices under 25"
    )]
    pub const fn captured(self) -> Option<Point> {
        match self {
            Move::Jump { from, to } => {
                // Indices are x + 5y, so the midpoint of two points is the mean of their indices.
                Some(Point::from_index_unchecked(usize::midpoint(from.index(), to.index()) as u8))
            }
            _ => None,
        }
    }

    /// A compact 16-bit code (for transposition tables): `to` in bits 0-4, `from` in bits 5-9,
    /// the kind in bits 10-11. [`Move::from_code`] inverts it.
    #[expect(clippy::cast_possible_truncation, reason = "point indices under 25, in 5-bit fields")]
    pub const fn code(self) -> u16 {
        match self {
            Move::Place(to) => to.index() as u16 | 1 << 10,
            Move::Step { from, to } => to.index() as u16 | (from.index() as u16) << 5 | 2 << 10,
            Move::Jump { from, to } => to.index() as u16 | (from.index() as u16) << 5 | 3 << 10,
        }
    }

    /// The move with the given [`code`](Move::code), or `None` if the code is not one.
    pub const fn from_code(code: u16) -> Option<Move> {
        let (Some(to), Some(from)) =
            (Point::from_index((code & 31) as u8), Point::from_index((code >> 5 & 31) as u8))
        else {
            return None;
        };
        match code >> 10 {
            1 if from.index() == 0 => Some(Move::Place(to)),
            2 => Some(Move::Step { from, to }),
            3 => Some(Move::Jump { from, to }),
            _ => None,
        }
    }
}

/// A placement is its point (`c3`), a step its two points (`a1b2`), and a jump, which kills the
/// sheep between, its two points with an `x` (`a5xc3`): one notation wherever a person reads a
/// move. [`FromStr`] reads a jump with or without the `x`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(to) => write!(f, "{to}"),
            Move::Step { from, to } => write!(f, "{from}{to}"),
            Move::Jump { from, to } => write!(f, "{from}x{to}"),
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let point = |t: &str| {
            t.parse::<Point>()
                .map_err(|source| ParseMoveError::Point { text: s.to_owned(), source })
        };
        // The kill written as the game shows it, `a5xc3`: the same move as `a5c3`, a jump.
        let kill = s.len() == 5 && s.is_char_boundary(2) && s[2..].starts_with(['x', 'X']);
        if kill {
            let plain = format!("{}{}", &s[..2], &s[3..]);
            return match plain.parse::<Move>() {
                Ok(m @ Move::Jump { .. }) => Ok(m),
                Ok(_) => Err(ParseMoveError::NotAJump(s.to_owned())),
                Err(ParseMoveError::Point { source, .. }) => {
                    Err(ParseMoveError::Point { text: s.to_owned(), source })
                }
                Err(e) => Err(e),
            };
        }
        match s.len() {
            2 => Ok(Move::Place(point(s)?)),
            4 if s.is_char_boundary(2) => {
                let (from, to) = (point(&s[..2])?, point(&s[2..])?);
                if from == to {
                    return Err(ParseMoveError::SamePoint(s.to_owned()));
                }
                let (dx, dy) = (from.x().abs_diff(to.x()), from.y().abs_diff(to.y()));
                let straight_two = matches!((dx, dy), (0 | 2, 0 | 2));
                Ok(if straight_two { Move::Jump { from, to } } else { Move::Step { from, to } })
            }
            _ => Err(ParseMoveError::Length(s.to_owned())),
        }
    }
}

/// The most moves any position can have.
///
/// Tigers have at most 4 × 8 moves (in each direction a tiger either steps or jumps). Sheep have at
/// most 21 placements, and once all are placed at least 15 stand on the board, leaving at most 6
/// empty points, each reachable from at most 8 neighbours: 48 steps.
pub const MAX_MOVES: usize = 64;

/// A list of moves with a fixed capacity of [`MAX_MOVES`], filled without heap allocation.
///
/// It dereferences to a slice of moves, iterates by value, and collects like a `Vec`.
///
/// ```
/// use tns_board::{Bitboard, Board, Move, MoveList, Point};
///
/// let moves = Board::START.legal_moves();
/// assert_eq!(moves.len(), 21);
/// assert!(moves.contains(&Move::Place(Point::C3)));
/// let mut on_the_edge = 0;
/// for m in moves.clone() {
///     on_the_edge += usize::from(Bitboard::EDGE.contains(m.to()));
/// }
/// assert_eq!(on_the_edge, 12); // sixteen edge points, four of them the tigers'
/// let mut edge: MoveList = moves.into_iter().filter(|m| Bitboard::EDGE.contains(m.to())).collect();
/// edge.retain(|m| m.to() != Point::C5);
/// assert_eq!(edge.len(), 11);
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList { moves: [Move::Place(Point::from_index_unchecked(0)); MAX_MOVES], len: 0 }
    }

    /// Appends a move. Move generation never fills the list (see [`MAX_MOVES`]).
    ///
    /// # Panics
    /// If the list already holds [`MAX_MOVES`] moves.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Removes every move.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a mutable slice (to reorder them, say).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Keeps only the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            if keep(&self.moves[i]) {
                self.moves[kept] = self.moves[i];
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Swaps the moves at positions `i` and `j`.
    ///
    /// # Panics
    /// If either index is not below the length.
    pub fn swap(&mut self, i: usize, j: usize) {
        self.as_mut_slice().swap(i, j);
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for MoveList {
    /// Two lists are equal when they hold the same moves in the same order.
    fn eq(&self, other: &MoveList) -> bool {
        **self == **other
    }
}

impl Eq for MoveList {}

impl FromIterator<Move> for MoveList {
    /// Collects moves into a list.
    ///
    /// # Panics
    /// If there are more than [`MAX_MOVES`] moves.
    fn from_iter<I: IntoIterator<Item = Move>>(moves: I) -> MoveList {
        let mut list = MoveList::new();
        list.extend(moves);
        list
    }
}

impl Extend<Move> for MoveList {
    /// Appends moves.
    ///
    /// # Panics
    /// If the list would hold more than [`MAX_MOVES`] moves.
    fn extend<I: IntoIterator<Item = Move>>(&mut self, moves: I) {
        for m in moves {
            self.push(m);
        }
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIntoIter;
    /// The moves by value: `for m in board.legal_moves() { ... }`.
    fn into_iter(self) -> MoveListIntoIter {
        MoveListIntoIter { list: self, next: 0 }
    }
}

/// The moves of a [`MoveList`], by value.
#[derive(Clone, Debug)]
pub struct MoveListIntoIter {
    list: MoveList,
    next: usize,
}

impl Iterator for MoveListIntoIter {
    type Item = Move;
    fn next(&mut self) -> Option<Move> {
        let m = self.list.get(self.next).copied()?;
        self.next += 1;
        Some(m)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.list.len() - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for MoveListIntoIter {}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn a_move_list_is_a_collection() {
        let board = crate::Board::START;
        let mut by_value = Vec::new();
        for m in board.legal_moves() {
            by_value.push(m);
        }
        assert_eq!(by_value.as_slice(), &*board.legal_moves());
        let collected: MoveList = by_value.iter().copied().collect();
        assert_eq!(collected, board.legal_moves());
        let mut kept = board.legal_moves();
        kept.retain(|m| m.to().x() == 2);
        assert_eq!(kept.len(), 5, "{kept:?}");
        assert!(kept.iter().all(|m| m.to().x() == 2));
        let mut more = kept.clone();
        more.extend(kept.iter().copied());
        assert_eq!(more.len(), 10);
        assert_eq!(board.legal_moves().into_iter().len(), 21);
    }

    #[test]
    fn parse_kinds() {
        assert_eq!("a5b4".parse(), Ok(Move::Step { from: p("a5"), to: p("b4") }));
        assert_eq!("a5c5".parse(), Ok(Move::Jump { from: p("a5"), to: p("c5") }));
        assert_eq!("a5e1".parse(), Ok(Move::Step { from: p("a5"), to: p("e1") }));
        assert_eq!("a5a5".parse::<Move>(), Err(ParseMoveError::SamePoint("a5a5".into())));
        assert_eq!("a5b".parse::<Move>(), Err(ParseMoveError::Length("a5b".into())));
        assert!(matches!("a5z4".parse::<Move>(), Err(ParseMoveError::Point { .. })));
        assert!("aé5".parse::<Move>().is_err());
        // A kill as the game shows it: the same jump.
        assert_eq!("a5xc3".parse(), Ok(Move::Jump { from: p("a5"), to: p("c3") }));
        assert_eq!("a5Xc5".parse::<Move>(), "a5c5".parse::<Move>());
        assert_eq!("a5xb4".parse::<Move>(), Err(ParseMoveError::NotAJump("a5xb4".into())));
        assert!(matches!("a5xz3".parse::<Move>(), Err(ParseMoveError::Point { .. })));
        assert!("a5xé".parse::<Move>().is_err() && "a5yc3".parse::<Move>().is_err());
    }

    #[test]
    fn captured_is_midpoint() {
        let m: Move = "a5c3".parse().unwrap();
        assert_eq!(m.captured(), Some(p("b4")));
        let m: Move = "e1e3".parse().unwrap();
        assert_eq!(m.captured(), Some(p("e2")));
    }

    #[test]
    fn codes_round_trip() {
        for a in Point::all() {
            assert_eq!(Move::from_code(Move::Place(a).code()), Some(Move::Place(a)));
            for b in Point::all() {
                for m in [Move::Step { from: a, to: b }, Move::Jump { from: a, to: b }] {
                    assert_eq!(Move::from_code(m.code()), Some(m));
                }
            }
        }
        assert_eq!(Move::from_code(0), None);
        assert_eq!(Move::from_code(25), None);
    }
}
