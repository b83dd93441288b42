//! What can go wrong with a tablebase.

use std::path::PathBuf;

/// Why a tablebase could not be built, saved or loaded.
#[derive(Debug, thiserror::Error)]
pub enum TablebaseError {
    /// The number of kills that wins is not between 1 and 5.
    #[error("the number of kills that wins must be between 1 and 5, not {0}")]
    Kills(u8),
    /// A slice's file does not exist.
    #[error("{}: no such file (build the table first)", .0.display())]
    Missing(PathBuf),
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file does not start with the tablebase magic number.
    #[error("{}: not a Tigers and Sheep tablebase file", .0.display())]
    Foreign(PathBuf),
    /// The file was written by another version of the format.
    #[error("{}: format version {found}, expected {expected}", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// The version it holds.
        found: u32,
        /// The version this library reads.
        expected: u32,
    },
    /// The file is shorter or longer than its header says.
    #[error("{}: {found} bytes, expected {expected} (truncated or padded)", path.display())]
    Length {
        /// The file.
        path: PathBuf,
        /// Its length.
        found: u64,
        /// The length its header implies.
        expected: u64,
    },
    /// The file holds a different slice or game than asked for.
    #[error("{}: holds {found}, expected {expected}", path.display())]
    Parameters {
        /// The file.
        path: PathBuf,
        /// What it holds.
        found: String,
        /// What was asked for.
        expected: String,
    },
    /// The checksum does not match the contents.
    #[error("{}: checksum mismatch, the file is corrupted", .0.display())]
    Checksum(PathBuf),
    /// A number of sheep placed outside 0 to 19 (the placement phase's layers).
    #[error("the placement layers hold 0 to 19 sheep placed, not {0}")]
    Placed(u8),
    /// A placement layer is not there to verify.
    #[error("placement layer {0} is not built")]
    NoLayer(u8),
    /// A stored value disagrees with its moves.
    #[error(transparent)]
    Wrong(#[from] VerifyError),
    /// The counts stored with a layer disagree with its values.
    #[error("layer {placed}: the stored counts say {stored}, the values give {counted}")]
    Counts {
        /// Sheep placed.
        placed: u8,
        /// The stored counts.
        stored: String,
        /// The counts of the values.
        counted: String,
    },
}

/// A stored value that disagrees with the values of its position's moves.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{position}: stored {stored}, but its moves give {expected}")]
pub struct VerifyError {
    /// The position, in position notation.
    pub position: String,
    /// The value in the table.
    pub stored: crate::Verdict,
    /// The value its moves imply.
    pub expected: crate::Verdict,
}
