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
//! | | the block table ([`crate::blocks`]) |
//! | | the blocks of two parts: the low bytes of the packed values, then their high bytes, sheep to move then tigers to move within each |
//!
//! A file of another version is refused ([`TablebaseError::OldFormat`] for an earlier one; the
//! build makes it again). Written to a temporary file and renamed, so a killed build never
//! leaves a partial slice.

use std::path::{Path, PathBuf};

use tns_file::{FileError, Format};

use crate::TablebaseError;
use crate::blocks::{self, Fault, read_u32, read_u64};
use crate::movement::slice::Slice;

/// The slice file's container.
pub(crate) const FORMAT: Format =
    Format { magic: *b"TNS-TB\r\n", version: 2, name: "tablebase slice file" };
/// Bytes before the block table: the container's 12, then the slice's own 16.
const HEADER: usize = 28;

/// The file name of a slice.
pub(crate) fn slice_path(dir: &Path, kills: u8, dead: u8) -> PathBuf {
    dir.join(format!("k{kills}-d{dead}.tnstb"))
}

/// The slice's own header, after the container's.
fn own_header(format: Format, slice: &Slice, classes: usize) -> Vec<u8> {
    let slots = slice.values[0].len();
    let mut out = format.start();
    out.extend_from_slice(&[slice.kills, slice.dead, 0, 0]);
    #[expect(clippy::cast_possible_truncation, reason = "the index's tiger classes, 1,651")]
    let classes = classes as u32;
    out.extend_from_slice(&classes.to_le_bytes());
    out.extend_from_slice(&(slots as u64).to_le_bytes());
    out
}

/// The bytes of a slice file.
///
/// # Errors
/// An I/O error from the compressor (out of memory).
pub(crate) fn encode(slice: &Slice, classes: usize) -> std::io::Result<Vec<u8>> {
    let values = slice.values.iter().flatten();
    let low: Vec<u8> = values.clone().map(|v| v.to_le_bytes()[0]).collect();
    let high: Vec<u8> = values.map(|v| v.to_le_bytes()[1]).collect();
    blocks::encode(own_header(FORMAT, slice, classes), &[&low, &high])
}

/// Saves a slice, whole or not at all.
pub(crate) fn save(path: &Path, slice: &Slice, classes: usize) -> Result<(), TablebaseError> {
    let bytes = encode(slice, classes).map_err(|e| TablebaseError::file(path, e))?;
    save_bytes(path, &bytes)
}

/// Writes a table file whole or not at all, making its directory first.
pub(crate) fn save_bytes(path: &Path, bytes: &[u8]) -> Result<(), TablebaseError> {
    tns_file::save(path, bytes).map_err(|e| TablebaseError::file(path, e))
}

/// Checks the slice's own header (after the container's, already checked) against the slice
/// asked for.
fn check_own(
    bytes: &[u8],
    expected_len: u64,
    kills: u8,
    dead: u8,
    classes: usize,
    slots: usize,
) -> Result<(), FileError> {
    if bytes.len() < HEADER {
        return Err(FileError::Length { found: bytes.len() as u64, expected: expected_len });
    }
    let (file_kills, file_dead) = (bytes[12], bytes[13]);
    let (file_classes, file_slots) = (read_u32(bytes, 16)? as usize, read_u64(bytes, 20)?);
    if (file_kills, file_dead, file_classes, file_slots) != (kills, dead, classes, slots as u64) {
        return Err(FileError::Contents {
            found: format!(
                "{file_kills} kills, {file_dead} dead, {file_classes} classes, {file_slots} slots"
            ),
            expected: format!("{kills} kills, {dead} dead, {classes} classes, {slots} slots"),
        });
    }
    Ok(())
}

/// Decodes a slice file, checking that it is the slice `kills`/`dead` with `slots` slots per
/// side over `classes` classes, and every block; on the rayon pool when `in_parallel`, else on
/// the calling thread.
pub(crate) fn decode(
    bytes: &[u8],
    (kills, dead): (u8, u8),
    classes: usize,
    slots: usize,
    in_parallel: bool,
) -> Result<Slice, Fault> {
    FORMAT.header(bytes)?;
    check_own(bytes, (HEADER + blocks::table_len(0)) as u64, kills, dead, classes, slots)?;
    let table = blocks::parse(bytes, HEADER, vec![2 * slots, 2 * slots], bytes.len() as u64)?;
    let planes = table.decode_all(bytes, in_parallel)?;
    let side = |range: std::ops::Range<usize>| -> Vec<u16> {
        planes[0][range.clone()]
            .iter()
            .zip(&planes[1][range])
            .map(|(&lo, &hi)| u16::from_le_bytes([lo, hi]))
            .collect()
    };
    Ok(Slice { kills, dead, values: [side(0..slots), side(slots..2 * slots)] })
}

/// Loads a slice file, every block checked.
pub(crate) fn load(
    path: &Path,
    kills: u8,
    dead: u8,
    classes: usize,
    slots: usize,
) -> Result<Slice, TablebaseError> {
    let bytes = tns_file::read(path).map_err(|e| TablebaseError::file(path, e))?;
    decode(&bytes, (kills, dead), classes, slots, true).map_err(|e| e.at(path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::BlockFault;

    fn sample() -> Slice {
        Slice { kills: 2, dead: 1, values: [vec![0, 2, 5, 7, u16::MAX], vec![3, 0, 0, 4, 9]] }
    }

    #[test]
    fn round_trip_and_every_damage_is_caught() {
        let bytes = encode(&sample(), 7).unwrap();
        assert_eq!(decode(&bytes, (2, 1), 7, 5, true).unwrap(), sample());
        // Truncated at every length.
        for len in 0..bytes.len() {
            assert!(decode(&bytes[..len], (2, 1), 7, 5, false).is_err(), "{len}");
        }
        // Any changed bit.
        for i in 0..bytes.len() {
            for bit in 0..8 {
                let mut bad = bytes.clone();
                bad[i] ^= 1 << bit;
                assert!(decode(&bad, (2, 1), 7, 5, false).is_err(), "{i}");
            }
        }
        let err = |b: &[u8], k, d| decode(b, (k, d), 7, 5, true).unwrap_err();
        assert!(matches!(
            err(b"hello world, this is text", 2, 1),
            Fault::File(FileError::Foreign(_))
        ));
        assert!(matches!(err(&bytes, 3, 1), Fault::File(FileError::Contents { .. })));
        let mut v3 = bytes.clone();
        v3[8] = 3;
        assert!(matches!(err(&v3, 2, 1), Fault::File(FileError::Version { found: 3, .. })));
        let mut flipped = bytes.clone();
        flipped[HEADER + 3] ^= 1;
        assert!(matches!(err(&flipped, 2, 1), Fault::File(FileError::Checksum)));
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(matches!(err(&flipped, 2, 1), Fault::Block(1, BlockFault::Checksum)));
        assert!(matches!(
            err(&bytes[..bytes.len() - 1], 2, 1),
            Fault::File(FileError::Length { .. })
        ));
    }

    #[test]
    fn an_earlier_version_is_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("tns-slice-v1-{}", std::process::id()));
        let path = slice_path(&dir, 2, 1);
        let mut bytes = encode(&sample(), 7).unwrap();
        bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
        save_bytes(&path, &bytes).unwrap();
        let e = load(&path, 2, 1, 7, 5).unwrap_err();
        assert!(matches!(e, TablebaseError::OldFormat { version: 1, expected: 2, .. }), "{e}");
        assert!(!e.is_damaged() && !e.is_missing(), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_file() {
        let e = load(Path::new("/no/such/dir/k5-d0.tnstb"), 5, 0, 1, 1).unwrap_err();
        assert!(e.is_missing(), "{e}");
        assert!(e.to_string().starts_with("/no/such/dir/k5-d0.tnstb: "), "{e}");
    }
}
