//! The slice file format.
//!
//! | bytes | field |
//! |------:|-------|
//! | 8 | magic `TNS-TB\r\n` |
//! | 4 | format version, little-endian |
//! | 1 | kills that win |
//! | 1 | dead sheep in the slice |
//! | 2 | zero |
//! | 4 | tiger-set classes |
//! | 8 | slots per side |
//! | 2 × slots × 2 | packed values, sheep to move then tigers to move, little-endian `u16` |
//! | 8 | checksum of everything before it |
//!
//! The magic, version and checksum are the frame every format here shares ([`tns_file`]).
//! Written to a temporary file and renamed, so a killed build never leaves a partial slice.

// Casts allowed in this file only:
// narrowing casts of values that fit by construction (point indices under 25, move counts, table indices, durations in milliseconds).
#![allow(clippy::cast_possible_truncation)]

use std::path::{Path, PathBuf};

use tns_file::{FileError, Format, TRAILER};

use crate::TablebaseError;
use crate::slice::Slice;

/// The slice file's container.
pub(crate) const FORMAT: Format =
    Format { magic: *b"TNS-TB\r\n", version: 1, name: "tablebase slice file" };
/// Bytes before the values: the container's 12, then the slice's own 16.
const HEADER: usize = 28;

/// The file name of a slice.
pub(crate) fn slice_path(dir: &Path, kills: u8, dead: u8) -> PathBuf {
    dir.join(format!("k{kills}-d{dead}.tnstb"))
}

/// The bytes of a slice file.
pub(crate) fn encode(slice: &Slice, classes: usize) -> Vec<u8> {
    let slots = slice.values[0].len();
    let mut out = FORMAT.start();
    out.reserve(HEADER + 4 * slots + TRAILER);
    out.extend_from_slice(&[slice.kills, slice.dead, 0, 0]);
    out.extend_from_slice(&(classes as u32).to_le_bytes());
    out.extend_from_slice(&(slots as u64).to_le_bytes());
    for side in &slice.values {
        for v in side {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    FORMAT.finish(out)
}

/// Saves a slice, whole or not at all.
pub(crate) fn save(path: &Path, slice: &Slice, classes: usize) -> Result<(), TablebaseError> {
    save_bytes(path, &encode(slice, classes))
}

/// Writes a table file whole or not at all, making its directory first.
pub(crate) fn save_bytes(path: &Path, bytes: &[u8]) -> Result<(), TablebaseError> {
    tns_file::save(path, bytes).map_err(|e| TablebaseError::file(path, e))
}

/// The little-endian `u32` at `at` (which the caller has checked is in `bytes`).
pub(crate) fn read_u32(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

/// The little-endian `u64` at `at` (which the caller has checked is in `bytes`).
pub(crate) fn read_u64(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

/// Decodes a slice file, checking that it is the slice `kills`/`dead` with `slots` slots per
/// side over `classes` classes.
pub(crate) fn decode(
    bytes: &[u8],
    kills: u8,
    dead: u8,
    classes: usize,
    slots: usize,
) -> Result<Slice, FileError> {
    let expected_len = (HEADER + 4 * slots + TRAILER) as u64;
    let own = FORMAT.header(bytes)?;
    if own.len() < HEADER - tns_file::HEADER {
        return Err(FileError::Length { found: bytes.len() as u64, expected: expected_len });
    }
    let (file_kills, file_dead) = (bytes[12], bytes[13]);
    let (file_classes, file_slots) = (read_u32(bytes, 16) as usize, read_u64(bytes, 20));
    if (file_kills, file_dead, file_classes, file_slots) != (kills, dead, classes, slots as u64) {
        return Err(FileError::Contents {
            found: format!(
                "{file_kills} kills, {file_dead} dead, {file_classes} classes, {file_slots} slots"
            ),
            expected: format!("{kills} kills, {dead} dead, {classes} classes, {slots} slots"),
        });
    }
    FORMAT.check(bytes, expected_len)?;
    let values = |side: usize| {
        let start = HEADER + side * 2 * slots;
        bytes[start..start + 2 * slots]
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect::<Vec<u16>>()
    };
    Ok(Slice { kills, dead, values: [values(0), values(1)] })
}

/// Loads a slice file.
pub(crate) fn load(
    path: &Path,
    kills: u8,
    dead: u8,
    classes: usize,
    slots: usize,
) -> Result<Slice, TablebaseError> {
    let bytes = tns_file::read(path).map_err(|e| TablebaseError::file(path, e))?;
    decode(&bytes, kills, dead, classes, slots).map_err(|e| TablebaseError::file(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Slice {
        Slice { kills: 2, dead: 1, values: [vec![0, 2, 5, 7, u16::MAX], vec![3, 0, 0, 4, 9]] }
    }

    #[test]
    fn round_trip_and_every_damage_is_caught() {
        let bytes = encode(&sample(), 7);
        assert_eq!(decode(&bytes, 2, 1, 7, 5).unwrap(), sample());
        // Truncated at every length.
        for len in 0..bytes.len() {
            assert!(decode(&bytes[..len], 2, 1, 7, 5).is_err(), "{len}");
        }
        // Any changed byte.
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            assert!(decode(&bad, 2, 1, 7, 5).is_err(), "{i}");
        }
        let err = |b: &[u8], k, d| decode(b, k, d, 7, 5).unwrap_err();
        assert!(matches!(err(b"hello world, this is text", 2, 1), FileError::Foreign(_)));
        assert!(matches!(err(&bytes, 3, 1), FileError::Contents { .. }));
        let mut v2 = bytes.clone();
        v2[8] = 2;
        assert!(matches!(err(&v2, 2, 1), FileError::Version { found: 2, .. }));
        let mut flipped = bytes.clone();
        flipped[HEADER + 3] ^= 1;
        assert!(matches!(err(&flipped, 2, 1), FileError::Checksum));
        assert!(matches!(err(&bytes[..bytes.len() - 1], 2, 1), FileError::Length { .. }));
    }

    #[test]
    fn missing_file() {
        let e = load(Path::new("/no/such/dir/k5-d0.tnstb"), 5, 0, 1, 1).unwrap_err();
        assert!(e.is_missing(), "{e}");
        assert!(e.to_string().starts_with("/no/such/dir/k5-d0.tnstb: "), "{e}");
    }
}
