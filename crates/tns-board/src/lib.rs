#![doc = include_str!("../README.md")]

mod bitboard;
mod board;
mod error;
mod game;
mod masks;
mod movegen;
mod moves;
mod outcome;
mod perft;
mod point;
mod position;
mod record;
mod repetition;
#[cfg(feature = "serde")]
mod serde_impls;
mod side;
mod symmetry;

pub use bitboard::{Bitboard, Points};
pub use board::{Board, KILLS_TO_WIN, TOTAL_SHEEP};
pub use error::{
    MoveError, ParseEndReasonError, ParseMoveError, ParsePointError, ParsePositionError,
    ParseRecordError, ParseSideError, PlayError, PositionError, ReplayError, TagError,
};
pub use game::Game;
pub use moves::{MAX_MOVES, Move, MoveList, MoveListIntoIter};
pub use outcome::{EndReason, Outcome};
pub use perft::{perft, perft_divide};
pub use point::Point;
pub use record::{GameRecord, RecordResult, utc_date};
pub use repetition::{REPETITION_DRAW, repetition_candidates, repetitions};
pub use side::Side;
pub use symmetry::Symmetry;
