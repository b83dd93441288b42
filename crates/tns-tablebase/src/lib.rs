#![doc = include_str!("../README.md")]

mod blocks;
mod build;
mod cache;
mod dir;
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
mod verify;
mod whole_game;

pub use build::SliceProgress;
pub use dir::{FileReport, TableFile, TablePart};
pub use error::{BlockFault, TablebaseError, VerifyError};
pub use eval::{WithTablebase, score_of};
pub use layer::LayerStats;
pub use tablebase::{BuildEvent, SliceStats, Tablebase};
pub use value::{Value, Verdict, Wdl};
pub use whole_game::PlacementEvent;

/// The format version of the files this crate writes and reads.
pub const FORMAT_VERSION: u32 = file::FORMAT.version;

/// The format version of the placement layer files this crate writes and reads.
pub const LAYER_FORMAT_VERSION: u32 = layer_file::FORMAT.version;
