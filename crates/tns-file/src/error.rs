//! What can be wrong with a file.

/// Why a file could not be read, written or decoded. It names no file: the caller knows which
/// file it was working on and adds it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FileError {
    /// The file does not exist.
    #[error("no such file")]
    Missing,
    /// Not a plain file: a directory, a FIFO or a device.
    #[error("not a plain file (a directory, a FIFO or a device)")]
    NotAFile,
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// A text file that is not UTF-8.
    #[error("not UTF-8 text")]
    NotText,
    /// A file larger than the reader takes.
    #[error("{size} bytes, more than the {limit} this reads")]
    TooLarge {
        /// The file's size.
        size: u64,
        /// The most the reader takes.
        limit: u64,
    },
    /// The bytes do not start with this format's magic number: another kind of file.
    #[error("not a Tigers and Sheep {0}")]
    Foreign(&'static str),
    /// Another version of the format.
    #[error("format version {found}, expected {expected}")]
    Version {
        /// The version the file holds.
        found: u32,
        /// The version this code reads.
        expected: u32,
    },
    /// The file ends too early or has bytes left over.
    #[error("{found} bytes, expected {expected} (truncated or padded)")]
    Length {
        /// Its length.
        found: u64,
        /// The length its header implies.
        expected: u64,
    },
    /// The checksum does not match the contents.
    #[error("checksum mismatch, the file is corrupted")]
    Checksum,
    /// A well-formed file of the format, but not the one asked for.
    #[error("holds {found}, expected {expected}")]
    Contents {
        /// What it holds.
        found: String,
        /// What was asked for.
        expected: String,
    },
}
