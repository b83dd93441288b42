//! The referee: random openings, and one game between two players under the rules of
//! tns-board.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt as _, SeedableRng as _};
use tns_board::{EndReason, Game, GameRecord, RecordResult, Side};
use tns_search::{Chances, Wdl};

use crate::error::MatchError;
use crate::player::Player;
use crate::time_control::{Clocks, TimeControl};

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
    /// The side to move's flag fell: its move took longer than its clock had left and the
    /// margin besides. It loses.
    Time {
        /// The side that lost on time.
        side: Side,
        /// How far past its clock the move went.
        over: Duration,
    },
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
            Termination::Rules(reason) => write!(f, "{reason}"),
            Termination::MaxPlies => f.write_str("ply cap"),
            Termination::Time { side, over } => {
                let side = side.plural().to_lowercase();
                write!(f, "the {side} lost on time ({} ms over)", over.as_millis())
            }
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
    /// How long each move the players made took, in order from ply `first_ply` (the opening's
    /// moves are nobody's); a move that lost on time is the last.
    pub times: Vec<Duration>,
    /// What each of those moves' search read of the game, for the side that made it: the chances
    /// of a win, a draw and a loss ([`Player::chances`]); `None` for a player that reads none.
    pub readings: Vec<Option<Chances>>,
    /// The ply the players took over at (the opening's length).
    pub first_ply: usize,
    /// Under a time control, the moves of each side (the sheep's, then the tigers') that went
    /// past their clock but not past the margin: tolerated, and counted.
    pub clock_overruns: [u32; 2],
    /// The time control the game was played at, if any.
    pub time_control: Option<TimeControl>,
}

impl Played {
    /// The game's record, with the players' names and how it ended.
    pub fn record(&self, sheep: &str, tiger: &str) -> GameRecord {
        let mut record = GameRecord::from_game(&self.game, sheep, tiger);
        record.result = self.result;
        // Names of our own, fixed and valid: setting them cannot fail.
        let _ = record.set_tag("Termination", &self.termination.to_string());
        if let Some(tc) = self.time_control {
            let _ = record.set_tag("TimeControl", &tc.pgn());
        }
        record
    }

    /// The times of the moves `side` made.
    pub fn times_of(&self, side: Side) -> impl Iterator<Item = Duration> + '_ {
        self.times.iter().copied().skip(self.offset_of(side)).step_by(2)
    }

    /// The chances `side`'s player read at each of its moves that it read them at.
    pub fn readings_of(&self, side: Side) -> impl Iterator<Item = Chances> + '_ {
        self.readings.iter().skip(self.offset_of(side)).step_by(2).filter_map(|r| *r)
    }

    /// How the game ended for `side`: a win, a draw (an unfinished game too) or a loss.
    pub fn result_for(&self, side: Side) -> Wdl {
        match (self.result, side) {
            (RecordResult::SheepWin, Side::Sheep) | (RecordResult::TigerWin, Side::Tiger) => {
                Wdl::Win
            }
            (RecordResult::SheepWin, Side::Tiger) | (RecordResult::TigerWin, Side::Sheep) => {
                Wdl::Loss
            }
            (RecordResult::Draw | RecordResult::Unfinished, _) => Wdl::Draw,
        }
    }

    /// Where `side`'s first move is among the players' moves: 0 or 1.
    fn offset_of(&self, side: Side) -> usize {
        let first_side = self.game.positions()[self.first_ply].side_to_move();
        usize::from(first_side != side)
    }
}

/// How a game is played, beyond the rules: when it is cut short, and the clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conditions {
    /// Plies after which the game is scored a draw (counting the opening).
    pub max_plies: usize,
    /// The time control, if the game is played on clocks.
    pub time_control: Option<TimeControl>,
    /// How far past its clock a move may go before the flag falls.
    pub margin: Duration,
}

impl Conditions {
    /// A game cut at `max_plies`, without clocks.
    pub const fn untimed(max_plies: usize) -> Conditions {
        Conditions { max_plies, time_control: None, margin: Duration::ZERO }
    }
}

/// Plays `game` to its end: `sheep` and `tiger` move in turn until the rules end the game or
/// it reaches `conditions.max_plies` plies (counting the opening), or a flag falls under a time
/// control. `None` if `stop` was raised first.
pub fn play(
    mut game: Game,
    sheep: &mut dyn Player,
    tiger: &mut dyn Player,
    conditions: &Conditions,
    stop: &AtomicBool,
) -> Option<Played> {
    let mut clocks = conditions.time_control.map(Clocks::new);
    let mut times = Vec::new();
    let mut readings = Vec::new();
    let mut clock_overruns = [0; 2];
    let tc = conditions.time_control;
    let first_ply = game.len();
    let end = |game, result, termination, (times, readings), clock_overruns| Played {
        game,
        result,
        termination,
        times,
        readings,
        first_ply,
        clock_overruns,
        time_control: tc,
    };
    loop {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        if let Some(outcome) = game.outcome() {
            let result = RecordResult::from_outcome(Some(outcome));
            let termination = Termination::Rules(outcome.reason);
            return Some(end(game, result, termination, (times, readings), clock_overruns));
        }
        if game.len() >= conditions.max_plies {
            let draw = RecordResult::Draw;
            return Some(end(game, draw, Termination::MaxPlies, (times, readings), clock_overruns));
        }
        let side = game.board().side_to_move();
        let player: &mut dyn Player = match side {
            Side::Sheep => sheep,
            Side::Tiger => tiger,
        };
        let started = Instant::now();
        let chosen = match &clocks {
            Some(clocks) => player.choose_timed(&game, clocks, stop),
            None => player.choose(&game, stop),
        };
        let used = started.elapsed();
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        let loss = match side {
            Side::Sheep => RecordResult::TigerWin,
            Side::Tiger => RecordResult::SheepWin,
        };
        if let (Some(clocks), Some(tc)) = (&mut clocks, tc) {
            let over_clock = used > clocks.of(side).remaining;
            if let Err(over) = clocks.spend(side, used, tc, conditions.margin) {
                times.push(used);
                readings.push(player.chances());
                let termination = Termination::Time { side, over };
                return Some(end(game, loss, termination, (times, readings), clock_overruns));
            }
            clock_overruns[usize::from(side == Side::Tiger)] += u32::from(over_clock);
        }
        let reason = match chosen.map(|m| (m, game.play(m))) {
            Ok((_, Ok(()))) => {
                times.push(used);
                readings.push(player.chances());
                continue;
            }
            Ok((m, Err(e))) => format!("illegal move {m}: {e}"),
            Err(e) => e.to_string(),
        };
        let termination = Termination::Forfeit { side, reason };
        return Some(end(game, loss, termination, (times, readings), clock_overruns));
    }
}

#[cfg(test)]
mod tests {
    use tns_board::Move;

    use super::*;
    use crate::error::ChooseError;

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
        fn choose(&mut self, _game: &Game, _stop: &AtomicBool) -> Result<Move, ChooseError> {
            Ok(self.0)
        }
    }

    #[test]
    fn an_illegal_move_forfeits_and_the_cap_draws() {
        let stop = AtomicBool::new(false);
        let mut sheep = Stubborn("c3".parse().unwrap());
        let mut tiger = Stubborn("a5b4".parse().unwrap());
        // c3, a5b4 are legal; then c3 again is not.
        let played =
            play(Game::new(), &mut sheep, &mut tiger, &Conditions::untimed(100), &stop).unwrap();
        assert_eq!(played.game.len(), 2);
        assert_eq!(played.result, RecordResult::TigerWin);
        let Termination::Forfeit { side, reason } = &played.termination else { panic!() };
        assert_eq!(*side, Side::Sheep);
        assert!(reason.starts_with("illegal move c3: "), "{reason}");
        assert!(played.record("a", "b").tag("Termination").unwrap().contains("illegal move c3"));
        let capped =
            play(Game::new(), &mut sheep, &mut tiger, &Conditions::untimed(1), &stop).unwrap();
        assert_eq!((capped.game.len(), capped.result), (1, RecordResult::Draw));
        let record = capped.record("a", "b");
        assert_eq!(record.tag("Termination"), Some("ply cap"));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(
            play(Game::new(), &mut sheep, &mut tiger, &Conditions::untimed(100), &stop).is_none()
        );
    }

    /// Plays a legal move after sleeping for its time.
    struct Slow(std::time::Duration);

    impl Player for Slow {
        fn new_game(&mut self, _seed: u64) {}
        fn choose(&mut self, game: &Game, _stop: &AtomicBool) -> Result<Move, ChooseError> {
            std::thread::sleep(self.0);
            game.legal_moves().first().copied().ok_or(ChooseError::GameOver)
        }
    }

    #[test]
    fn a_fallen_flag_loses_and_every_move_is_timed() {
        let stop = AtomicBool::new(false);
        let tc: TimeControl = "0.3s+0".parse().unwrap();
        let conditions = Conditions {
            max_plies: 100,
            time_control: Some(tc),
            margin: Duration::from_millis(20),
        };
        // The sheep think 100 ms a move: their 300 ms last three moves, the fourth is late.
        let mut sheep = Slow(Duration::from_millis(100));
        let mut tiger = Slow(Duration::ZERO);
        let played = play(Game::new(), &mut sheep, &mut tiger, &conditions, &stop).unwrap();
        let Termination::Time { side, .. } = played.termination else { panic!("{played:?}") };
        assert_eq!((side, played.result), (Side::Sheep, RecordResult::TigerWin));
        assert_eq!(played.game.len(), 6, "three moves each, then the sheep's flag fell");
        let sheep_times: Vec<_> = played.times_of(Side::Sheep).collect();
        assert_eq!(sheep_times.len(), 4);
        assert!(sheep_times.iter().all(|t| *t >= Duration::from_millis(100)), "{sheep_times:?}");
        assert_eq!(played.times_of(Side::Tiger).count(), 3);
        let record = played.record("a", "b");
        assert_eq!(record.tag("TimeControl"), Some("0.3"));
        let why = record.tag("Termination").unwrap();
        assert!(why.starts_with("the sheep lost on time"), "{why}");
    }

    #[test]
    fn each_move_keeps_what_its_search_read_and_a_random_player_reads_nothing() {
        use tns_search::Heuristic;

        use crate::player::{Budget, RandomPlayer, SearchPlayer};
        let budget = Budget { time: None, depth: Some(2), threads: 1, tt_mb: 1 };
        let mut sheep = SearchPlayer::new(Heuristic::default(), budget).unwrap();
        let mut tiger = RandomPlayer::new(7);
        let stop = AtomicBool::new(false);
        let played =
            play(Game::new(), &mut sheep, &mut tiger, &Conditions::untimed(30), &stop).unwrap();
        assert_eq!(played.readings.len(), played.times.len(), "one reading a move");
        let sheep_moves = played.times_of(Side::Sheep).count();
        assert_eq!(played.readings_of(Side::Sheep).count(), sheep_moves);
        assert!(sheep_moves > 0);
        assert_eq!(played.readings_of(Side::Tiger).count(), 0, "random play reads nothing");
        for chances in played.readings_of(Side::Sheep) {
            assert_eq!(
                u32::from(chances.win) + u32::from(chances.draw) + u32::from(chances.loss),
                1000
            );
        }
        let other = match played.result_for(Side::Sheep) {
            Wdl::Win => Wdl::Loss,
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
        };
        assert_eq!(played.result_for(Side::Tiger), other);
    }
}
