//! The lock a build holds on a table's directory, and the leftovers of a killed build it clears.

use std::path::Path;

use crate::TablebaseError;

/// The lock a build holds on its directory, `build.lock` ([`tns_file::Lock`]: the system's own
/// file lock, so two builds started at once cannot both hold it, and a killed build's is gone
/// with it), released when the build ends.
#[derive(Debug)]
pub(crate) struct BuildLock {
    _lock: tns_file::Lock,
}

impl BuildLock {
    /// Takes the lock on `dir` (made if need be), and removes the temporary files a killed
    /// build left there.
    ///
    /// # Errors
    /// [`TablebaseError::Locked`] when another process holds it; a file error when the
    /// directory cannot be written.
    pub(crate) fn take(dir: &Path) -> Result<BuildLock, TablebaseError> {
        std::fs::create_dir_all(dir).map_err(|e| TablebaseError::file(dir, e))?;
        let lock = match tns_file::Lock::take(&dir.join("build.lock")) {
            Ok(lock) => lock,
            Err(tns_file::LockError::Held { path, pid }) => {
                return Err(TablebaseError::Locked { path, pid });
            }
            Err(tns_file::LockError::Io { path, source }) => {
                return Err(TablebaseError::file(&path, source));
            }
            Err(e) => return Err(TablebaseError::file(dir, std::io::Error::other(e))),
        };
        remove_temporaries(dir)?;
        Ok(BuildLock { _lock: lock })
    }
}

/// Removes the temporary files of table files (`k*-*.tns*.tmp*`) left in `dir` by a save that
/// was killed. Only a build holding the lock calls it, so none of them is being written.
fn remove_temporaries(dir: &Path) -> Result<(), TablebaseError> {
    let entries = std::fs::read_dir(dir).map_err(|e| TablebaseError::file(dir, e))?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let table_file = name.starts_with('k') && name.contains(".tns") && name.contains(".tmp");
        if table_file && entry.file_type().is_ok_and(|t| t.is_file()) {
            let path = entry.path();
            std::fs::remove_file(&path).map_err(|e| TablebaseError::file(&path, e))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_refuses_and_a_left_file_is_taken_over() {
        let dir = std::env::temp_dir().join(format!("tns-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("k5-p3.tnspl.tmp123"), b"half a file").unwrap();
        std::fs::write(dir.join("notes.txt"), b"kept").unwrap();
        let lock = BuildLock::take(&dir).unwrap();
        assert!(!dir.join("k5-p3.tnspl.tmp123").exists());
        assert!(dir.join("notes.txt").exists());
        // Held: a second build is refused, and told who holds it.
        let e = BuildLock::take(&dir).unwrap_err();
        assert!(matches!(e, TablebaseError::Locked { pid, .. } if pid == Some(std::process::id())));
        assert!(e.to_string().contains("another build"), "{e}");
        drop(lock);
        assert!(!dir.join("build.lock").exists());
        // A lock file a killed build left (naming a live process) holds nothing: taken.
        std::fs::write(dir.join("build.lock"), "1\n").unwrap();
        let lock = BuildLock::take(&dir).unwrap();
        drop(lock);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
