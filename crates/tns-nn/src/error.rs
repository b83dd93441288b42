//! What can go wrong with a network or its file.

use std::path::PathBuf;

/// Why a network could not be made, saved or loaded.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// Layer sizes that are not 52 inputs, up to 8 hidden layers of 1 to 256, and 1 output.
    #[error(
        "bad layer sizes {0:?}: expected 52 inputs, 1 to 8 hidden layers of 1 to 256, 1 output"
    )]
    Sizes(Vec<usize>),
    /// The parameters do not fit the layer sizes.
    #[error("{found} parameters, but the layer sizes need {expected}")]
    ParameterCount {
        /// What the sizes need.
        expected: usize,
        /// What was given.
        found: usize,
    },
    /// A parameter is NaN or infinite.
    #[error("parameter {index} is not a finite number")]
    NotFinite {
        /// Its index among the parameters.
        index: usize,
    },
    /// The weights file does not exist.
    #[error("{}: no such weights file", .0.display())]
    Missing(PathBuf),
    /// Reading or writing failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file does not start with the weights magic number.
    #[error("{}: not a Tigers and Sheep weights file", .0.display())]
    Foreign(PathBuf),
    /// Another version of the format.
    #[error("{}: weights format version {found}, expected {expected}", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// The version it holds.
        found: u32,
        /// The version this library reads.
        expected: u32,
    },
    /// The file ends too early or has bytes left over.
    #[error("{}: {found} bytes, expected {expected} (truncated or padded)", path.display())]
    Length {
        /// The file.
        path: PathBuf,
        /// Its length.
        found: u64,
        /// The length its header implies.
        expected: u64,
    },
    /// The checksum does not match.
    #[error("{}: checksum mismatch, the file is corrupted", .0.display())]
    Checksum(PathBuf),
    /// The file's sizes or parameters are invalid.
    #[error("{}: {source}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: Box<NetworkError>,
    },
}
