//! The movement phase's table built on its own thread, with its progress: the job behind `B`
//! (the intents are in `table_build.rs`).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::thread::JoinHandle;
use std::time::Instant;

use anyhow::{Context as _, anyhow};
use tns_tablebase::{BuildEvent, SliceProgress, Tablebase};

/// What the build thread sends.
#[derive(Debug)]
enum Message {
    /// The share of the work done, 0 to 1, and the slice being built or loaded (from 1) of
    /// how many.
    Progress(f64, usize, usize),
    /// The table, or why it could not be built.
    Done(anyhow::Result<Tablebase>),
}

/// A build running on its own thread.
#[derive(Debug)]
pub struct TableBuild {
    messages: Receiver<Message>,
    thread: Option<JoinHandle<()>>,
    /// The result, once the thread has sent it and until it is taken.
    result: Option<anyhow::Result<Tablebase>>,
    /// The folder it builds into.
    pub dir: PathBuf,
    /// The share of the work done so far, 0 to 1 (it moves as each slice is finished).
    pub done: f64,
    /// The slice being built or loaded, from 1, and how many there are (0 before the first).
    pub slice: (usize, usize),
    /// When the build started.
    pub started: Instant,
}

impl TableBuild {
    /// A build that stands at `done` and `slice`, with no thread behind it, for tests of how
    /// it is shown.
    #[cfg(test)]
    pub(crate) fn for_test(done: f64, slice: (usize, usize)) -> TableBuild {
        TableBuild {
            messages: channel().1,
            thread: None,
            result: None,
            dir: PathBuf::new(),
            done,
            slice,
            started: Instant::now(),
        }
    }

    /// Starts building the movement phase of the game won by `kills` kills into `dir` (made
    /// if missing). Slices already there are loaded, not built again, so a build stopped by
    /// quitting resumes at the slice it was in.
    pub fn start(dir: &Path, kills: u8) -> TableBuild {
        let (tx, messages) = channel();
        let failed = tx.clone();
        let folder = dir.to_path_buf();
        let thread = std::thread::Builder::new()
            .name("table build".into())
            .spawn(move || {
                let _ = tx.send(Message::Done(build(&folder, kills, &|share, slice, slices| {
                    let _ = tx.send(Message::Progress(share, slice, slices));
                })));
            })
            .map_err(|e| {
                let why = anyhow::Error::new(e).context("cannot start its thread");
                let _ = failed.send(Message::Done(Err(why)));
            })
            .ok();
        TableBuild {
            messages,
            thread,
            result: None,
            dir: dir.to_path_buf(),
            done: 0.0,
            slice: (0, 0),
            started: Instant::now(),
        }
    }

    /// Collects the progress the thread has sent, and its result when there is one (kept for
    /// [`TableBuild::take_result`]).
    pub fn poll(&mut self) {
        while self.result.is_none() {
            match self.messages.try_recv() {
                Ok(Message::Progress(share, slice, slices)) => {
                    self.done = share;
                    self.slice = (slice, slices);
                }
                Ok(Message::Done(result)) => {
                    if let Some(t) = self.thread.take() {
                        let _ = t.join();
                    }
                    self.result = Some(result);
                }
                Err(TryRecvError::Empty) => return,
                Err(TryRecvError::Disconnected) => {
                    self.result = Some(Err(anyhow!("the build stopped unexpectedly")));
                }
            }
        }
    }

    /// The table, or why it could not be built, once the build is over (after a
    /// [`TableBuild::poll`] that found it); `None` while it runs.
    pub fn take_result(&mut self) -> Option<anyhow::Result<Tablebase>> {
        self.result.take()
    }
}

/// Builds (or loads what is there of) the movement phase into `dir`, reporting the share of the
/// positions whose slices are done, and the slice it is at (from 1) of how many.
fn build(dir: &Path, kills: u8, progress: &dyn Fn(f64, usize, usize)) -> anyhow::Result<Tablebase> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    let slices = Tablebase::slice_slots(kills)?;
    let slots = |dead: u8| slices.iter().find(|s| s.0 == dead).map_or(0, |s| s.1);
    #[expect(clippy::cast_precision_loss, reason = "a share for a progress line")]
    let total = slices.iter().map(|s| s.1).sum::<usize>().max(1) as f64;
    // Slices are built in the order `slice_slots` lists them.
    let at = |dead: u8| slices.iter().position(|s| s.0 == dead).map_or(0, |i| i + 1);
    let mut finished = 0;
    #[expect(clippy::cast_precision_loss, reason = "a share for a progress line")]
    let share = |finished: usize| finished as f64 / total;
    // The table's errors name the file they are about.
    let table = Tablebase::build(kills, Some(dir), |event| match event {
        BuildEvent::Started { dead, .. } | BuildEvent::Damaged { dead } => {
            progress(share(finished), at(dead), slices.len());
        }
        BuildEvent::Loaded { dead } | BuildEvent::Finished { dead, .. } => {
            finished += slots(dead);
            progress(share(finished), at(dead), slices.len());
        }
        BuildEvent::Progress { dead, step } => {
            #[expect(clippy::cast_precision_loss, reason = "a share for a progress line")]
            let within = slots(dead) as f64 * slice_share(step);
            progress(share(finished) + within / total, at(dead), slices.len());
        }
        BuildEvent::Outdated { .. } => {}
    })?;
    Ok(table)
}

/// How far into a slice's build a step is, 0 to 1: the first pass, then one pass a distance.
/// How many distances a slice has is known only at its end, so each pass takes a share of what
/// is left; the line moves on every pass and reaches the slice's end only when it is finished.
fn slice_share(step: SliceProgress) -> f64 {
    const FIRST: f64 = 0.1;
    match step {
        SliceProgress::Initialised => FIRST,
        SliceProgress::Distance(n) => 1.0 - (1.0 - FIRST) * 0.9_f64.powi(i32::from(n) + 1),
    }
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::*;

    fn wait(job: &mut TableBuild) -> anyhow::Result<Tablebase> {
        loop {
            job.poll();
            if let Some(result) = job.take_result() {
                return result;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// Each file of `dir` with the time it was last written.
    fn written(dir: &Path) -> Vec<(PathBuf, SystemTime)> {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.path(), e.metadata().unwrap().modified().unwrap())
            })
            .collect();
        files.sort();
        files
    }

    #[test]
    fn builds_into_a_new_folder_and_loads_it_the_second_time() {
        let dir = std::env::temp_dir().join(format!("tns-tui-build-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut job = TableBuild::start(&dir.join("table"), 2);
        let table = wait(&mut job).expect("a two-kill table builds");
        assert!((job.done - 1.0).abs() < 1e-9, "every slice done: {}", job.done);
        assert_eq!(job.slice, (2, 2), "the last of two slices");
        assert_eq!(table.kills(), 2);
        // The files are there: the game's loader finds them, and a second build loads them
        // without writing any of them again.
        assert!(Tablebase::load(2, &dir.join("table")).is_ok());
        let before = written(&dir.join("table"));
        assert!(before.len() >= 2, "{before:?}");
        std::thread::sleep(std::time::Duration::from_millis(20));
        let again = wait(&mut TableBuild::start(&dir.join("table"), 2)).unwrap();
        assert_eq!(again.stats(), table.stats());
        assert_eq!(written(&dir.join("table")), before);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn progress_moves_within_a_slice_and_never_passes_its_end() {
        let mut last = 0.0;
        let steps = std::iter::once(SliceProgress::Initialised)
            .chain((0..200).map(SliceProgress::Distance));
        for step in steps {
            let share = slice_share(step);
            assert!(share > last && share < 1.0, "{step:?}: {share} after {last}");
            last = share;
        }
    }

    #[test]
    fn a_folder_that_cannot_be_made_is_an_error_not_a_panic() {
        let file = std::env::temp_dir().join(format!("tns-tui-build-file-{}", std::process::id()));
        std::fs::write(&file, b"not a folder").unwrap();
        let error = wait(&mut TableBuild::start(&file.join("table"), 1)).unwrap_err();
        let _ = std::fs::remove_file(&file);
        let line = tns_file::one_line(error.as_ref());
        assert!(line.contains("cannot make"), "{line}");
    }
}
