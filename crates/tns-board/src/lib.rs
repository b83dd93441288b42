//! The rules of Tigers and Sheep (Bagh-Chal), as a small, fast library.
//!
//! Four tigers hunt twenty sheep on a 5×5 board of points. The sheep are placed one a turn until
//! all twenty are down, then step along the lines; the tigers step, or jump a sheep to kill it.
//! Five dead sheep win for the tigers; a side with no legal move on its turn loses; the third
//! occurrence of a position is a draw.
//!
//! - [`Board`]: a whole position in 8 bytes (`Copy`), with move generation into a [`MoveList`]
//!   that never allocates, checked and unchecked move making, and the 8 [`Symmetry`]s.
//! - [`Game`]: a game with its history, undo and [`Outcome`]; [`GameRecord`] writes and reads it.
//! - Notation for [`Point`] (`c3`), [`Move`] (`c3`, `a5b4`) and [`Board`]
//!   (`T3T/5/5/5/T3T s 20`), each with `Display` and `FromStr` and an error type saying what is
//!   wrong.
//! - [`perft`] counts the legal-move tree, to test move generation.
//!
//! ```
//! use tns_board::{Board, Game, Move, Outcome, Side};
//!
//! let mut game = Game::from_position("TS2T/5/5/5/T3T t 15".parse()?);
//! let kill = game.legal_moves()[0];
//! assert_eq!(kill.to_string(), "a5c5");
//! game.play(kill)?;
//! let outcome = game.outcome().expect("five sheep are dead");
//! assert_eq!(outcome.winner, Some(Side::Tiger));
//! assert_eq!(outcome.to_string(), "Tigers win: five sheep are dead");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod bitboard;
mod board;
mod error;
mod file;
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
mod side;
mod symmetry;

pub use bitboard::{Bitboard, Points};
pub use board::{Board, KILLS_TO_WIN, TOTAL_SHEEP};
pub use error::{
    MoveError, ParseMoveError, ParsePointError, ParsePositionError, ParseRecordError, PlayError,
    PositionError, ReplayError,
};
pub use file::{checksum, write_atomically};
pub use game::Game;
pub use moves::{MAX_MOVES, Move, MoveList};
pub use outcome::{EndReason, Outcome};
pub use perft::{perft, perft_divide};
pub use point::Point;
pub use record::{GameRecord, RecordResult};
pub use repetition::{REPETITION_DRAW, repetition_candidates, repetitions};
pub use side::Side;
pub use symmetry::Symmetry;
