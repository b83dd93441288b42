//! One trainer to a run folder: `run.lock` holds the owner's process id while a run goes on, so
//! a second trainer in the same folder refuses instead of mixing its generations in.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The lock on a run folder, released (the file removed) when dropped.
#[derive(Debug)]
pub struct RunLock {
    path: PathBuf,
}

/// Whether a process with this id is running. Where the system cannot tell (no `/proc`), every
/// lock is taken to be held, and the message says how to remove it.
fn alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.is_dir() || proc.join(pid.to_string()).exists()
}

impl RunLock {
    /// Takes the lock on `dir`. A lock left by a process that is no longer running (a killed
    /// run) is stale and taken over.
    ///
    /// # Errors
    /// A message naming the trainer that holds the folder, or the I/O error.
    pub fn take(dir: &Path) -> Result<RunLock, String> {
        let path = dir.join("run.lock");
        for _ in 0..2 {
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut file) => {
                    write!(file, "{}", std::process::id())
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    return Ok(RunLock { path });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let text = std::fs::read_to_string(&path).unwrap_or_default();
                    match text.trim().parse::<u32>() {
                        Ok(pid) if pid != std::process::id() && alive(pid) => {
                            return Err(format!(
                                "{} is in use by another trainer (process {pid}): wait for it, \
                                 or stop it; if no trainer runs, remove {}",
                                dir.display(),
                                path.display()
                            ));
                        }
                        // Stale (its process is gone) or unreadable: take it over.
                        _ => {
                            std::fs::remove_file(&path)
                                .map_err(|e| format!("{}: {e}", path.display()))?;
                        }
                    }
                }
                Err(e) => return Err(format!("{}: {e}", path.display())),
            }
        }
        Err(format!("{}: another trainer took the lock at the same moment", path.display()))
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        // A lock that cannot be removed is stale once this process ends, and is taken over.
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_refuses_and_a_stale_one_is_taken_over() {
        let dir = std::env::temp_dir().join(format!("tns-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // Held by a live process other than this one: process 1 always runs.
        std::fs::write(dir.join("run.lock"), "1").unwrap();
        let e = RunLock::take(&dir).unwrap_err();
        assert!(e.contains("in use by another trainer (process 1)"), "{e}");
        // A process id no system hands out is stale.
        std::fs::write(dir.join("run.lock"), "4294967295").unwrap();
        let lock = RunLock::take(&dir).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("run.lock")).unwrap(),
            std::process::id().to_string()
        );
        drop(lock);
        assert!(!dir.join("run.lock").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
