//! The weights file format.
//!
//! | bytes | field |
//! |------:|-------|
//! | 8 | magic `TNS-NN\r\n` |
//! | 4 | format version (2), little-endian |
//! | 4 | the input set's id (1 pieces, 2 threats) |
//! | 4 | number of layer sizes `n` (inputs, hidden layers, output) |
//! | 4 × n | the sizes |
//! | 4 × parameters | the parameters as little-endian `f32`, in [`Network::params`] order |
//! | 8 | checksum of everything before it ([`tns_file::checksum`]) |
//!
//! The magic, version and checksum are the frame every format here shares ([`tns_file`]).
//! Version 1 files, from before there was a choice of inputs, have no input set id (they are
//! all pieces): they still load.

// Casts allowed in this file only:
// narrowing casts of values that fit by construction (point indices under 25, move counts, table indices, durations in milliseconds).
#![allow(clippy::cast_possible_truncation)]

use std::path::Path;

use tns_file::{FileError, Format, HEADER, TRAILER};

use crate::network::{check_sizes, parameter_count};
use crate::{Inputs, Network, NetworkError};

/// The weights file's container.
const FORMAT: Format = Format { magic: *b"TNS-NN\r\n", version: 2, name: "weights file" };
/// The first version, with no input set id.
const FORMAT_V1: Format = Format { version: 1, ..FORMAT };
/// The version of the weights format this crate writes and reads.
pub const WEIGHTS_VERSION: u32 = FORMAT.version;

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

impl Network {
    /// The network as the bytes of a weights file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = FORMAT.start();
        out.extend_from_slice(&self.inputs().id().to_le_bytes());
        out.extend_from_slice(&(self.sizes().len() as u32).to_le_bytes());
        for &s in self.sizes() {
            out.extend_from_slice(&(s as u32).to_le_bytes());
        }
        for p in self.params() {
            out.extend_from_slice(&p.to_le_bytes());
        }
        FORMAT.finish(out)
    }

    /// Reads a network from the bytes of a weights file.
    ///
    /// # Errors
    /// [`NetworkError::File`] for bytes that are foreign, of another version, truncated or
    /// padded, or corrupted (checksum); the network's own errors for invalid sizes or a NaN.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let short = |expected: usize| FileError::Length {
            found: bytes.len() as u64,
            expected: expected as u64,
        };
        // Version 1 has no input set id: the layer sizes start right after the version.
        let (format, rest, id) = match FORMAT.header(bytes) {
            Ok(rest) => (FORMAT, &rest[4.min(rest.len())..], u32_at(rest, 0)),
            Err(FileError::Version { found: 1, .. }) => {
                (FORMAT_V1, FORMAT_V1.header(bytes)?, Some(Inputs::Pieces.id()))
            }
            Err(e) => return Err(e.into()),
        };
        let skip = HEADER + if format.version == 1 { 0 } else { 4 };
        let id = id.ok_or_else(|| short(skip + 4))?;
        let count = u32_at(rest, 0).ok_or_else(|| short(skip + 4))? as usize;
        if !(2..=10).contains(&count) {
            return Err(NetworkError::Sizes(vec![count]));
        }
        let sizes = (0..count)
            .map(|i| u32_at(rest, 4 + 4 * i).map(|s| s as usize))
            .collect::<Option<Vec<usize>>>()
            .ok_or_else(|| short(skip + 4 + 4 * count))?;
        let inputs = check_sizes(&sizes)?;
        if Inputs::from_id(id) != Some(inputs) {
            return Err(NetworkError::Inputs { id, first: sizes[0] });
        }
        let params_at = skip - HEADER + 4 + 4 * count;
        let n = parameter_count(&sizes);
        let body = format.check(bytes, (HEADER + params_at + 4 * n + TRAILER) as u64)?;
        let params = body[params_at..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Network::from_params(sizes, params)
    }

    /// Saves the network, whole or not at all (a temporary file, then a rename). A network
    /// holding a NaN or an infinity (training that diverged) is never saved: no file could
    /// load it again.
    ///
    /// # Errors
    /// [`NetworkError::InFile`] naming the file, around [`NetworkError::NotFinite`] for a
    /// parameter that is not a finite number, or the error writing it.
    pub fn save(&self, path: &Path) -> Result<(), NetworkError> {
        if let Some(index) = self.params().iter().position(|p| !p.is_finite()) {
            return Err(NetworkError::NotFinite { index }.in_file(path));
        }
        tns_file::save(path, &self.to_bytes()).map_err(|e| NetworkError::from(e).in_file(path))
    }

    /// Loads a weights file.
    ///
    /// # Errors
    /// [`NetworkError::InFile`] naming the file, around what was wrong: it does not exist
    /// ([`NetworkError::is_missing`]), cannot be read, or any error of
    /// [`Network::from_bytes`].
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let bytes = tns_file::read(path).map_err(|e| NetworkError::from(e).in_file(path))?;
        Network::from_bytes(&bytes).map_err(|e| e.in_file(path))
    }
}
