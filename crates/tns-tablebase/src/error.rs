//! What can go wrong with a tablebase.

use std::path::PathBuf;

/// Why a tablebase could not be built, saved or loaded.
#[derive(Debug, thiserror::Error)]
pub enum TablebaseError {
    /// The number of kills that wins is not between 1 and 5.
    #[error("the number of kills that wins must be between 1 and 5, not {0}")]
    Kills(u8),
    /// A table file could not be read or written, or is not the file asked for (another
    /// kind of file, another version, cut short or padded, damaged, or another slice or layer).
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: tns_file::FileError,
    },
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

impl TablebaseError {
    /// A file error, naming the file.
    pub(crate) fn file(path: &std::path::Path, source: impl Into<tns_file::FileError>) -> Self {
        TablebaseError::File { path: path.to_path_buf(), source: source.into() }
    }

    /// Whether a file the table needs was simply not there (not built yet), rather than
    /// unreadable or damaged.
    pub fn is_missing(&self) -> bool {
        matches!(self, TablebaseError::File { source: tns_file::FileError::Missing, .. })
    }
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
