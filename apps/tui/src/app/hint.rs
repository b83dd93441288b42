//! The hint's intents: asked for with H, its answer put under the cursor, played with Enter
//! or Tab (the search itself runs in [`crate::hint_search::start_hint`]).

use std::sync::mpsc::TryRecvError;

use crate::App;
use crate::app::Hinting;
use crate::hint_search::{Hint, start_hint};

impl App {
    /// Asks for the best move for the side to move, worked out on its own thread by the
    /// strongest player there is: the table where it holds the position, else the search.
    pub fn hint(&mut self) {
        if self.outcome().is_some() || !self.human_to_move() {
            return;
        }
        let rx = start_hint(self.board(), self.game.previous().to_vec(), self.table.loaded.clone());
        self.input.hint = Hinting::Asked(rx, self.game.len());
        self.message = "hint: thinking…".into();
    }

    /// Collects a finished hint and puts the cursor on it.
    pub(crate) fn poll_hint(&mut self) {
        let Hinting::Asked(rx, ply) = &self.input.hint else { return };
        let found = match rx.try_recv() {
            Ok(Ok(found)) => found,
            Ok(Err(e)) => {
                self.input.hint = Hinting::None;
                self.message = format!("no hint: {}", tns_file::one_line(e.as_ref()));
                return;
            }
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => None,
        };
        let stale = *ply != self.game.len();
        self.input.hint = Hinting::None;
        let Some(Hint { mv: m, by }) = found.filter(|_| !stale) else { return };
        self.input.hint = Hinting::Shown(m);
        if !self.input.entry.typed.is_empty() && !self.input.entry.typed_refused {
            // The player is typing a move: the hint is shown, but takes neither the typed
            // text nor the cursor.
            self.message =
                format!("hint from {by}: {m} (Tab plays it; finish typing yours, or Esc)");
            return;
        }
        self.input.entry.drop_typed();
        self.input.entry.cursor = m.to();
        self.input.entry.selected = m.from();
        self.message = format!("hint from {by}: {m} (Enter or Tab plays it, Esc drops it)");
    }

    /// Plays the hinted move.
    pub(crate) fn play_hint(&mut self) {
        match self.input.hinted() {
            Some(m) => self.play(m),
            None => self.message = "no hint: press H for one".into(),
        }
    }
}
