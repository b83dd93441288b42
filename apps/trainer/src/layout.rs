//! The run folder's files: each generation's weights, the state that names the last complete
//! one, and the clean-up of what a killed run left half done.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

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

/// The generations whose weights are in `out`, in order.
fn generations_on_disk(out: &Path) -> anyhow::Result<Vec<u32>> {
    let entries = std::fs::read_dir(out).with_context(|| out.display().to_string())?;
    let mut found: Vec<u32> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            name.strip_prefix("gen-")?.strip_suffix(".bin")?.parse().ok()
        })
        .collect();
    found.sort_unstable();
    Ok(found)
}

/// `gen-001.bin` … `gen-030.bin`, or the one name.
fn span(generations: &[u32]) -> String {
    match generations {
        [] => String::new(),
        [one] => format!("gen-{one:03}.bin"),
        [first, .., last] => format!("gen-{first:03}.bin … gen-{last:03}.bin"),
    }
}

/// Checks that the weights in `out` agree with the state that names generation `complete` (0:
/// no state) before anything is removed. A run writes one generation's weights, then the state
/// that names it complete, so at most one generation's weights (the one under way when it
/// stopped) can stand after the state's: more than that means the state is not the one this
/// folder's run wrote last (copied from another run, restored from a backup, or removed), and
/// the finished generations after it are kept and the resume refused.
///
/// # Errors
/// A folder whose weights go further than its state allows, saying what is kept.
pub fn check_no_finished_after(out: &Path, complete: u32) -> anyhow::Result<()> {
    let state = out.join("state.bin");
    let says = if complete == 0 {
        format!("{} is missing", state.display())
    } else {
        format!("{} names generation {complete} as the last finished", state.display())
    };
    // `latest.bin` is written after the state: the generation it holds was finished, and a
    // state that does not name it (or no state) is not this run's last.
    let latest = out.join("latest.bin");
    let next = generation_path(out, complete + 1);
    if std::fs::symlink_metadata(&latest).is_ok() {
        let finished_next = next.exists()
            && tns_file::read(&latest).ok().is_some_and(|l| tns_file::read(&next).ok() == Some(l));
        if complete == 0 || finished_next {
            bail!(
                "{says}, but {} holds a finished generation (it is written after the state): \
                 the state is not the one this run wrote last (copied from another run, \
                 restored, or removed?). Nothing was removed: every generation is kept. Put back \
                 this run's state.bin, or train into a new folder",
                latest.display()
            );
        }
    }
    // The log is written after a generation's weights and before its state: a row past the
    // one under way, or a row for it without its weights, was a generation finished.
    let log = out.join("progress.csv");
    let logged = crate::progress::read(&log)?.iter().map(|r| r.generation).max().unwrap_or(0);
    if logged > complete + 1 || (logged == complete + 1 && !next.exists()) {
        bail!(
            "{says}, but {} logs generation {logged}: the state is not the one this run wrote \
             last (copied from another run, restored, or removed?). Nothing was removed, the \
             log is kept. Put back this run's state.bin, or train into a new folder",
            log.display()
        );
    }
    let after: Vec<u32> =
        generations_on_disk(out)?.into_iter().filter(|&n| n > complete + 1).collect();
    if after.is_empty() {
        return Ok(());
    }
    bail!(
        "{says}, but {} ({} generation(s)) are saved after it: the state is not the one this run \
         wrote last (copied from another run, restored, or removed?). Nothing was removed: every \
         generation is kept. Put back this run's state.bin, or move {} out of the folder to go \
         on from generation {complete}, or train into a new folder",
        span(&after),
        after.len(),
        span(&after)
    )
}

/// Removes what a stopped run left unfinished: temporary files of interrupted saves, and the
/// weights of the one generation that was under way after the last complete one (it is done
/// again, to the same bits). Says what it removed and what it kept. Call
/// [`check_no_finished_after`] first: this removes every generation after `complete`.
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
        if is_temporary(&name, &entry) || unfinished {
            std::fs::remove_file(entry.path())
                .with_context(|| entry.path().display().to_string())?;
            removed.push(name);
        }
    }
    if !removed.is_empty() {
        removed.sort();
        let kept = generations_on_disk(out)?;
        let kept = if kept.is_empty() { "none".to_owned() } else { span(&kept) };
        log(&format!(
            "removed what a stopped run left unfinished after generation {complete}: {}; kept: {kept}",
            removed.join(", ")
        ));
    }
    Ok(())
}

/// Whether `name` is a temporary file an interrupted save left: a regular file named as
/// `tns_file::write_atomically` names them, `<file>.tmp<process id>`. Anything else, a folder
/// or a file of the user's (`notes.tmpl`), is left alone.
fn is_temporary(name: &str, entry: &std::fs::DirEntry) -> bool {
    let parts = name.rsplit_once(".tmp");
    parts.is_some_and(|(file, pid)| {
        !file.is_empty() && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())
    }) && entry.file_type().is_ok_and(|t| t.is_file())
}
