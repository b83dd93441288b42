//! The position: an 8-byte `Copy` bitboard pair.

use crate::error::{MoveError, PositionError};
use crate::masks::{BOARD, JUMP_TARGETS, NEIGHBOURS};
use crate::{Bitboard, Move, Point, Side};

/// Sheep in the game, all of which start in hand.
pub const TOTAL_SHEEP: u8 = 20;
/// Dead sheep at which the tigers win.
pub const KILLS_TO_WIN: u8 = 5;

/// Where the in-hand count starts in the sheep word.
const IN_HAND_SHIFT: u32 = 25;
/// One sheep in hand, in the sheep word.
const ONE_IN_HAND: u32 = 1 << IN_HAND_SHIFT;
/// The side-to-move bit in the tiger word: set when the tigers are to move.
const TIGER_TO_MOVE: u32 = 1 << 31;
/// The four corners, where the tigers start.
const CORNERS: u32 = 1 | 1 << 4 | 1 << 20 | 1 << 24;

/// A position: where the tigers and sheep stand, the sheep still in hand, and the side to move.
///
/// It is two `u32` words, so it is `Copy` and cheap to pass by value:
///
/// ```text
/// tigers: [ side to move (bit 31) | unused (bits 25-30) | 25 point bits ]
/// sheep:  [ sheep in hand (bits 25-31)                  | 25 point bits ]
/// ```
///
/// Point `(x, y)` is bit `x + 5 * y`. A kill clears a sheep's point bit but leaves the in-hand
/// count alone, so dead sheep are `20 - on board - in hand`.
///
/// ```
/// use tns_board::{Board, Move, Side};
///
/// let mut board = Board::START;
/// assert_eq!(board.legal_moves().len(), 21); // a sheep on any empty point
/// board.play("c3".parse()?)?;
/// assert_eq!(board.side_to_move(), Side::Tiger);
/// assert_eq!(board.in_hand(), 19);
/// assert_eq!(board.to_string(), "T3T/5/2S2/5/T3T t 19");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    tigers: u32,
    sheep: u32,
}

impl Board {
    /// The start: tigers in the corners, 20 sheep in hand, sheep to move.
    pub const START: Board =
        Board { tigers: CORNERS, sheep: (TOTAL_SHEEP as u32) << IN_HAND_SHIFT };

    /// A position from its parts, checked to be one the game can have: 4 tigers, no point
    /// holding two pieces, at most 20 sheep on the board and in hand, at most 5 dead.
    ///
    /// # Errors
    /// A [`PositionError`] naming the first rule the parts break.
    pub fn from_parts(
        tigers: Bitboard,
        sheep: Bitboard,
        in_hand: u8,
        side_to_move: Side,
    ) -> Result<Board, PositionError> {
        let (t, s) = (tigers.bits(), sheep.bits());
        if t.count_ones() != 4 {
            return Err(PositionError::TigerCount(t.count_ones()));
        }
        if let Some(p) = (tigers & sheep).iter().next() {
            return Err(PositionError::Overlap(p));
        }
        let (on_board, in_hand) = (s.count_ones(), u32::from(in_hand));
        if on_board + in_hand > u32::from(TOTAL_SHEEP) {
            return Err(PositionError::TooManySheep { on_board, in_hand });
        }
        let dead = u32::from(TOTAL_SHEEP) - on_board - in_hand;
        if dead > u32::from(KILLS_TO_WIN) {
            return Err(PositionError::TooManyDead(dead));
        }
        let side = if side_to_move == Side::Tiger { TIGER_TO_MOVE } else { 0 };
        Ok(Board { tigers: t | side, sheep: s | in_hand << IN_HAND_SHIFT })
    }

    /// The tigers' points.
    #[inline]
    pub const fn tigers(self) -> Bitboard {
        Bitboard::from_bits_truncate(self.tigers)
    }

    /// The sheep on the board.
    #[inline]
    pub const fn sheep(self) -> Bitboard {
        Bitboard::from_bits_truncate(self.sheep)
    }

    /// The empty points.
    #[inline]
    pub const fn empty(self) -> Bitboard {
        Bitboard::from_bits_truncate(!(self.tigers | self.sheep))
    }

    /// What stands on `p`: a tiger, a sheep, or nothing.
    pub const fn piece_at(self, p: Point) -> Option<Side> {
        if self.tigers & p.bit() != 0 {
            Some(Side::Tiger)
        } else if self.sheep & p.bit() != 0 {
            Some(Side::Sheep)
        } else {
            None
        }
    }

    /// Sheep still to be placed, 0 to 20.
    #[inline]
    pub const fn in_hand(self) -> u8 {
        (self.sheep >> IN_HAND_SHIFT) as u8
    }

    /// Sheep on the board.
    #[inline]
    #[expect(clippy::cast_possible_truncation, reason = "at most 25 points")]
    pub const fn sheep_on_board(self) -> u8 {
        (self.sheep & BOARD).count_ones() as u8
    }

    /// Sheep killed so far.
    #[inline]
    pub const fn dead(self) -> u8 {
        TOTAL_SHEEP - self.sheep_on_board() - self.in_hand()
    }

    /// The side whose turn it is.
    #[inline]
    pub const fn side_to_move(self) -> Side {
        if self.tigers & TIGER_TO_MOVE != 0 { Side::Tiger } else { Side::Sheep }
    }

    /// The same position with the other side to move (a "null move"; the result may not be
    /// reachable in a real game).
    #[must_use]
    pub const fn with_side_flipped(self) -> Board {
        Board { tigers: self.tigers ^ TIGER_TO_MOVE, sheep: self.sheep }
    }

    /// The whole position as one number: sheep word high, tiger word low. Different positions
    /// have different keys, so the key serves for hashing and ordering.
    #[inline]
    pub const fn key(self) -> u64 {
        (self.sheep as u64) << 32 | self.tigers as u64
    }

    /// The position with the given [`key`](Board::key), if it is a valid one.
    ///
    /// # Errors
    /// A [`PositionError`] if the key does not describe a position of the game.
    pub fn from_key(key: u64) -> Result<Board, PositionError> {
        #[expect(clippy::cast_possible_truncation, reason = "the key's two halves, cut on purpose")]
        let (t, s) = (key as u32, (key >> 32) as u32);
        if t & !(BOARD | TIGER_TO_MOVE) != 0 {
            return Err(PositionError::OffBoard(t));
        }
        let in_hand = s >> IN_HAND_SHIFT;
        if in_hand > u32::from(TOTAL_SHEEP) {
            return Err(PositionError::TooManySheep {
                on_board: (s & BOARD).count_ones(),
                in_hand,
            });
        }
        let side = if t & TIGER_TO_MOVE != 0 { Side::Tiger } else { Side::Sheep };
        Board::from_parts(
            Bitboard::from_bits_truncate(t),
            Bitboard::from_bits_truncate(s),
            in_hand as u8,
            side,
        )
    }

    pub(crate) const fn raw(self) -> (u32, u32) {
        (self.tigers, self.sheep)
    }

    pub(crate) const fn from_raw(tigers: u32, sheep: u32) -> Board {
        Board { tigers, sheep }
    }

    /// Checks that `m` is legal here.
    ///
    /// # Errors
    /// The [`MoveError`] that says why it is not.
    pub fn check_move(self, m: Move) -> Result<(), MoveError> {
        if self.dead() >= KILLS_TO_WIN {
            return Err(MoveError::GameOver);
        }
        let side = self.side_to_move();
        let to = m.to();
        match m {
            Move::Place(_) => {
                if side == Side::Tiger {
                    return Err(MoveError::TigerCannotPlace);
                }
                if self.in_hand() == 0 {
                    return Err(MoveError::NoSheepInHand);
                }
            }
            Move::Step { from, .. } | Move::Jump { from, .. } => {
                if side == Side::Sheep && self.in_hand() > 0 {
                    return Err(MoveError::MustPlace { in_hand: self.in_hand() });
                }
                if self.piece_at(from) != Some(side) {
                    return Err(MoveError::NoPiece { side, from });
                }
                if let Move::Jump { .. } = m {
                    if side == Side::Sheep {
                        return Err(MoveError::SheepCannotJump);
                    }
                    if JUMP_TARGETS[from.index()] & to.bit() == 0 {
                        return Err(MoveError::NotAJumpLine { from, to });
                    }
                } else if NEIGHBOURS[from.index()] & to.bit() == 0 {
                    return Err(MoveError::NotALine { from, to });
                }
            }
        }
        if !self.empty().contains(to) {
            return Err(MoveError::Occupied(to));
        }
        if let Some(over) = m.captured()
            && !self.sheep().contains(over)
        {
            return Err(MoveError::NothingToJump(over));
        }
        Ok(())
    }

    /// Whether `m` is legal here ([`check_move`](Board::check_move) says why not).
    ///
    /// ```
    /// use tns_board::{Board, MoveError};
    ///
    /// let mut board = Board::START;
    /// assert!(board.is_legal("c3".parse()?));
    /// board.play("c3".parse()?)?;
    /// assert_eq!(board.to_string(), "T3T/5/2S2/5/T3T t 19");
    /// // The same point twice: refused, with the reason, and the board is unchanged.
    /// assert!(!board.is_legal("c3".parse()?));
    /// assert_eq!(board.play("c3".parse()?), Err(MoveError::TigerCannotPlace));
    /// // Moves from the generator need no check.
    /// let m = board.legal_moves()[0];
    /// let after = board.after_unchecked(m);
    /// board.play_unchecked(m);
    /// assert_eq!(board, after);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_legal(self, m: Move) -> bool {
        self.check_move(m).is_ok()
    }

    /// Plays `m` if it is legal; on an error the board is unchanged.
    ///
    /// # Errors
    /// The [`MoveError`] from [`check_move`](Board::check_move).
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        self.check_move(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// The position after `m`, if it is legal: [`play`](Board::play) on a copy.
    ///
    /// # Errors
    /// The [`MoveError`] from [`check_move`](Board::check_move).
    pub fn after(self, m: Move) -> Result<Board, MoveError> {
        self.check_move(m)?;
        Ok(self.after_unchecked(m))
    }

    /// Plays `m` without checking it, for moves that move generation produced (the search).
    /// An illegal move leaves a position the rules cannot reach; it never panics.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        *self = self.after_unchecked(m);
    }

    /// The position after `m`, without checking it (see
    /// [`play_unchecked`](Board::play_unchecked)).
    #[inline]
    #[must_use]
    pub const fn after_unchecked(self, m: Move) -> Board {
        let Board { mut tigers, mut sheep } = self;
        match m {
            Move::Place(to) => sheep = (sheep | to.bit()).wrapping_sub(ONE_IN_HAND),
            Move::Step { from, to } => {
                if tigers & TIGER_TO_MOVE != 0 {
                    tigers ^= from.bit() | to.bit();
                } else {
                    sheep ^= from.bit() | to.bit();
                }
            }
            Move::Jump { from, to } => {
                tigers ^= from.bit() | to.bit();
                sheep &= !(1 << usize::midpoint(from.index(), to.index()));
            }
        }
        Board { tigers: tigers ^ TIGER_TO_MOVE, sheep }
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::START
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Board {
        s.parse().unwrap()
    }
    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn start() {
        let b = Board::START;
        assert_eq!(b.in_hand(), 20);
        assert_eq!(b.dead(), 0);
        assert_eq!(b.side_to_move(), Side::Sheep);
        assert_eq!(b.tigers().len(), 4);
        assert_eq!(std::mem::size_of::<Board>(), 8);
    }

    #[test]
    fn each_move_error() {
        let start = Board::START;
        let tiger_turn = pos("T3T/5/2S2/5/T3T t 19");
        let moving = pos("TSSST/SSSSS/SS1SS/SSSSS/T1S1T s 0");
        let over = pos("T3T/5/2S2/5/T3T t 14");
        assert_eq!(over.check_move(mv("a5b5")), Err(MoveError::GameOver));
        assert_eq!(tiger_turn.check_move(mv("b2")), Err(MoveError::TigerCannotPlace));
        assert_eq!(moving.check_move(mv("c3")), Err(MoveError::NoSheepInHand));
        assert_eq!(start.check_move(mv("a4a3")), Err(MoveError::MustPlace { in_hand: 20 }));
        assert_eq!(start.check_move(mv("a5")), Err(MoveError::Occupied(mv("a5").to())));
        assert_eq!(
            tiger_turn.check_move(mv("b4c4")),
            Err(MoveError::NoPiece { side: Side::Tiger, from: mv("b4").to() })
        );
        assert_eq!(
            moving.check_move(mv("c3c2")),
            Err(MoveError::NoPiece { side: Side::Sheep, from: mv("c3").to() })
        );
        assert_eq!(
            tiger_turn.check_move(mv("a5d5")),
            Err(MoveError::NotALine { from: mv("a5").to(), to: mv("d5").to() })
        );
        assert_eq!(
            tiger_turn.check_move(mv("a5b3")),
            Err(MoveError::NotALine { from: mv("a5").to(), to: mv("b3").to() })
        );
        // b5 has no diagonals, so b5d3 is two points along a line that is not drawn.
        let t_on_b4 = pos("1T2T/5/2S2/5/T3T t 19");
        assert_eq!(
            t_on_b4.check_move(Move::Jump { from: mv("b5").to(), to: mv("d3").to() }),
            Err(MoveError::NotAJumpLine { from: mv("b5").to(), to: mv("d3").to() })
        );
        assert_eq!(moving.check_move(mv("b3d3")), Err(MoveError::SheepCannotJump));
        assert_eq!(tiger_turn.check_move(mv("e5c3")), Err(MoveError::Occupied(mv("c3").to())));
        assert_eq!(tiger_turn.check_move(mv("a5c5")), Err(MoveError::NothingToJump(mv("b5").to())));
        let two_sheep = pos("TSS1T/5/5/5/T3T t 18");
        assert_eq!(two_sheep.check_move(mv("a5c5")), Err(MoveError::Occupied(mv("c5").to())));
        assert_eq!(two_sheep.check_move(mv("e5c5")), Err(MoveError::Occupied(mv("c5").to())));
        let one_sheep = pos("TS2T/5/5/5/T3T t 19");
        assert_eq!(one_sheep.check_move(mv("e5c5")), Err(MoveError::NothingToJump(mv("d5").to())));
        assert_eq!(one_sheep.check_move(mv("a5c5")), Ok(()));
    }

    #[test]
    fn play_leaves_board_on_error() {
        let mut b = Board::START;
        assert!(b.play(mv("a5")).is_err());
        assert_eq!(b, Board::START);
        assert!(b.after(mv("a5b5")).is_err());
    }

    #[test]
    fn jump_kills() {
        let b = pos("TS2T/5/5/5/T3T t 19");
        let after = b.after(mv("a5c5")).unwrap();
        assert_eq!(after.dead(), 1);
        assert_eq!(after.to_string(), "2T1T/5/5/5/T3T s 19");
    }

    #[test]
    fn from_parts_errors() {
        let t = Board::START.tigers();
        let p = |s: &str| s.parse::<Point>().unwrap();
        assert_eq!(
            Board::from_parts(t.without(p("a5")), Bitboard::EMPTY, 20, Side::Sheep),
            Err(PositionError::TigerCount(3))
        );
        assert_eq!(
            Board::from_parts(t, Bitboard::from_point(p("a5")), 19, Side::Sheep),
            Err(PositionError::Overlap(p("a5")))
        );
        assert_eq!(
            Board::from_parts(t, Bitboard::from_point(p("b5")), 20, Side::Sheep),
            Err(PositionError::TooManySheep { on_board: 1, in_hand: 20 })
        );
        assert_eq!(
            Board::from_parts(t, Bitboard::EMPTY, 14, Side::Sheep),
            Err(PositionError::TooManyDead(6))
        );
    }

    #[test]
    fn key_round_trip() {
        let b = pos("T3T/5/2S2/5/T3T t 19");
        assert_eq!(Board::from_key(b.key()), Ok(b));
        assert!(Board::from_key(u64::MAX).is_err());
    }
}
