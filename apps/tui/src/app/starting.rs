//! Starting a new game from inside the game: `n` opens the form, Enter starts what it chose
//! (after a question when the game is not saved), Esc closes it.

use std::time::Duration;

use tns_board::{Game, Side};
use tns_search::Limits;

use crate::App;
use crate::leave::Leave;
use crate::new_game::{self, NewGameForm, StartChoice, TimeChoice};
use crate::players::{Controller, DEFAULT_TIME};
use crate::screen::{Question, Screen};

impl App {
    /// The players the form offers: a person, then the levels in the order every program
    /// lists them ([`tns_match::offers`]).
    fn offered(&self) -> Vec<String> {
        let solved = self.table.loaded.as_ref().is_some_and(|t| t.solves_whole_game());
        let offers = tns_match::offers(self.table.loaded.is_some(), solved);
        std::iter::once("human".to_string())
            .chain(offers.into_iter().map(|o| o.name))
            .chain(std::iter::once(new_game::ONLINE_FRIEND.to_string()))
            .collect()
    }

    /// `n`: opens the new-game form, with this game's players and time chosen.
    pub(crate) fn request_new_game(&mut self) {
        let time = match (&self.clock, self.seats[0].limits().time) {
            (Some(clock), _) => {
                let minutes = clock.control.base.as_secs_f64() / 60.0;
                TimeChoice::Clock(minutes, clock.control.increment.as_secs_f64())
            }
            (None, Some(t)) => TimeChoice::PerMove(t.as_secs_f64()),
            (None, None) => TimeChoice::PerMove(DEFAULT_TIME.as_secs_f64()),
        };
        let (sheep, tiger) = (self.player(Side::Sheep).name(), self.player(Side::Tiger).name());
        let form =
            Box::new(NewGameForm::new(self.offered(), &sheep, &tiger, time, self.shown_board()));
        // Opened again, it replaces the form it finds rather than opening over it.
        let back = match std::mem::take(&mut self.screen) {
            Screen::NewGame { back, .. } => back,
            other => Box::new(other),
        };
        self.screen = Screen::NewGame { form, back };
        self.message = "new game: ↑ ↓ choose, ← → change, Enter starts, Esc cancels".into();
    }

    /// The start screen, for a game started without choosing its players: the new-game form
    /// before any move, with the sheep yours and the tigers the computer player this game
    /// would have had. Nothing moves until Enter plays; Esc quits.
    pub fn open_start_screen(&mut self) {
        self.request_new_game();
        if let Screen::NewGame { form, .. } = &mut self.screen {
            form.opening = true;
            form.sheep = form.players.iter().position(|p| p == "human").unwrap_or(0);
            if self.game.board() != tns_board::Board::START {
                // Started with --position: that is the start offered.
                form.start = StartChoice::Shown;
            }
        }
        self.message = "Choose your side and the computer's level; Enter plays".into();
    }

    /// The tip that `B` builds the movement phase's table, where there is none and a computer
    /// player would search with it.
    pub(crate) fn table_tip(&self) -> Option<&'static str> {
        let would_take = [Side::Sheep, Side::Tiger].into_iter().any(|side| {
            self.table.takes[crate::players::seat_index(side)]
                && matches!(self.player(side), Controller::Computer(_))
        });
        (self.table.loaded.is_none() && self.table.home.is_some() && would_take)
            .then_some("B builds the endgame table (a minute)")
    }

    /// Enter in the form: starts the game it chose, after a yes when this one is not saved.
    /// A typed position that does not parse keeps the form open, saying why.
    pub(crate) fn submit_new_game(&mut self) {
        let Screen::NewGame { form, .. } = &mut self.screen else { return };
        if let Err(e) = form.choice() {
            form.error = Some(tns_file::one_line(e.as_ref()));
            return;
        }
        let opening = form.opening;
        let ask = self.unsaved() && !opening;
        let Screen::NewGame { form, back } = std::mem::take(&mut self.screen) else { return };
        self.screen = *back;
        if ask {
            let message = "Start again without saving? y: yes, s: save first, n: no".into();
            self.ask(Question::NewGame(form), message);
        } else {
            self.start_chosen_game(&form);
        }
    }

    /// Esc in the form: closes it, the game as it was; on the start screen, quits.
    pub(crate) fn close_new_game(&mut self) {
        match std::mem::take(&mut self.screen) {
            Screen::NewGame { form, back } => {
                self.screen = *back;
                if form.opening {
                    self.force_quit();
                } else {
                    self.message = "carry on".into();
                }
            }
            other => self.screen = other,
        }
    }

    /// Starts the game the form chose (or, where its choice does not stand, this game again
    /// from its start).
    pub(crate) fn start_chosen_game(&mut self, form: &NewGameForm) {
        let Ok(choice) = form.choice() else {
            self.new_game();
            return;
        };
        // With a friend online, the program leaves this game for one on the server.
        if choice.sheep == new_game::ONLINE_FRIEND || choice.tiger == new_game::ONLINE_FRIEND {
            let side = if choice.sheep == "human" { Side::Sheep } else { Side::Tiger };
            self.leaving = Some(Leave::Online { side, clock: choice.time.control() });
            return;
        }
        let kind = |name: &str| Controller::parse(name).unwrap_or_else(|_| Controller::network());
        let (you, them) = (new_game::label(&choice.sheep), new_game::label(&choice.tiger));
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
            self.table.loaded.clone(),
        );
        // What belongs to the program rather than the game stays.
        fresh.saving.autosave = self.saving.autosave.take();
        fresh.view = self.view;
        fresh.saving.saved_to = self.saving.saved_to.take();
        fresh.table.home = self.table.home.take();
        fresh.jobs.table_build = self.jobs.table_build.take();
        // A side left to the default and not changed in the form, or the strongest level as
        // the form offers it without a table, takes a table that comes.
        for (i, name) in [&choice.sheep, &choice.tiger].into_iter().enumerate() {
            let kept = tns_match::level_name(&self.seats[i].kind().name()) == *name;
            fresh.table.takes[i] = (self.table.takes[i] && kept) || name == "strongest";
        }
        *self = fresh;
        if let Some(control) = control {
            self.set_clock(control);
        }
        self.message = format!("new game: sheep {you}, tigers {them}, {}", choice.time.label());
        if let Some(tip) = self.table_tip() {
            self.message = format!("{} · {tip}", self.message);
        }
    }
}
