//! The referee: random openings, and one game between two players under the rules of
//! tns-board.

use std::fmt;
use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::{RngExt as _, SeedableRng as _};
use tns_board::{EndReason, Game, GameRecord, RecordResult, Side};

use crate::player::Player;
use crate::tournament::MatchError;

/// How many random openings are drawn before [`random_opening`] gives up.
pub const OPENING_ATTEMPTS: u32 = 10_000;

/// A game that begins with `plies` random legal moves from the start, drawn from `seed`. An
/// opening that would end the game is drawn again, so the players always get a game to play.
///
/// # Errors
/// [`MatchError::Opening`] when [`OPENING_ATTEMPTS`] draws all ended the game (random play
/// rarely lasts hundreds of plies: the tigers kill five sheep first).
pub fn random_opening(plies: usize, seed: u64) -> Result<Game, MatchError> {
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..OPENING_ATTEMPTS {
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
            return Ok(game);
        }
    }
    Err(MatchError::Opening { plies, attempts: OPENING_ATTEMPTS })
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules: five sheep dead, a side without moves, or a repetition.
    Rules(EndReason),
    /// The ply cap was reached: scored as a draw.
    MaxPlies,
    /// The side to move offered an illegal move, or none (a program that crashed or answered
    /// late): it loses.
    Forfeit {
        /// The side that forfeited.
        side: Side,
        /// What it did wrong.
        reason: String,
    },
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rules(EndReason::FiveDead) => f.write_str("five sheep dead"),
            Termination::Rules(EndReason::NoMoves) => f.write_str("no moves"),
            Termination::Rules(EndReason::Repetition) => f.write_str("repetition"),
            Termination::MaxPlies => f.write_str("ply cap"),
            Termination::Forfeit { side, reason } => {
                write!(f, "forfeit by the {}: {reason}", side.plural())
            }
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
        let player: &mut dyn Player = match side {
            Side::Sheep => sheep,
            Side::Tiger => tiger,
        };
        let chosen = player.choose(&game, stop);
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        let reason = match chosen.map(|m| (m, game.play(m))) {
            Some((_, Ok(()))) => continue,
            Some((m, Err(e))) => format!("illegal move {m}: {e}"),
            None => player.failure().unwrap_or_else(|| "no move offered".into()),
        };
        let result = match side {
            Side::Sheep => RecordResult::TigerWin,
            Side::Tiger => RecordResult::SheepWin,
        };
        return Some(Played { game, result, termination: Termination::Forfeit { side, reason } });
    }
}

#[cfg(test)]
mod tests {
    use tns_board::Move;

    use super::*;

    #[test]
    fn openings_are_seeded_and_of_the_asked_length() {
        let opening = |plies, seed| random_opening(plies, seed).unwrap();
        assert_eq!(opening(8, 3).moves(), opening(8, 3).moves());
        assert_ne!(opening(8, 3).moves(), opening(8, 4).moves());
        assert_eq!(opening(8, 3).len(), 8);
        assert!(opening(0, 1).is_empty());
        // Random play never lasts 5000 plies: a clear error, not a loop for ever.
        assert!(matches!(random_opening(5000, 1), Err(MatchError::Opening { plies: 5000, .. })));
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
        let Termination::Forfeit { side, reason } = &played.termination else { panic!() };
        assert_eq!(*side, Side::Sheep);
        assert!(reason.starts_with("illegal move c3: "), "{reason}");
        assert!(played.record("a", "b").tag("Termination").unwrap().contains("illegal move c3"));
        let capped = play(Game::new(), &mut sheep, &mut tiger, 1, &stop).unwrap();
        assert_eq!((capped.game.len(), capped.result), (1, RecordResult::Draw));
        let record = capped.record("a", "b");
        assert_eq!(record.tag("Termination"), Some("ply cap"));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(play(Game::new(), &mut sheep, &mut tiger, 100, &stop).is_none());
    }
}
