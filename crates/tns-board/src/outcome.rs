//! How a game ends.

use std::fmt;

use crate::board::KILLS_TO_WIN;
use crate::{Board, ParseEndReasonError, Side};

/// Why a game ended: by the rules (the first three, which [`Game`](crate::Game) finds
/// itself), or outside the board (a resignation, an agreed draw, a fallen flag: a program
/// playing the game records these).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum EndReason {
    /// The tigers killed five sheep.
    FiveDead,
    /// The side to move had no legal move (for sheep, this is trapping every tiger).
    NoMoves,
    /// The same position, with the same side to move, came up for the third time.
    Repetition,
    /// The loser resigned.
    Resignation,
    /// The players agreed to a draw.
    Agreement,
    /// The loser's clock ran out (its flag fell).
    TimeForfeit,
}

impl fmt::Display for EndReason {
    /// `five sheep dead`, `no moves`, `repetition`, `resignation`, `agreement`, `time forfeit`
    /// (PGN's word for it, in its `Termination` tag).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::FiveDead => "five sheep dead",
            EndReason::NoMoves => "no moves",
            EndReason::Repetition => "repetition",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::TimeForfeit => "time forfeit",
        })
    }
}

impl EndReason {
    /// Every reason, in the order they are declared.
    pub const ALL: [EndReason; 6] = [
        EndReason::FiveDead,
        EndReason::NoMoves,
        EndReason::Repetition,
        EndReason::Resignation,
        EndReason::Agreement,
        EndReason::TimeForfeit,
    ];
}

impl std::str::FromStr for EndReason {
    type Err = ParseEndReasonError;

    /// The words [`Display`](fmt::Display) writes, as a record's `Termination` tag holds them.
    ///
    /// ```
    /// use tns_board::EndReason;
    ///
    /// assert_eq!("time forfeit".parse(), Ok(EndReason::TimeForfeit));
    /// assert!("flag".parse::<EndReason>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<EndReason, ParseEndReasonError> {
        EndReason::ALL
            .into_iter()
            .find(|r| r.to_string() == s)
            .ok_or_else(|| ParseEndReasonError(s.chars().take(40).collect()))
    }
}

/// The end of a game: the winner (none for a draw) and why.
///
/// ```
/// use tns_board::{Board, EndReason, Outcome, Side};
///
/// assert_eq!(Outcome::of_board(Board::START), None);
/// // The tigers to move, every step and jump blocked: the sheep have won.
/// let walled_in: Board = "TSSST/SSSSS/S1SSS/SSSSS/TSSST t 0".parse()?;
/// assert_eq!(
///     Outcome::of_board(walled_in),
///     Some(Outcome { winner: Some(Side::Sheep), reason: EndReason::NoMoves })
/// );
/// assert_eq!(Outcome::DRAW_BY_REPETITION.winner, None);
/// # Ok::<(), tns_board::ParsePositionError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// The side that won, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// The result without repetition: five dead sheep, or a side to move with no legal move.
    /// `None` while the game goes on (as far as the board alone can tell).
    pub fn of_board(board: Board) -> Option<Outcome> {
        if board.dead() >= KILLS_TO_WIN {
            Some(Outcome { winner: Some(Side::Tiger), reason: EndReason::FiveDead })
        } else if !board.has_moves() {
            Some(Outcome { winner: Some(board.side_to_move().other()), reason: EndReason::NoMoves })
        } else {
            None
        }
    }

    /// A draw by threefold repetition.
    pub const DRAW_BY_REPETITION: Outcome = Outcome { winner: None, reason: EndReason::Repetition };

    /// A draw the players agreed.
    pub const DRAW_BY_AGREEMENT: Outcome = Outcome { winner: None, reason: EndReason::Agreement };

    /// The other side's win, `side` having resigned.
    ///
    /// ```
    /// use tns_board::{EndReason, Outcome, Side};
    ///
    /// let o = Outcome::resigned(Side::Sheep);
    /// assert_eq!((o.winner, o.reason), (Some(Side::Tiger), EndReason::Resignation));
    /// assert_eq!(o.to_string(), "Tigers win: the sheep resigned");
    /// ```
    pub const fn resigned(side: Side) -> Outcome {
        Outcome { winner: Some(side.other()), reason: EndReason::Resignation }
    }

    /// The other side's win, `side`'s clock having run out.
    ///
    /// ```
    /// use tns_board::{EndReason, Outcome, Side};
    ///
    /// let o = Outcome::lost_on_time(Side::Tiger);
    /// assert_eq!((o.winner, o.reason), (Some(Side::Sheep), EndReason::TimeForfeit));
    /// assert_eq!(o.to_string(), "Sheep win on time: the tigers' flag fell");
    /// ```
    pub const fn lost_on_time(side: Side) -> Outcome {
        Outcome { winner: Some(side.other()), reason: EndReason::TimeForfeit }
    }

    /// `+1` if the tigers won, `-1` if the sheep won, `0` for a draw.
    pub const fn tiger_value(self) -> i32 {
        match self.winner {
            Some(side) => side.sign(),
            None => 0,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match (self.reason, self.winner) {
            (EndReason::Agreement, _) => "Draw by agreement",
            (EndReason::Resignation, Some(Side::Sheep)) => "Sheep win: the tigers resigned",
            (EndReason::Resignation, Some(Side::Tiger)) => "Tigers win: the sheep resigned",
            (EndReason::TimeForfeit, Some(Side::Sheep)) => {
                "Sheep win on time: the tigers' flag fell"
            }
            (EndReason::TimeForfeit, Some(Side::Tiger)) => {
                "Tigers win on time: the sheep's flag fell"
            }
            (EndReason::Repetition, _) | (_, None) => "Draw by threefold repetition",
            (EndReason::FiveDead, _) => "Tigers win: five sheep are dead",
            (EndReason::NoMoves, Some(Side::Sheep)) => "Sheep win: the tigers cannot move",
            (EndReason::NoMoves, Some(Side::Tiger)) => "Tigers win: the sheep cannot move",
        })
    }
}

#[cfg(test)]
mod reason_tests {
    use super::*;

    #[test]
    fn every_reason_reads_back_from_its_words() {
        for reason in EndReason::ALL {
            assert_eq!(reason.to_string().parse::<EndReason>(), Ok(reason));
        }
        let err = "resigned".parse::<EndReason>().unwrap_err();
        assert!(err.to_string().contains("time forfeit"), "{err}");
    }
}
