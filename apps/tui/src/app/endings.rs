//! Endings the players choose: a resignation, a draw agreed between two people.

use tns_board::{Outcome, Side};

use crate::App;
use crate::players::Controller;
use crate::screen::Question;

impl App {
    /// R: resign for the human side (the side to move when both are human), after a yes.
    pub(crate) fn request_resign(&mut self) {
        if self.outcome().is_some() {
            return;
        }
        let humans: Vec<Side> =
            Side::ALL.into_iter().filter(|&s| *self.player(s) == Controller::Human).collect();
        let side = match humans[..] {
            [one] => one,
            [_, _] => self.board().side_to_move(),
            _ => {
                self.message = "only a person can resign".into();
                return;
            }
        };
        let message =
            format!("Resign for the {}? y: resign, n: play on", side.plural().to_lowercase());
        self.ask(Question::Resign(side), message);
    }

    /// =: the side to move offers a draw. Between two people the other answers; a computer
    /// plays on (it judges the position by its search, not by offers).
    pub(crate) fn offer_draw(&mut self) {
        if self.outcome().is_some() {
            return;
        }
        let side = self.board().side_to_move();
        if *self.player(side.other()) != Controller::Human
            || *self.player(side) != Controller::Human
        {
            self.message = "a draw is agreed between two people; the computer plays on".into();
            return;
        }
        let message = format!(
            "The {} offer a draw: {}, y agrees, n plays on",
            side.plural().to_lowercase(),
            side.other().plural().to_lowercase()
        );
        self.ask(Question::Draw(side), message);
    }

    /// Ends the game as a saved game says the players (or a clock) ended it: a resumed
    /// resignation, agreed draw or loss on time.
    pub fn end_as(&mut self, outcome: Outcome) {
        self.end_by_players(outcome);
        self.saving.dirty = false;
    }

    /// Ends the game as the players decided: any search stops, and the record says how.
    pub(crate) fn end_by_players(&mut self, outcome: Outcome) {
        self.cancel_search();
        self.notes.ended = Some(outcome);
        if let Some(clock) = &mut self.clock {
            clock.restart(None, std::time::Instant::now());
        }
        self.saving.dirty = true;
        self.input.clear();
        self.message = if outcome.reason == tns_board::EndReason::TimeForfeit {
            "g: review, n: new game, s: save, q: quit".into()
        } else {
            // The panel says the result: the message says only what can be done.
            "g: review, u: take back, n: new game, s: save, q: quit".into()
        };
    }
}
