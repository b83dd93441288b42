//! The weights file format.
//!
//! | bytes | field |
//! |------:|-------|
//! | 8 | magic `TNS-NN\r\n` |
//! | 4 | format version (3), little-endian |
//! | 4 | the input set's id (1 pieces, 2 threats) |
//! | 4 | the buckets' id (1 one, 2 phase: [`Buckets`]) |
//! | 4 | number of layer sizes `n` (inputs, hidden layers, output) |
//! | 4 × n | the sizes |
//! | 4 × parameters | the parameters as little-endian `f32`, in [`Network::params`] order |
//! | 8 | checksum of everything before it ([`tns_file::checksum`]) |
//!
//! The magic, version and checksum are the frame every format here shares ([`tns_file`]). A
//! file of another version is refused by name ([`FileError::Version`]).

use std::path::Path;

/// The largest weights file read: far above the largest network the sizes allow (a few
/// hundred inputs, layers of at most [`MAX_WIDTH`](crate::MAX_WIDTH), a few buckets: some
/// megabytes), so that a huge or sparse file is refused before it is read.
const MAX_FILE: u64 = 64 << 20;

use tns_file::{FileError, Format, HEADER, TRAILER};

use crate::network::{check_sizes, parameter_count};
use crate::{Buckets, Inputs, Network, NetworkError};

/// The weights file's container.
const FORMAT: Format = Format { magic: *b"TNS-NN\r\n", version: 3, name: "weights file" };
/// The version of the weights format this crate writes and reads.
pub const WEIGHTS_VERSION: u32 = FORMAT.version;

impl Network {
    /// The network as the bytes of a weights file.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a network's layer count and sizes, checked when it was made, are at most 256"
    )]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = FORMAT.start();
        out.extend_from_slice(&self.inputs().id().to_le_bytes());
        out.extend_from_slice(&self.buckets().id().to_le_bytes());
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
        let all = FORMAT.header(bytes)?;
        // The two ids before the layer sizes.
        let skip = HEADER + 8;
        let id = tns_file::u32_at(all, 0).ok_or_else(|| short(HEADER + 4))?;
        let buckets_id = tns_file::u32_at(all, 4).ok_or_else(|| short(HEADER + 8))?;
        let buckets = Buckets::from_id(buckets_id).ok_or(NetworkError::Buckets(buckets_id))?;
        let rest = all.get(8..).unwrap_or_default();
        let count = tns_file::u32_at(rest, 0).ok_or_else(|| short(skip + 4))? as usize;
        if !(2..=10).contains(&count) {
            return Err(NetworkError::Sizes(vec![count]));
        }
        let sizes = (0..count)
            .map(|i| tns_file::u32_at(rest, 4 + 4 * i).map(|s| s as usize))
            .collect::<Option<Vec<usize>>>()
            .ok_or_else(|| short(skip + 4 + 4 * count))?;
        let inputs = check_sizes(&sizes)?;
        if Inputs::from_id(id) != Some(inputs) {
            return Err(NetworkError::Inputs { id, first: sizes[0] });
        }
        let params_at = skip - HEADER + 4 + 4 * count;
        let n = parameter_count(&sizes, buckets);
        let body = FORMAT.check(bytes, (HEADER + params_at + 4 * n + TRAILER) as u64)?;
        let params = body[params_at..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Network::from_bucket_params(sizes, buckets, params)
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
        let bytes = tns_file::read_at_most(path, MAX_FILE)
            .map_err(|e| NetworkError::from(e).in_file(path))?;
        Network::from_bytes(&bytes).map_err(|e| e.in_file(path))
    }
}
