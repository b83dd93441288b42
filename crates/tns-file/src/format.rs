//! The frame around a format's bytes: magic and version before, checksum after.

use crate::{FileError, checksum};

/// Bytes before a format's own header: the magic number and the version.
pub const HEADER: usize = 12;
/// Bytes after the body: the checksum.
pub const TRAILER: usize = 8;

/// One file format: its magic number, its version, and its name for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// The first 8 bytes of every file of the format.
    pub magic: [u8; 8],
    /// The version this code writes and reads.
    pub version: u32,
    /// What to call such a file ("weights file"), after "not a Tigers and Sheep".
    pub name: &'static str,
}

impl Format {
    /// A new file's first bytes, the magic number and the version; the format appends its own
    /// header and body, then calls [`Format::finish`].
    pub fn start(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4096);
        out.extend_from_slice(&self.magic);
        out.extend_from_slice(&self.version.to_le_bytes());
        out
    }

    /// Ends a file: appends the checksum of everything in it.
    pub fn finish(&self, mut bytes: Vec<u8>) -> Vec<u8> {
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// Checks the magic number and the version at the start of `bytes` (a whole file, or just
    /// its start) and returns what follows them: the format's own header onward.
    ///
    /// # Errors
    /// [`FileError::Foreign`] for another kind of file, [`FileError::Version`] for another
    /// version, [`FileError::Length`] for bytes too short to hold the two.
    pub fn header<'a>(&self, bytes: &'a [u8]) -> Result<&'a [u8], FileError> {
        let short = || FileError::Length { found: bytes.len() as u64, expected: HEADER as u64 };
        let magic = bytes.get(..8).ok_or_else(|| {
            if self.magic.starts_with(bytes) { short() } else { FileError::Foreign(self.name) }
        })?;
        if magic != self.magic {
            return Err(FileError::Foreign(self.name));
        }
        let version = bytes.get(8..HEADER).ok_or_else(short)?;
        let version = u32::from_le_bytes([version[0], version[1], version[2], version[3]]);
        if version != self.version {
            return Err(FileError::Version { found: version, expected: self.version });
        }
        Ok(&bytes[HEADER..])
    }

    /// Checks a whole file: its magic and version, that it is `expected_len` bytes long (what
    /// its header implies), and its checksum; returns the body between the version and the
    /// checksum.
    ///
    /// # Errors
    /// The errors of [`Format::header`], [`FileError::Length`] for a file cut short or padded,
    /// [`FileError::Checksum`] for damage.
    pub fn check<'a>(&self, bytes: &'a [u8], expected_len: u64) -> Result<&'a [u8], FileError> {
        self.header(bytes)?;
        if bytes.len() as u64 != expected_len || bytes.len() < HEADER + TRAILER {
            return Err(FileError::Length { found: bytes.len() as u64, expected: expected_len });
        }
        let end = bytes.len() - TRAILER;
        let mut stored = [0u8; TRAILER];
        stored.copy_from_slice(&bytes[end..]);
        if checksum(&bytes[..end]) != u64::from_le_bytes(stored) {
            return Err(FileError::Checksum);
        }
        Ok(&bytes[HEADER..end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const F: Format = Format { magic: *b"TNS-XX\r\n", version: 3, name: "test file" };

    #[test]
    fn every_damage_has_its_error() {
        let mut bytes = F.start();
        bytes.extend_from_slice(b"body");
        let bytes = F.finish(bytes);
        let len = bytes.len() as u64;
        assert_eq!(F.check(&bytes, len).unwrap(), b"body");
        for cut in 0..bytes.len() {
            assert!(F.check(&bytes[..cut], len).is_err(), "{cut}");
        }
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x20;
            assert!(F.check(&bad, len).is_err(), "{i}");
        }
        assert!(matches!(F.header(b"TNS"), Err(FileError::Length { .. })));
        assert!(matches!(F.header(b"hello, world"), Err(FileError::Foreign("test file"))));
        let mut v9 = bytes.clone();
        v9[8] = 9;
        assert!(matches!(F.header(&v9), Err(FileError::Version { found: 9, expected: 3 })));
        assert!(matches!(F.check(&bytes, len + 1), Err(FileError::Length { .. })));
        let mut flipped = bytes.clone();
        flipped[HEADER] ^= 1;
        assert!(matches!(F.check(&flipped, len), Err(FileError::Checksum)));
        assert_eq!(FileError::Foreign("test file").to_string(), "not a Tigers and Sheep test file");
    }
}
