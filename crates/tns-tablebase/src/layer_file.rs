//! The placement layer file format, and reading single values from it at offsets.
//!
//! | bytes | field |
//! |------:|-------|
//! | 8 | magic `TNS-PL\r\n` |
//! | 4 | format version, little-endian |
//! | 1 | kills that win |
//! | 1 | sheep placed |
//! | 1 | tigers-to-move slices (dead counts) in the file |
//! | 1 | zero |
//! | 4 | tiger-set classes |
//! | 320 | counts: for sheep then tigers to move, for 0 to 4 dead, positions, wins, draws and losses (`u64` each) |
//! | 8 × slices | slots in each slice |
//! | ⌈slots / 5⌉ each | each slice's values (0 loss, 1 draw, 2 win for the tigers to move), five a byte as base-3 digits, the first slot the lowest |
//! | 8 | checksum of everything before it |
//!
//! The magic, version and checksum are the frame every format here shares ([`tns_file`]).
//! Written to a temporary file and renamed, so a stopped build never leaves a partial layer.

// Casts allowed in this file only:
// narrowing casts of values that fit by construction (point indices under 25, move counts, table indices, durations in milliseconds).
#![allow(clippy::cast_possible_truncation)]

use std::fs::File;
use std::path::{Path, PathBuf};

use tns_board::Side;
use tns_file::{FileError, Format, TRAILER};

use crate::TablebaseError;
use crate::file::{read_u32, read_u64, save_bytes};
use crate::index::Indexer;
use crate::layer::{Codes, Layer, LayerStats, PER_BYTE, dead_counts, digit, empties};
use crate::value::Wdl;

/// The layer file's container.
pub(crate) const FORMAT: Format =
    Format { magic: *b"TNS-PL\r\n", version: 1, name: "tablebase placement layer file" };
/// Dead counts with room for counts in the header.
const STATS_DEAD: usize = 5;
const STATS_AT: usize = 20;
const FIXED_HEADER: usize = STATS_AT + 2 * STATS_DEAD * 32;

/// The file name of a layer.
pub(crate) fn layer_path(dir: &Path, kills: u8, placed: u8) -> PathBuf {
    dir.join(format!("k{kills}-p{placed}.tnspl"))
}

/// What a layer's file must hold: its slices' slot counts.
fn expected_slots(indexer: &Indexer, kills: u8, placed: u8) -> Vec<usize> {
    if placed == 0 {
        return Vec::new();
    }
    dead_counts(kills, placed).map(|dead| indexer.slice_len(empties(placed, dead))).collect()
}

fn header_len(slices: usize) -> usize {
    FIXED_HEADER + 8 * slices
}

/// The bytes of a layer file.
pub(crate) fn encode(layer: &Layer, kills: u8, classes: usize) -> Vec<u8> {
    let body: usize = layer.slices.iter().map(|s| s.bytes.len()).sum();
    let mut out = FORMAT.start();
    out.reserve(header_len(layer.slices.len()) + body + TRAILER);
    out.extend_from_slice(&[kills, layer.placed, layer.slices.len() as u8, 0]);
    out.extend_from_slice(&(classes as u32).to_le_bytes());
    for stats in [&layer.sheep_stats, &layer.tiger_stats] {
        for dead in 0..STATS_DEAD {
            let s = stats.get(dead);
            for n in s.map_or([0; 4], |s| [s.positions, s.wins, s.draws, s.losses]) {
                out.extend_from_slice(&n.to_le_bytes());
            }
        }
    }
    for s in &layer.slices {
        out.extend_from_slice(&(s.len as u64).to_le_bytes());
    }
    for s in &layer.slices {
        out.extend_from_slice(&s.bytes);
    }
    FORMAT.finish(out)
}

/// Saves a layer, whole or not at all; returns the file's size.
pub(crate) fn save(
    path: &Path,
    layer: &Layer,
    kills: u8,
    classes: usize,
) -> Result<u64, TablebaseError> {
    let bytes = encode(layer, kills, classes);
    save_bytes(path, &bytes)?;
    Ok(bytes.len() as u64)
}

/// A layer's header, checked against what the layer must hold.
#[derive(Debug)]
pub(crate) struct Header {
    /// Where each slice's values start in the file.
    pub(crate) offsets: Vec<u64>,
    pub(crate) sheep_stats: Vec<LayerStats>,
    pub(crate) tiger_stats: Vec<LayerStats>,
    /// The file's whole length.
    pub(crate) len: u64,
}

/// Checks the header at the start of `bytes` (at least [`header_len`] of them, or the whole
/// file) for a layer `placed` of a game won by `kills` kills, in a file `file_len` bytes long.
fn parse_header(
    bytes: &[u8],
    file_len: u64,
    indexer: &Indexer,
    kills: u8,
    placed: u8,
) -> Result<Header, FileError> {
    FORMAT.header(bytes)?;
    let slots = expected_slots(indexer, kills, placed);
    let expected_len = expected_len(&slots);
    if bytes.len() < FIXED_HEADER {
        return Err(FileError::Length { found: file_len, expected: expected_len });
    }
    let (file_kills, file_placed, file_slices) = (bytes[12], bytes[13], usize::from(bytes[14]));
    let file_classes = read_u32(bytes, 16) as usize;
    let file_slots: Vec<u64> = (0..file_slices)
        .map_while(|i| {
            let at = FIXED_HEADER + 8 * i;
            (at + 8 <= bytes.len()).then(|| read_u64(bytes, at))
        })
        .collect();
    let wanted: Vec<u64> = slots.iter().map(|&s| s as u64).collect();
    if (file_kills, file_placed, file_classes, &file_slots)
        != (kills, placed, indexer.classes(), &wanted)
    {
        return Err(FileError::Contents {
            found: format!(
                "{file_kills} kills, {file_placed} placed, {file_classes} classes, slots {file_slots:?}"
            ),
            expected: format!(
                "{kills} kills, {placed} placed, {} classes, slots {wanted:?}",
                indexer.classes()
            ),
        });
    }
    if file_len != expected_len {
        return Err(FileError::Length { found: file_len, expected: expected_len });
    }
    let stats = |side: Side, first: usize| {
        dead_counts(kills, placed)
            .map(|dead| {
                let at = STATS_AT + 32 * (first + usize::from(dead));
                LayerStats {
                    placed,
                    dead,
                    side,
                    positions: read_u64(bytes, at),
                    wins: read_u64(bytes, at + 8),
                    draws: read_u64(bytes, at + 16),
                    losses: read_u64(bytes, at + 24),
                }
            })
            .collect::<Vec<_>>()
    };
    let mut offsets = Vec::with_capacity(slots.len());
    let mut at = header_len(slots.len()) as u64;
    for &s in &slots {
        offsets.push(at);
        at += Codes::bytes_for(s) as u64;
    }
    Ok(Header {
        offsets,
        sheep_stats: stats(Side::Sheep, 0),
        tiger_stats: if placed == 0 { Vec::new() } else { stats(Side::Tiger, STATS_DEAD) },
        len: file_len,
    })
}

/// The length of a layer file whose slices have these slot counts.
fn expected_len(slots: &[usize]) -> u64 {
    let body: u64 = slots.iter().map(|&s| Codes::bytes_for(s) as u64).sum();
    (header_len(slots.len()) + TRAILER) as u64 + body
}

/// Decodes a whole layer file, checksum included.
pub(crate) fn decode(
    bytes: &[u8],
    indexer: &Indexer,
    kills: u8,
    placed: u8,
) -> Result<Layer, FileError> {
    let header = parse_header(bytes, bytes.len() as u64, indexer, kills, placed)?;
    FORMAT.check(bytes, header.len)?;
    let slots = expected_slots(indexer, kills, placed);
    let slices = slots
        .iter()
        .zip(&header.offsets)
        .map(|(&len, &at)| {
            let at = at as usize;
            Codes { bytes: bytes[at..at + Codes::bytes_for(len)].to_vec(), len }
        })
        .collect();
    Ok(Layer { placed, slices, sheep_stats: header.sheep_stats, tiger_stats: header.tiger_stats })
}

/// Reads a whole layer file, checksum included.
pub(crate) fn load(
    path: &Path,
    indexer: &Indexer,
    kills: u8,
    placed: u8,
) -> Result<Layer, TablebaseError> {
    let bytes = tns_file::read(path).map_err(|e| TablebaseError::file(path, e))?;
    decode(&bytes, indexer, kills, placed).map_err(|e| TablebaseError::file(path, e))
}

/// Bytes in a cached page.
const PAGE: usize = 4096;
/// Pages a layer's cache holds at most (direct-mapped by page number): 8 MiB.
const CACHE_PAGES: usize = 2048;

/// One cache slot: the page it holds (`u64::MAX` for none) and its bytes.
#[derive(Debug)]
struct Slot {
    page: u64,
    bytes: Box<[u8]>,
}

/// An open layer file. Probes read it a page at a time into a small direct-mapped cache, so the
/// look-ups of one position's children (all in one tiger class's block) mostly hit it.
#[derive(Debug)]
pub(crate) struct LayerFile {
    path: PathBuf,
    file: File,
    pub(crate) header: Header,
    cache: Vec<std::sync::Mutex<Slot>>,
}

impl LayerFile {
    /// Opens a layer file and checks its header and length (not its checksum: see
    /// [`LayerFile::check`]).
    pub(crate) fn open(
        path: &Path,
        indexer: &Indexer,
        kills: u8,
        placed: u8,
    ) -> Result<LayerFile, TablebaseError> {
        let fail = |e: FileError| TablebaseError::file(path, e);
        let file = File::open(path).map_err(|e| {
            fail(if e.kind() == std::io::ErrorKind::NotFound {
                FileError::Missing
            } else {
                e.into()
            })
        })?;
        let len = file.metadata().map_err(|e| fail(e.into()))?.len();
        let want = (header_len(usize::from(kills)) as u64).min(len) as usize;
        let mut head = vec![0; want];
        read_at(&file, &mut head, 0).map_err(|e| fail(e.into()))?;
        let header = parse_header(&head, len, indexer, kills, placed).map_err(fail)?;
        let pages = (len as usize).div_ceil(PAGE).min(CACHE_PAGES);
        let cache = (0..pages)
            .map(|_| std::sync::Mutex::new(Slot { page: u64::MAX, bytes: Box::default() }))
            .collect();
        Ok(LayerFile { path: path.into(), file, header, cache })
    }

    /// The value of slot `index` of the slice with `dead` dead, for the tigers to move.
    pub(crate) fn get(&self, dead: u8, index: usize) -> Result<Wdl, TablebaseError> {
        let at = self.header.offsets[usize::from(dead)] + (index / PER_BYTE) as u64;
        Ok(Wdl::from_code(digit(self.byte(at)?, index % PER_BYTE)))
    }

    /// The byte at `at`, through the page cache.
    fn byte(&self, at: u64) -> Result<u8, TablebaseError> {
        let page = at / PAGE as u64;
        let offset = (at % PAGE as u64) as usize;
        let io = |source: std::io::Error| TablebaseError::file(&self.path, source);
        if at >= self.header.len {
            return Err(io(std::io::ErrorKind::UnexpectedEof.into()));
        }
        let Some(slot) = self.cache.get(page as usize % self.cache.len().max(1)) else {
            let mut byte = [0u8];
            read_at(&self.file, &mut byte, at).map_err(io)?;
            return Ok(byte[0]);
        };
        // A poisoned lock only means another thread panicked mid-read: the slot is refilled.
        let mut slot = slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if slot.page != page {
            let start = page * PAGE as u64;
            let len = (self.header.len - start).min(PAGE as u64) as usize;
            let mut bytes = std::mem::take(&mut slot.bytes);
            if bytes.len() != PAGE {
                bytes = vec![0u8; PAGE].into_boxed_slice();
            }
            slot.page = u64::MAX;
            read_at(&self.file, &mut bytes[..len], start).map_err(io)?;
            slot.bytes = bytes;
            slot.page = page;
        }
        Ok(slot.bytes[offset])
    }

    /// Reads the whole file and checks its checksum.
    pub(crate) fn check(&self) -> Result<(), TablebaseError> {
        let bytes = tns_file::read(&self.path).map_err(|e| TablebaseError::file(&self.path, e))?;
        FORMAT.check(&bytes, self.header.len).map_err(|e| TablebaseError::file(&self.path, e))?;
        Ok(())
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
}

#[cfg(windows)]
fn read_at(file: &File, mut buf: &mut [u8], mut at: u64) -> std::io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, buf, at) {
            Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                at += n as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(indexer: &Indexer) -> Layer {
        // Kills 1, 19 placed: one slice of 210 slots a class.
        let len = indexer.slice_len(empties(19, 0));
        let codes: Vec<u8> = (0..len).map(|i| (i % 3) as u8).collect();
        let mut stats = LayerStats::empty(19, 0, Side::Sheep);
        stats.add(Wdl::Win);
        Layer {
            placed: 19,
            slices: vec![Codes::pack(&codes)],
            sheep_stats: vec![stats],
            tiger_stats: vec![LayerStats { side: Side::Tiger, ..stats }],
        }
    }

    #[test]
    fn round_trip_and_every_damage_is_caught() {
        let indexer = Indexer::new();
        let layer = sample(&indexer);
        let bytes = encode(&layer, 1, indexer.classes());
        assert_eq!(decode(&bytes, &indexer, 1, 19).unwrap(), layer);
        for len in (0..bytes.len()).step_by(97).chain([bytes.len() - 1]) {
            assert!(decode(&bytes[..len], &indexer, 1, 19).is_err(), "{len}");
        }
        for i in (0..bytes.len()).step_by(101) {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            assert!(decode(&bad, &indexer, 1, 19).is_err(), "{i}");
        }
        let err = |b: &[u8], k, placed| decode(b, &indexer, k, placed).unwrap_err();
        assert!(matches!(err(b"not a layer at all", 1, 19), FileError::Foreign(_)));
        assert!(matches!(err(&bytes, 2, 19), FileError::Contents { .. }));
        assert!(matches!(err(&bytes, 1, 18), FileError::Contents { .. }));
        let mut v2 = bytes.clone();
        v2[8] = 2;
        assert!(matches!(err(&v2, 1, 19), FileError::Version { found: 2, .. }));
        let mut flipped = bytes.clone();
        flipped[FIXED_HEADER + 8 + 5] ^= 1;
        assert!(matches!(err(&flipped, 1, 19), FileError::Checksum));
        let mut padded = bytes.clone();
        padded.push(0);
        assert!(matches!(err(&padded, 1, 19), FileError::Length { .. }));
    }

    #[test]
    fn open_reads_single_values() {
        let indexer = Indexer::new();
        let dir = std::env::temp_dir().join(format!("tns-layer-{}", std::process::id()));
        let path = layer_path(&dir, 1, 19);
        let layer = sample(&indexer);
        save(&path, &layer, 1, indexer.classes()).unwrap();
        let file = LayerFile::open(&path, &indexer, 1, 19).unwrap();
        file.check().unwrap();
        for i in [0, 1, 2, 3, 4, 1000, layer.slices[0].len - 1] {
            assert_eq!(file.get(0, i).unwrap() as u8, layer.slices[0].get(i));
        }
        assert_eq!(file.header.sheep_stats, layer.sheep_stats);
        let missing = LayerFile::open(&layer_path(&dir, 1, 18), &indexer, 1, 18).unwrap_err();
        assert!(missing.is_missing(), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
