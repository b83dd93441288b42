//! The review of the game on the board (`g`): the value along the plies from the table (and
//! the strongest player's chances where the table does not hold a position), every move that
//! threw a result away marked, and `!` to jump from one to the next.

use std::sync::atomic::AtomicBool;

use tns_match::{Budget, PlayerSpec};
use tns_puzzles::{Judgement, Mark, Review, review};
use tns_search::Limits;

use crate::App;
use crate::app::looking_back::Browse;
use crate::notes::GameReview;

/// The depth of the strongest player's search where the table does not hold a position: a
/// review of a long game stays within a second or so.
const ESTIMATE_DEPTH: u32 = 4;

impl App {
    /// The review of the game as it stands, if one was made of these moves.
    pub fn game_review(&self) -> Option<&Review> {
        self.notes.game_review.as_ref().filter(|r| r.moves == self.game.moves()).map(|r| &r.review)
    }

    /// `g`: reviews the game (or forgets the review when it is shown), then shows the first
    /// mistake.
    pub(crate) fn toggle_game_review(&mut self) {
        if self.game_review().is_some() {
            self.notes.game_review = None;
            self.message = "the review is closed (g opens it again)".into();
            return;
        }
        if self.game.is_empty() {
            self.message = "no move to review yet".into();
            return;
        }
        let mut searcher = PlayerSpec::network().ok().and_then(|spec| {
            let budget = Budget { time: None, depth: Some(ESTIMATE_DEPTH), threads: 1, tt_mb: 16 };
            spec.searcher(budget, None).ok().flatten()
        });
        let stop = AtomicBool::new(false);
        let mut estimate = |board| {
            let search = searcher.as_mut()?;
            let limits = Limits::depth(ESTIMATE_DEPTH);
            search.search(board, &[], limits, &stop, |_| {}).ok().map(|r| r.chances)
        };
        match review(&self.game, self.table.loaded.as_deref(), &mut estimate) {
            Ok(made) => {
                let first = made.next_mark(None);
                let marks = made.plies.iter().filter(|p| p.mark.is_some()).count();
                self.notes.game_review =
                    Some(GameReview { review: made, moves: self.game.moves().to_vec() });
                match first {
                    Some(i) => self.show_mistake(i),
                    None if self.table.loaded.is_none() => {
                        self.message = "reviewed with the strongest player's chances: only the \
                                        table can call a move a mistake (B builds the endgame \
                                        table in about a minute for the moves after the last \
                                        sheep is placed; the whole game needs tns-tablebase \
                                        build --placement)"
                            .into();
                    }
                    None => self.message = format!("no move threw a result away ({marks} marked)"),
                }
            }
            Err(e) => self.message = format!("the review failed: {}", tns_file::one_line(&e)),
        }
    }

    /// `!`: the next move that threw a result away, after the one shown.
    pub(crate) fn next_mistake(&mut self) {
        let Some(review) = self.game_review() else {
            self.message = "g reviews the game first".into();
            return;
        };
        match review.next_mark(self.looking_back()) {
            Some(i) => self.show_mistake(i),
            None => self.message = "no move threw a result away".into(),
        }
    }

    /// Shows the position before ply `i` (from 0) and says what its move threw away.
    fn show_mistake(&mut self, i: usize) {
        self.browse(Browse::At(i));
        let Some(ply) = self.game_review().and_then(|r| r.plies.get(i)).cloned() else { return };
        let side = ply.board.side_to_move();
        let words = |j: Judgement| match j {
            Judgement::Exact(v) => v.describe(side),
            Judgement::Estimate(c) => c.describe(side),
            Judgement::Unknown => "unknown".into(),
        };
        let mark = ply.mark.map_or("", Mark::sign);
        let better = ply.better.map_or(String::new(), |m| format!("; {m} kept it"));
        self.message = format!(
            "move {}: {}{mark} turned {} into {}{better} (! next mistake)",
            self.turns_in(i + 1),
            ply.played,
            words(ply.before),
            words(ply.after)
        );
    }

    /// The mark of the game's move `index` (from 0), in the review shown.
    pub(crate) fn mark_of(&self, index: usize) -> Option<Mark> {
        self.game_review().and_then(|r| r.plies.get(index)).and_then(|p| p.mark)
    }
}
