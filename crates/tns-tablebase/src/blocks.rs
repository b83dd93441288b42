//! Compressed, checked blocks: how the table files store their values.
//!
//! A file's values are one or more *parts* (a layer's slices, a movement slice's byte planes),
//! each cut into blocks of [`BLOCK`] bytes (the last of a part shorter), each block compressed
//! with zstd on its own and carrying its own checksum. After the file's own header comes the
//! block table:
//!
//! | bytes | field |
//! |------:|-------|
//! | 4 | decoded bytes a block (the last block of each part may be shorter) |
//! | 4 | zero |
//! | 8 | number of blocks |
//! | 8 × (blocks + 1) | where each block starts in the file, then where the last one ends (the file's length) |
//! | 8 × blocks | the checksum of each block's compressed bytes |
//! | 8 | checksum of every byte of the file before it |
//!
//! The blocks follow. So the header (magic to block table) is checked once when the file is
//! opened, and each block when it is read: a flipped bit anywhere is an error naming the file
//! and, past the header, the block.

use std::cell::RefCell;
use std::fs::File;
use std::path::Path;

use rayon::prelude::*;
use tns_file::{FileError, checksum};

use crate::TablebaseError;
use crate::error::BlockFault;

/// Why a table file's bytes could not be read: the file as a whole, or one block.
#[derive(Debug)]
pub(crate) enum Fault {
    /// The file: foreign, another version, cut short, a damaged header...
    File(FileError),
    /// A block, counted from 0.
    Block(usize, BlockFault),
}

impl From<FileError> for Fault {
    fn from(e: FileError) -> Fault {
        Fault::File(e)
    }
}

impl From<(usize, BlockFault)> for Fault {
    fn from((block, fault): (usize, BlockFault)) -> Fault {
        Fault::Block(block, fault)
    }
}

impl Fault {
    /// The error, naming the file. A file of an earlier version is one to build again.
    pub(crate) fn at(self, path: &Path) -> TablebaseError {
        match self {
            Fault::File(FileError::Version { found, expected }) if found < expected => {
                TablebaseError::OldFormat { path: path.to_path_buf(), version: found, expected }
            }
            Fault::File(e) => TablebaseError::file(path, e),
            Fault::Block(block, fault) => {
                TablebaseError::Block { path: path.to_path_buf(), block: block as u64, fault }
            }
        }
    }
}

/// Decoded bytes in a block. Chosen by measurement (CHANGELOG.md, "Other codecs, levels and block sizes"):
/// larger blocks save little space and take longer to decode, which every probe that misses the
/// cache pays; smaller ones cost space; and a sheep-to-move probe's look-ups (one tiger class of
/// about 59 KiB in the middle layers) fall in one or two blocks.
pub(crate) const BLOCK: usize = 64 * 1024;
/// The zstd level the table is written with: a higher level saves little space and writes far
/// more slowly (CHANGELOG.md, "Other codecs, levels and block sizes").
pub(crate) const LEVEL: i32 = 15;
/// The largest block size a file may declare (a guard on what is allocated for it).
const MAX_BLOCK: usize = 1 << 24;

/// Bytes of the block table for `blocks` blocks, the header's checksum included.
pub(crate) const fn table_len(blocks: usize) -> usize {
    16 + 8 * (blocks + 1) + 8 * blocks + 8
}

/// The blocks a part of `len` bytes is cut into, with blocks of `block` bytes.
const fn blocks_for(len: usize, block: usize) -> usize {
    len.div_ceil(block)
}

/// Where a file's blocks are, and how to read them: the block table, checked.
#[derive(Debug)]
pub(crate) struct Blocks {
    /// Decoded bytes a block.
    block: usize,
    /// Decoded bytes of each part.
    parts: Vec<usize>,
    /// The first block of each part, and the number of blocks last.
    first: Vec<usize>,
    /// Where each block starts in the file, and where the last ends.
    pub(crate) offsets: Vec<u64>,
    /// The checksum of each block's compressed bytes.
    sums: Vec<u64>,
}

impl Blocks {
    /// The number of blocks.
    pub(crate) fn len(&self) -> usize {
        self.sums.len()
    }

    /// The file's length.
    pub(crate) fn file_len(&self) -> u64 {
        self.offsets.last().copied().unwrap_or(0)
    }

    /// The block holding byte `at` of part `part`, and where in it: `None` outside the parts.
    #[inline]
    pub(crate) fn locate(&self, part: usize, at: usize) -> Option<(usize, usize)> {
        if at >= *self.parts.get(part)? {
            return None;
        }
        Some((self.first[part] + at / self.block, at % self.block))
    }

    /// The decoded length of block `b`.
    fn decoded_len(&self, b: usize) -> usize {
        let part = self.first.partition_point(|&f| f <= b) - 1;
        let within = b - self.first[part];
        (self.parts[part] - within * self.block).min(self.block)
    }

    /// Checks and decodes block `b` from its compressed bytes.
    pub(crate) fn decode(&self, b: usize, compressed: &[u8]) -> Result<Vec<u8>, BlockFault> {
        let mut out = vec![0; self.decoded_len(b)];
        self.decode_into(b, compressed, &mut out)?;
        Ok(out)
    }

    /// Checks block `b`'s compressed bytes and decodes them into `out`, which is as long as
    /// the block decoded must be.
    fn decode_into(&self, b: usize, compressed: &[u8], out: &mut [u8]) -> Result<(), BlockFault> {
        if checksum(compressed) != self.sums[b] {
            return Err(BlockFault::Checksum);
        }
        let found = DECODER.with(|cell| {
            let mut cell = cell.borrow_mut();
            let decoder = match cell.as_mut() {
                Some(d) => d,
                None => cell.insert(
                    zstd::bulk::Decompressor::new()
                        .map_err(|e| BlockFault::Decode(std::sync::Arc::new(e)))?,
                ),
            };
            decoder
                .decompress_to_buffer(compressed, &mut *out)
                .map_err(|e| BlockFault::Decode(std::sync::Arc::new(e)))
        })?;
        if found == out.len() {
            Ok(())
        } else {
            Err(BlockFault::Length { found, expected: out.len() })
        }
    }

    /// Reads, checks and decodes block `b` of `file` (at `path`, for errors).
    #[expect(
        clippy::cast_possible_truncation,
        reason = "offsets checked against the file's length by `parse`; a u64 fits a usize on the 64-bit targets this crate is for"
    )]
    pub(crate) fn read(
        &self,
        file: &File,
        path: &Path,
        b: usize,
    ) -> Result<Vec<u8>, TablebaseError> {
        let (start, end) = (self.offsets[b], self.offsets[b + 1]);
        let mut compressed = vec![0; (end - start) as usize];
        read_at(file, &mut compressed, start).map_err(|e| TablebaseError::file(path, e))?;
        self.decode(b, &compressed).map_err(|fault| TablebaseError::Block {
            path: path.to_path_buf(),
            block: b as u64,
            fault,
        })
    }

    /// Decodes every block of a whole file's bytes into its parts: on the current rayon pool
    /// when `in_parallel`, else on the calling thread alone (no thread is started: a table small
    /// enough to be built into a program is decoded so).
    #[expect(
        clippy::cast_possible_truncation,
        reason = "offsets checked against the file's length by `parse`; a u64 fits a usize on the 64-bit targets this crate is for"
    )]
    pub(crate) fn decode_all(
        &self,
        bytes: &[u8],
        in_parallel: bool,
    ) -> Result<Vec<Vec<u8>>, (usize, BlockFault)> {
        let mut parts: Vec<Vec<u8>> = self.parts.iter().map(|&len| vec![0; len]).collect();
        let mut jobs = Vec::with_capacity(self.len());
        for (p, part) in parts.iter_mut().enumerate() {
            for (i, chunk) in part.chunks_mut(self.block).enumerate() {
                jobs.push((self.first[p] + i, chunk));
            }
        }
        let job = |(b, out): (usize, &mut [u8])| {
            let (start, end) = (self.offsets[b] as usize, self.offsets[b + 1] as usize);
            self.decode_into(b, &bytes[start..end], out).map_err(|f| (b, f))
        };
        if in_parallel {
            jobs.into_par_iter().try_for_each(job)?;
        } else {
            jobs.into_iter().try_for_each(job)?;
        }
        Ok(parts)
    }
}

thread_local! {
    /// Each thread's zstd decoder, made once: a fresh one costs as much as a block's decoding.
    static DECODER: RefCell<Option<zstd::bulk::Decompressor<'static>>> = const { RefCell::new(None) };
}

/// The block table of a file whose header so far is `head` and whose values are `parts`, and
/// the compressed blocks; compressed in parallel.
///
/// # Errors
/// An I/O error from the compressor (it fails only when memory runs out).
#[expect(clippy::cast_possible_truncation, reason = "the block size, 64 KiB")]
pub(crate) fn encode(head: Vec<u8>, parts: &[&[u8]]) -> std::io::Result<Vec<u8>> {
    let chunks: Vec<&[u8]> = parts.iter().flat_map(|p| p.chunks(BLOCK)).collect();
    let compressed = chunks
        .par_iter()
        .map_init(
            || zstd::bulk::Compressor::new(LEVEL),
            |c, chunk| match c {
                Ok(c) => c.compress(chunk),
                Err(e) => Err(std::io::Error::new(e.kind(), e.to_string())),
            },
        )
        .collect::<std::io::Result<Vec<Vec<u8>>>>()?;
    let blocks = compressed.len();
    let mut out = head;
    let data_start = (out.len() + table_len(blocks)) as u64;
    let total: usize = compressed.iter().map(Vec::len).sum();
    out.reserve(table_len(blocks) + total);
    out.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(blocks as u64).to_le_bytes());
    let mut at = data_start;
    out.extend_from_slice(&at.to_le_bytes());
    for c in &compressed {
        at += c.len() as u64;
        out.extend_from_slice(&at.to_le_bytes());
    }
    for c in &compressed {
        out.extend_from_slice(&checksum(c).to_le_bytes());
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    for c in &compressed {
        out.extend_from_slice(c);
    }
    Ok(out)
}

/// The bytes of a file's header up to the end of its block table, for a header of `head`
/// bytes: the first 16 bytes of the table name the number of blocks. `start` is what has been
/// read of the file so far (at least `head + 16` bytes, or the whole file if shorter).
///
/// # Errors
/// [`FileError::Length`] for a file too short to hold its block table.
#[expect(
    clippy::cast_possible_truncation,
    reason = "a block count checked against the file's length before it is used; a u64 fits a usize on the 64-bit targets this crate is for"
)]
pub(crate) fn header_len(start: &[u8], head: usize, file_len: u64) -> Result<usize, FileError> {
    let short = |expected: u64| FileError::Length { found: file_len, expected };
    if start.len() < head + 16 {
        return Err(short((head + 16) as u64));
    }
    let blocks = read_u64(start, head + 8)?;
    // A bound before anything is allocated: the blocks cannot outnumber the file's bytes.
    if blocks > file_len {
        return Err(short(blocks));
    }
    let len = head + table_len(blocks as usize);
    if (len as u64) > file_len {
        return Err(short(len as u64));
    }
    Ok(len)
}

/// Parses and checks the block table after a header of `head` bytes in `bytes` (the file's
/// first [`header_len`] bytes, or more), for values of `parts` decoded bytes, in a file of
/// `file_len` bytes.
///
/// # Errors
/// [`FileError::Checksum`] for a damaged header, [`FileError::Contents`] for a table that does
/// not fit the parts (another block size is fine), [`FileError::Length`] for a file whose
/// length is not where its last block ends.
#[expect(
    clippy::cast_possible_truncation,
    reason = "a block count checked against the file's length before it is used; a u64 fits a usize on the 64-bit targets this crate is for"
)]
pub(crate) fn parse(
    bytes: &[u8],
    head: usize,
    parts: Vec<usize>,
    file_len: u64,
) -> Result<Blocks, FileError> {
    let len = header_len(bytes, head, file_len)?;
    if bytes.len() < len {
        return Err(FileError::Length { found: bytes.len() as u64, expected: len as u64 });
    }
    let stored = read_u64(bytes, len - 8)?;
    if checksum(&bytes[..len - 8]) != stored {
        return Err(FileError::Checksum);
    }
    let block = read_u32(bytes, head)? as usize;
    let blocks = read_u64(bytes, head + 8)? as usize;
    let contents = |found: String| FileError::Contents {
        found,
        expected: format!("blocks of 1 to {MAX_BLOCK} bytes over parts of {parts:?} bytes"),
    };
    if !(1..=MAX_BLOCK).contains(&block) {
        return Err(contents(format!("blocks of {block} bytes")));
    }
    let mut first = Vec::with_capacity(parts.len() + 1);
    first.push(0);
    for &p in &parts {
        first.push(first.last().copied().unwrap_or(0) + blocks_for(p, block));
    }
    if first.last() != Some(&blocks) {
        return Err(contents(format!("{blocks} blocks of {block} bytes")));
    }
    let at = head + 16;
    let offsets: Vec<u64> =
        (0..=blocks).map(|i| read_u64(bytes, at + 8 * i)).collect::<Result<_, _>>()?;
    let at = at + 8 * (blocks + 1);
    let sums: Vec<u64> =
        (0..blocks).map(|i| read_u64(bytes, at + 8 * i)).collect::<Result<_, _>>()?;
    // Blocks in order from the end of the header, none larger than zstd could make a block.
    let bound = zstd::zstd_safe::compress_bound(block) as u64;
    let in_order = offsets.first() == Some(&(len as u64))
        && offsets.windows(2).all(|w| w[0] <= w[1] && w[1] - w[0] <= bound);
    if !in_order {
        return Err(contents("block offsets out of order or too far apart".to_string()));
    }
    let end = offsets.last().copied().unwrap_or(0);
    if end != file_len {
        return Err(FileError::Length { found: file_len, expected: end });
    }
    Ok(Blocks { block, parts, first, offsets, sums })
}

/// Reads exactly `buf.len()` bytes of `file` from `at`.
#[cfg(unix)]
pub(crate) fn read_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
}

/// Reads exactly `buf.len()` bytes of `file` from `at`.
#[cfg(windows)]
pub(crate) fn read_at(file: &File, mut buf: &mut [u8], mut at: u64) -> std::io::Result<()> {
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

/// The little-endian `u32` at `at`; a file too short to hold it is [`FileError::Length`].
pub(crate) fn read_u32(bytes: &[u8], at: usize) -> Result<u32, FileError> {
    tns_file::u32_at(bytes, at).ok_or(too_short(bytes, at + 4))
}

/// The little-endian `u64` at `at`, likewise.
pub(crate) fn read_u64(bytes: &[u8], at: usize) -> Result<u64, FileError> {
    tns_file::u64_at(bytes, at).ok_or(too_short(bytes, at + 8))
}

fn too_short(bytes: &[u8], expected: usize) -> FileError {
    FileError::Length { found: bytes.len() as u64, expected: expected as u64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[expect(clippy::cast_possible_truncation, reason = "a base-3 code")]
    fn sample() -> (Vec<u8>, Vec<Vec<u8>>) {
        let a: Vec<u8> = (0..BLOCK * 2 + 100).map(|i| (i / 7 % 3) as u8).collect();
        let b: Vec<u8> = (0..300u32).map(|i| (i % 5) as u8).collect();
        (b"HEAD".to_vec(), vec![a, b])
    }

    #[test]
    fn round_trip() {
        let (head, parts) = sample();
        let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        let bytes = encode(head, &refs).unwrap();
        let lens = parts.iter().map(Vec::len).collect();
        let blocks = parse(&bytes, 4, lens, bytes.len() as u64).unwrap();
        assert_eq!(blocks.len(), 4);
        assert_eq!(blocks.locate(0, BLOCK * 2 + 5), Some((2, 5)));
        assert_eq!(blocks.locate(1, 299), Some((3, 299)));
        assert_eq!(blocks.locate(1, 300), None);
        assert_eq!(blocks.locate(2, 0), None);
        assert_eq!(blocks.decode_all(&bytes, true).unwrap(), parts);
    }

    /// Bytes that match their checksum but are not zstd: the decompressor's own error is
    /// kept as the fault's cause.
    #[test]
    fn a_block_that_does_not_decompress_keeps_the_reason() {
        let garbage = b"not zstd at all".to_vec();
        let blocks = Blocks {
            block: BLOCK,
            parts: vec![16],
            first: vec![0, 1],
            offsets: vec![0, garbage.len() as u64],
            sums: vec![checksum(&garbage)],
        };
        let fault = blocks.decode(0, &garbage).unwrap_err();
        assert!(matches!(fault, BlockFault::Decode(_)), "{fault:?}");
        let cause =
            std::error::Error::source(&fault).expect("the decompressor's error").to_string();
        assert!(fault.to_string().ends_with(&cause), "{fault}");
        // A program's line says the file, the block and the decompressor's reason, once.
        let error = crate::TablebaseError::Block { path: "k5-d0.tnstb".into(), block: 3, fault };
        let line = tns_file::one_line(&error);
        assert!(line.starts_with("k5-d0.tnstb: block 3 is damaged (it does not decompress: "));
        assert!(line.ends_with(&format!("{cause})")), "said once: {line}");
    }

    #[test]
    fn every_damage_is_an_error() {
        let (head, parts) = sample();
        let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        let bytes = encode(head, &refs).unwrap();
        let lens: Vec<usize> = parts.iter().map(Vec::len).collect();
        let len = bytes.len() as u64;
        let check = |b: &[u8]| -> Result<Vec<Vec<u8>>, String> {
            let blocks = parse(b, 4, lens.clone(), b.len() as u64).map_err(|e| e.to_string())?;
            blocks.decode_all(b, true).map_err(|(i, f)| format!("block {i}: {f}"))
        };
        for i in 4..bytes.len() {
            for bit in [0x01, 0x80] {
                let mut bad = bytes.clone();
                bad[i] ^= bit;
                assert!(check(&bad).is_err(), "byte {i} bit {bit}");
            }
        }
        for cut in 0..bytes.len() {
            assert!(check(&bytes[..cut]).is_err(), "{cut}");
        }
        let mut padded = bytes.clone();
        padded.push(0);
        assert!(matches!(parse(&padded, 4, lens.clone(), len + 1), Err(FileError::Length { .. })));
        // Another file's parts: the table does not fit them.
        assert!(matches!(parse(&bytes, 4, vec![10, 300], len), Err(FileError::Contents { .. })));
        // A flipped bit in a block: the block's checksum, naming it.
        let blocks = parse(&bytes, 4, lens.clone(), len).unwrap();
        let mut bad = bytes.clone();
        let last = bad.len() - 3;
        bad[last] ^= 4;
        assert!(matches!(blocks.decode_all(&bad, false), Err((3, BlockFault::Checksum))));
    }

    #[test]
    fn a_block_that_decodes_to_the_wrong_length() {
        let (head, parts) = sample();
        // Encode parts one byte short, then read them as the full parts: checksums hold, the
        // length does not.
        let short = [&parts[0][..], &parts[1][..299]];
        let bytes = encode(head, &short).unwrap();
        let blocks = parse(&bytes, 4, vec![parts[0].len(), 300], bytes.len() as u64).unwrap();
        assert!(matches!(
            blocks.decode_all(&bytes, true),
            Err((3, BlockFault::Length { found: 299, expected: 300 }))
        ));
    }
}
