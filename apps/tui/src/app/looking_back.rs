//! Looking back through the game without changing it, and taking it back to a position looked at.

use tns_board::{Board, Move, Side};

use crate::App;
use crate::screen::Screen;

/// Where a step looking back goes.
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

impl App {
    /// The position on the board: the game's, or, looking back, an earlier one.
    pub fn shown_board(&self) -> Board {
        let positions = self.game.positions();
        self.looking_back().and_then(|ply| positions.get(ply)).copied().unwrap_or(self.board())
    }

    /// The number of moves the shown position follows.
    pub(crate) fn shown_ply(&self) -> usize {
        self.looking_back().unwrap_or(self.game.len()).min(self.game.len())
    }

    /// The move that led to the shown position.
    pub fn shown_last_move(&self) -> Option<Move> {
        self.shown_ply().checked_sub(1).map(|i| self.game.moves()[i])
    }

    /// Steps through the game's positions without changing the game; not while something is
    /// open over the board.
    pub fn browse(&mut self, to: Browse) {
        if !matches!(self.screen, Screen::Play | Screen::LookingBack { .. }) {
            return;
        }
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
            if self.looking_back().is_some() {
                self.screen.stop_looking_back();
                self.message = "back to the game".into();
            }
            return;
        }
        self.screen = Screen::LookingBack { ply: target };
        self.input.entry.selected = None;
        self.input.entry.typed.clear();
        // Counted as the move list counts: by turns, a sheep move and a tigers' move each.
        // The keys are on the status line; the message says only where the review is.
        self.message = format!(
            "move {} of {} (ply {target} of {len})",
            self.turns_in(target),
            self.turns_in(len)
        );
    }

    /// The turns (a sheep move and a tigers' move each, as the move list numbers them) that
    /// the first `plies` plies of the game make.
    pub(crate) fn turns_in(&self, plies: usize) -> usize {
        let offset = usize::from(self.game.start().side_to_move() == Side::Tiger);
        (plies + offset).div_ceil(2)
    }

    /// Takes the game back to the position looked at (an explicit choice, never a side
    /// effect of looking).
    pub(crate) fn take_back_to_shown(&mut self) {
        self.jobs.failed = false;
        match self.looking_back() {
            Some(ply) => {
                self.revert_to(ply);
                self.message = format!("took the game back to move {ply} (r redoes)");
            }
            None => self.message = "← shows earlier positions; t then takes the game back".into(),
        }
    }
}
