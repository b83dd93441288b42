//! Why an action in an online game is refused: the player's to know.

use tns_board::Side;

use crate::side_name;
use crate::token::GameId;

/// An action the rules of an online game refuse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The game has ended.
    #[error("the game is over: {result}")]
    Over {
        /// How it ended.
        result: String,
    },
    /// It is the other side's turn.
    #[error("it is the {}' turn", side_name::of(*.turn))]
    NotYourTurn {
        /// The side to move.
        turn: Side,
    },
    /// The text is not a move.
    #[error("{text:?} is not a move: {reason}")]
    NotAMove {
        /// The text, shortened.
        text: String,
        /// The parser's reason.
        reason: String,
    },
    /// A move the rules do not allow here.
    #[error("{mv} is not legal in {position}")]
    Illegal {
        /// The move.
        mv: String,
        /// The position.
        position: String,
    },
    /// This side already offers a draw, or already asks for a rematch.
    #[error("you already offer it; the other side answers")]
    AlreadyOffered,
    /// A rematch asked for before the game ended.
    #[error("the game is not over")]
    NotOver,
    /// The rematch has been made already.
    #[error("the rematch is game {game}")]
    RematchMade {
        /// Its id.
        game: GameId,
    },
    /// A claim of the win against one of the server's players, which is never gone.
    #[error("only a person can be gone; the server's player is always here")]
    NotAPerson,
    /// A claim of the win before the opponent has been gone long enough.
    #[error("your opponent has not been gone long enough: you may claim in {seconds} s")]
    NotGone {
        /// Seconds until the claim is allowed, rounded up.
        seconds: u64,
    },
    /// A new game whose two sides are both the server's.
    #[error("at least one side is `friend`: the server does not play itself")]
    NoFriend,
    /// A new game's clock that does not parse, or has periods (online clocks are a base and an
    /// increment).
    #[error("bad clock: {0}")]
    BadClock(String),
}

/// What kind of refusal it is: a conflict with the game's state, or a request the rules can
/// never grant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalKind {
    /// The request is well formed but the game's state refuses it now (HTTP 409).
    Conflict,
    /// The request can never succeed as written (HTTP 422).
    Invalid,
}

impl Refusal {
    /// Its kind.
    pub fn kind(&self) -> RefusalKind {
        match self {
            Refusal::NotAMove { .. }
            | Refusal::Illegal { .. }
            | Refusal::NoFriend
            | Refusal::BadClock(_)
            | Refusal::NotAPerson => RefusalKind::Invalid,
            Refusal::Over { .. }
            | Refusal::NotYourTurn { .. }
            | Refusal::AlreadyOffered
            | Refusal::NotOver
            | Refusal::RematchMade { .. }
            | Refusal::NotGone { .. } => RefusalKind::Conflict,
        }
    }
}
