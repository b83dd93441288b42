//! The solved movement phase of Tigers and Sheep.
//!
//! Once the twenty sheep are placed, the game has few enough positions to solve completely:
//! four tigers, sixteen to twenty sheep (none to four dead), either side to move; 88,260,972
//! positions up to symmetry. [`Tablebase::build`] solves them by retrograde analysis, one slice
//! per number of dead sheep from four down, and gives every position its value for the side to
//! move with the number of plies to the end under best play ([`Value`]). Positions neither side
//! can win are draws.
//!
//! Each symmetry class of positions is stored once, indexed by its tiger set's class and the
//! rank of its empty points; a slice is saved to its own checksummed file as soon as it is
//! built, so an interrupted build resumes where it stopped. The number of kills that wins is a
//! parameter: the 1- and 2-kill variants solve in moments, which the tests use.
//!
//! [`WithTablebase`] puts a table in front of any `tns_search::Evaluator`, so the same search
//! plays the movement phase perfectly.
//!
//! ```
//! use tns_board::Board;
//! use tns_tablebase::{Tablebase, Value};
//!
//! // The variant won by two kills: two slices, built in a moment.
//! let table = Tablebase::build(2, None, |_| {})?;
//! table.verify()?;
//! let board: Board = "TS1ST/SSSSS/SSSSS/SSSSS/TSSST s 0".parse()?;
//! // The sheep to move must fill c5 or lose b5 or d5; the table knows how it ends.
//! let value = table.probe(board).expect("no sheep in hand: the table holds it");
//! let (best, after) = table.best_move(board).expect("the sheep have moves");
//! assert_eq!(after, value);
//! assert!(board.check_move(best).is_ok());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod build;
mod error;
mod eval;
mod file;
mod index;
mod layer;
mod layer_file;
mod placement;
mod slice;
mod tablebase;
mod value;
mod whole_game;

pub use build::SliceProgress;
pub use error::{TablebaseError, VerifyError};
pub use eval::{WithTablebase, score_of};
pub use layer::LayerStats;
pub use tablebase::{BuildEvent, SliceStats, Tablebase};
pub use value::{Value, Verdict, Wdl};
pub use whole_game::PlacementEvent;

/// The format version of the files this crate writes and reads.
pub const FORMAT_VERSION: u32 = file::VERSION;

/// The format version of the placement layer files this crate writes and reads.
pub const LAYER_FORMAT_VERSION: u32 = layer_file::VERSION;
