//! Writing files whole or not at all, and reading them with a clear error.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::FileError;

/// Writes `contents` to `path` so that a reader, or a process killed part-way, sees either the
/// old file or the whole new one, never a part: the bytes go to a temporary file beside `path`,
/// are flushed to disk, and the temporary file is then renamed over `path`.
///
/// Game records, weights and tables are all saved this way.
///
/// ```
/// let path = std::env::temp_dir().join(format!("tns-doc-{}.txt", std::process::id()));
/// tns_file::write_atomically(&path, b"1. c3\n")?;
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

/// Writes a file whole or not at all ([`write_atomically`]), making its folder first.
///
/// # Errors
/// [`FileError::Io`] when the folder cannot be made or the file written.
pub fn save(path: &Path, contents: &[u8]) -> Result<(), FileError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    Ok(write_atomically(path, contents)?)
}

/// Opens a file to read, refusing anything that is not a plain file: a directory, a FIFO
/// (which would block until something writes to it) or a device.
///
/// # Errors
/// [`FileError::Missing`] for a file that does not exist, [`FileError::NotAFile`] for one that
/// is not a plain file, [`FileError::Io`] for one that cannot be opened.
pub fn open(path: &Path) -> Result<std::fs::File, FileError> {
    let io = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => FileError::Missing,
        _ => FileError::Io(e),
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(FileError::NotAFile);
    }
    std::fs::File::open(path).map_err(io)
}

/// Reads a whole file.
///
/// # Errors
/// As [`open`], and [`FileError::Io`] for one that cannot be read.
pub fn read(path: &Path) -> Result<Vec<u8>, FileError> {
    use std::io::Read as _;
    let mut file = open(path)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Reads a whole text file of at most `limit` bytes, checked before anything is read.
///
/// # Errors
/// As [`read`], [`FileError::TooLarge`] for a larger file, [`FileError::NotText`] for one that
/// is not UTF-8.
pub fn read_text(path: &Path, limit: u64) -> Result<String, FileError> {
    use std::io::Read as _;
    let file = open(path)?;
    let size = file.metadata()?.len();
    if size > limit {
        return Err(FileError::TooLarge { size, limit });
    }
    let mut bytes = Vec::new();
    // The size read may grow while we read: never more than the limit and one byte.
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge { size: bytes.len() as u64, limit });
    }
    String::from_utf8(bytes).map_err(|_| FileError::NotText)
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
        assert!(matches!(read(&dir.join("none")), Err(FileError::Missing)));
        save(&dir.join("sub/b.txt"), b"made").unwrap();
        assert_eq!(read(&dir.join("sub/b.txt")).unwrap(), b"made");
        assert!(matches!(read(&dir), Err(FileError::NotAFile)));
        assert_eq!(read_text(&dir.join("sub/b.txt"), 4).unwrap(), "made");
        assert!(matches!(
            read_text(&dir.join("sub/b.txt"), 3),
            Err(FileError::TooLarge { size: 4, limit: 3 })
        ));
        write_atomically(&dir.join("bin"), &[0xff, 0xfe]).unwrap();
        assert!(matches!(read_text(&dir.join("bin"), 10), Err(FileError::NotText)));
        assert!(matches!(read_text(&dir, 10), Err(FileError::NotAFile)));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
