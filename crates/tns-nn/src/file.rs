//! The weights file format.
//!
//! | bytes | field |
//! |------:|-------|
//! | 8 | magic `TNS-NN\r\n` |
//! | 4 | format version, little-endian |
//! | 4 | number of layer sizes `n` (inputs, hidden layers, output) |
//! | 4 × n | the sizes |
//! | 4 × parameters | the parameters as little-endian `f32`, in [`Network::params`] order |
//! | 8 | checksum of everything before it ([`tns_board::checksum`]) |

// Casts allowed in this file only:
// narrowing casts of values that fit by construction (point indices under 25, move counts, table indices, durations in milliseconds).
#![allow(clippy::cast_possible_truncation)]

use std::path::Path;

use crate::network::{check_sizes, parameter_count};
use crate::{Network, NetworkError};

const MAGIC: &[u8; 8] = b"TNS-NN\r\n";
/// The version of the weights format this crate writes and reads.
pub const WEIGHTS_VERSION: u32 = 1;

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

impl Network {
    /// The network as the bytes of a weights file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + 4 * self.sizes().len() + 4 * self.params().len() + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&WEIGHTS_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.sizes().len() as u32).to_le_bytes());
        for &s in self.sizes() {
            out.extend_from_slice(&(s as u32).to_le_bytes());
        }
        for p in self.params() {
            out.extend_from_slice(&p.to_le_bytes());
        }
        let sum = tns_board::checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a network from the bytes of a weights file; `path` only names it in errors.
    ///
    /// # Errors
    /// A specific [`NetworkError`] for bytes that are foreign, of another version, truncated or
    /// padded, corrupted (checksum), or that hold invalid sizes or a NaN.
    pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Network, NetworkError> {
        let path_buf = || path.to_path_buf();
        if bytes.get(..MAGIC.len()) != Some(MAGIC.as_slice()) {
            return Err(NetworkError::Foreign(path_buf()));
        }
        let length = |expected: usize| NetworkError::Length {
            path: path_buf(),
            found: bytes.len() as u64,
            expected: expected as u64,
        };
        let version = u32_at(bytes, 8).ok_or_else(|| length(16))?;
        if version != WEIGHTS_VERSION {
            return Err(NetworkError::Version {
                path: path_buf(),
                found: version,
                expected: WEIGHTS_VERSION,
            });
        }
        let count = u32_at(bytes, 12).ok_or_else(|| length(16))? as usize;
        let invalid = |source| NetworkError::Invalid { path: path_buf(), source: Box::new(source) };
        if !(2..=10).contains(&count) {
            return Err(invalid(NetworkError::Sizes(vec![count])));
        }
        let sizes = (0..count)
            .map(|i| u32_at(bytes, 16 + 4 * i).map(|s| s as usize))
            .collect::<Option<Vec<usize>>>()
            .ok_or_else(|| length(16 + 4 * count))?;
        check_sizes(&sizes).map_err(invalid)?;
        let params_at = 16 + 4 * count;
        let n = parameter_count(&sizes);
        let expected = params_at + 4 * n + 8;
        if bytes.len() != expected {
            return Err(length(expected));
        }
        let body = expected - 8;
        let stored = u64::from_le_bytes(bytes[body..].try_into().map_err(|_| length(expected))?);
        if tns_board::checksum(&bytes[..body]) != stored {
            return Err(NetworkError::Checksum(path_buf()));
        }
        let params = bytes[params_at..body]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Network::from_params(sizes, params).map_err(invalid)
    }

    /// Saves the network, whole or not at all (a temporary file, then a rename).
    ///
    /// # Errors
    /// [`NetworkError::Io`] when the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), NetworkError> {
        tns_board::write_atomically(path, &self.to_bytes())
            .map_err(|source| NetworkError::Io { path: path.to_path_buf(), source })
    }

    /// Loads a weights file.
    ///
    /// # Errors
    /// [`NetworkError::Missing`] for a file that does not exist, [`NetworkError::Io`] for one
    /// that cannot be read, and the errors of [`Network::from_bytes`].
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let bytes = std::fs::read(path).map_err(|source| match source.kind() {
            std::io::ErrorKind::NotFound => NetworkError::Missing(path.to_path_buf()),
            _ => NetworkError::Io { path: path.to_path_buf(), source },
        })?;
        Network::from_bytes(path, &bytes)
    }
}
