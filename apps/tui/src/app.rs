//! The game's state, and the intents of playing it: moves by click, cursor and typing, take-back
//! and redo, the questions asked and their answers, quitting.

pub mod actions;
mod analysis;
pub mod draw;
mod endings;
mod game_review;
mod hint;
pub mod looking_back;
pub mod saving;
mod starting;
mod table_build;
pub mod timekeeping;
mod turns;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tns_board::{Bitboard, Board, EndReason, Game, Move, Outcome, Point, Side};
use tns_search::Limits;
use tns_tablebase::Tablebase;

use crate::clock::GameClock;
use crate::hint_search::HintAnswer;
use crate::leave::Leave;
use crate::move_entry::{Entered, MoveEntry};
use crate::new_game::NewGameForm;
use crate::notes::Notes;
use crate::palette::Palette;
use crate::players::{Controller, Seat, seat_index};
use crate::screen::{Question, Screen};
use crate::table_job::TableBuild;
use crate::thinking::Thinking;

/// The whole state of the program.
#[derive(Debug)]
pub struct App {
    /// The game so far.
    game: Game,
    /// Who plays each side (sheep, tigers), with a computer's player.
    seats: [Seat; 2],
    /// The game's own limits, for a computer player whose spec sets none.
    game_limits: Limits,
    /// The clocks, when the game is played on them (`--clock 5+3`).
    clock: Option<GameClock>,
    /// What the game keeps beside its moves.
    notes: Notes,
    /// What the screen shows, and so what the keys mean.
    screen: Screen,
    /// What the player is busy with on the board: the cursor, the selection, a typed move, the
    /// hint.
    input: Input,
    /// A one-line message for the status bar.
    message: String,
    /// How the board is drawn.
    view: View,
    /// The work running on other threads.
    jobs: Jobs,
    /// The tablebase: loaded, or where `B` builds one, and the seats that take it.
    table: Table,
    /// Whether the game is saved, and where it and the position shown go out.
    saving: Saving,
    /// How the program leaves, once it is asked to.
    leaving: Option<Leave>,
}

/// What the player is busy with on the board. A move or a take-back clears it.
#[derive(Debug, Default)]
pub(crate) struct Input {
    /// The cursor, the piece picked up, a typed move.
    entry: MoveEntry,
    /// The hint, asked for or shown.
    hint: Hinting,
}

/// Where the hint is: a hint is either being worked out or shown, never both.
#[derive(Debug, Default)]
pub(crate) enum Hinting {
    /// No hint asked for.
    #[default]
    None,
    /// Being worked out on its own thread, for the game as it was this long.
    Asked(HintAnswer, usize),
    /// The hint's move: the cursor (and the selection, for a step or a jump) is put on
    /// it, so Enter or Tab plays it.
    Shown(Move),
}

impl Input {
    /// What a move, a take-back or an ending leaves behind: no selection, no typed text, no hint.
    pub(crate) fn clear(&mut self) {
        self.entry.clear();
        self.hint = Hinting::None;
    }

    /// The hint shown, if there is one.
    pub(crate) fn hinted(&self) -> Option<Move> {
        match self.hint {
            Hinting::Shown(m) => Some(m),
            _ => None,
        }
    }
}

/// The work that runs on other threads while the game goes on.
#[derive(Debug, Default)]
pub(crate) struct Jobs {
    /// The search in progress, if a computer is thinking.
    thinking: Option<Thinking>,
    /// The table being built, while it is.
    table_build: Option<TableBuild>,
    /// The computer's last search failed (a damaged table): it does not search again until
    /// the game changes (take back, new game).
    failed: bool,
}

/// The tablebase, loaded or to be built.
#[derive(Debug, Default)]
pub(crate) struct Table {
    /// The table, when one is loaded: the perfect player's, and the source of the status
    /// line's verdict.
    loaded: Option<Arc<Tablebase>>,
    /// The folder `B` builds the movement phase's table into (`--tablebase`, else
    /// `TNS_TABLEBASE_DIR`, else the data folder's, all places the game looks for a table), where
    /// there is one.
    home: Option<PathBuf>,
    /// The seats (sheep, tigers) that search with the table's movement phase (`table=on`) once
    /// a table is loaded: those left to the default (not named on the command line, and kept as
    /// they were in the new-game form).
    takes: [bool; 2],
}

/// Whether the game is saved, and where it and the position shown go out.
#[derive(Debug, Default)]
pub(crate) struct Saving {
    /// Whether moves were played or taken back since the game was started, loaded or saved.
    dirty: bool,
    /// Where the game in progress is written after every change, so that Ctrl+C, a closed
    /// terminal or a crash loses nothing (`--resume` takes it up); `None` writes nothing.
    autosave: Option<PathBuf>,
    /// The start, moves and ending of the game as last written there.
    autosaved: Option<(Board, Vec<Move>, Option<Outcome>)>,
    /// Where the game was last saved, for the line the program prints when it ends.
    saved_to: Option<PathBuf>,
    /// Text for the terminal's clipboard, sent by the game loop (OSC 52) and then cleared.
    clipboard: Option<String>,
}

/// How the board is drawn: switches the player turns on and off, kept from game to game.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct View {
    /// Draw without colours (the `NO_COLOR` convention).
    no_color: bool,
    /// The threat view: the sheep a tiger could jump are marked.
    show_threats: bool,
    /// The analysis: with a table, the moves of the selected piece (or every placement) marked
    /// by what they do to the position's result.
    show_analysis: bool,
}

impl App {
    /// A new game between the two players, who think within `limits` unless their spec sets
    /// limits of its own (`heuristic:depth=2`). A perfect player, or one with `table=on`, needs
    /// `tablebase`; without one it plays as the network, the strongest player without one
    /// (the game's `main` never starts them so: it finds the table first, or says it is missing).
    pub fn new(
        game: Game,
        sheep: Controller,
        tiger: Controller,
        limits: Limits,
        tablebase: Option<Arc<Tablebase>>,
    ) -> App {
        let seat = |kind: Controller| Seat::new(kind, &limits, tablebase.as_ref());
        App {
            game,
            seats: [seat(sheep), seat(tiger)],
            input: Input::default(),
            screen: Screen::Play,
            message: "Press ? for help".into(),
            notes: Notes::default(),
            saving: Saving::default(),
            clock: None,
            view: View::default(),
            jobs: Jobs::default(),
            leaving: None,
            table: Table { loaded: tablebase, home: None, takes: [false; 2] },
            game_limits: limits,
        }
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The status line's message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Says something on the status line.
    pub fn set_message(&mut self, message: impl Into<String>) {
        self.message = message.into();
    }

    /// The keyboard cursor.
    pub fn cursor(&self) -> Point {
        self.input.entry.cursor
    }

    /// The piece selected on the board.
    pub fn selected(&self) -> Option<Point> {
        self.input.entry.selected
    }

    /// Selects a piece (or none), as a click on it does, without playing.
    pub fn select(&mut self, p: Option<Point>) {
        self.input.entry.selected = p;
    }

    /// The move text being typed.
    pub fn typed(&self) -> &str {
        &self.input.entry.typed
    }

    /// The hint shown, after `H`.
    pub fn hinted(&self) -> Option<Move> {
        self.input.hinted()
    }

    /// The computer's search, while one runs.
    pub fn thinking(&self) -> Option<&Thinking> {
        self.jobs.thinking.as_ref()
    }

    /// The tablebase, when one is loaded.
    pub fn tablebase(&self) -> Option<&Arc<Tablebase>> {
        self.table.loaded.as_ref()
    }

    /// The folder `B` builds the table into, if there is one.
    pub fn table_home(&self) -> Option<&Path> {
        self.table.home.as_deref()
    }

    /// Where `B` builds the table.
    pub(crate) fn set_table_home(&mut self, dir: Option<PathBuf>) {
        self.table.home = dir;
    }

    /// The seats (sheep, tigers) that take a table once one is loaded.
    pub fn takes_table(&self) -> [bool; 2] {
        self.table.takes
    }

    /// Which seats (sheep, tigers) take a table once one is loaded.
    pub fn set_takes_table(&mut self, takes: [bool; 2]) {
        self.table.takes = takes;
    }

    /// The clocks, when the game is played on them.
    pub fn clock(&self) -> Option<GameClock> {
        self.clock
    }

    /// Draws without colours (`NO_COLOR`), or with them.
    pub fn set_no_color(&mut self, no_color: bool) {
        self.view.no_color = no_color;
    }

    /// Whether the analysis marks are on.
    pub fn show_analysis(&self) -> bool {
        self.view.show_analysis
    }

    /// Writes the game after every change to this file, or nowhere.
    pub fn set_autosave(&mut self, path: Option<PathBuf>) {
        self.saving.autosave = path;
    }

    /// Where the game was last saved.
    pub fn saved_to(&self) -> Option<&Path> {
        self.saving.saved_to.as_deref()
    }

    /// The text waiting to go to the terminal's clipboard.
    pub fn clipboard(&self) -> Option<&str> {
        self.saving.clipboard.as_deref()
    }

    /// Takes the text waiting to go to the terminal's clipboard, to send it.
    pub fn take_clipboard(&mut self) -> Option<String> {
        self.saving.clipboard.take()
    }

    /// How the program leaves, once it was asked to.
    pub fn leaving(&self) -> Option<Leave> {
        self.leaving
    }

    /// Looking back, the position looked at, as the number of the game's moves it follows;
    /// `None` while the game itself is shown.
    pub fn looking_back(&self) -> Option<usize> {
        self.screen.looking_back()
    }

    /// The new-game form, while it is open.
    pub fn new_game_form(&self) -> Option<&NewGameForm> {
        self.screen.form()
    }

    /// What the screen shows, and so what the keys mean.
    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    /// Opens the help, at its top, over what the screen shows.
    pub fn open_help(&mut self) {
        let back = Box::new(std::mem::take(&mut self.screen));
        self.screen = Screen::Help { scroll: 0, back };
    }

    /// Closes the help: the screen is as it was.
    pub(crate) fn close_help(&mut self) {
        match std::mem::take(&mut self.screen) {
            Screen::Help { back, .. } => self.screen = *back,
            other => self.screen = other,
        }
    }

    /// Scrolls the help by this many rows.
    pub(crate) fn scroll_help(&mut self, rows: i8) {
        if let Screen::Help { scroll, .. } = &mut self.screen {
            *scroll = scroll.saturating_add_signed(i16::from(rows));
        }
    }

    /// Asks a yes/no question over what the screen shows, saying it.
    pub(crate) fn ask(&mut self, question: Question, message: String) {
        let back = Box::new(std::mem::take(&mut self.screen));
        self.screen = Screen::Ask { question, back };
        self.message = message;
    }

    /// The player of a side.
    pub fn player(&self, side: Side) -> &Controller {
        self.seats[seat_index(side)].kind()
    }

    /// The current position.
    pub fn board(&self) -> Board {
        self.game.board()
    }

    /// How the game ended, if it has: by the rules, or by a resignation or an agreed draw.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().or(self.notes.ended)
    }

    /// Whether a person is to move (and the game goes on).
    pub fn human_to_move(&self) -> bool {
        self.outcome().is_none() && *self.player(self.board().side_to_move()) == Controller::Human
    }

    /// Destinations of the selected piece.
    pub fn targets(&self) -> Bitboard {
        self.input.entry.targets(self.board())
    }

    pub(crate) fn after_move(&mut self) {
        self.input.clear();
        if self.outcome().is_some() {
            // The status panel shows the result; the message says what can be done next.
            // Every ending offers the review, as the players' own endings do.
            self.message = "g: review, u: take back, s: save, n: new game, q: quit".into();
        }
    }

    /// Book-keeping after a move reached the game: it is unsaved, and it ends the moves `r`
    /// could play again unless it is the next of them.
    pub(crate) fn played(&mut self, m: Move) {
        self.saving.dirty = true;
        if self.notes.redo.last() == Some(&m) {
            self.notes.redo.pop();
        } else {
            self.notes.redo.clear();
        }
        self.punch_clock();
    }

    /// Says that the game cannot be played while the position after `ply` moves is shown.
    pub(crate) fn refuse_while_looking_back(&mut self, ply: usize) {
        self.message = format!("looking at move {ply}: End goes back to the game first");
    }

    /// Plays a human's move, if it is a human's turn and the move is legal (and the game, not
    /// an earlier position, is shown).
    pub fn play(&mut self, m: Move) {
        if let Some(ply) = self.looking_back() {
            self.refuse_while_looking_back(ply);
            return;
        }
        if !self.human_to_move() {
            self.message = "it is not your turn".into();
            return;
        }
        match self.game.play(m) {
            Ok(()) => {
                self.message = format!("played {m}");
                self.played(m);
                self.after_move();
            }
            Err(e) => self.message = crate::move_entry::refusal(m, &e),
        }
    }

    /// A click or Enter on a point: place, select, or move the selected piece there.
    pub fn activate(&mut self, p: Point) {
        let entered = self.input.entry.click(self.board(), p, self.human_to_move());
        self.entered(entered);
    }

    /// Plays or says what an entry came to.
    fn entered(&mut self, entered: Entered) {
        match entered {
            Entered::Nothing => {}
            Entered::Move(m) => self.play(m),
            Entered::Say(text) => self.message = text,
        }
    }

    /// Moves the keyboard cursor.
    pub fn move_cursor(&mut self, dx: i8, dy: i8) {
        self.input.entry.move_cursor(dx, dy);
    }

    /// A typed character of a move; the move is played as soon as it is complete.
    pub fn type_char(&mut self, c: char) {
        let entered = self.input.entry.type_char(self.board(), c, self.human_to_move());
        if let Entered::Move(m) = entered {
            let played = self.game.len();
            self.play(m);
            self.input.entry.typed_played(self.game.len() > played);
        } else {
            self.entered(entered);
        }
    }

    /// Enter or Space on the cursor's point, from the keyboard: with a move being typed, it
    /// does not act on the cursor (the typed text is what the player is busy with).
    pub(crate) fn activate_cursor(&mut self) {
        let entered = self.input.entry.enter(self.board(), self.human_to_move());
        self.entered(entered);
    }

    /// Goes back to just before move `index` (0-based), stopping any search; `r` plays the
    /// moves taken back again.
    pub(crate) fn revert_to(&mut self, index: usize) {
        self.cancel_search();
        self.saving.dirty |= index < self.game.len();
        if index < self.game.len() {
            self.notes.redo.extend(self.game.moves()[index..].iter().rev());
            let movers =
                self.game.positions()[index..self.game.len()].iter().map(|b| b.side_to_move());
            if let Some(clock) = &mut self.clock {
                clock.take_back(movers);
            }
        }
        self.game.truncate(index);
        self.notes.ended = None;
        self.screen.stop_looking_back();
        self.input.clear();
        self.restart_clock();
        self.message = format!("back to before move {}", index + 1);
    }

    /// Takes back the human's last move and the computer's reply.
    pub fn undo(&mut self) {
        match self.notes.ended.map(|o| o.reason) {
            Some(EndReason::TimeForfeit) => {
                self.message = "the flag fell: the game is lost on time (n: new game)".into();
                return;
            }
            Some(_) => {
                // A resignation or an agreed draw: only the ending is taken back.
                self.notes.ended = None;
                self.restart_clock();
                self.message = "took back the ending: play on".into();
                return;
            }
            None => {}
        }
        self.jobs.failed = false;
        self.cancel_search();
        let mut target = self.game.len();
        // Go back past computer moves to the last position where a human was to move.
        while target > 0 {
            target -= 1;
            let side = self.game.positions()[target].side_to_move();
            if *self.player(side) == Controller::Human {
                break;
            }
        }
        self.revert_to(target);
        self.message = "took back (r redoes)".into();
    }

    /// Plays again what `u` (or `t`) took back: up to the next position where a person is to
    /// move, so that a move and the computer's reply come back together.
    pub fn redo(&mut self) {
        if self.outcome().is_some() {
            self.message = "the game is over (n: new game)".into();
            return;
        }
        if self.notes.redo.is_empty() {
            self.message = "nothing to redo".into();
            return;
        }
        self.cancel_search();
        let mut replayed = 0;
        while let Some(m) = self.notes.redo.pop() {
            if self.game.play(m).is_err() {
                // Cannot happen (the moves were legal here), but never trust a stack blindly.
                self.notes.redo.clear();
                break;
            }
            replayed += 1;
            self.saving.dirty = true;
            if self.human_to_move() || self.outcome().is_some() {
                break;
            }
        }
        self.after_move();
        self.restart_clock();
        self.message = format!("redid {replayed} move{}", if replayed == 1 { "" } else { "s" });
    }

    /// Starts a new game from the same start.
    pub fn new_game(&mut self) {
        self.jobs.failed = false;
        self.revert_to(0);
        self.notes.redo.clear();
        self.saving.dirty = false;
        if let Some(clock) = self.clock {
            self.set_clock(clock.control);
        }
        self.message = "new game".into();
    }

    /// Whether the game has moves that a quit or a new game would lose.
    pub fn unsaved(&self) -> bool {
        self.saving.dirty && !self.game.is_empty()
    }

    /// What to tell a player who leaves a game under way that they did not save (Ctrl+C, or
    /// quitting without saving): where it is kept, and that `--resume` takes it up. `None`
    /// when there is nothing to take up, or no autosave.
    pub fn resume_note(&self) -> Option<String> {
        let path = self.saving.autosave.as_ref()?;
        (self.unsaved() && self.outcome().is_none()).then(|| {
            format!(
                "the game is kept in {}: `tigers-and-sheep --resume` takes it up",
                path.display()
            )
        })
    }

    /// The styles to draw with: the colours, or none where `NO_COLOR` is set.
    pub(crate) fn palette(&self) -> Palette {
        Palette::new(self.view.no_color)
    }

    /// The answer to the question asked: the screen goes back to what it was, and yes does
    /// what the question said.
    pub(crate) fn answer(&mut self, yes: bool) {
        let (question, back) = match std::mem::take(&mut self.screen) {
            Screen::Ask { question, back } => (question, back),
            other => {
                self.screen = other;
                return;
            }
        };
        self.screen = *back;
        match (question, yes) {
            (Question::Quit, true) => self.force_quit(),
            (Question::NewGame(form), true) => self.start_chosen_game(&form),
            (Question::Resign(side), true) => self.end_by_players(Outcome::resigned(side)),
            (Question::Draw(_), true) => self.end_by_players(Outcome::DRAW_BY_AGREEMENT),
            (Question::NewGame(form), false) => {
                let back = Box::new(std::mem::take(&mut self.screen));
                self.screen = Screen::NewGame { form, back };
                self.message = "carry on".into();
            }
            (_, false) => self.message = "carry on".into(),
        }
    }

    /// Esc: drops the selection, the typed move or the hint, whichever there is.
    pub(crate) fn cancel(&mut self) {
        if let Screen::Ask { .. } = self.screen {
            self.answer(false);
        } else if let Screen::LookingBack { .. } = self.screen {
            self.screen = Screen::Play;
            self.message = "back to the game".into();
        } else if !self.input.entry.typed.is_empty() {
            self.input.entry.drop_typed();
            self.message = "typing cleared".into();
        } else if self.input.entry.selected.is_some() || !matches!(self.input.hint, Hinting::None) {
            self.input.clear();
            self.message = "cancelled".into();
        } else {
            self.message = "nothing to cancel (q quits)".into();
        }
    }

    /// Backspace: deletes the last typed character.
    pub(crate) fn backspace(&mut self) {
        self.input.entry.backspace();
    }

    /// Asks to quit: at once when nothing is unsaved, else after a yes.
    pub(crate) fn request_quit(&mut self) {
        if self.unsaved() {
            let message = "Quit without saving? y: quit, s: save and quit, n: stay".into();
            self.ask(Question::Quit, message);
        } else {
            self.force_quit();
        }
    }

    /// Quits at once; a running search is told to stop.
    pub(crate) fn force_quit(&mut self) {
        if let Some(t) = &self.jobs.thinking {
            t.stop();
        }
        self.leaving.get_or_insert(Leave::Quit);
    }

    /// The game as the program leaves it: a computer's search stopped and waited for, and the
    /// last autosave written.
    pub fn close(&mut self) {
        self.cancel_search();
        self.autosave_final();
    }

    /// Leaves the game for the puzzles.
    pub(crate) fn open_puzzles(&mut self) {
        self.force_quit();
        self.leaving = Some(Leave::Puzzles);
    }
}
