//! One trainer to a run folder: `run.lock` ([`tns_file::Lock`], the system's own file lock)
//! while a run goes on, so a second trainer in the same folder refuses instead of mixing its
//! generations in, even when both start at the same instant.

use std::path::Path;

use anyhow::bail;

/// The lock on a run folder, released when dropped.
#[derive(Debug)]
pub struct RunLock {
    _lock: tns_file::Lock,
}

impl RunLock {
    /// Takes the lock on `dir`. A lock file a killed run left holds nothing and is taken.
    ///
    /// # Errors
    /// A message naming the trainer that holds the folder, or the I/O error.
    pub fn take(dir: &Path) -> anyhow::Result<RunLock> {
        match tns_file::Lock::take(&dir.join("run.lock")) {
            Ok(lock) => Ok(RunLock { _lock: lock }),
            Err(tns_file::LockError::Held { pid, .. }) => {
                let who = pid.map_or_else(|| "another trainer".into(), |p| format!("process {p}"));
                bail!(
                    "{} is in use by another trainer ({who}): wait for it, or stop it",
                    dir.display()
                )
            }
            Err(e) => Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_refuses_and_a_left_file_is_taken() {
        let dir = std::env::temp_dir().join(format!("tns-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let lock = RunLock::take(&dir).unwrap();
        let e = RunLock::take(&dir).unwrap_err().to_string();
        let me = std::process::id();
        assert!(e.contains(&format!("in use by another trainer (process {me})")), "{e}");
        drop(lock);
        assert!(!dir.join("run.lock").exists());
        // Left by a killed run, naming a live process: no lock.
        std::fs::write(dir.join("run.lock"), "1").unwrap();
        drop(RunLock::take(&dir).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
