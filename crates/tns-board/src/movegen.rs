//! Move generation: every piece of a side at once, one direction at a time.
//!
//! For a direction `d` with index delta `δ`:
//!
//! ```text
//! steps to       = shift(pieces & STEP_SOURCES[d], δ) & empty
//! jumped sheep   = shift(tigers & JUMP_SOURCES[d], δ) & sheep
//! jumps to       = shift(jumped sheep, δ) & empty
//! ```
//!
//! Each set bit of a result is one move; its start is the destination minus `δ` (or `2δ`).

use crate::board::KILLS_TO_WIN;
use crate::masks::{DELTAS, DIRECTIONS, JUMP_SOURCES, STEP_SOURCES, shift};
use crate::{Bitboard, Board, Move, MoveList, Point, Side};

/// Destinations of one-step moves in direction `d` for the pieces in `from`.
#[inline(always)]
fn steps(from: u32, empty: u32, d: usize) -> u32 {
    shift(from & STEP_SOURCES[d], DELTAS[d]) & empty
}

/// Landing points of jumps in direction `d` for the tigers in `tigers`.
#[inline(always)]
fn jumps(tigers: u32, sheep: u32, empty: u32, d: usize) -> u32 {
    shift(shift(tigers & JUMP_SOURCES[d], DELTAS[d]) & sheep, DELTAS[d]) & empty
}

#[inline(always)]
#[expect(clippy::cast_possible_truncation, reason = "a set bit's index, under 25")]
fn point(index: u32) -> Point {
    Point::from_index_unchecked(index as u8)
}

/// Calls `f` with each set bit's index.
#[inline(always)]
fn for_each_bit(mut mask: u32, mut f: impl FnMut(u32)) {
    while mask != 0 {
        f(mask.trailing_zeros());
        mask &= mask - 1;
    }
}

impl Board {
    /// Fills `list` with every legal move (clearing it first): placements, or tiger jumps
    /// before tiger steps, or sheep steps. Empty once five sheep are dead.
    ///
    /// ```
    /// use tns_board::{Board, MoveList};
    ///
    /// let board: Board = "TS2T/5/5/5/T3T t 19".parse()?;
    /// let mut moves = MoveList::new();
    /// board.generate_moves(&mut moves);
    /// assert_eq!(moves[0].to_string(), "a5xc5"); // the kill comes first
    /// assert!(moves[1..].iter().all(|m| !m.is_jump()));
    /// # Ok::<(), tns_board::ParsePositionError>(())
    /// ```
    #[expect(
        clippy::cast_possible_wrap,
        clippy::cast_sign_loss,
        reason = "a point index under 25 less a direction's delta: the masks keep the source on the board"
    )]
    pub fn generate_moves(self, list: &mut MoveList) {
        list.clear();
        if self.dead() >= KILLS_TO_WIN {
            return;
        }
        let (tigers, sheep, empty) =
            (self.tigers().bits(), self.sheep().bits(), self.empty().bits());
        match self.side_to_move() {
            Side::Sheep if self.in_hand() > 0 => {
                for_each_bit(empty, |to| list.push(Move::Place(point(to))));
            }
            Side::Sheep => {
                for d in 0..DIRECTIONS {
                    let delta = i32::from(DELTAS[d]);
                    for_each_bit(steps(sheep, empty, d), |to| {
                        list.push(Move::Step {
                            from: point((to as i32 - delta) as u32),
                            to: point(to),
                        });
                    });
                }
            }
            Side::Tiger => {
                for d in 0..DIRECTIONS {
                    let delta = 2 * i32::from(DELTAS[d]);
                    for_each_bit(jumps(tigers, sheep, empty, d), |to| {
                        list.push(Move::Jump {
                            from: point((to as i32 - delta) as u32),
                            to: point(to),
                        });
                    });
                }
                for d in 0..DIRECTIONS {
                    let delta = i32::from(DELTAS[d]);
                    for_each_bit(steps(tigers, empty, d), |to| {
                        list.push(Move::Step {
                            from: point((to as i32 - delta) as u32),
                            to: point(to),
                        });
                    });
                }
            }
        }
    }

    /// Every legal move, in a new list (see [`generate_moves`](Board::generate_moves)).
    pub fn legal_moves(self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }

    /// The number of legal moves, counted from the masks without listing them.
    pub fn count_moves(self) -> u32 {
        if self.dead() >= KILLS_TO_WIN {
            return 0;
        }
        let (tigers, sheep, empty) =
            (self.tigers().bits(), self.sheep().bits(), self.empty().bits());
        match self.side_to_move() {
            Side::Sheep if self.in_hand() > 0 => empty.count_ones(),
            Side::Sheep => (0..DIRECTIONS).map(|d| steps(sheep, empty, d).count_ones()).sum(),
            Side::Tiger => (0..DIRECTIONS)
                .map(|d| {
                    steps(tigers, empty, d).count_ones()
                        + jumps(tigers, sheep, empty, d).count_ones()
                })
                .sum(),
        }
    }

    /// Whether the side to move has a legal move (false once five sheep are dead).
    #[inline]
    pub fn has_moves(self) -> bool {
        if self.dead() >= KILLS_TO_WIN {
            return false;
        }
        match self.side_to_move() {
            Side::Sheep if self.in_hand() > 0 => true, // at most 20 pieces stand on 25 points
            Side::Sheep => self.sheep_step_targets().bits() != 0,
            Side::Tiger => !self.mobile_tigers().is_empty(),
        }
    }

    /// Points some sheep could step to (ignoring whether sheep are still in hand).
    #[inline]
    pub fn sheep_step_targets(self) -> Bitboard {
        let (sheep, empty) = (self.sheep().bits(), self.empty().bits());
        let mut out = 0;
        for d in 0..DIRECTIONS {
            out |= steps(sheep, empty, d);
        }
        Bitboard::from_bits_truncate(out)
    }

    /// Points some tiger could step to.
    #[inline]
    pub fn tiger_step_targets(self) -> Bitboard {
        let (tigers, empty) = (self.tigers().bits(), self.empty().bits());
        let mut out = 0;
        for d in 0..DIRECTIONS {
            out |= steps(tigers, empty, d);
        }
        Bitboard::from_bits_truncate(out)
    }

    /// Sheep that some tiger could jump right now, whoever is to move.
    #[inline]
    pub fn capturable_sheep(self) -> Bitboard {
        let (tigers, sheep, empty) =
            (self.tigers().bits(), self.sheep().bits(), self.empty().bits());
        let mut out = 0;
        for d in 0..DIRECTIONS {
            // A sheep is open in direction d if a tiger is behind it and the point beyond is empty.
            let over = shift(tigers & JUMP_SOURCES[d], DELTAS[d]) & sheep;
            out |= over & shift(empty, -DELTAS[d]);
        }
        Bitboard::from_bits_truncate(out)
    }

    /// How many steps and jumps the tigers have, whoever is to move: the length of their
    /// move list when they are to move. Counts only, no list: cheap enough for an evaluation.
    ///
    /// ```
    /// use tns_board::Board;
    ///
    /// // At the start each corner tiger has three steps.
    /// assert_eq!(Board::START.tiger_moves(), 12);
    /// let b: Board = "T3T/5/5/5/T3T t 20".parse()?;
    /// assert_eq!(b.tiger_moves() as usize, b.legal_moves().len());
    /// # Ok::<(), tns_board::ParsePositionError>(())
    /// ```
    #[inline]
    pub fn tiger_moves(self) -> u32 {
        let (tigers, sheep, empty) =
            (self.tigers().bits(), self.sheep().bits(), self.empty().bits());
        let mut n = 0;
        for d in 0..DIRECTIONS {
            n += steps(tigers, empty, d).count_ones() + jumps(tigers, sheep, empty, d).count_ones();
        }
        n
    }

    /// Tigers with at least one step or jump, whoever is to move.
    #[inline]
    pub fn mobile_tigers(self) -> Bitboard {
        let (tigers, sheep, empty) =
            (self.tigers().bits(), self.sheep().bits(), self.empty().bits());
        let mut out = 0;
        for d in 0..DIRECTIONS {
            // Walk the destinations back to their sources.
            out |= shift(steps(tigers, empty, d), -DELTAS[d]);
            out |= shift(jumps(tigers, sheep, empty, d), -2 * DELTAS[d]);
        }
        Bitboard::from_bits_truncate(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_moves() {
        let moves = Board::START.legal_moves();
        assert_eq!(moves.len(), 21);
        assert!(moves.iter().all(|m| matches!(m, Move::Place(_))));
        assert_eq!(Board::START.count_moves(), 21);
    }

    #[test]
    fn counts_match_lists() {
        for fen in [
            "T3T/5/2S2/5/T3T t 19",
            "STSTT/SSSSS/SSTSS/1S1SS/SSSSS s 0",
            "SS1SS/TT1SS/TSSSS/S1TSS/SS2S t 0",
            "TSS2/1TS1S/S2S1/STST1/SSS2 s 5",
        ] {
            let b: Board = fen.parse().unwrap();
            assert_eq!(b.count_moves() as usize, b.legal_moves().len(), "{fen}");
            assert_eq!(b.has_moves(), b.count_moves() > 0, "{fen}");
        }
    }

    #[test]
    fn trapped_tigers_are_not_mobile() {
        // The a5 tiger is walled in by sheep it cannot jump (the points beyond are taken).
        let b: Board = "TSS1T/SSS2/S1S2/5/T3T t 13".parse().unwrap();
        assert!(!b.mobile_tigers().contains("a5".parse().unwrap()));
        assert_eq!(b.mobile_tigers().len(), 3);
    }

    #[test]
    fn capturable() {
        let b: Board = "TS2T/5/5/5/T3T s 19".parse().unwrap();
        assert_eq!(b.capturable_sheep().iter().map(|p| p.to_string()).collect::<Vec<_>>(), ["b5"]);
    }
}
