//! Building the movement phase's table from inside the game (`B`): on its own thread, into the
//! folder the game looks for a table in, so that the computer players and the hint take its
//! exact values once every sheep is placed (`table=on`), this game and every game after.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::thread::JoinHandle;

use tns_board::KILLS_TO_WIN;
use tns_tablebase::{BuildEvent, Tablebase};

use crate::App;
use crate::app::seat;
use crate::players::PlayerKind;

impl App {
    /// `B`: builds the movement phase's table into [`App::table_home`] on its own thread (about
    /// a minute on two cores, 14 MB), unless a table is loaded or being built. The game goes on
    /// meanwhile; when it is done the table is loaded ([`App::adopt_table`]).
    pub fn build_table(&mut self) {
        if self.tablebase.is_some() {
            self.message = "the table is loaded already".into();
        } else if let Some(job) = &self.table_build {
            self.message = format!("the table is being built: {}", progress_text(job.done));
        } else if let Some(dir) = &self.table_home {
            self.table_build = Some(TableBuild::start(dir, KILLS_TO_WIN));
            self.message = format!(
                "building the endgame table in {} (about a minute; play on)",
                dir.display()
            );
        } else {
            self.message = "no folder to build the table in (name one with --tablebase)".into();
        }
    }

    /// Collects the build's progress, and its table once it is done: loaded when no computer
    /// is thinking (a search keeps the evaluator it started with).
    pub(crate) fn poll_table_build(&mut self) {
        if self.thinking.is_some() {
            return;
        }
        let Some(job) = &mut self.table_build else { return };
        match job.poll() {
            BuildPoll::Running => {}
            BuildPoll::Done(Ok(table)) => {
                self.table_build = None;
                self.adopt_table(Arc::new(table));
            }
            BuildPoll::Done(Err(e)) => {
                self.table_build = None;
                self.message = format!("the endgame table could not be built: {e}");
            }
        }
    }

    /// Loads a table into the game: the seats that take one ([`App::takes_table`]) search with
    /// its movement phase from now on (`table=on`), and the hint, the verdict line and the
    /// analysis use it.
    pub fn adopt_table(&mut self, table: Arc<Tablebase>) {
        self.cancel_search();
        for (i, seat_now) in self.seats.iter_mut().enumerate() {
            if self.takes_table[i] && matches!(seat_now.kind, PlayerKind::Computer(_)) {
                let kind = seat_now.kind.clone().using_table();
                *seat_now = seat(kind, &self.game_limits, Some(&table));
            }
        }
        self.tablebase = Some(table);
        self.message = "the endgame table is built: the computer plays perfectly once every \
                        sheep is placed"
            .into();
    }

    /// The build's progress, for the status line, while there is one.
    pub fn table_build_text(&self) -> Option<String> {
        self.table_build
            .as_ref()
            .map(|job| format!("Building the endgame table: {}", progress_text(job.done)))
    }
}

/// A share as a whole percentage.
fn progress_text(done: f64) -> String {
    format!("{:.0}%", done * 100.0)
}

/// What the build thread sends.
#[derive(Debug)]
enum Message {
    /// The share of the work done, 0 to 1.
    Progress(f64),
    /// The table, or why it could not be built.
    Done(Result<Tablebase, String>),
}

/// A build running on its own thread.
#[derive(Debug)]
pub struct TableBuild {
    messages: Receiver<Message>,
    thread: Option<JoinHandle<()>>,
    /// The folder it builds into.
    pub dir: PathBuf,
    /// The share of the work done so far, 0 to 1.
    pub done: f64,
}

/// How a poll of a build went.
#[derive(Debug)]
pub enum BuildPoll {
    /// Still building.
    Running,
    /// Finished: the table, or why it could not be built.
    Done(Result<Tablebase, String>),
}

impl TableBuild {
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
                let _ = tx.send(Message::Done(build(&folder, kills, &|share| {
                    let _ = tx.send(Message::Progress(share));
                })));
            })
            .map_err(|e| {
                let _ = failed.send(Message::Done(Err(format!("cannot start its thread: {e}"))));
            })
            .ok();
        TableBuild { messages, thread, dir: dir.to_path_buf(), done: 0.0 }
    }

    /// Collects progress, and the table once it is built.
    pub fn poll(&mut self) -> BuildPoll {
        loop {
            match self.messages.try_recv() {
                Ok(Message::Progress(share)) => self.done = share,
                Ok(Message::Done(result)) => {
                    if let Some(t) = self.thread.take() {
                        let _ = t.join();
                    }
                    return BuildPoll::Done(result);
                }
                Err(TryRecvError::Empty) => return BuildPoll::Running,
                Err(TryRecvError::Disconnected) => {
                    return BuildPoll::Done(Err("the build stopped unexpectedly".into()));
                }
            }
        }
    }
}

/// Builds (or loads what is there of) the movement phase into `dir`, reporting the share of the
/// positions whose slices are done.
fn build(dir: &Path, kills: u8, progress: &dyn Fn(f64)) -> Result<Tablebase, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    let slices = Tablebase::slice_slots(kills).map_err(|e| e.to_string())?;
    let slots = |dead: u8| slices.iter().find(|s| s.0 == dead).map_or(0, |s| s.1);
    #[expect(clippy::cast_precision_loss, reason = "a share for a progress line")]
    let total = slices.iter().map(|s| s.1).sum::<usize>().max(1) as f64;
    let mut finished = 0;
    Tablebase::build(kills, Some(dir), |event| {
        if let BuildEvent::Loaded { dead } | BuildEvent::Finished { dead, .. } = event {
            finished += slots(dead);
            #[expect(clippy::cast_precision_loss, reason = "a share for a progress line")]
            progress(finished as f64 / total);
        }
    })
    .map_err(|e| format!("{}: {e}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait(job: &mut TableBuild) -> Result<Tablebase, String> {
        loop {
            match job.poll() {
                BuildPoll::Running => std::thread::sleep(std::time::Duration::from_millis(5)),
                BuildPoll::Done(result) => return result,
            }
        }
    }

    #[test]
    fn builds_into_a_new_folder_and_loads_it_the_second_time() {
        let dir = std::env::temp_dir().join(format!("tns-tui-build-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut job = TableBuild::start(&dir.join("table"), 2);
        let table = wait(&mut job).expect("a two-kill table builds");
        assert!((job.done - 1.0).abs() < 1e-9, "every slice done: {}", job.done);
        assert_eq!(table.kills(), 2);
        // The files are there: the game's loader finds them, and a second build loads them.
        assert!(Tablebase::load(2, &dir.join("table")).is_ok());
        let again = wait(&mut TableBuild::start(&dir.join("table"), 2)).unwrap();
        assert_eq!(again.stats(), table.stats());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_folder_that_cannot_be_made_is_an_error_not_a_panic() {
        let file = std::env::temp_dir().join(format!("tns-tui-build-file-{}", std::process::id()));
        std::fs::write(&file, b"not a folder").unwrap();
        let error = wait(&mut TableBuild::start(&file.join("table"), 1)).unwrap_err();
        let _ = std::fs::remove_file(&file);
        assert!(error.contains("cannot make"), "{error}");
    }
}
