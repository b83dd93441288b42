//! The eight symmetries of the board.
//!
//! Every symmetry of the square keeps the parity of `x + y`, so it maps drawn lines to drawn
//! lines: a transformed position is legal and exactly as good for each side as the original.

use std::fmt;

use crate::masks::BOARD;
use crate::{Bitboard, Board, Move, Point};

/// One of the 8 symmetries of the board: 4 rotations, each with or without a mirror.
///
/// Symmetry `n` (0..8) applies, in order: bit 2, swap `x` and `y`; bit 0, mirror `x`
/// (`x → 4 - x`); bit 1, mirror `y`. [`Symmetry::IDENTITY`] is 0.
///
/// ```
/// use tns_board::{Point, Symmetry};
///
/// let p: Point = "b5".parse()?;
/// for s in Symmetry::ALL {
///     assert_eq!(s.inverse().apply_point(s.apply_point(p)), p);
/// }
/// # Ok::<(), tns_board::ParsePointError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Symmetry(u8);

const SWAP: u8 = 4;
const MIRROR_X: u8 = 1;
const MIRROR_Y: u8 = 2;

const fn transform_xy(sym: u8, x: u8, y: u8) -> (u8, u8) {
    let (mut x, mut y) = if sym & SWAP != 0 { (y, x) } else { (x, y) };
    if sym & MIRROR_X != 0 {
        x = 4 - x;
    }
    if sym & MIRROR_Y != 0 {
        y = 4 - y;
    }
    (x, y)
}

/// `ROW_MAPS[sym][row][pattern]`: where the points of `row` in the 5-bit `pattern` go under
/// `sym`, as a board mask. A whole mask transforms in five look-ups.
const ROW_MAPS: [[[u32; 32]; 5]; 8] = {
    let mut maps = [[[0; 32]; 5]; 8];
    let mut sym = 0;
    while sym < 8 {
        let mut row = 0;
        while row < 5 {
            let mut pattern = 0;
            while pattern < 32 {
                let mut mask = 0;
                let mut x = 0;
                while x < 5 {
                    if pattern >> x & 1 != 0 {
                        #[expect(
                            clippy::cast_possible_truncation,
                            clippy::cast_sign_loss,
                            reason = "a symmetry, 0 to 7, and a column and row, 0 to 4"
                        )]
                        let (tx, ty) = transform_xy(sym as u8, x as u8, row as u8);
                        mask |= 1 << (tx as u32 + 5 * ty as u32);
                    }
                    x += 1;
                }
                maps[sym][row][pattern] = mask;
                pattern += 1;
            }
            row += 1;
        }
        sym += 1;
    }
    maps
};

/// Transforms the 25 point bits of `mask` (higher bits are ignored).
#[inline(always)]
fn transform_mask(maps: &[[u32; 32]; 5], mask: u32) -> u32 {
    maps[0][(mask & 31) as usize]
        | maps[1][(mask >> 5 & 31) as usize]
        | maps[2][(mask >> 10 & 31) as usize]
        | maps[3][(mask >> 15 & 31) as usize]
        | maps[4][(mask >> 20 & 31) as usize]
}

impl Symmetry {
    /// The symmetry that changes nothing.
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// Symmetry number `n`, or `None` if `n` is not below 8.
    pub const fn new(n: u8) -> Option<Symmetry> {
        if n < 8 { Some(Symmetry(n)) } else { None }
    }

    /// This symmetry's number, 0..8.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The symmetry that undoes this one.
    #[must_use]
    pub const fn inverse(self) -> Symmetry {
        if self.0 & SWAP == 0 {
            self
        } else {
            // Mirroring x then swapping is the same as swapping then mirroring y, so undoing a
            // swap-then-mirror exchanges which axis is mirrored.
            Symmetry(SWAP | (self.0 & MIRROR_X) << 1 | (self.0 & MIRROR_Y) >> 1)
        }
    }

    /// The image of a point.
    pub const fn apply_point(self, p: Point) -> Point {
        let (x, y) = transform_xy(self.0, p.x(), p.y());
        Point::from_index_unchecked(x + 5 * y)
    }

    /// The image of a move.
    pub const fn apply_move(self, m: Move) -> Move {
        match m {
            Move::Place(to) => Move::Place(self.apply_point(to)),
            Move::Step { from, to } => {
                Move::Step { from: self.apply_point(from), to: self.apply_point(to) }
            }
            Move::Jump { from, to } => {
                Move::Jump { from: self.apply_point(from), to: self.apply_point(to) }
            }
        }
    }

    /// The image of a set of points.
    ///
    /// ```
    /// use tns_board::{Bitboard, Point, Symmetry};
    ///
    /// let a5: Point = "a5".parse()?;
    /// let set = Bitboard::from_point(a5);
    /// for s in Symmetry::ALL {
    ///     assert_eq!(s.apply_bitboard(set), Bitboard::from_point(s.apply_point(a5)));
    /// }
    /// # Ok::<(), tns_board::ParsePointError>(())
    /// ```
    #[inline]
    pub fn apply_bitboard(self, b: Bitboard) -> Bitboard {
        Bitboard::from_bits_truncate(transform_mask(&ROW_MAPS[self.0 as usize], b.bits()))
    }

    /// The image of a board (the side to move and the sheep in hand are unchanged).
    #[inline]
    pub fn apply_board(self, b: Board) -> Board {
        let maps = &ROW_MAPS[self.0 as usize];
        let (t, s) = b.raw();
        Board::from_raw(transform_mask(maps, t) | t & !BOARD, transform_mask(maps, s) | s & !BOARD)
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "symmetry {}", self.0)
    }
}

impl Board {
    /// The image of this board under `sym`.
    #[must_use]
    pub fn transformed(self, sym: Symmetry) -> Board {
        sym.apply_board(self)
    }

    /// Of the 8 symmetric images of this board, the one with the smallest
    /// [`key`](Board::key), and the symmetry that maps this board to it. All 8 images share the
    /// same canonical board.
    ///
    /// ```
    /// use tns_board::{Board, Symmetry};
    ///
    /// let b: Board = "T3T/1S3/5/5/T3T t 19".parse()?;
    /// let (canon, sym) = b.canonical();
    /// assert_eq!(b.transformed(sym), canon);
    /// for s in Symmetry::ALL {
    ///     assert_eq!(b.transformed(s).canonical().0, canon);
    /// }
    /// # Ok::<(), tns_board::ParsePositionError>(())
    /// ```
    pub fn canonical(self) -> (Board, Symmetry) {
        let mut best = (self, Symmetry::IDENTITY);
        for sym in 1..8 {
            let image = Symmetry(sym).apply_board(self);
            if image.key() < best.0.key() {
                best = (image, Symmetry(sym));
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_undoes() {
        for s in Symmetry::ALL {
            for p in Point::all() {
                assert_eq!(s.inverse().apply_point(s.apply_point(p)), p, "{s}");
            }
        }
    }

    #[test]
    fn symmetries_are_distinct_and_keep_lines() {
        let probe: Point = "b5".parse().unwrap();
        let images: std::collections::HashSet<_> =
            Symmetry::ALL.iter().map(|s| s.apply_point(probe)).collect();
        assert_eq!(images.len(), 8);
        for s in Symmetry::ALL {
            for p in Point::all() {
                assert_eq!(s.apply_point(p).has_diagonals(), p.has_diagonals());
            }
        }
    }

    #[test]
    fn board_transform_matches_points() {
        let b: Board = "TSS1T/SSS2/S1S2/5/T3T t 13".parse().unwrap();
        for s in Symmetry::ALL {
            let t = b.transformed(s);
            for p in Point::all() {
                assert_eq!(t.piece_at(s.apply_point(p)), b.piece_at(p));
            }
            assert_eq!(t.in_hand(), b.in_hand());
            assert_eq!(t.side_to_move(), b.side_to_move());
        }
    }
}
