//! The placement layer file format, and reading single values from it.
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
//! | | the block table ([`crate::blocks`]) |
//! | | the blocks of each slice's values (0 loss, 1 draw, 2 win for the tigers to move), five a byte as base-3 digits, the first slot the lowest: one part a slice |
//!
//! A file of another version is refused ([`TablebaseError::OldFormat`] for an earlier one; the
//! build makes it again). Written to a temporary file and renamed, so a stopped build never
//! leaves a partial layer.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tns_board::Side;
use tns_file::{FileError, Format};

use crate::TablebaseError;
use crate::blocks::{self, Blocks, Fault, read_at};
use crate::blocks::{read_u32, read_u64};
use crate::cache::BlockCache;
use crate::error::BlockFault;
use crate::index::Indexer;
use crate::movement::file::save_bytes;
use crate::placement::layer::{Codes, Layer, LayerStats, PER_BYTE, dead_counts, digit, empties};
use crate::value::{Wdl, wdl_from_code};

/// The layer file's container.
pub(crate) const FORMAT: Format =
    Format { magic: *b"TNS-PL\r\n", version: 2, name: "tablebase placement layer file" };
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

/// Bytes of the layer's own header, before the block table.
fn own_len(slices: usize) -> usize {
    FIXED_HEADER + 8 * slices
}

/// The layer's own header, after the container's.
#[expect(
    clippy::cast_possible_truncation,
    reason = "a layer's slices, one a number of dead (at most 6), and the 1,651 tiger classes"
)]
fn own_header(format: Format, layer: &Layer, kills: u8, classes: usize) -> Vec<u8> {
    let mut out = format.start();
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
    out
}

/// The bytes of a layer file.
///
/// # Errors
/// An I/O error from the compressor (out of memory).
pub(crate) fn encode(layer: &Layer, kills: u8, classes: usize) -> std::io::Result<Vec<u8>> {
    let parts: Vec<&[u8]> = layer.slices.iter().map(|s| s.bytes.as_slice()).collect();
    blocks::encode(own_header(FORMAT, layer, kills, classes), &parts)
}

/// Saves a layer, whole or not at all; returns the file's size.
pub(crate) fn save(
    path: &Path,
    layer: &Layer,
    kills: u8,
    classes: usize,
) -> Result<u64, TablebaseError> {
    let bytes = encode(layer, kills, classes).map_err(|e| TablebaseError::file(path, e))?;
    save_bytes(path, &bytes)?;
    Ok(bytes.len() as u64)
}

/// A layer's header, checked against what the layer must hold.
#[derive(Debug)]
pub(crate) struct Header {
    pub(crate) sheep_stats: Vec<LayerStats>,
    pub(crate) tiger_stats: Vec<LayerStats>,
    /// The slices' slot counts.
    slots: Vec<usize>,
}

/// Checks the layer's own header at the start of `bytes` (its magic and version already
/// checked) for a layer `placed` of a game won by `kills` kills, in a file `file_len` bytes
/// long, `expected_len` long if it is right.
fn parse_own(
    bytes: &[u8],
    file_len: u64,
    expected_len: u64,
    indexer: &Indexer,
    kills: u8,
    placed: u8,
) -> Result<Header, FileError> {
    let slots = expected_slots(indexer, kills, placed);
    if bytes.len() < FIXED_HEADER {
        return Err(FileError::Length { found: file_len, expected: expected_len });
    }
    let (file_kills, file_placed, file_slices) = (bytes[12], bytes[13], usize::from(bytes[14]));
    let file_classes = read_u32(bytes, 16)? as usize;
    let file_slots: Vec<u64> =
        (0..file_slices).map_while(|i| read_u64(bytes, FIXED_HEADER + 8 * i).ok()).collect();
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
    let stats = |side: Side, first: usize| {
        dead_counts(kills, placed)
            .map(|dead| {
                let at = STATS_AT + 32 * (first + usize::from(dead));
                Ok(LayerStats {
                    placed,
                    dead,
                    side,
                    positions: read_u64(bytes, at)?,
                    wins: read_u64(bytes, at + 8)?,
                    draws: read_u64(bytes, at + 16)?,
                    losses: read_u64(bytes, at + 24)?,
                })
            })
            .collect::<Result<Vec<_>, FileError>>()
    };
    Ok(Header {
        sheep_stats: stats(Side::Sheep, 0)?,
        tiger_stats: if placed == 0 { Vec::new() } else { stats(Side::Tiger, STATS_DEAD)? },
        slots,
    })
}

/// The decoded bytes of each slice (the block table's parts).
fn parts(slots: &[usize]) -> Vec<usize> {
    slots.iter().map(|&s| Codes::bytes_for(s)).collect()
}

/// Checks the header and block table of a version-2 layer file whose first bytes (at least up
/// to the end of the block table) are `bytes`.
fn parse_header(
    bytes: &[u8],
    file_len: u64,
    indexer: &Indexer,
    kills: u8,
    placed: u8,
) -> Result<(Header, Blocks), FileError> {
    FORMAT.header(bytes)?;
    let slots = expected_slots(indexer, kills, placed);
    let head = own_len(slots.len());
    let header =
        parse_own(bytes, file_len, (head + blocks::table_len(0)) as u64, indexer, kills, placed)?;
    let blocks = blocks::parse(bytes, head, parts(&header.slots), file_len)?;
    Ok((header, blocks))
}

/// Decodes a whole layer file, every block checked.
pub(crate) fn decode(
    bytes: &[u8],
    indexer: &Indexer,
    kills: u8,
    placed: u8,
) -> Result<Layer, Fault> {
    let (header, blocks) = parse_header(bytes, bytes.len() as u64, indexer, kills, placed)?;
    let slices = blocks
        .decode_all(bytes, true)?
        .into_iter()
        .zip(&header.slots)
        .map(|(bytes, &len)| Codes { bytes, len })
        .collect();
    Ok(Layer { placed, slices, sheep_stats: header.sheep_stats, tiger_stats: header.tiger_stats })
}

/// Reads a whole layer file, every block checked.
pub(crate) fn load(
    path: &Path,
    indexer: &Indexer,
    kills: u8,
    placed: u8,
) -> Result<Layer, TablebaseError> {
    let bytes = tns_file::read(path).map_err(|e| TablebaseError::file(path, e))?;
    decode(&bytes, indexer, kills, placed).map_err(|e| e.at(path))
}

/// An open layer file. Probes read a block at a time through the table's cache of decoded
/// blocks, so the look-ups of one position's children (all in one tiger class's block) mostly
/// hit it.
#[derive(Debug)]
pub(crate) struct LayerFile {
    path: PathBuf,
    file: File,
    placed: u8,
    pub(crate) header: Header,
    blocks: Blocks,
    cache: Arc<BlockCache>,
}

impl LayerFile {
    /// Opens a layer file and checks its header and block table (each block is checked when
    /// it is read: see [`LayerFile::check`] for all of them).
    pub(crate) fn open(
        path: &Path,
        indexer: &Indexer,
        kills: u8,
        placed: u8,
        cache: Arc<BlockCache>,
    ) -> Result<LayerFile, TablebaseError> {
        let fail = |e: FileError| TablebaseError::file(path, e);
        let file = tns_file::open(path).map_err(fail)?;
        let len = file.metadata().map_err(|e| fail(e.into()))?.len();
        let head = own_len(usize::from(kills));
        // At most the header's length, a few hundred bytes.
        let mut start = vec![0; usize::try_from(len).map_or(head + 16, |len| len.min(head + 16))];
        read_at(&file, &mut start, 0).map_err(|e| fail(e.into()))?;
        FORMAT.header(&start).map_err(|e| Fault::File(e).at(path))?;
        // Which game and layer the file holds, before anything is read at places that depend
        // on it (a layer of another game has another number of slices, so its block table is
        // elsewhere).
        if let (Some(&file_kills), Some(&file_placed)) = (start.get(12), start.get(13))
            && (file_kills, file_placed) != (kills, placed)
        {
            return Err(fail(FileError::Contents {
                found: format!("the {file_kills}-kill game's layer of {file_placed} placed"),
                expected: format!("the {kills}-kill game's layer of {placed} placed"),
            }));
        }
        let slices = expected_slots(indexer, kills, placed).len();
        let table_end = blocks::header_len(&start, own_len(slices), len).map_err(fail)?;
        let mut bytes = vec![0; table_end];
        read_at(&file, &mut bytes, 0).map_err(|e| fail(e.into()))?;
        let (header, blocks) = parse_header(&bytes, len, indexer, kills, placed).map_err(fail)?;
        Ok(LayerFile { path: path.into(), file, placed, header, blocks, cache })
    }

    /// The value of slot `index` of the slice with `dead` dead, for the tigers to move.
    pub(crate) fn get(&self, dead: u8, index: usize) -> Result<Wdl, TablebaseError> {
        // Opening checked that the slices hold the slots the index gives; a slot outside them
        // is still an error, not a panic.
        let Some((block, at)) = self.blocks.locate(usize::from(dead), index / PER_BYTE) else {
            return Err(TablebaseError::file(
                &self.path,
                FileError::Contents {
                    found: format!("no slot {index} with {dead} dead"),
                    expected: format!("the slots of layer {}", self.placed),
                },
            ));
        };
        let byte = self
            .cache
            .byte(self.placed, block, at, || self.blocks.read(&self.file, &self.path, block))?;
        let byte = byte.ok_or_else(|| TablebaseError::Block {
            path: self.path.clone(),
            block: block as u64,
            fault: BlockFault::Length { found: at, expected: at + 1 },
        })?;
        Ok(wdl_from_code(digit(byte, index % PER_BYTE)))
    }

    /// Reads every block and checks it (its checksum, and that it decodes to its length).
    /// Returns the file's size.
    pub(crate) fn check(&self) -> Result<u64, TablebaseError> {
        for b in 0..self.blocks.len() {
            self.blocks.read(&self.file, &self.path, b)?;
        }
        Ok(self.blocks.file_len())
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(indexer: &Indexer) -> Layer {
        // Kills 1, 19 placed: one slice of 210 slots a class.
        let len = indexer.slice_len(empties(19, 0));
        let codes: Vec<u8> = (0..len).map(|i| u8::try_from(i / 11 % 3).unwrap()).collect();
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
        let bytes = encode(&layer, 1, indexer.classes()).unwrap();
        assert_eq!(decode(&bytes, &indexer, 1, 19).unwrap(), layer);
        for len in (0..bytes.len()).step_by(97).chain([bytes.len() - 1]) {
            assert!(decode(&bytes[..len], &indexer, 1, 19).is_err(), "{len}");
        }
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 1 << (i % 8);
            assert!(decode(&bad, &indexer, 1, 19).is_err(), "{i}");
        }
        let err = |b: &[u8], k, placed| match decode(b, &indexer, k, placed).unwrap_err() {
            Fault::File(e) => e,
            Fault::Block(b, f) => panic!("block {b}: {f}"),
        };
        assert!(matches!(err(b"not a layer at all", 1, 19), FileError::Foreign(_)));
        assert!(matches!(err(&bytes, 2, 19), FileError::Contents { .. }));
        assert!(matches!(err(&bytes, 1, 18), FileError::Contents { .. }));
        let mut v3 = bytes.clone();
        v3[8] = 3;
        assert!(matches!(err(&v3, 1, 19), FileError::Version { found: 3, .. }));
        let mut flipped = bytes.clone();
        flipped[FIXED_HEADER + 8 + 5] ^= 1;
        assert!(matches!(err(&flipped, 1, 19), FileError::Checksum));
        let mut padded = bytes.clone();
        padded.push(0);
        assert!(matches!(err(&padded, 1, 19), FileError::Length { .. }));
        let mut damaged = bytes.clone();
        let last = damaged.len() - 2;
        damaged[last] ^= 1;
        assert!(matches!(
            decode(&damaged, &indexer, 1, 19),
            Err(Fault::Block(b, BlockFault::Checksum)) if b + 1 == Codes::bytes_for(layer.slices[0].len).div_ceil(blocks::BLOCK)
        ));
    }

    #[test]
    fn open_reads_single_values_and_names_a_damaged_block() {
        let indexer = Indexer::new();
        let dir = std::env::temp_dir().join(format!("tns-layer-{}", std::process::id()));
        let path = layer_path(&dir, 1, 19);
        let layer = sample(&indexer);
        save(&path, &layer, 1, indexer.classes()).unwrap();
        let cache = Arc::new(BlockCache::new());
        let file = LayerFile::open(&path, &indexer, 1, 19, cache.clone()).unwrap();
        assert_eq!(file.check().unwrap(), std::fs::metadata(&path).unwrap().len());
        for i in [0, 1, 2, 3, 4, 1000, 200_000, layer.slices[0].len - 1] {
            assert_eq!(file.get(0, i).unwrap() as u8, layer.slices[0].get(i));
        }
        assert_eq!(file.header.sheep_stats, layer.sheep_stats);
        // A flipped bit in the second block: the first still reads, the second is an error
        // naming the file and the block, and so is checking the file.
        let mut bytes = std::fs::read(&path).unwrap();
        let at = usize::try_from(file.blocks.offsets[1]).unwrap() + 10;
        bytes[at] ^= 0x40;
        std::fs::write(&path, &bytes).unwrap();
        let file = LayerFile::open(&path, &indexer, 1, 19, Arc::new(BlockCache::new())).unwrap();
        assert_eq!(file.get(0, 0).unwrap() as u8, layer.slices[0].get(0));
        let e = file.get(0, blocks::BLOCK * PER_BYTE).unwrap_err();
        assert!(
            matches!(e, TablebaseError::Block { block: 1, fault: BlockFault::Checksum, .. }),
            "{e}"
        );
        assert!(e.to_string().contains("k1-p19.tnspl: block 1 is damaged"), "{e}");
        assert!(matches!(file.check(), Err(TablebaseError::Block { block: 1, .. })));
        let missing =
            LayerFile::open(&layer_path(&dir, 1, 18), &indexer, 1, 18, cache).unwrap_err();
        assert!(missing.is_missing(), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_layer_of_another_game_is_named_as_such() {
        let indexer = Indexer::new();
        let dir = std::env::temp_dir().join(format!("tns-layer-other-{}", std::process::id()));
        // The 1-kill game's layer where the 5-kill game's should be.
        let path = layer_path(&dir, 5, 19);
        save(&path, &sample(&indexer), 1, indexer.classes()).unwrap();
        let cache = Arc::new(BlockCache::new());
        let e = LayerFile::open(&path, &indexer, 5, 19, cache).unwrap_err().to_string();
        assert!(e.contains("holds the 1-kill game's layer of 19 placed"), "{e}");
        assert!(e.contains("expected the 5-kill game's"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_earlier_version_is_refused_by_name() {
        let indexer = Indexer::new();
        let dir = std::env::temp_dir().join(format!("tns-layer-v1-{}", std::process::id()));
        let path = layer_path(&dir, 1, 19);
        let mut bytes = encode(&sample(&indexer), 1, indexer.classes()).unwrap();
        bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
        save_bytes(&path, &bytes).unwrap();
        let cache = Arc::new(BlockCache::new());
        let e = LayerFile::open(&path, &indexer, 1, 19, cache).unwrap_err();
        assert!(matches!(e, TablebaseError::OldFormat { version: 1, expected: 2, .. }), "{e}");
        let e = load(&path, &indexer, 1, 19).unwrap_err();
        assert!(matches!(e, TablebaseError::OldFormat { version: 1, .. }), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
