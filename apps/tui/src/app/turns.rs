//! The computer's turns: a search started when a computer is to move, its move played when it
//! is done, and what it found kept for the last-turn panel.

use std::sync::atomic::AtomicBool;

use tns_board::{Move, Side};
use tns_match::Player as _;
use tns_search::Report;

use crate::App;
use crate::engine::{Poll, Thinking};
use crate::players::{TurnInfo, seat_index};
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
                    self.message = "the engine stopped unexpectedly".into();
                }
                Poll::Done(result, engine) => {
                    let ply = thinking.ply;
                    self.jobs.thinking = None;
                    // The engine goes back to the seat that searched, even if the game moved on.
                    let side =
                        self.game.positions().get(ply).map_or(self.board(), |b| *b).side_to_move();
                    self.seats[seat_index(side)].engine = Some(engine);
                    let result = match result {
                        Ok(result) => result,
                        Err(e) => {
                            // A damaged table: the game stops for the computer, saying why.
                            self.message = format!("the computer cannot move: {e}");
                            self.jobs.failed = true;
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
                            score: result_text(result.score, result.chances, side),
                            pv: result.pv.clone(),
                        };
                        self.notes.turns.insert(ply, info);
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
        let seat = &mut self.seats[seat_index(side)];
        if let Some(random) = &mut seat.random {
            if let Ok(m) = random.choose(&self.game, &AtomicBool::new(false))
                && self.game.play(m).is_ok()
            {
                self.notes.turns.remove(&(self.game.len() - 1));
                self.played(m);
                self.after_move();
            }
        } else if let Some(engine) = seat.engine.take() {
            self.jobs.thinking = Some(Thinking::start(
                engine,
                self.game.board(),
                self.game.previous().to_vec(),
                limits,
                self.game.len(),
            ));
        }
    }

    /// Stops a running search and returns its engine to its seat.
    pub(crate) fn cancel_search(&mut self) {
        if let Some(thinking) = self.jobs.thinking.take() {
            let side =
                self.game.positions().get(thinking.ply).map_or(self.board(), |b| *b).side_to_move();
            if let Some(engine) = thinking.cancel() {
                self.seats[seat_index(side)].engine = Some(engine);
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
        let limits = &self.seats[seat_index(side)].limits;
        match (limits.depth, limits.time) {
            (Some(d), _) => format!("depth {d}"),
            (None, Some(t)) => format!("{:.1} s a move", t.as_secs_f64()),
            (None, None) => "no limit".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use tns_board::Game;
    use tns_search::Limits;

    use super::*;
    use crate::Controller;
    use crate::engine::ENGINE_TT_MB;

    #[test]
    fn a_specs_threads_and_table_reach_its_engine() {
        let spec = Controller::parse("heuristic:threads=2,tt=128").unwrap();
        let app = App::new(Game::new(), Controller::Human, spec, Limits::depth(2), None);
        let engine = app.seats[1].engine.as_ref().unwrap();
        assert_eq!(engine.threads(), 2);
        assert_eq!(engine.table_bytes(), 128 << 20);
        // Without its own, the game's: one thread, 32 MiB.
        let plain = App::new(
            Game::new(),
            Controller::Human,
            Controller::parse("heuristic").unwrap(),
            Limits::depth(2),
            None,
        );
        let engine = plain.seats[1].engine.as_ref().unwrap();
        assert_eq!((engine.threads(), engine.table_bytes()), (1, ENGINE_TT_MB << 20));
    }
}
