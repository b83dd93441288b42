//! How an online game ended: the rules' reasons and those of a game between people.

use std::fmt;

use serde::{Deserialize, Serialize};
use tns_board::{EndReason, Outcome, Side};

/// Why an online game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Reason {
    /// The tigers killed five sheep.
    #[serde(rename = "five sheep dead")]
    FiveDead,
    /// The side to move had no legal move.
    #[serde(rename = "no moves")]
    NoMoves,
    /// The same position came up for the third time.
    #[serde(rename = "repetition")]
    Repetition,
    /// A side resigned.
    #[serde(rename = "resignation")]
    Resignation,
    /// Both sides agreed to a draw.
    #[serde(rename = "agreement")]
    Agreement,
    /// A side's clock ran out.
    #[serde(rename = "time forfeit")]
    TimeForfeit,
    /// A side was gone and its opponent claimed the win.
    #[serde(rename = "abandoned")]
    Abandoned,
    /// Nobody played in time: no winner.
    #[serde(rename = "expired")]
    Expired,
}

impl From<EndReason> for Reason {
    fn from(reason: EndReason) -> Reason {
        match reason {
            EndReason::FiveDead => Reason::FiveDead,
            EndReason::NoMoves => Reason::NoMoves,
            EndReason::Repetition => Reason::Repetition,
            EndReason::Resignation => Reason::Resignation,
            EndReason::Agreement => Reason::Agreement,
            // The only other reason the board's crate has; new ones would read as a forfeit
            // until named here.
            _ => Reason::TimeForfeit,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::FiveDead => "five sheep dead",
            Reason::NoMoves => "no moves",
            Reason::Repetition => "repetition",
            Reason::Resignation => "resignation",
            Reason::Agreement => "agreement",
            Reason::TimeForfeit => "time forfeit",
            Reason::Abandoned => "abandoned",
            Reason::Expired => "expired",
        })
    }
}

/// How a game ended: the winner (none for a draw or an expired game), and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Finish {
    /// The side that won, if one did.
    #[serde(with = "crate::side_name::option")]
    pub winner: Option<Side>,
    /// Why it ended.
    pub reason: Reason,
}

impl From<Outcome> for Finish {
    fn from(outcome: Outcome) -> Finish {
        Finish { winner: outcome.winner, reason: outcome.reason.into() }
    }
}

impl fmt::Display for Finish {
    /// "tigers win (resignation)", "draw (repetition)", "no result (expired)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.winner, self.reason) {
            (Some(side), reason) => write!(f, "{} win ({reason})", crate::side_name::of(side)),
            (None, Reason::Expired) => f.write_str("no result (expired)"),
            (None, reason) => write!(f, "draw ({reason})"),
        }
    }
}
