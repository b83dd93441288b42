//! The run folder's files: each generation's weights, the state that names the last complete
//! one, and the clean-up of what a killed run left half done.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::state::RunState;

/// The path of generation `n`'s weights.
pub fn generation_path(out: &Path, n: u32) -> PathBuf {
    out.join(format!("gen-{n:03}.bin"))
}

/// The newest generation saved in `out`, if any.
pub fn newest_generation(out: &Path) -> Option<u32> {
    std::fs::read_dir(out)
        .ok()?
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_prefix("gen-")?.strip_suffix(".bin")?.parse().ok()
        })
        .max()
}

/// The newest generation a run in `out` finished: the one its state file names. The state is
/// written once a generation's weights and log are whole, so a generation is complete, and
/// visible to a resume, only then: weights without a state after them (a full disk, a kill
/// between the two) are an unfinished generation, done again to the same bits.
///
/// # Errors
/// A state file that will not load.
pub fn complete_generation(out: &Path) -> anyhow::Result<Option<u32>> {
    RunState::load_generation(&out.join("state.bin"))
}

/// Removes what a killed run left half done: temporary files of interrupted saves, and the
/// weights of generations after the last complete one. Says what it removed.
pub fn clean_up(out: &Path, complete: u32, log: &mut impl FnMut(&str)) -> anyhow::Result<()> {
    let entries = std::fs::read_dir(out).with_context(|| out.display().to_string())?;
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let unfinished = name
            .strip_prefix("gen-")
            .and_then(|n| n.strip_suffix(".bin"))
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| n > complete);
        if name.contains(".tmp") || unfinished {
            std::fs::remove_file(entry.path())
                .with_context(|| entry.path().display().to_string())?;
            removed.push(name);
        }
    }
    if !removed.is_empty() {
        removed.sort();
        log(&format!(
            "removed what a stopped run left unfinished after generation {complete}: {}",
            removed.join(", ")
        ));
    }
    Ok(())
}
