//! Building the movement phase's table from inside the game (`B`), into a folder the game looks
//! for a table in, so that the computer players and the hint take its exact values once every
//! sheep is placed (`table=on`), this game and every game after; the build itself runs in
//! `table_job.rs`.

use std::sync::Arc;

use tns_board::KILLS_TO_WIN;
use tns_tablebase::Tablebase;

use crate::App;
use crate::app::seat;
use crate::players::Controller;
use crate::table_job::TableBuild;

impl App {
    /// `B`: builds the movement phase's table into [`App::table_home`] on its own thread (about
    /// a minute on two cores, 14 MB), unless a table is loaded or being built. The game goes on
    /// meanwhile; when it is done the table is loaded ([`App::adopt_table`]).
    pub fn build_table(&mut self) {
        if self.table.loaded.is_some() {
            self.message = "the table is loaded already".into();
        } else if let Some(job) = &self.jobs.table_build {
            self.message = format!("the table is being built: {}", progress_text(job));
        } else if let Some(dir) = &self.table.home {
            self.jobs.table_build = Some(TableBuild::start(dir, KILLS_TO_WIN));
            self.message = format!(
                "building the endgame table in {} (about a minute; play on)",
                dir.display()
            );
        } else {
            self.message = "no folder to build the table in (name one with --tablebase)".into();
        }
    }

    /// Collects the build's progress, and its table once it is done: loaded when no computer
    /// is thinking (a search keeps the evaluator it started with) and nothing is being asked or
    /// chosen (the question's message and the form's players stay as they were shown).
    pub(crate) fn poll_table_build(&mut self) {
        let Some(job) = &mut self.jobs.table_build else { return };
        job.poll();
        if self.jobs.thinking.is_some() || self.screen.asks() || self.screen.form().is_some() {
            return;
        }
        match job.take_result() {
            None => {}
            Some(Ok(table)) => {
                self.jobs.table_build = None;
                self.adopt_table(Arc::new(table));
            }
            Some(Err(e)) => {
                self.jobs.table_build = None;
                self.message = format!(
                    "the endgame table could not be built: {}",
                    tns_file::one_line(e.as_ref())
                );
            }
        }
    }

    /// Loads a table into the game: the seats that take one ([`App::takes_table`]) search with
    /// its movement phase from now on (`table=on`), and the hint, the verdict line and the
    /// analysis use it.
    pub fn adopt_table(&mut self, table: Arc<Tablebase>) {
        self.cancel_search();
        let mut switched = 0;
        for (i, seat_now) in self.seats.iter_mut().enumerate() {
            if self.table.takes[i] && matches!(seat_now.kind, Controller::Computer(_)) {
                let kind = seat_now.kind.clone().using_table();
                *seat_now = seat(kind, &self.game_limits, Some(&table));
                switched += 1;
            }
        }
        self.table.loaded = Some(table);
        self.message = if switched > 0 {
            "the endgame table is built: the computer plays perfectly once every sheep is placed"
        } else {
            "the endgame table is built: the hint, the verdict line and m use it"
        }
        .into();
    }

    /// The build's progress, for the status line, while there is one.
    pub fn table_build_text(&self) -> Option<String> {
        self.jobs
            .table_build
            .as_ref()
            .map(|job| format!("Building the table: {}", progress_text(job)))
    }
}

/// How far a build is: the share of the positions done (it moves as each slice is finished),
/// the slice it is at, and the seconds since it started (which move while a slice is built).
fn progress_text(job: &TableBuild) -> String {
    let percent = format!("{:.0}%", job.done * 100.0);
    let seconds = job.started.elapsed().as_secs();
    match job.slice {
        (_, 0) => format!("{percent} of the table, {seconds} s"),
        // The share is of the whole table's positions: the first slice holds most of them.
        (slice, slices) => {
            format!("{percent} of the table, at slice {slice} of {slices}, {seconds} s")
        }
    }
}

#[cfg(test)]
mod wording {
    #[test]
    fn the_share_is_said_to_be_of_the_whole_table() {
        let job = super::TableBuild::for_test(0.7, (1, 5));
        let text = super::progress_text(&job);
        assert!(text.starts_with("70% of the table, at slice 1 of 5, "), "{text}");
    }
}
