//! The error types of the crate: each says what was wrong and where.

use thiserror::Error;

use crate::{Move, Point, Side};

/// Why a string is not a point such as `c3`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParsePointError {
    /// Fewer than two characters.
    #[error("point {0:?} is too short: expected a file a-e and a rank 1-5, like c3")]
    TooShort(String),
    /// The first character is not a file letter.
    #[error("bad file {0:?}: expected a letter a-e")]
    BadFile(char),
    /// The second character is not a rank digit.
    #[error("bad rank {0:?}: expected a digit 1-5")]
    BadRank(char),
    /// Something follows the two characters of the point.
    #[error("point {0:?} has extra characters after the rank")]
    TrailingInput(String),
    /// An index that is not below 25.
    #[error("point index {0} is not below 25")]
    Index(u8),
}

/// Why a tag cannot be set on a record ([`GameRecord::set_tag`](crate::GameRecord::set_tag)).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TagError {
    /// An empty name, or one with characters other than ASCII letters, digits and `_`.
    #[error("tag name {0:?}: letters, digits and _ only, and not empty")]
    BadName(String),
    /// A tag the record writes from its own fields.
    #[error("the {0} tag is written from the record itself (its start, result or players)")]
    Reserved(String),
}

/// Why a string is not a side (`sheep`, `tiger`, `s`, `t`).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("side {0:?}: expected sheep or tiger (or s, t)")]
pub struct ParseSideError(pub String);

/// Why a string is not an ending's reason (`resignation`, `time forfeit`...).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "reason {0:?}: expected five sheep dead, no moves, repetition, resignation, agreement or \
     time forfeit"
)]
pub struct ParseEndReasonError(pub String);

/// Why a string is not a move such as `c3`, `a5b4` or `a5c3`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// Not 2 (a placement) or 4 (a step or jump) characters, or 5 with an `x` (a kill).
    #[error(
        "move {0:?} should be one point (a placement, like c3) or two (a step or jump, like a5b4)"
    )]
    Length(String),
    /// One of the points is malformed.
    #[error("move {text:?}: {source}")]
    Point {
        /// The whole move text.
        text: String,
        /// What is wrong with the point.
        source: ParsePointError,
    },
    /// A move from a point to itself.
    #[error("move {0:?} starts and ends on the same point")]
    SamePoint(String),
    /// `x` (a kill) between two points that are not a jump apart.
    #[error("move {0:?}: x marks a kill, but the points are not a jump (two apart in a line)")]
    NotAJump(String),
}

/// Why a move is illegal in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MoveError {
    /// The game is already over: five sheep are dead.
    #[error("the game is over: five sheep are dead")]
    GameOver,
    /// A placement on the tigers' turn.
    #[error("tigers cannot place pieces; it is the tigers' turn")]
    TigerCannotPlace,
    /// A placement with no sheep left in hand.
    #[error("no sheep are left in hand to place")]
    NoSheepInHand,
    /// A sheep step while sheep are still in hand: every sheep must be placed first.
    #[error("sheep must all be placed before any sheep moves ({in_hand} still in hand)")]
    MustPlace {
        /// Sheep still in hand.
        in_hand: u8,
    },
    /// The destination of a move is not empty.
    #[error("{0} is occupied")]
    Occupied(Point),
    /// The piece to move is not there.
    #[error("there is no {side} on {from}")]
    NoPiece {
        /// The side to move.
        side: Side,
        /// The point the move starts from.
        from: Point,
    },
    /// A step that does not follow one line segment.
    #[error("{from} and {to} are not joined by a line")]
    NotALine {
        /// Start of the step.
        from: Point,
        /// End of the step.
        to: Point,
    },
    /// A jump that does not go two points along a straight line.
    #[error("{from} to {to} is not a jump along a line")]
    NotAJumpLine {
        /// Start of the jump.
        from: Point,
        /// End of the jump.
        to: Point,
    },
    /// Sheep only step; they never jump.
    #[error("sheep cannot jump")]
    SheepCannotJump,
    /// A jump over a point that holds no sheep.
    #[error("a tiger can only jump over a sheep, and there is none on {0}")]
    NothingToJump(Point),
}

/// Why a set of pieces is not a position of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PositionError {
    /// There must be exactly four tigers.
    #[error("expected 4 tigers, found {0}")]
    TigerCount(u32),
    /// A point holds a tiger and a sheep.
    #[error("{0} holds both a tiger and a sheep")]
    Overlap(Point),
    /// Sheep on the board plus sheep in hand exceed 20.
    #[error("{on_board} sheep on the board and {in_hand} in hand make more than 20")]
    TooManySheep {
        /// Sheep on the board.
        on_board: u32,
        /// Sheep still to place.
        in_hand: u32,
    },
    /// More than five sheep would be dead.
    #[error("{0} sheep would be dead; the game ends at 5")]
    TooManyDead(u32),
    /// A mask has bits outside the 25 points.
    #[error("mask {0:#x} has bits outside the 25 points")]
    OffBoard(u32),
}

/// Why a string is not a position such as `T3T/5/5/5/T3T s 20`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParsePositionError {
    /// Not exactly three space-separated fields.
    #[error("expected 3 fields (ranks, side, sheep in hand), found {0}")]
    FieldCount(usize),
    /// Not exactly five ranks.
    #[error("expected 5 ranks separated by '/', found {0}")]
    RankCount(usize),
    /// A rank that does not describe exactly five points.
    #[error("rank {rank} describes {points} points, not 5")]
    RankLength {
        /// The rank, `'5'` (top) to `'1'`.
        rank: char,
        /// How many points it described.
        points: u32,
    },
    /// A character that is not `T`, `S` or a digit 1-5.
    #[error("rank {rank}: bad character {ch:?} (expected T, S or a digit 1-5)")]
    BadChar {
        /// The rank, `'5'` (top) to `'1'`.
        rank: char,
        /// The character.
        ch: char,
    },
    /// The side field is not `s` or `t`.
    #[error("bad side to move {0:?}: expected s or t")]
    BadSide(String),
    /// The in-hand field is not a number from 0 to 20.
    #[error("bad sheep-in-hand count {0:?}: expected a number from 0 to 20")]
    BadInHand(String),
    /// The pieces do not form a position of the game.
    #[error(transparent)]
    Invalid(#[from] PositionError),
}

/// Why a game record cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseRecordError {
    /// A header line that is not `[Name "value"]`.
    #[error("line {line}: bad tag {text:?}: expected [Name \"value\"]")]
    BadTag {
        /// 1-based line number.
        line: usize,
        /// The line's text.
        text: String,
    },
    /// The `Position` tag holds a bad position.
    #[error("line {line}: bad Position tag: {source}")]
    Position {
        /// 1-based line number.
        line: usize,
        /// What is wrong with the position.
        source: ParsePositionError,
    },
    /// The `Result` tag is not `1-0`, `0-1`, `1/2-1/2`, `*` (or the older `sheep`, `tiger`,
    /// `draw`).
    #[error(
        "line {line}: bad Result tag {value:?}: expected 1-0 (the sheep won), 0-1 (the tigers), \
         1/2-1/2, * (or sheep, tiger, draw)"
    )]
    BadResult {
        /// 1-based line number.
        line: usize,
        /// The tag's value.
        value: String,
    },
    /// A move number that is not the move's (`1. c3 a5b4 3. b2`).
    #[error("line {line}: move number {found} where {expected} was due")]
    MoveNumber {
        /// 1-based line number.
        line: usize,
        /// The number written.
        found: String,
        /// The number the move has.
        expected: usize,
    },
    /// The moves end the game by the rules, with another result than the `Result` tag's.
    #[error("the Result tag says {tag}, but the moves end the game: {outcome}")]
    ResultContradicts {
        /// The tag's result, as a token.
        tag: String,
        /// How the moves end the game.
        outcome: String,
    },
    /// The result token after the moves says another result than the `Result` tag.
    #[error("line {line}: the moves end in {token} but the Result tag says {tag}")]
    ResultMismatch {
        /// 1-based line number.
        line: usize,
        /// The token after the moves.
        token: String,
        /// The tag's result, as a token.
        tag: String,
    },
    /// A move that cannot be parsed.
    #[error("line {line}, ply {ply}: {source}")]
    BadMove {
        /// 1-based line number.
        line: usize,
        /// 1-based ply of the move in the game.
        ply: usize,
        /// What is wrong with it.
        source: ParseMoveError,
    },
    /// A move that is illegal where it is played.
    #[error("line {line}, ply {ply}: illegal move {mv}: {source}")]
    IllegalMove {
        /// 1-based line number.
        line: usize,
        /// 1-based ply of the move in the game.
        ply: usize,
        /// The move.
        mv: Move,
        /// Why it is illegal.
        source: PlayError,
    },
    /// A record of a file of records that does not end in its result (`1-0`, `0-1`,
    /// `1/2-1/2` or `*`), which ends every record written, as PGN asks: the file was cut short
    /// while it was written, or the record left unfinished.
    #[error(
        "line {line}: the record does not end in its result (1-0, 0-1, 1/2-1/2 or *): the file \
         is cut short"
    )]
    CutShort {
        /// 1-based line number of the record's first line.
        line: usize,
    },
}

/// Why [`Game::play`](crate::Game::play) refused a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PlayError {
    /// The game has already ended (the outcome says how).
    #[error("the game is over: {0}")]
    GameOver(crate::Outcome),
    /// The move is illegal in the current position.
    #[error(transparent)]
    Illegal(#[from] MoveError),
}

/// Why a [`GameRecord`](crate::GameRecord)'s moves do not replay.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("ply {ply}: cannot play {mv}: {source}")]
pub struct ReplayError {
    /// 1-based ply of the move.
    pub ply: usize,
    /// The move.
    pub mv: Move,
    /// Why it cannot be played.
    pub source: PlayError,
}
