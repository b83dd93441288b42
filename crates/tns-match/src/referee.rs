//! The referee: random openings, and one game between two players under the rules of
//! tns-board.

use std::fmt;
use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::{RngExt as _, SeedableRng as _};
use tns_board::{EndReason, Game, GameRecord, RecordResult, Side};

use crate::player::Player;

/// A game that begins with `plies` random legal moves from the start, drawn from `seed`. An
/// opening that would end the game is drawn again, so the players always get a game to play.
pub fn random_opening(plies: usize, seed: u64) -> Game {
    let mut rng = StdRng::seed_from_u64(seed);
    loop {
        let mut game = Game::new();
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            // The move is one of the legal moves, so it cannot be refused.
            let _ = game.play(m);
        }
        if game.outcome().is_none() {
            return game;
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules: five sheep dead, a side without moves, or a repetition.
    Rules(EndReason),
    /// The ply cap was reached: scored as a draw.
    MaxPlies,
    /// The side to move offered an illegal move, or none: it loses.
    Forfeit(Side),
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rules(EndReason::FiveDead) => f.write_str("five sheep dead"),
            Termination::Rules(EndReason::NoMoves) => f.write_str("no moves"),
            Termination::Rules(EndReason::Repetition) => f.write_str("repetition"),
            Termination::MaxPlies => f.write_str("ply cap"),
            Termination::Forfeit(side) => write!(f, "forfeit by the {side:?}"),
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Played {
    /// The game, opening included.
    pub game: Game,
    /// The result.
    pub result: RecordResult,
    /// How it ended.
    pub termination: Termination,
}

impl Played {
    /// The game's record, with the players' names and how it ended.
    pub fn record(&self, sheep: &str, tiger: &str) -> GameRecord {
        let mut record = GameRecord::from_game(&self.game, sheep, tiger);
        record.result = self.result;
        record.tags.push(("Termination".into(), self.termination.to_string()));
        record
    }
}

/// Plays `game` to its end: `sheep` and `tiger` move in turn until the rules end the game or
/// it reaches `max_plies` plies (counting the opening). `None` if `stop` was raised first.
pub fn play(
    mut game: Game,
    sheep: &mut dyn Player,
    tiger: &mut dyn Player,
    max_plies: usize,
    stop: &AtomicBool,
) -> Option<Played> {
    loop {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        if let Some(outcome) = game.outcome() {
            let result = RecordResult::from_outcome(Some(outcome));
            return Some(Played { game, result, termination: Termination::Rules(outcome.reason) });
        }
        if game.len() >= max_plies {
            return Some(Played {
                game,
                result: RecordResult::Draw,
                termination: Termination::MaxPlies,
            });
        }
        let side = game.board().side_to_move();
        let chosen = match side {
            Side::Sheep => sheep.choose(&game, stop),
            Side::Tiger => tiger.choose(&game, stop),
        };
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        if chosen.is_none_or(|m| game.play(m).is_err()) {
            let result = match side {
                Side::Sheep => RecordResult::TigerWin,
                Side::Tiger => RecordResult::SheepWin,
            };
            return Some(Played { game, result, termination: Termination::Forfeit(side) });
        }
    }
}

#[cfg(test)]
mod tests {
    use tns_board::Move;

    use super::*;

    #[test]
    fn openings_are_seeded_and_of_the_asked_length() {
        assert_eq!(random_opening(8, 3).moves(), random_opening(8, 3).moves());
        assert_ne!(random_opening(8, 3).moves(), random_opening(8, 4).moves());
        assert_eq!(random_opening(8, 3).len(), 8);
        assert!(random_opening(0, 1).is_empty());
    }

    /// Always offers the same move, legal or not.
    struct Stubborn(Move);

    impl Player for Stubborn {
        fn new_game(&mut self, _seed: u64) {}
        fn choose(&mut self, _game: &Game, _stop: &AtomicBool) -> Option<Move> {
            Some(self.0)
        }
    }

    #[test]
    fn an_illegal_move_forfeits_and_the_cap_draws() {
        let stop = AtomicBool::new(false);
        let mut sheep = Stubborn("c3".parse().unwrap());
        let mut tiger = Stubborn("a5b4".parse().unwrap());
        // c3, a5b4 are legal; then c3 again is not.
        let played = play(Game::new(), &mut sheep, &mut tiger, 100, &stop).unwrap();
        assert_eq!(played.game.len(), 2);
        assert_eq!(played.result, RecordResult::TigerWin);
        assert_eq!(played.termination, Termination::Forfeit(Side::Sheep));
        let capped = play(Game::new(), &mut sheep, &mut tiger, 1, &stop).unwrap();
        assert_eq!((capped.game.len(), capped.result), (1, RecordResult::Draw));
        let record = capped.record("a", "b");
        assert_eq!(record.tag("Termination"), Some("ply cap"));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(play(Game::new(), &mut sheep, &mut tiger, 100, &stop).is_none());
    }
}
