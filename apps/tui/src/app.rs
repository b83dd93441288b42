//! The game's state and everything a player can ask of it.

// Casts allowed in this file only:
// narrowing casts of values that fit by construction (point indices under 25, move counts, table indices, durations in milliseconds).
// unsigned values far below the signed type's limit.
// signed values that are never negative here.
#![expect(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "narrowing casts of values that fit by construction (point indices under 25, move counts, table indices, durations in milliseconds). unsigned values far below the signed type's limit. signed values that are never negative here."
)]

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tns_board::{Bitboard, Board, Game, GameRecord, Move, Outcome, Point, RecordResult, Side};
use tns_match::{Budget, Player as _, PlayerError, PlayerSpec, RandomPlayer};
use tns_search::{Limits, Report, plies_to_end};
use tns_tablebase::Tablebase;

use std::sync::mpsc::TryRecvError;

use crate::board_view::Marks;
use crate::engine::{ENGINE_TT_MB, Engine, Hint, HintAnswer, Poll, Thinking, engine, start_hint};
use crate::input::Mode;

/// Who plays a side.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerKind {
    /// A person, with mouse and keyboard.
    Human,
    /// A computer player, named as in `tns-bench match` (`heuristic:depth=2`, `random`,
    /// `perfect`, a weights file).
    Computer(PlayerSpec),
}

impl PlayerKind {
    /// `human`, or a player spec.
    ///
    /// # Errors
    /// The spec's error when it is not `human` and not a player spec.
    pub fn parse(text: &str) -> Result<PlayerKind, PlayerError> {
        if text == "human" {
            Ok(PlayerKind::Human)
        } else {
            Ok(PlayerKind::Computer(text.parse()?))
        }
    }

    /// The search with the hand-written evaluation and its default weights.
    pub fn heuristic() -> PlayerKind {
        PlayerKind::Computer(PlayerSpec::heuristic())
    }

    /// The shipped network: the strongest player without the tablebase, and the default.
    pub fn network() -> PlayerKind {
        // The network is built into the program; were its bytes damaged, the heuristic plays.
        PlayerKind::Computer(PlayerSpec::network().unwrap_or_else(|_| PlayerSpec::heuristic()))
    }

    /// The name shown on screen and written into saved games.
    pub fn name(&self) -> &str {
        match self {
            PlayerKind::Human => "human",
            PlayerKind::Computer(spec) => &spec.name,
        }
    }

    /// Whether this is the perfect player, which needs the tablebase.
    pub fn needs_tablebase(&self) -> bool {
        matches!(self, PlayerKind::Computer(spec) if spec.needs_tablebase())
    }
}

/// What the last computer turn found, for the "last turn" panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnInfo {
    /// The move played.
    pub mv: Move,
    /// Depth reached.
    pub depth: u32,
    /// The score, described for people (see [`score_text`]).
    pub score: String,
    /// The line the engine expected, from its move on.
    pub pv: Vec<Move>,
}

/// What a yes/no question will do on yes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Quit the program.
    Quit,
    /// Start a new game.
    NewGame,
    /// Resign the game for this side.
    Resign(Side),
    /// This side offers a draw; the other answers.
    Draw(Side),
}

/// One player slot: its kind and, for a computer, its limits and its engine while it is not
/// searching (or its random moves, for `random`).
#[derive(Debug)]
struct Seat {
    kind: PlayerKind,
    engine: Option<Box<Engine>>,
    limits: Limits,
    random: Option<RandomPlayer>,
}

/// The whole state of the program.
#[derive(Debug)]
// Help open, moves unsaved, colours off and quitting are independent switches, not a state
// machine in disguise.
#[allow(clippy::struct_excessive_bools)]
pub struct App {
    /// The game so far.
    pub game: Game,
    seats: [Seat; 2],
    /// The keyboard cursor.
    pub cursor: Point,
    /// The piece the human has selected.
    pub selected: Option<Point>,
    /// Move text being typed.
    pub typed: String,
    /// Whether `typed` is a whole move that was refused (shown until the next key, so that an
    /// Enter after it does not act on the cursor instead).
    typed_refused: bool,
    /// Whether the help overlay is open.
    pub show_help: bool,
    /// Rows the help is scrolled by, where it does not fit the screen.
    pub help_scroll: u16,
    /// A one-line message for the status bar.
    pub message: String,
    /// The engine's suggestion, after `H`: the cursor (and the selection, for a step or a
    /// jump) is put on it, so Enter or Tab plays it.
    pub hint: Option<Move>,
    /// A hint being worked out on its own thread, and the game length it is for.
    hint_job: Option<(HintAnswer, usize)>,
    /// A question waiting for y/n: what to do on yes.
    pub confirm: Option<Pending>,
    /// How the players ended the game, if they did (a resignation, an agreed draw): the rules'
    /// own endings come from the game itself.
    ended: Option<Outcome>,
    /// Whether moves were played or taken back since the game was started, loaded or saved.
    pub dirty: bool,
    /// Text for the terminal's clipboard, sent by the game loop (OSC 52) and then cleared.
    pub clipboard: Option<String>,
    /// Where the game in progress is written after every change, so that Ctrl+C, a closed
    /// terminal or a crash loses nothing (`--resume` takes it up); `None` writes nothing.
    pub autosave: Option<std::path::PathBuf>,
    /// The start, moves and ending of the game as last written there.
    autosaved: Option<(Board, Vec<Move>, Option<Outcome>)>,
    /// Draw without colours (the `NO_COLOR` convention).
    pub no_color: bool,
    /// The threat view: the sheep a tiger could jump are marked.
    pub show_threats: bool,
    /// The analysis: with a table, the moves of the selected piece (or every placement) marked
    /// by what they do to the position's result.
    pub show_analysis: bool,
    /// Where the game was last saved, for the line the program prints when it ends.
    pub saved_to: Option<std::path::PathBuf>,
    /// The search in progress, if a computer is thinking.
    pub thinking: Option<Thinking>,
    /// The computer's last search failed (a damaged table): it does not search again until
    /// the game changes (take back, new game).
    pub failed: bool,
    /// What the computer's searches found, by the ply of the move they chose: kept when moves
    /// are taken back, so a redo shows them again, and shown only while that move stands.
    turns: std::collections::BTreeMap<usize, TurnInfo>,
    /// Set when the user asks to quit.
    pub quit: bool,
    /// The tablebase, when one is loaded: the perfect player's, and the source
    /// of the status line's verdict.
    pub tablebase: Option<Arc<Tablebase>>,
    /// In review, the position looked at, as the number of the game's moves it follows;
    /// `None` while the game itself is shown. Reviewing never changes the game.
    pub review: Option<usize>,
    /// Moves taken back, for `r` to play again: the next one last.
    redo: Vec<Move>,
}

/// Where a review step goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Browse {
    /// One move back (←).
    Back,
    /// One move on (→); past the last move, back to the game.
    Forward,
    /// The start (Home).
    First,
    /// The game as it stands (End).
    Last,
    /// The position after this many moves (a click on a move in the list).
    At(usize),
}

/// The centre point, c3, where the cursor starts.
const CENTRE: Point = match Point::new(2, 2) {
    Some(p) => p,
    None => panic!("c3 is on the board"),
};

const fn seat_index(side: Side) -> usize {
    match side {
        Side::Sheep => 0,
        Side::Tiger => 1,
    }
}

impl App {
    /// A new game between the two players, who think within `limits` unless their spec sets
    /// limits of its own (`heuristic:depth=2`). A perfect player needs `tablebase`; without one
    /// it plays as the network, the strongest player without one.
    #[expect(
        clippy::needless_pass_by_value,
        reason = "a new game takes its settings as values, as it does the game and the players"
    )]
    pub fn new(
        game: Game,
        sheep: PlayerKind,
        tiger: PlayerKind,
        limits: Limits,
        tablebase: Option<Arc<Tablebase>>,
    ) -> App {
        let defaults = Budget {
            time: limits.time.map(|t| t.as_secs_f64()),
            depth: limits.depth,
            threads: 1,
            tt_mb: ENGINE_TT_MB,
        };
        let seat = |kind: PlayerKind| {
            let (engine, limits, random) = match &kind {
                PlayerKind::Human => (None, limits.clone(), None),
                PlayerKind::Computer(spec) => {
                    let budget = spec.budget(defaults);
                    match spec.searcher(defaults, tablebase.as_ref()) {
                        Ok(Some(search)) => (Some(Box::new(search)), budget.limits(), None),
                        Ok(None) => (None, budget.limits(), Some(RandomPlayer::new(seed()))),
                        // A perfect player without the table (the game has said so) plays as
                        // the strongest player without one.
                        Err(_) => (Some(engine(budget)), budget.limits(), None),
                    }
                }
            };
            Seat { kind, engine, limits, random }
        };
        App {
            game,
            seats: [seat(sheep), seat(tiger)],
            cursor: CENTRE,
            selected: None,
            typed: String::new(),
            typed_refused: false,
            show_help: false,
            help_scroll: 0,
            message: "Press ? for help".into(),
            hint: None,
            hint_job: None,
            confirm: None,
            ended: None,
            dirty: false,
            clipboard: None,
            autosave: None,
            autosaved: None,
            no_color: false,
            show_threats: false,
            show_analysis: false,
            saved_to: None,
            thinking: None,
            failed: false,
            turns: std::collections::BTreeMap::new(),
            quit: false,
            tablebase,
            review: None,
            redo: Vec::new(),
        }
    }

    /// The tablebase's verdict on the shown position (in review, the one looked at), when a table is loaded and holds it:
    /// "Sheep win in 23", "Tigers win in 4" or "Draw"; in the placement phase, where the
    /// layers are built, "Tigers win", "Sheep win" or "Draw" (the layers keep no distances).
    /// A table that fails to answer (a damaged file) says so here.
    pub fn verdict(&self) -> Option<String> {
        let board = self.shown_board();
        let verdict = match self.tablebase.as_ref()?.verdict(board) {
            Ok(v) => v,
            Err(
                tns_tablebase::TablebaseError::NoLayer(_)
                | tns_tablebase::TablebaseError::GameOver(_),
            ) => {
                return None;
            }
            Err(e) => return Some(format!("the tablebase failed: {e}")),
        };
        let side = board.side_to_move();
        // One wording for decided positions everywhere on screen: "Tigers win in 18 plies".
        Some(match verdict.value {
            Some(tns_tablebase::Value::Win(n)) => {
                format!("{} win in {}", side.plural(), plies(i32::from(n)))
            }
            Some(tns_tablebase::Value::Loss(n)) => {
                format!("{} win in {}", side.other().plural(), plies(i32::from(n)))
            }
            _ => verdict.describe(side),
        })
    }

    /// The player of a side.
    pub fn player(&self, side: Side) -> &PlayerKind {
        &self.seats[seat_index(side)].kind
    }

    /// The current position.
    pub fn board(&self) -> Board {
        self.game.board()
    }

    /// How the game ended, if it has: by the rules, or by a resignation or an agreed draw.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().or(self.ended)
    }

    /// R: resign for the human side (the side to move when both are human), after a yes.
    pub fn request_resign(&mut self) {
        if self.refuse_in_review() || self.outcome().is_some() {
            return;
        }
        let humans: Vec<Side> =
            Side::ALL.into_iter().filter(|&s| *self.player(s) == PlayerKind::Human).collect();
        let side = match humans[..] {
            [one] => one,
            [_, _] => self.board().side_to_move(),
            _ => {
                self.message = "only a person can resign".into();
                return;
            }
        };
        self.confirm = Some(Pending::Resign(side));
        self.message =
            format!("Resign for the {}? y: resign, n: play on", side.plural().to_lowercase());
    }

    /// =: the side to move offers a draw. Between two people the other answers; a computer
    /// plays on (it judges the position by its search, not by offers).
    pub fn offer_draw(&mut self) {
        if self.refuse_in_review() || self.outcome().is_some() {
            return;
        }
        let side = self.board().side_to_move();
        if *self.player(side.other()) != PlayerKind::Human
            || *self.player(side) != PlayerKind::Human
        {
            self.message = "a draw is agreed between two people; the computer plays on".into();
            return;
        }
        self.confirm = Some(Pending::Draw(side));
        self.message = format!(
            "The {} offer a draw: {}, y agrees, n plays on",
            side.plural().to_lowercase(),
            side.other().plural().to_lowercase()
        );
    }

    /// Whether a person is to move (and the game goes on).
    pub fn human_to_move(&self) -> bool {
        self.outcome().is_none() && *self.player(self.board().side_to_move()) == PlayerKind::Human
    }

    /// The live search report, while a computer thinks.
    pub fn live_report(&self) -> Option<&Report> {
        self.thinking.as_ref().and_then(|t| t.progress.as_ref())
    }

    /// Destinations of the selected piece.
    pub fn targets(&self) -> Bitboard {
        let Some(from) = self.selected else { return Bitboard::EMPTY };
        self.game.legal_moves().iter().filter(|m| m.from() == Some(from)).map(|m| m.to()).collect()
    }

    /// Advances the computer players: starts a search when one is to move, and plays its move
    /// when it is done.
    pub fn tick(&mut self) {
        self.poll_hint();
        if let Some(thinking) = &mut self.thinking {
            match thinking.poll() {
                Poll::Running => {}
                Poll::Lost => {
                    self.thinking = None;
                    self.message = "the engine stopped unexpectedly".into();
                }
                Poll::Done(result, engine) => {
                    let ply = thinking.ply;
                    self.thinking = None;
                    // The engine goes back to the seat that searched, even if the game moved on.
                    let side =
                        self.game.positions().get(ply).map_or(self.board(), |b| *b).side_to_move();
                    self.seats[seat_index(side)].engine = Some(engine);
                    let result = match result {
                        Ok(result) => result,
                        Err(e) => {
                            // A damaged table: the game stops for the computer, saying why.
                            self.message = format!("the computer cannot move: {e}");
                            self.failed = true;
                            return;
                        }
                    };
                    if ply == self.game.len()
                        && let Some(m) = result.best_move
                        && self.game.play(m).is_ok()
                    {
                        self.played(m);
                        let info = TurnInfo {
                            mv: m,
                            depth: result.depth,
                            score: score_text(result.score, side),
                            pv: result.pv.clone(),
                        };
                        self.turns.insert(ply, info);
                        self.after_move();
                    }
                }
            }
            return;
        }
        if self.outcome().is_some() || self.failed {
            return;
        }
        let side = self.board().side_to_move();
        let seat = &mut self.seats[seat_index(side)];
        if let Some(random) = &mut seat.random {
            if let Some(m) = random.choose(&self.game, &AtomicBool::new(false))
                && self.game.play(m).is_ok()
            {
                self.turns.remove(&(self.game.len() - 1));
                self.played(m);
                self.after_move();
            }
        } else if let Some(engine) = seat.engine.take() {
            self.thinking = Some(Thinking::start(
                engine,
                self.game.board(),
                self.game.previous().to_vec(),
                seat.limits.clone(),
                self.game.len(),
            ));
        }
    }

    /// Stops a running search and returns its engine to its seat.
    fn cancel_search(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            let side =
                self.game.positions().get(thinking.ply).map_or(self.board(), |b| *b).side_to_move();
            if let Some(engine) = thinking.cancel() {
                self.seats[seat_index(side)].engine = Some(engine);
            }
        }
    }

    fn after_move(&mut self) {
        self.selected = None;
        self.hint = None;
        self.hint_job = None;
        self.typed.clear();
        if self.outcome().is_some() {
            // The status panel shows the result; the message says what can be done next.
            self.message = "u: take back, n: new game, q: quit".into();
        }
    }

    /// Book-keeping after a move reached the game: it is unsaved, and it ends the moves `r`
    /// could play again unless it is the next of them.
    fn played(&mut self, m: Move) {
        self.dirty = true;
        if self.redo.last() == Some(&m) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
    }

    /// Says that the game cannot be played while an earlier position is shown; true if so.
    fn refuse_in_review(&mut self) -> bool {
        if let Some(ply) = self.review {
            self.message = format!(
                "looking at move {ply}: End goes back to the game, t takes the game back to here"
            );
        }
        self.review.is_some()
    }

    /// Plays a human's move, if it is a human's turn and the move is legal.
    pub fn play(&mut self, m: Move) {
        if self.refuse_in_review() {
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
            Err(e) => self.message = format!("{m}: {e}"),
        }
    }

    /// A click or Enter on a point: place, select, or move the selected piece there.
    pub fn activate(&mut self, p: Point) {
        self.cursor = p;
        if self.refuse_in_review() || !self.human_to_move() {
            return;
        }
        let board = self.board();
        let side = board.side_to_move();
        if let Some(from) = self.selected {
            if from == p {
                self.selected = None;
                return;
            }
            if let Some(&m) =
                self.game.legal_moves().iter().find(|m| m.from() == Some(from) && m.to() == p)
            {
                self.play(m);
                return;
            }
        }
        if board.piece_at(p) == Some(side) {
            self.selected = Some(p);
            if self.targets().is_empty() {
                self.message = format!("the piece on {p} cannot move");
            }
        } else if side == Side::Sheep && board.in_hand() > 0 {
            self.play(Move::Place(p));
        } else {
            self.selected = None;
        }
    }

    /// Moves the keyboard cursor.
    pub fn move_cursor(&mut self, dx: i8, dy: i8) {
        let x = (self.cursor.x() as i8 + dx).clamp(0, 4) as u8;
        let y = (self.cursor.y() as i8 + dy).clamp(0, 4) as u8;
        if let Some(p) = Point::new(x, y) {
            self.cursor = p;
        }
    }

    /// A typed character of a move; the move is played as soon as it is complete.
    pub fn type_char(&mut self, c: char) {
        if self.refuse_in_review() {
            return;
        }
        if std::mem::take(&mut self.typed_refused) {
            self.typed.clear();
        }
        self.typed.push(c.to_ascii_lowercase());
        let board = self.board();
        let complete = match self.typed.len() {
            2 => board.side_to_move() == Side::Sheep && board.in_hand() > 0,
            4 => true,
            _ => false,
        };
        if complete {
            let text = self.typed.clone();
            let played = self.game.len();
            match text.parse::<Move>() {
                Ok(m) => self.play(m),
                Err(e) => self.message = e.to_string(),
            }
            if self.game.len() > played {
                self.typed.clear();
            } else {
                // Refused: the text stays on screen with the reason until the next key.
                self.typed_refused = true;
            }
        } else if self.typed.len() > 4 {
            self.typed.clear();
        }
    }

    /// Enter or Space on the cursor's point, from the keyboard: with a move being typed, it
    /// does not act on the cursor (the typed text is what the player is busy with).
    pub fn activate_cursor(&mut self) {
        if self.typed.is_empty() {
            self.activate(self.cursor);
        } else if self.typed_refused {
            // The message already says why the typed move was refused.
        } else {
            self.message = format!("typing {}: finish the move, or Esc to drop it", self.typed);
        }
    }

    /// Goes back to just before move `index` (0-based), stopping any search; `r` plays the
    /// moves taken back again.
    pub fn revert_to(&mut self, index: usize) {
        self.cancel_search();
        self.dirty |= index < self.game.len();
        if index < self.game.len() {
            self.redo.extend(self.game.moves()[index..].iter().rev());
        }
        self.game.truncate(index);
        self.ended = None;
        self.review = None;
        self.selected = None;
        self.hint = None;
        self.hint_job = None;
        self.typed.clear();
        self.message = format!("back to before move {}", index + 1);
    }

    /// Takes back the human's last move and the computer's reply.
    pub fn undo(&mut self) {
        self.failed = false;
        self.cancel_search();
        let mut target = self.game.len();
        // Go back past computer moves to the last position where a human was to move.
        while target > 0 {
            target -= 1;
            let side = self.game.positions()[target].side_to_move();
            if *self.player(side) == PlayerKind::Human {
                break;
            }
        }
        self.revert_to(target);
        self.message = "took back (r redoes)".into();
    }

    /// Plays again what `u` (or `t`) took back: up to the next position where a person is to
    /// move, so that a move and the computer's reply come back together.
    pub fn redo(&mut self) {
        if self.refuse_in_review() {
            return;
        }
        if self.redo.is_empty() {
            self.message = "nothing to redo".into();
            return;
        }
        self.cancel_search();
        let mut replayed = 0;
        while let Some(m) = self.redo.pop() {
            if self.game.play(m).is_err() {
                // Cannot happen (the moves were legal here), but never trust a stack blindly.
                self.redo.clear();
                break;
            }
            replayed += 1;
            self.dirty = true;
            if self.human_to_move() || self.outcome().is_some() {
                break;
            }
        }
        self.after_move();
        self.message = format!("redid {replayed} move{}", if replayed == 1 { "" } else { "s" });
    }

    /// Whether `r` has moves to play again.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The position on the board: the game's, or in review an earlier one.
    pub fn shown_board(&self) -> Board {
        let positions = self.game.positions();
        self.review.and_then(|ply| positions.get(ply)).copied().unwrap_or(self.board())
    }

    /// The number of moves the shown position follows.
    pub fn shown_ply(&self) -> usize {
        self.review.unwrap_or(self.game.len()).min(self.game.len())
    }

    /// The move that led to the shown position.
    pub fn shown_last_move(&self) -> Option<Move> {
        self.shown_ply().checked_sub(1).map(|i| self.game.moves()[i])
    }

    /// Steps through the game's positions without changing the game.
    pub fn browse(&mut self, to: Browse) {
        let len = self.game.len();
        let now = self.shown_ply();
        let target = match to {
            Browse::Back => now.saturating_sub(1),
            Browse::Forward => now + 1,
            Browse::First => 0,
            Browse::Last => len,
            Browse::At(ply) if ply > len => return,
            Browse::At(ply) => ply,
        };
        if target >= len {
            if self.review.take().is_some() {
                self.message = "back to the game".into();
            }
            return;
        }
        self.review = Some(target);
        self.selected = None;
        self.typed.clear();
        // Counted as the move list counts: by turns, a sheep move and a tigers' move each.
        self.message = format!(
            "move {} of {} (ply {target} of {len}): ← → step, End: back to the game, t: take \
             the game back to here",
            self.turns_in(target),
            self.turns_in(len)
        );
    }

    /// The turns (a sheep move and a tigers' move each, as the move list numbers them) that
    /// the first `plies` plies of the game make.
    pub fn turns_in(&self, plies: usize) -> usize {
        let offset = usize::from(self.game.start().side_to_move() == Side::Tiger);
        (plies + offset).div_ceil(2)
    }

    /// Takes the game back to the position shown in review (an explicit choice, never a side
    /// effect of looking).
    pub fn take_back_to_review(&mut self) {
        self.failed = false;
        match self.review {
            Some(ply) => {
                self.revert_to(ply);
                self.message = format!("took the game back to move {ply} (r redoes)");
            }
            None => self.message = "← shows earlier positions; t then takes the game back".into(),
        }
    }

    /// Starts a new game from the same start.
    pub fn new_game(&mut self) {
        self.failed = false;
        self.revert_to(0);
        self.redo.clear();
        self.dirty = false;
        self.message = "new game".into();
    }

    /// Asks for a new game: at once when nothing is unsaved, else after a yes.
    pub fn request_new_game(&mut self) {
        if self.unsaved() {
            self.confirm = Some(Pending::NewGame);
            self.message = "Start again without saving? y: yes, s: save first, n: no".into();
        } else {
            self.new_game();
        }
    }

    /// Whether the game has moves that a quit or a new game would lose.
    pub fn unsaved(&self) -> bool {
        self.dirty && !self.game.is_empty()
    }

    /// What the keys mean now.
    pub fn mode(&self) -> Mode {
        if self.confirm.is_some() {
            Mode::Confirm
        } else if self.show_help {
            Mode::Help
        } else {
            Mode::Play
        }
    }

    /// The answer to the pending question.
    pub fn answer(&mut self, yes: bool) {
        match (self.confirm.take(), yes) {
            (Some(Pending::Quit), true) => self.force_quit(),
            (Some(Pending::NewGame), true) => self.new_game(),
            (Some(Pending::Resign(side)), true) => self.end_by_players(Outcome::resigned(side)),
            (Some(Pending::Draw(_)), true) => self.end_by_players(Outcome::DRAW_BY_AGREEMENT),
            (Some(_), false) => self.message = "carry on".into(),
            (None, _) => {}
        }
    }

    /// Ends the game as the players decided: any search stops, and the record says how.
    fn end_by_players(&mut self, outcome: Outcome) {
        self.cancel_search();
        self.ended = Some(outcome);
        self.dirty = true;
        self.selected = None;
        self.hint = None;
        self.hint_job = None;
        self.message = format!("{outcome} (u takes it back)");
    }

    /// Esc: drops the selection, the typed move or the hint, whichever there is.
    pub fn cancel(&mut self) {
        if self.confirm.take().is_some() {
            self.message = "carry on".into();
        } else if self.review.take().is_some() {
            self.message = "back to the game".into();
        } else if !self.typed.is_empty() {
            self.typed.clear();
            self.typed_refused = false;
            self.message = "typing cleared".into();
        } else if self.selected.is_some() || self.hint.is_some() || self.hint_job.is_some() {
            self.selected = None;
            self.hint = None;
            self.hint_job = None;
            self.message = "cancelled".into();
        } else {
            self.message = "nothing to cancel (q quits)".into();
        }
    }

    /// Backspace: deletes the last typed character.
    pub fn backspace(&mut self) {
        self.typed.pop();
        self.typed_refused = false;
    }

    /// Turns the analysis marks on or off; without a table there is nothing to mark with.
    pub fn toggle_analysis(&mut self) {
        if self.tablebase.is_none() {
            self.show_analysis = false;
            self.message = "the analysis needs the tablebase (--tablebase DIR)".into();
            return;
        }
        self.show_analysis = !self.show_analysis;
        self.message = if self.show_analysis {
            "analysis on: green keeps the result, yellow gives up a win, red loses (m hides it)"
                .into()
        } else {
            "analysis off".into()
        };
    }

    /// The analysis marks for the position on the board: where the selected piece can go, or
    /// every placement, each judged by the table against the best move's result. Empty when the
    /// analysis is off, in review, or the table does not hold the position (the status line
    /// says why it cannot answer).
    pub fn analysis(&self) -> Marks {
        let mut marks = Marks::default();
        let Some(table) = self.tablebase.as_ref().filter(|_| self.show_analysis) else {
            return marks;
        };
        if self.review.is_some() || self.outcome().is_some() {
            return marks;
        }
        let board = self.board();
        let Ok(verdicts) = table.verdicts(board) else { return marks };
        let Some(best) = verdicts.first().map(|(_, v)| v.wdl) else { return marks };
        for (m, v) in verdicts {
            if m.from() != self.selected {
                continue;
            }
            let set = if v.wdl == best {
                &mut marks.keeps
            } else if v.wdl == tns_tablebase::Wdl::Draw {
                &mut marks.holds
            } else {
                &mut marks.loses
            };
            *set = set.with(m.to());
        }
        marks
    }

    /// Marks the sheep a tiger could jump, or stops marking them, and says which.
    pub fn toggle_threats(&mut self) {
        self.show_threats = !self.show_threats;
        self.message = if self.show_threats {
            let open = self.shown_board().capturable_sheep().len();
            format!("threat view on: {open} sheep open to a jump (v hides them)")
        } else {
            "threat view off".into()
        };
    }

    /// Asks for the best move for the side to move, worked out on its own thread by the
    /// strongest player there is: the table where it holds the position, else the search.
    pub fn hint(&mut self) {
        if self.refuse_in_review() || self.outcome().is_some() || !self.human_to_move() {
            return;
        }
        let rx = start_hint(self.board(), self.game.previous().to_vec(), self.tablebase.clone());
        self.hint_job = Some((rx, self.game.len()));
        self.hint = None;
        self.message = "hint: thinking...".into();
    }

    /// Collects a finished hint and puts the cursor on it.
    fn poll_hint(&mut self) {
        let Some((rx, ply)) = &self.hint_job else { return };
        let found = match rx.try_recv() {
            Ok(Ok(found)) => found,
            Ok(Err(e)) => {
                self.hint_job = None;
                self.message = format!("no hint: {e}");
                return;
            }
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => None,
        };
        let stale = *ply != self.game.len();
        self.hint_job = None;
        let Some(Hint { mv: m, by }) = found.filter(|_| !stale) else { return };
        self.hint = Some(m);
        if !self.typed.is_empty() && !self.typed_refused {
            // The player is typing a move: the hint is shown, but takes neither the typed
            // text nor the cursor.
            self.message =
                format!("hint from {by}: {m} (Tab plays it; finish typing yours, or Esc)");
            return;
        }
        self.typed.clear();
        self.typed_refused = false;
        self.cursor = m.to();
        self.selected = m.from();
        self.message = format!("hint from {by}: {m} (Enter or Tab plays it, Esc drops it)");
    }

    /// Waits for a hint being worked out (for tests and scripts; the game loop polls instead).
    pub fn wait_for_hint(&mut self) {
        while self.hint_job.is_some() {
            std::thread::sleep(Duration::from_millis(5));
            self.poll_hint();
        }
    }

    /// Plays the hinted move.
    pub fn play_hint(&mut self) {
        match self.hint {
            Some(m) => self.play(m),
            None => self.message = "no hint: press H for one".into(),
        }
    }

    /// The game as a record, with tags for the date (UTC) and each computer side's limits.
    pub fn record(&self) -> GameRecord {
        let mut record = GameRecord::from_game(
            &self.game,
            self.player(Side::Sheep).name(),
            self.player(Side::Tiger).name(),
        );
        let (date, time) = utc_now();
        // PGN's Date is 2026.12.01; the tags' names are fixed and valid, so setting cannot fail.
        let mut tags = vec![("Date", date.replace('-', ".")), ("Time", time)];
        for (side, tag) in [(Side::Sheep, "SheepLimits"), (Side::Tiger, "TigerLimits")] {
            if matches!(self.player(side), PlayerKind::Computer(spec) if spec.searches()) {
                tags.push((tag, self.limit_text(side)));
            }
        }
        if let Some(ended) = self.ended.filter(|_| self.game.outcome().is_none()) {
            record.result = RecordResult::from_outcome(Some(ended));
            tags.push(("Termination", ended.reason.to_string()));
        }
        for (name, value) in tags {
            let _ = record.set_tag(name, &value);
        }
        record
    }

    /// Writes the game to the autosave file if it changed since it was last written (whole or
    /// not at all: a temporary file, then a rename). A failure is said once, then tried again
    /// at the next change.
    pub fn autosave_now(&mut self) {
        let Some(path) = &self.autosave else { return };
        let now = (self.game.start(), self.game.moves().to_vec(), self.ended);
        if self.autosaved.as_ref() == Some(&now) {
            return;
        }
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Err(e) = tns_file::write_atomically(path, self.record().to_string().as_bytes()) {
            self.message = format!("could not autosave {}: {e}", path.display());
        }
        self.autosaved = Some(now);
    }

    /// Saves the game record in `dir` (made if need be) under a dated name, written whole or
    /// not at all.
    pub fn save(&mut self, dir: &Path) {
        if let Err(e) = std::fs::create_dir_all(dir) {
            self.message = format!("could not save into {}: {e}", dir.display());
            return;
        }
        let (date, time) = utc_now();
        let path = fresh_path(dir, &format!("tns-{date}-{}", time.replace(':', "")), "txt");
        self.message = match tns_file::write_atomically(&path, self.record().to_string().as_bytes())
        {
            Ok(()) => {
                self.dirty = false;
                self.saved_to = Some(path.clone());
                format!("saved {}", path.display())
            }
            Err(e) => format!("could not save {}: {e}", path.display()),
        };
    }

    /// Saves the shown position (the one under review, if any) as an SVG picture in `dir`,
    /// with its last move ringed and the hint, if there is one, as an arrow.
    pub fn save_picture(&mut self, dir: &Path) {
        if let Err(e) = std::fs::create_dir_all(dir) {
            self.message = format!("could not save into {}: {e}", dir.display());
            return;
        }
        let picture = tns_svg::Picture {
            last_move: self.shown_last_move(),
            arrows: self.hint.filter(|_| self.review.is_none()).into_iter().collect(),
            ..tns_svg::Picture::default()
        };
        let svg = tns_svg::position(self.shown_board(), &picture);
        let (date, time) = utc_now();
        let stem = format!("tns-{date}-{}-move{}", time.replace(':', ""), self.shown_ply());
        let path = fresh_path(dir, &stem, "svg");
        self.message = match tns_file::write_atomically(&path, svg.as_bytes()) {
            Ok(()) => format!("picture saved: {}", path.display()),
            Err(e) => format!("could not save {}: {e}", path.display()),
        };
    }

    /// Shows the position on the board (the one under review, if any) in position notation
    /// and puts it on the clipboard (where the terminal allows), as `P` saves its picture.
    pub fn copy_position(&mut self) {
        let text = self.shown_board().to_string();
        self.message = format!("position: {text} (copied)");
        self.clipboard = Some(text);
    }

    /// Asks to quit: at once when nothing is unsaved, else after a yes.
    pub fn request_quit(&mut self) {
        if self.unsaved() {
            self.confirm = Some(Pending::Quit);
            self.message = "Quit without saving? y: quit, s: save and quit, n: stay".into();
        } else {
            self.force_quit();
        }
    }

    /// Quits at once; a running search is told to stop.
    pub fn force_quit(&mut self) {
        if let Some(t) = &self.thinking {
            t.stop();
        }
        self.quit = true;
    }

    /// The last move `side` made in the game, and what the computer's search found for it if
    /// a computer made it (its depth, score and line).
    pub fn last_turn(&self, side: Side) -> Option<(Move, Option<&TurnInfo>)> {
        let positions = self.game.positions();
        let ply = (0..self.game.len()).rev().find(|&i| positions[i].side_to_move() == side)?;
        let mv = self.game.moves()[ply];
        Some((mv, self.turns.get(&ply).filter(|t| t.mv == mv)))
    }

    /// How long a side's computer player may think, for the status line and saved games.
    pub fn limit_text(&self, side: Side) -> String {
        let limits = &self.seats[seat_index(side)].limits;
        match (limits.depth, limits.time) {
            (Some(d), _) => format!("depth {d}"),
            (None, Some(t)) => format!("{:.1} s a move", t.as_secs_f64()),
            (None, None) => "no limit".into(),
        }
    }
}

/// `dir/stem.ext`, or `dir/stem-1.ext` and so on if that is taken: a name that never overwrites.
fn fresh_path(dir: &Path, stem: &str, ext: &str) -> std::path::PathBuf {
    (0..100)
        .map(|i| {
            let suffix = if i == 0 { String::new() } else { format!("-{i}") };
            dir.join(format!("{stem}{suffix}.{ext}"))
        })
        .find(|p| !p.exists())
        .unwrap_or_else(|| dir.join(format!("{stem}.{ext}")))
}

/// A seed for a random player, from the clock: a new game each time.
fn seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Today's date and the time, UTC, as `2026-11-30` and `20:45:51`.
pub fn utc_now() -> (String, String) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc_of(secs)
}

/// The UTC date and time of a Unix time.
pub fn utc_of(secs: u64) -> (String, String) {
    let (year, month, day) = tns_board::utc_date(secs);
    let rest = secs % 86_400;
    (
        format!("{year:04}-{month:02}-{day:02}"),
        format!("{:02}:{:02}:{:02}", rest / 3600, rest / 60 % 60, rest % 60),
    )
}

/// The limits a saved game's tag describes ("depth 4", "2.0 s a move"), if it reads as one.
pub fn limits_of_tag(text: &str) -> Option<Limits> {
    if let Some(d) = text.strip_prefix("depth ") {
        return d.trim().parse().ok().filter(|&d| (1..=100).contains(&d)).map(Limits::depth);
    }
    let secs: f64 = text.strip_suffix(" s a move")?.trim().parse().ok()?;
    (secs.is_finite() && secs > 0.0 && secs <= 86_400.0)
        .then(|| Limits::time(Duration::from_secs_f64(secs)))
}

/// What one dead sheep is worth in the evaluation's units (hundredths of a sheep, with a dead
/// sheep weighed at 4.00 by the heuristic): scores are shown in dead sheep.
pub const DEAD_SHEEP: i32 = 400;

/// A search score for people, from the side ahead: "Tigers +0.70 (dead sheep)", "Even", or
/// for a forced result "Sheep win in 7 plies" (the same words as the table's verdict).
pub fn score_text(score: i32, side_to_move: Side) -> String {
    if let Some(n) = plies_to_end(score) {
        // The library's words, with the unit: "Tigers win in 7" and " plies".
        let words = tns_search::describe(score, side_to_move);
        return format!("{words} {}", if n == 1 { "ply" } else { "plies" });
    }
    let tigers = score * side_to_move.sign();
    let value = f64::from(tigers.abs()) / f64::from(DEAD_SHEEP);
    if value < 0.005 {
        return "Even".into();
    }
    let ahead = if tigers > 0 { Side::Tiger } else { Side::Sheep };
    format!("{} +{value:.2} (dead sheep)", ahead.plural())
}

/// "1 ply", "7 plies".
fn plies(n: i32) -> String {
    if n == 1 { "1 ply".into() } else { format!("{n} plies") }
}

/// Where a score puts the game on a bar from the sheep's side (0) to the tigers' (`width`),
/// even in the middle, full at two dead sheep either way or a forced result.
pub fn bar_position(score: i32, side_to_move: Side, width: u16) -> u16 {
    let tigers = (score * side_to_move.sign()).clamp(-2 * DEAD_SHEEP, 2 * DEAD_SHEEP);
    let half = i32::from(width) / 2;
    (half + tigers * half / (2 * DEAD_SHEEP)).clamp(0, i32::from(width)) as u16
}

/// The default thinking time.
pub const DEFAULT_TIME: Duration = Duration::from_secs(2);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_specs_threads_and_table_reach_its_engine() {
        let spec = PlayerKind::parse("heuristic:threads=2,tt=128").unwrap();
        let app = App::new(Game::new(), PlayerKind::Human, spec, Limits::depth(2), None);
        let engine = app.seats[1].engine.as_ref().unwrap();
        assert_eq!(engine.threads(), 2);
        assert_eq!(engine.table_bytes(), 128 << 20);
        // Without its own, the game's: one thread, 32 MiB.
        let plain = App::new(
            Game::new(),
            PlayerKind::Human,
            PlayerKind::parse("heuristic").unwrap(),
            Limits::depth(2),
            None,
        );
        let engine = plain.seats[1].engine.as_ref().unwrap();
        assert_eq!((engine.threads(), engine.table_bytes()), (1, ENGINE_TT_MB << 20));
    }
}
