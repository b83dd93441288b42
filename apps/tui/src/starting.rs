//! Starting a new game from inside the game: `n` opens the form, Enter starts what it chose
//! (after a question when the game is not saved), Esc closes it.

use std::time::Duration;

use tns_board::{Game, Side};
use tns_search::Limits;

use crate::App;
use crate::app::Pending;
use crate::new_game::{NewGameForm, TimeChoice};
use crate::players::{DEFAULT_TIME, PlayerKind};

impl App {
    /// `n`: opens the new-game form, with this game's players and time chosen.
    pub fn request_new_game(&mut self) {
        let mut players = vec!["human".to_string()];
        let solved = self.tablebase.as_ref().is_some_and(|t| t.solves_whole_game());
        players.extend(
            tns_match::LEVELS
                .iter()
                .map(|(spec, _)| (*spec).to_string())
                .filter(|spec| spec != "perfect" || solved),
        );
        // With a table, the network searching with its movement phase (the game's default then).
        if self.tablebase.is_some() {
            players.push("network:table=on".to_string());
        }
        let time = match (&self.clock, self.seats[0].limits.time) {
            (Some(clock), _) => {
                let minutes = clock.control.base.as_secs_f64() / 60.0;
                TimeChoice::Clock(minutes, clock.control.increment.as_secs_f64())
            }
            (None, Some(t)) => TimeChoice::PerMove(t.as_secs_f64()),
            (None, None) => TimeChoice::PerMove(DEFAULT_TIME.as_secs_f64()),
        };
        let (sheep, tiger) = (self.player(Side::Sheep).name(), self.player(Side::Tiger).name());
        self.new_game_form =
            Some(NewGameForm::new(players, sheep, tiger, time, self.shown_board()));
        self.message = "new game: ↑ ↓ choose, ← → change, Enter starts, Esc cancels".into();
    }

    /// Enter in the form: starts the game it chose, after a yes when this one is not saved.
    /// A typed position that does not parse keeps the form open, saying why.
    pub fn submit_new_game(&mut self) {
        let Some(form) = &mut self.new_game_form else { return };
        if let Err(e) = form.choice() {
            form.error = Some(e);
            return;
        }
        if self.unsaved() {
            self.confirm = Some(Pending::NewGame);
            self.message = "Start again without saving? y: yes, s: save first, n: no".into();
        } else {
            self.start_chosen_game();
        }
    }

    /// Esc in the form: closes it, the game as it was.
    pub fn close_new_game(&mut self) {
        if self.new_game_form.take().is_some() {
            self.message = "carry on".into();
        }
    }

    /// Starts the game the form chose (or, without a form, this game again from its start).
    pub(crate) fn start_chosen_game(&mut self) {
        let Some(choice) = self.new_game_form.take().and_then(|f| f.choice().ok()) else {
            self.new_game();
            return;
        };
        let kind = |name: &str| PlayerKind::parse(name).unwrap_or_else(|_| PlayerKind::network());
        let (limits, control) = match choice.time {
            TimeChoice::PerMove(t) => (Limits::time(Duration::from_secs_f64(t)), None),
            TimeChoice::Clock(..) => (Limits::time(DEFAULT_TIME), choice.time.control()),
        };
        self.cancel_search();
        let mut fresh = App::new(
            Game::from_position(choice.start),
            kind(&choice.sheep),
            kind(&choice.tiger),
            limits,
            self.tablebase.clone(),
        );
        // What belongs to the program rather than the game stays.
        fresh.autosave = self.autosave.take();
        fresh.no_color = self.no_color;
        fresh.show_threats = self.show_threats;
        fresh.show_analysis = self.show_analysis;
        fresh.saved_to = self.saved_to.take();
        fresh.table_home = self.table_home.take();
        fresh.table_build = self.table_build.take();
        // A side left to the default and not changed in the form still takes a table that comes.
        for (i, name) in [&choice.sheep, &choice.tiger].into_iter().enumerate() {
            fresh.takes_table[i] = self.takes_table[i] && self.seats[i].kind.name() == name;
        }
        *self = fresh;
        if let Some(control) = control {
            self.set_clock(control);
        }
        self.message =
            format!("new game: {} against {}, {}", choice.sheep, choice.tiger, choice.time.label());
    }
}
