//! Building the movement phase's table from inside the game (`B`), into a folder the game looks
//! for a table in, so that the computer players and the hint take its exact values once every
//! sheep is placed (`table=on`), this game and every game after; the build itself runs in
//! `table_job.rs`.

use std::sync::Arc;

use tns_board::KILLS_TO_WIN;
use tns_tablebase::Tablebase;

use crate::App;
use crate::players::Controller;
use crate::players::Seat;
use crate::table_job::TableBuild;

impl App {
    /// `B`: builds the movement phase's table into [`App::table_home`] on its own thread (about
    /// a minute on two cores, 14 MB), unless a table is loaded or being built. The game goes on
    /// meanwhile; when it is done the table is loaded ([`App::adopt_table`]).
    pub(crate) fn build_table(&mut self) {
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
            if self.table.takes[i] && matches!(seat_now.kind(), Controller::Computer(_)) {
                let kind = seat_now.kind().clone().using_table();
                *seat_now = Seat::new(kind, &self.game_limits, Some(&table));
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
    pub(crate) fn table_build_text(&self) -> Option<String> {
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

#[cfg(test)]
mod building {
    use std::time::{Duration, Instant};

    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    use tns_board::Game;
    use tns_search::Limits;

    use crate::input::{Hitmap, map_event};
    use crate::table_job::TableBuild;
    use crate::{App, Controller, apply};

    fn press(app: &mut App, code: KeyCode) {
        let key = Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
        if let Some(action) = map_event(&key, &Hitmap::default(), app.screen()) {
            apply(app, action, &std::env::temp_dir());
        }
    }

    fn screen_text(app: &App) -> String {
        let mut terminal = Terminal::new(TestBackend::new(100, 32)).unwrap();
        terminal
            .draw(|f| {
                crate::draw(f, app);
            })
            .unwrap();
        let buffer = terminal.backend().buffer();
        buffer
            .content
            .chunks(usize::from(buffer.area.width))
            .map(|row| row.iter().map(ratatui::buffer::Cell::symbol).collect::<String>() + "\n")
            .collect()
    }

    #[test]
    fn b_builds_the_endgame_table_and_the_seats_that_take_one_search_with_it() {
        use tns_board::Side;
        let mut app =
            App::new(Game::new(), Controller::Human, Controller::network(), Limits::depth(1), None);
        press(&mut app, KeyCode::Char('B'));
        assert!(app.message().contains("no folder to build the table in"), "{}", app.message());
        assert!(app.jobs.table_build.as_ref().is_none());
        // The game's `B` builds the five-kill table (a minute in release); the one-kill variant
        // takes a moment and goes the same way: progress on the status line, then the table.
        let dir = std::env::temp_dir().join(format!("tns-tui-b-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        app.set_table_home(Some(dir.clone()));
        app.set_takes_table([true, true]);
        app.jobs.table_build = Some(TableBuild::start(&dir, 1));
        let text = screen_text(&app);
        assert!(text.contains("Building the table: 0%"), "{text}");
        press(&mut app, KeyCode::Char('B'));
        assert!(app.message().contains("the table is being built"), "{}", app.message());
        // A new game from the form, the sides as they were: the build goes on, and the side left
        // to the default still takes the table.
        press(&mut app, KeyCode::Char('n'));
        press(&mut app, KeyCode::Enter);
        assert!(
            app.new_game_form().is_none() && app.jobs.table_build.as_ref().is_some(),
            "{}",
            app.message()
        );
        let start = Instant::now();
        while app.jobs.table_build.as_ref().is_some() && start.elapsed() < Duration::from_secs(60) {
            app.tick();
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(app.tablebase().is_some(), "the built table is loaded: {}", app.message());
        assert!(app.message().contains("the endgame table is built"), "{}", app.message());
        // The computer seat searches with it; the person is a person still.
        assert_eq!(app.player(Side::Tiger).name(), "strongest:table=on");
        assert_eq!(*app.player(Side::Sheep), Controller::Human);
        let text = screen_text(&app);
        assert!(!text.contains("Building the table"), "{text}");
        press(&mut app, KeyCode::Char('B'));
        assert!(app.message().contains("the table is loaded already"), "{}", app.message());
        // The files are where the game looks: the next start loads them.
        assert!(tns_tablebase::Tablebase::load(1, &dir).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_table_built_while_the_form_is_open_waits_for_the_new_game() {
        use tns_board::Side;
        let dir = std::env::temp_dir().join(format!("tns-tui-form-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut app =
            App::new(Game::new(), Controller::Human, Controller::network(), Limits::depth(1), None);
        app.set_takes_table([true, true]);
        app.jobs.table_build = Some(TableBuild::start(&dir, 1));
        // The form is open while the build ends: the table waits, so the form's players stay true.
        press(&mut app, KeyCode::Char('n'));
        let start = Instant::now();
        while app.jobs.table_build.as_ref().is_some_and(|job| job.done < 1.0)
            && start.elapsed() < Duration::from_secs(60)
        {
            app.tick();
            std::thread::sleep(Duration::from_millis(5));
        }
        app.tick();
        assert!(app.tablebase().is_none() && app.new_game_form().is_some());
        // The new game, its sides as they were: then the table is loaded and the tigers take it.
        press(&mut app, KeyCode::Enter);
        app.tick();
        assert!(app.tablebase().is_some(), "{}", app.message());
        assert_eq!(app.player(Side::Tiger).name(), "strongest:table=on");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
