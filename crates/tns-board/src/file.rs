//! Writing files whole or not at all, and checking them when read back.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Writes `contents` to `path` so that a reader, or a process killed part-way, sees either the
/// old file or the whole new one, never a part: the bytes go to a temporary file beside `path`,
/// are flushed to disk, and the temporary file is then renamed over `path`.
///
/// Game records, weights and tables are all saved this way.
///
/// ```
/// let path = std::env::temp_dir().join(format!("tns-doc-{}.txt", std::process::id()));
/// tns_board::write_atomically(&path, b"1. c3\n")?;
/// assert_eq!(std::fs::read(&path)?, b"1. c3\n");
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// Any I/O error from creating, writing or renaming the file. The temporary file is removed
/// when a step after its creation fails.
pub fn write_atomically(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let mut tmp = PathBuf::from(path);
    tmp.as_mut_os_string().push(format!(".tmp{}", std::process::id()));
    let written = std::fs::File::create(&tmp).and_then(|mut file| {
        file.write_all(contents)?;
        file.sync_all()
    });
    match written.and_then(|()| std::fs::rename(&tmp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// A 64-bit checksum for the files the project writes (tablebases, networks). Each 8-byte word
/// is mixed in by an xor and a multiplication by an odd constant, both invertible, so a change to
/// any one word always changes the result; the length is mixed in last, so a truncated file
/// differs too. It guards against damage, not against tampering.
///
/// ```
/// let a = tns_board::checksum(b"twenty sheep");
/// assert_ne!(a, tns_board::checksum(b"twenty sheeq"));
/// assert_ne!(a, tns_board::checksum(b"twenty shee"));
/// ```
pub fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut words = bytes.chunks_exact(8);
    for w in words.by_ref() {
        let mut word = [0; 8];
        word.copy_from_slice(w);
        h = (h ^ u64::from_le_bytes(word)).wrapping_mul(PRIME).rotate_left(23);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(PRIME);
    }
    h ^ bytes.len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_old_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("tns-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.txt");
        write_atomically(&path, b"old").unwrap();
        write_atomically(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        // A folder that does not exist: an error, and nothing left behind.
        assert!(write_atomically(&dir.join("no/such/file"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
