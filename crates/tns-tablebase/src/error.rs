//! What can go wrong with a tablebase.

use std::path::PathBuf;

/// Why a tablebase could not be built, saved or loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TablebaseError {
    /// The number of kills that wins is not between 1 and 5.
    #[error("the number of kills that wins must be between 1 and 5, not {0}")]
    Kills(u8),
    /// A table of a variant (fewer kills win) where the real game's is needed: the perfect
    /// player plays the five-kill game.
    #[error("this table solves the {0}-kill variant, not the real game (five kills)")]
    Variant(u8),
    /// More movement slices given than a game of that many kills has.
    #[error("{given} movement slices given, but a game won by {kills} kills has only {kills}")]
    Slices {
        /// The slices given.
        given: usize,
        /// The kills that win the game.
        kills: u8,
    },
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
    /// A placement layer is not built: the table cannot answer for positions in it.
    #[error("placement layer {0} (sheep placed) is not built")]
    NoLayer(u8),
    /// A block of a table file failed its check when read: the file is damaged.
    #[error("{}: block {block} is damaged ({fault})", path.display())]
    Block {
        /// The file.
        path: PathBuf,
        /// The block, counted from 0.
        block: u64,
        /// What is wrong with it.
        #[source]
        fault: BlockFault,
    },
    /// The file is in an earlier format than this version reads (the build makes it again).
    #[error("{}: a table file of format version {version}, which this version does not read (it reads version {expected}): build the table again", path.display())]
    OldFormat {
        /// The file.
        path: PathBuf,
        /// Its format version.
        version: u32,
        /// The version read.
        expected: u32,
    },
    /// Another build is working in the directory.
    #[error("{}: another build ({}) is working in this directory; wait for it to finish, or stop it", path.display(), pid.map_or_else(|| "another process".to_owned(), |p| format!("process {p}")))]
    Locked {
        /// The lock file.
        path: PathBuf,
        /// The process holding it, as it wrote it (none if it had not yet).
        pid: Option<u32>,
    },
    /// The game is already over in the position (the tigers have made their kills): no value
    /// to look up.
    #[error("the game is over: {0}")]
    GameOver(String),
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

    /// Whether a table file is damaged (a block or its header fails its check, it is cut short
    /// or padded, or it holds something else): a file to build again, unlike one that cannot
    /// be read at all.
    pub fn is_damaged(&self) -> bool {
        use tns_file::FileError as F;
        match self {
            TablebaseError::Block { .. } => true,
            TablebaseError::File { source, .. } => {
                matches!(
                    source,
                    F::Checksum | F::Length { .. } | F::Contents { .. } | F::Foreign(_)
                )
            }
            _ => false,
        }
    }

    /// Whether a file the table needs was simply not there (not built yet), rather than
    /// unreadable or damaged.
    pub fn is_missing(&self) -> bool {
        matches!(self, TablebaseError::File { source: tns_file::FileError::Missing, .. })
    }
}

/// What is wrong with a damaged block.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum BlockFault {
    /// Its bytes do not match its checksum.
    #[error("checksum mismatch")]
    Checksum,
    /// The decompressor refused it (its error is also the `source()`).
    #[error("it does not decompress: {0}")]
    Decode(#[source] std::sync::Arc<std::io::Error>),
    /// It decompresses to the wrong number of bytes.
    #[error("it decompresses to {found} bytes, expected {expected}")]
    Length {
        /// Bytes it gave.
        found: usize,
        /// Bytes a block there holds.
        expected: usize,
    },
}

/// A stored value that disagrees with the values of its position's moves.
#[non_exhaustive]
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
