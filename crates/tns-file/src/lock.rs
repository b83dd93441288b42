//! One process at a time in a folder: a lock the system holds for its owner, so that two
//! builds or two trainers started at the same instant cannot both take it, and a killed owner
//! leaves nothing to clean up.

use std::io::{Read as _, Seek as _, Write as _};
use std::path::{Path, PathBuf};

/// Why a lock could not be taken.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LockError {
    /// Another live process holds it.
    #[error("{} is held by process {}", path.display(), pid.map_or_else(|| "another process".to_owned(), |p| p.to_string()))]
    Held {
        /// The lock file.
        path: PathBuf,
        /// The holder's process id, as it wrote it (none if it had not yet).
        pid: Option<u32>,
    },
    /// The lock file cannot be opened or locked.
    #[error("{}: {source}", path.display())]
    Io {
        /// The lock file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
}

/// A lock on a file, held until dropped: the system's own file lock (`flock` on Unix), taken
/// without waiting. The file holds the owner's process id, for the message another process
/// gets; the lock is the system's, not the file's existence, so a file left by a killed owner
/// is no lock at all, and two processes that open it at the same instant cannot both hold it.
///
/// ```
/// let path = std::env::temp_dir().join(format!("tns-doc-lock-{}", std::process::id()));
/// let held = tns_file::Lock::take(&path)?;
/// assert!(matches!(tns_file::Lock::take(&path), Err(tns_file::LockError::Held { .. })));
/// drop(held);
/// let again = tns_file::Lock::take(&path)?;
/// # drop(again);
/// # Ok::<(), tns_file::LockError>(())
/// ```
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
    // Held open: closing it releases the lock.
    file: std::fs::File,
}

impl Lock {
    /// Takes the lock at `path` (the file made if need be), or says who holds it.
    ///
    /// # Errors
    /// [`LockError::Held`] when another process holds it; [`LockError::Io`] when the file
    /// cannot be opened or locked (a folder that cannot be written, a path that is a folder).
    pub fn take(path: &Path) -> Result<Lock, LockError> {
        let io = |source| LockError::Io { path: path.to_path_buf(), source };
        // Only a regular file is a lock: opening a FIFO would wait for a writer.
        if let Ok(meta) = std::fs::symlink_metadata(path)
            && !meta.is_file()
        {
            let what = std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "not a regular file: remove it, and the lock is made afresh",
            );
            return Err(io(what));
        }
        // The file may be removed by the owner that releases it between our opening and our
        // locking it: a lock on a removed file is no lock, so check and try again.
        for _ in 0..100 {
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(path)
                .map_err(io)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    let mut text = String::new();
                    let _ = file.take(32).read_to_string(&mut text);
                    let pid = text.trim().parse().ok();
                    return Err(LockError::Held { path: path.to_path_buf(), pid });
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
            }
            if !same_file(&file, path) {
                continue;
            }
            file.set_len(0).map_err(io)?;
            file.rewind().map_err(io)?;
            writeln!(file, "{}", std::process::id()).map_err(io)?;
            file.flush().map_err(io)?;
            return Ok(Lock { path: path.to_path_buf(), file });
        }
        Err(io(std::io::Error::other("the lock file kept being replaced")))
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Whether `path` still names the file `file` has open.
fn same_file(file: &std::fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held, so that nobody locks a file that is about to go; a process
        // that opened it just before checks that it is still there once it holds it.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("tns-lock-{name}-{}", std::process::id()))
    }

    #[test]
    fn a_held_lock_says_its_owner_and_a_left_file_is_no_lock() {
        let path = temp("held");
        let held = Lock::take(&path).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap().trim(), std::process::id().to_string());
        match Lock::take(&path) {
            Err(LockError::Held { pid, .. }) => assert_eq!(pid, Some(std::process::id())),
            other => panic!("{other:?}"),
        }
        drop(held);
        assert!(!path.exists(), "released, the file goes");
        // A file a killed owner left, naming a live process: no one holds it, so it is taken.
        std::fs::write(&path, "1\n").unwrap();
        let taken = Lock::take(&path).unwrap();
        drop(taken);
    }

    #[test]
    fn of_many_threads_starting_at_once_exactly_one_holds_it() {
        let path = temp("race");
        for _ in 0..20 {
            let start = std::sync::Barrier::new(8);
            let held = std::sync::atomic::AtomicUsize::new(0);
            let most = std::sync::atomic::AtomicUsize::new(0);
            std::thread::scope(|s| {
                for _ in 0..8 {
                    s.spawn(|| {
                        start.wait();
                        if let Ok(lock) = Lock::take(&path) {
                            let now = held.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                            most.fetch_max(now, std::sync::atomic::Ordering::SeqCst);
                            std::thread::sleep(std::time::Duration::from_millis(2));
                            held.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
                            drop(lock);
                        }
                    });
                }
            });
            assert_eq!(most.into_inner(), 1, "two held the lock at once");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_at_once_not_waited_on() {
        let path = temp("fifo");
        if !std::process::Command::new("mkfifo").arg(&path).status().is_ok_and(|s| s.success()) {
            return;
        }
        let e = Lock::take(&path).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_folder_is_an_error_not_a_lock() {
        let dir = temp("dir");
        std::fs::create_dir_all(&dir).unwrap();
        assert!(matches!(Lock::take(&dir), Err(LockError::Io { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
