//! A file that grows one whole entry at a time, for what a long job finishes as it goes.

use std::io::Write as _;
use std::path::Path;

use crate::atomic::regular_file_at;

/// A file written by appending whole entries: each [`AppendFile::append`] hands its bytes to
/// the system in one call before it returns, so a process killed at any moment (`kill -9`
/// included) leaves every entry it appended, and at most the one under way cut short.
///
/// Only a regular file is opened (or created): a directory, a device, a FIFO or a socket is
/// refused, as [`crate::write_atomically`] refuses them; a symbolic link is followed.
///
/// ```
/// let path = std::env::temp_dir().join(format!("tns-doc-append-{}.txt", std::process::id()));
/// let mut file = tns_file::AppendFile::create_empty(&path)?;
/// file.append(b"1. c3\n")?;
/// file.append(b"1. d3\n")?;
/// assert_eq!(std::fs::read(&path)?, b"1. c3\n1. d3\n");
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct AppendFile {
    file: std::fs::File,
}

impl AppendFile {
    /// Creates the file, or opens one that is there and empty, to append to.
    ///
    /// # Errors
    /// [`std::io::ErrorKind::AlreadyExists`] for a file that holds bytes already (they are left
    /// as they are); [`std::io::ErrorKind::InvalidInput`] for a path that is not a regular file;
    /// any I/O error from opening it.
    pub fn create_empty(path: &Path) -> std::io::Result<AppendFile> {
        let at = regular_file_at(path)?;
        let file = std::fs::OpenOptions::new().append(true).create(true).open(&at)?;
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{} is not a regular file", at.display()),
            ));
        }
        if meta.len() > 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!("{} holds {} bytes already: not written over", at.display(), meta.len()),
            ));
        }
        Ok(AppendFile { file })
    }

    /// Appends one entry, handed to the system before this returns.
    ///
    /// # Errors
    /// The I/O error of the write (a full disk, a file gone read-only).
    pub fn append(&mut self, entry: &[u8]) -> std::io::Result<()> {
        self.file.write_all(entry)
    }

    /// Waits until what was appended is on the disk itself, not only in the system's cache
    /// (which a killed process does not lose, but a power cut does).
    ///
    /// # Errors
    /// The I/O error of the flush.
    pub fn sync(&self) -> std::io::Result<()> {
        self.file.sync_data()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_with_bytes_a_directory_or_a_fifo_is_refused_and_left_as_it_is() {
        let dir = std::env::temp_dir().join(format!("tns-append-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let kept = dir.join("kept.txt");
        std::fs::write(&kept, b"a game\n").unwrap();
        let e = AppendFile::create_empty(&kept).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&kept).unwrap(), b"a game\n");
        let e = AppendFile::create_empty(&dir).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        #[cfg(unix)]
        {
            let fifo = dir.join("fifo");
            if std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
                let e = AppendFile::create_empty(&fifo).unwrap_err();
                assert!(e.to_string().contains("a FIFO"), "{e}");
            }
        }
        // An empty file (as a check before a job leaves it) is taken and grows entry by entry.
        let empty = dir.join("empty.txt");
        std::fs::write(&empty, b"").unwrap();
        let mut file = AppendFile::create_empty(&empty).unwrap();
        file.append(b"one\n").unwrap();
        file.append(b"two\n").unwrap();
        file.sync().unwrap();
        assert_eq!(std::fs::read(&empty).unwrap(), b"one\ntwo\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
