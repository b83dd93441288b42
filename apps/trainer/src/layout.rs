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

/// Checks, before anything is removed, that nothing in `out` was finished after the generation
/// its state names `complete` (0: no state). A run writes a generation's weights, then its log
/// row, then the state that names it complete, then `latest.bin`; so only the one generation
/// under way when it stopped may stand after the state: its weights, and perhaps its log row.
/// Weights further on, a `latest.bin` holding a generation the state does not name, or log
/// rows further on mean the state is not the one this folder's run wrote last (copied from
/// another run, restored from a backup, or removed): the resume is refused and all is kept.
///
/// # Errors
/// A folder that holds more than its state allows, saying what it holds and that it is kept.
pub fn check_no_finished_after(out: &Path, complete: u32) -> anyhow::Result<()> {
    let state = out.join("state.bin");
    let refuse = |holds: String, mend: &str| -> anyhow::Result<()> {
        let says = if complete == 0 {
            format!("{} is missing", state.display())
        } else {
            format!("{} names generation {complete} as the last finished", state.display())
        };
        bail!(
            "{says}, but {holds}: the state is not the one this run wrote last (copied from \
             another run, restored, or removed?). Nothing was removed. Put back this run's \
             state.bin, {mend}or train into a new folder"
        )
    };
    let latest = out.join("latest.bin");
    let next = generation_path(out, complete + 1);
    if std::fs::symlink_metadata(&latest).is_ok() {
        let finished_next = next.exists()
            && tns_file::read(&latest).ok().is_some_and(|l| tns_file::read(&next).ok() == Some(l));
        if complete == 0 || finished_next {
            let holds = format!("{} holds a finished generation", latest.display());
            return refuse(holds, "");
        }
    }
    let log = out.join("progress.csv");
    let logged = crate::progress::read(&log)?.iter().map(|r| r.generation).max().unwrap_or(0);
    if logged > complete + 1 || (logged == complete + 1 && !next.exists()) {
        return refuse(format!("{} logs generation {logged}", log.display()), "");
    }
    let after: Vec<u32> =
        generations_on_disk(out)?.into_iter().filter(|&n| n > complete + 1).collect();
    if after.is_empty() {
        return Ok(());
    }
    let holds = format!("{} ({} generation(s)) are saved after it", span(&after), after.len());
    let mend =
        format!("or move {} out of the folder to go on from generation {complete}, ", span(&after));
    refuse(holds, &mend)
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
