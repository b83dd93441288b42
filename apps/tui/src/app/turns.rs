//! The computer's turns: a search started when a computer is to move, its move played when it
//! is done, and what it found kept for the last-turn panel.

use tns_board::{Move, Side};
use tns_match::ChooseError;
use tns_search::Report;

use crate::App;
use crate::players::{TurnInfo, seat_index};
use crate::thinking::{Chosen, Poll, Thinking};
use crate::wording::result_text;

impl App {
    /// The live search report, while a computer thinks.
    pub fn live_report(&self) -> Option<&Report> {
        self.jobs.thinking.as_ref().and_then(|t| t.progress.as_ref())
    }

    /// Advances the computer players: starts a search when one is to move, and plays its move
    /// when it is done.
    pub fn tick(&mut self) {
        self.poll_hint();
        self.poll_table_build();
        if self.screen.opening() {
            // The start screen: no game has begun, so no clock runs and nobody moves.
            return;
        }
        self.check_flag(std::time::Instant::now());
        if let Some(thinking) = &mut self.jobs.thinking {
            match thinking.poll() {
                Poll::Running => {}
                Poll::Lost => {
                    self.jobs.thinking = None;
                    self.message = "the computer stopped unexpectedly".into();
                }
                Poll::Done(chosen) => {
                    let Chosen { result, search, player } = *chosen;
                    let ply = thinking.ply;
                    self.jobs.thinking = None;
                    // The player goes back to the seat that chose, even if the game moved on.
                    let side =
                        self.game.positions().get(ply).map_or(self.board(), |b| *b).side_to_move();
                    self.seats[seat_index(side)].give_back(player);
                    let m = match result {
                        Ok(m) => m,
                        Err(ChooseError::Stopped | ChooseError::GameOver) => return,
                        Err(e) => {
                            // A damaged table: the game stops for the computer, saying why.
                            self.message = format!("the computer cannot move: {e}");
                            self.jobs.failed = true;
                            return;
                        }
                    };
                    if ply == self.game.len() && self.game.play(m).is_ok() {
                        self.played(m);
                        match search {
                            Some(found) => {
                                let info = TurnInfo {
                                    mv: m,
                                    depth: found.depth,
                                    score: result_text(found.score, found.chances, side),
                                    pv: found.pv,
                                };
                                self.notes.turns.insert(ply, info);
                            }
                            None => {
                                self.notes.turns.remove(&ply);
                            }
                        }
                        self.after_move();
                    }
                }
            }
            return;
        }
        if self.outcome().is_some() || self.jobs.failed {
            return;
        }
        let side = self.board().side_to_move();
        let limits = self.move_limits(side);
        if let Some(player) = self.seats[seat_index(side)].take_player() {
            self.jobs.thinking = Some(Thinking::start(player, self.game.clone(), limits));
        }
    }

    /// Stops a computer choosing its move and gives its player back to its seat.
    pub(crate) fn cancel_search(&mut self) {
        if let Some(thinking) = self.jobs.thinking.take() {
            let side =
                self.game.positions().get(thinking.ply).map_or(self.board(), |b| *b).side_to_move();
            if let Some(player) = thinking.cancel() {
                self.seats[seat_index(side)].give_back(player);
            }
        }
    }

    /// The last move `side` made in the game, and what the computer's search found for it if
    /// a computer made it (its depth, score and line).
    pub fn last_turn(&self, side: Side) -> Option<(Move, Option<&TurnInfo>)> {
        let positions = self.game.positions();
        let ply = (0..self.game.len()).rev().find(|&i| positions[i].side_to_move() == side)?;
        let mv = self.game.moves()[ply];
        Some((mv, self.notes.turns.get(&ply).filter(|t| t.mv == mv)))
    }

    /// How long a side's computer player may think, for the status line and saved games.
    pub fn limit_text(&self, side: Side) -> String {
        if let Some(clock) = &self.clock {
            return format!("on the clock, {}", crate::clock::clock_text(clock.control));
        }
        let limits = self.seats[seat_index(side)].limits();
        match (limits.depth, limits.time) {
            (Some(d), _) => format!("depth {d}"),
            (None, Some(t)) => format!("{:.1} s a move", t.as_secs_f64()),
            (None, None) => "no limit".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use tns_match::{Budget, PlayerSpec};
    use tns_search::Limits;

    use crate::players::budget;
    use crate::thinking::SEARCH_TT_MB;

    #[test]
    fn a_specs_threads_and_table_reach_its_budget() {
        let spec: PlayerSpec = "heuristic:threads=2,tt=128".parse().unwrap();
        let b = budget(&spec, &Limits::depth(2));
        assert_eq!((b.threads, b.tt_mb, b.depth), (2, 128, Some(2)));
        // Without its own, the game's: one thread, the game's transposition table.
        let plain: PlayerSpec = "heuristic".parse().unwrap();
        let b = budget(&plain, &Limits::depth(2));
        assert_eq!(b, Budget { time: None, depth: Some(2), threads: 1, tt_mb: SEARCH_TT_MB });
    }
}
