#![doc = include_str!("../README.md")]

mod blocks;
mod build_lock;
mod cache;
mod dir;
mod effect;
mod error;
mod eval;
mod index;
mod movement;
mod placement;
mod reach;
mod tablebase;
mod traps;
mod value;
mod verify;
mod whole_game;

pub use dir::{FileReport, TableFile, TablePart};
pub use effect::MoveEffect;
pub use error::{BlockFault, TablebaseError, VerifyError};
pub use eval::{WithTablebase, score_of};
pub use movement::build::SliceProgress;
pub use placement::layer::LayerStats;
pub use reach::ReachedPly;
pub use tablebase::{BuildEvent, SliceStats, Tablebase};
pub use value::{Value, Verdict, Wdl};
pub use whole_game::PlacementEvent;

/// The format version of the files this crate writes and reads.
pub const FORMAT_VERSION: u32 = movement::file::FORMAT.version;

/// The format version of the placement layer files this crate writes and reads.
pub const LAYER_FORMAT_VERSION: u32 = placement::file::FORMAT.version;
