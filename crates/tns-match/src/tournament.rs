//! A match: many games between two players, several at a time.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::channel;
use std::time::Duration;

use tns_board::{Game, RecordResult, Side};
use tns_tablebase::Tablebase;

use crate::error::{MatchError, PlayerError};
use crate::player::Budget;
use crate::referee::{Conditions, Played, play, random_opening};
use crate::seed::mix_seed;
use crate::spec::PlayerSpec;
use crate::stats::{Pentanomial, Points, Tally};
use crate::time_control::TimeControl;

/// Who plays which side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colours {
    /// A plays the sheep in even games and the tigers in odd ones; each pair of games starts
    /// from the same opening.
    Alternate,
    /// A always plays the sheep and B the tigers; each game has its own opening.
    Fixed,
}

/// The settings of a match between players A and B.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Player A.
    pub a: PlayerSpec,
    /// Player B.
    pub b: PlayerSpec,
    /// Who plays which side.
    pub colours: Colours,
    /// Games to play.
    pub games: u32,
    /// Random plies at the start of each game.
    pub openings: usize,
    /// The seed of the openings (and of random players).
    pub seed: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// Plies after which a game is scored a draw.
    pub max_plies: usize,
    /// Limits for the players that set none of their own.
    pub defaults: Budget,
    /// A time control for every game (each side's clock), instead of the limits' time a move.
    pub time_control: Option<TimeControl>,
    /// How far past its time (a move's, or its clock's) a move may go before it counts as
    /// late: an external program's late answer forfeits, a fallen flag loses on time.
    pub margin: Duration,
    /// The tablebase, for perfect players.
    pub tablebase: Option<Arc<Tablebase>>,
    /// Openings to play instead of random ones (from a file, say): pair `i` of games (or game
    /// `i`, with fixed colours) starts from `book[i % book.len()]`. Empty: random openings.
    pub book: Vec<Game>,
}

impl MatchConfig {
    /// A match between `a` and `b` with the usual settings: 100 games with alternating colours
    /// from 4-ply random openings (seed 1), one at a time, a draw at 400 plies, 0.1 s a move on
    /// one thread with 16 MiB, no clocks, a 100 ms margin, no table, no book.
    pub fn new(a: PlayerSpec, b: PlayerSpec) -> MatchConfig {
        MatchConfig {
            a,
            b,
            colours: Colours::Alternate,
            games: 100,
            openings: 4,
            seed: 1,
            concurrency: 1,
            max_plies: 400,
            defaults: Budget { time: Some(0.1), depth: None, threads: 1, tt_mb: 16 },
            time_control: None,
            margin: crate::external::LATE_MARGIN,
            tablebase: None,
            book: Vec::new(),
        }
    }
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The game's number, from 0.
    pub index: u32,
    /// The side player A played.
    pub a_side: Side,
    /// The game.
    pub played: Played,
}

impl GameReport {
    /// How the game went for player A.
    pub fn a_points(&self) -> Points {
        match (self.played.result, self.a_side) {
            (RecordResult::SheepWin, Side::Sheep) | (RecordResult::TigerWin, Side::Tiger) => {
                Points::Win
            }
            (RecordResult::SheepWin, Side::Tiger) | (RecordResult::TigerWin, Side::Sheep) => {
                Points::Loss
            }
            (RecordResult::Draw | RecordResult::Unfinished, _) => Points::Draw,
        }
    }
}

/// Player A's results so far, by the side it played, and over pairs of games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standings {
    /// A's games as the sheep.
    pub a_as_sheep: Tally,
    /// A's games as the tigers.
    pub a_as_tiger: Tally,
    /// A's results over finished pairs of games (games `2k` and `2k + 1`, one opening with
    /// colours swapped); empty when colours are fixed.
    pub pairs: Pentanomial,
    /// The first game of each pair whose second has not finished, by pair.
    pending: BTreeMap<u32, (Side, Points)>,
}

impl Standings {
    /// Counts one game.
    pub fn add(&mut self, game: &GameReport) {
        let tally = match game.a_side {
            Side::Sheep => &mut self.a_as_sheep,
            Side::Tiger => &mut self.a_as_tiger,
        };
        tally.add(game.a_points());
        let pair = game.index / 2;
        match self.pending.remove(&pair) {
            Some((side, first)) if side != game.a_side => self.pairs.add(first, game.a_points()),
            Some(_) => {}
            None => {
                self.pending.insert(pair, (game.a_side, game.a_points()));
            }
        }
    }

    /// A's results over all games.
    pub fn a_total(&self) -> Tally {
        Tally {
            wins: self.a_as_sheep.wins + self.a_as_tiger.wins,
            draws: self.a_as_sheep.draws + self.a_as_tiger.draws,
            losses: self.a_as_sheep.losses + self.a_as_tiger.losses,
        }
    }
}

/// Mixes a seed with a number, so nearby numbers give unrelated seeds.
fn mix(seed: u64, n: u64) -> u64 {
    mix_seed(seed, n.wrapping_add(1), 0)
}

/// Plays the match, `config.concurrency` games at a time, calling `on_game` (on the calling
/// thread) as each game finishes. Raising `stop` ends the match: games under way are dropped
/// and no new ones start. Returns A's standings over the games that finished.
///
/// # Errors
/// [`MatchError::Player`] when a player cannot be built (a perfect player without a table);
/// [`MatchError::Program`] when an external program cannot start, fails its handshake or
/// refuses an option; [`MatchError::Opening`] when random play cannot reach the opening length;
/// all found before the first game, so no game is played. [`MatchError::Thread`] when a
/// thread for the games cannot be started (the games under way are finished first).
pub fn run_match(
    config: &MatchConfig,
    stop: &AtomicBool,
    mut on_game: impl FnMut(&GameReport),
) -> Result<Standings, MatchError> {
    if config.book.is_empty() {
        random_opening(config.openings, mix(config.seed, 0))?;
    }
    let failed = std::sync::Mutex::new(None);
    let next = AtomicU32::new(0);
    let (tx, rx) = channel::<GameReport>();
    let mut standings = Standings::default();
    let table = config.tablebase.as_ref();
    let build = |spec: &PlayerSpec| spec.build_with_margin(config.defaults, table, config.margin);
    let mut players = (0..config.concurrency.max(1))
        .map(|_| Ok((build(&config.a)?, build(&config.b)?)))
        .collect::<Result<Vec<_>, PlayerError>>()?;
    for (a, b) in &mut players {
        for (player, spec) in [(a, &config.a), (b, &config.b)] {
            player
                .prepare()
                .map_err(|reason| MatchError::Program { player: spec.to_string(), reason })?;
        }
    }
    let conditions = Conditions {
        max_plies: config.max_plies,
        time_control: config.time_control,
        margin: config.margin,
    };
    let conditions = &conditions;
    std::thread::scope(|scope| {
        for (mut a, mut b) in players {
            let tx = tx.clone();
            let next = &next;
            let failed = &failed;
            let spawned =
                std::thread::Builder::new().name("games".into()).spawn_scoped(scope, move || {
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= config.games || stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let (a_side, opening) = match config.colours {
                            Colours::Alternate => {
                                let side =
                                    if index.is_multiple_of(2) { Side::Sheep } else { Side::Tiger };
                                (side, u64::from(index / 2))
                            }
                            Colours::Fixed => (Side::Sheep, u64::from(index)),
                        };
                        let game = if config.book.is_empty() {
                            match random_opening(config.openings, mix(config.seed, opening)) {
                                Ok(game) => game,
                                Err(e) => {
                                    if let Ok(mut failed) = failed.lock() {
                                        *failed = Some(e);
                                    }
                                    break;
                                }
                            }
                        } else {
                            let at = usize::try_from(opening % config.book.len() as u64);
                            config.book[at.unwrap_or_default()].clone()
                        };
                        let player_seed = mix(config.seed ^ 0xA5A5, u64::from(index));
                        a.new_game(player_seed);
                        b.new_game(player_seed.rotate_left(17));
                        let (sheep, tiger) = match a_side {
                            Side::Sheep => (&mut *a, &mut *b),
                            Side::Tiger => (&mut *b, &mut *a),
                        };
                        let Some(played) = play(game, sheep, tiger, conditions, stop) else {
                            break;
                        };
                        if tx.send(GameReport { index, a_side, played }).is_err() {
                            break;
                        }
                    }
                });
            if let Err(e) = spawned {
                // The threads already started play the match on; the error is told at the end.
                if let Ok(mut failed) = failed.lock() {
                    failed.get_or_insert(MatchError::Thread(Arc::new(e)));
                }
                break;
            }
        }
        drop(tx);
        for report in rx {
            standings.add(&report);
            on_game(&report);
        }
    });
    match failed.into_inner().ok().flatten() {
        Some(e) => Err(e),
        None => Ok(standings),
    }
}

#[cfg(test)]
mod tests {
    use tns_board::Board;

    use super::*;

    fn config(a: &str, b: &str, games: u32, concurrency: usize) -> MatchConfig {
        MatchConfig {
            a: a.parse().unwrap(),
            b: b.parse().unwrap(),
            colours: Colours::Alternate,
            games,
            openings: 4,
            seed: 11,
            concurrency,
            max_plies: 200,
            defaults: Budget { time: None, depth: Some(2), threads: 1, tt_mb: 1 },
            time_control: None,
            margin: Duration::from_millis(100),
            tablebase: None,
            book: Vec::new(),
        }
    }

    #[test]
    fn pairs_share_openings_and_alternate_colours() {
        let mut games = Vec::new();
        let standings =
            run_match(&config("random", "random", 6, 2), &AtomicBool::new(false), |g| {
                games.push(g.clone());
            })
            .unwrap();
        assert_eq!(games.len(), 6);
        assert_eq!(standings.a_total().games(), 6);
        assert_eq!(standings.a_as_sheep.games(), 3);
        assert_eq!(standings.pairs.pairs(), 3);
        games.sort_by_key(|g| g.index);
        for pair in games.chunks(2) {
            assert_eq!(pair[0].a_side, Side::Sheep);
            assert_eq!(pair[1].a_side, Side::Tiger);
            assert_eq!(pair[0].played.game.moves()[..4], pair[1].played.game.moves()[..4]);
        }
        assert_ne!(games[0].played.game.moves()[..4], games[2].played.game.moves()[..4]);
    }

    #[test]
    fn a_fixed_depth_match_is_reproducible_at_any_concurrency() {
        let collect = |concurrency| {
            let mut games = Vec::new();
            run_match(
                &config("heuristic", "heuristic:dead=300", 4, concurrency),
                &AtomicBool::new(false),
                |g| {
                    games.push((g.index, g.played.game.moves().to_vec(), g.played.result));
                },
            )
            .unwrap();
            games.sort_by_key(|g| g.0);
            games
        };
        assert_eq!(collect(1), collect(2));
    }

    #[test]
    fn the_search_beats_random_play() {
        let standings =
            run_match(&config("heuristic", "random", 8, 2), &AtomicBool::new(false), |_| {})
                .unwrap();
        let score = standings.a_total().score().unwrap();
        assert!(score >= 0.75, "{standings:?}");
    }

    #[test]
    fn a_book_gives_each_pair_its_opening_in_turn() {
        let start: tns_board::Board = "T3T/5/5/5/T3T t 20".parse().unwrap();
        let mut c = config("random", "random", 8, 1);
        c.book = vec![Game::new(), Game::from_position(start)];
        let mut games = Vec::new();
        run_match(&c, &AtomicBool::new(false), |g| games.push(g.clone())).unwrap();
        games.sort_by_key(|g| g.index);
        for g in &games {
            let expected = if (g.index / 2) % 2 == 0 { Board::START } else { start };
            assert_eq!(g.played.game.start(), expected, "game {}", g.index);
        }
    }

    #[test]
    fn an_unreachable_opening_length_is_an_error_before_any_game() {
        let mut c = config("random", "random", 4, 1);
        c.openings = 5000;
        let mut played = 0;
        let result = run_match(&c, &AtomicBool::new(false), |_| played += 1);
        assert!(matches!(result, Err(MatchError::Opening { plies: 5000, .. })), "{result:?}");
        assert_eq!(played, 0);
    }

    #[test]
    fn stopping_ends_the_match_early() {
        let stop = AtomicBool::new(false);
        let mut seen = 0;
        let standings = run_match(&config("random", "random", 1000, 2), &stop, |_| {
            seen += 1;
            if seen == 3 {
                stop.store(true, Ordering::Relaxed);
            }
        })
        .unwrap();
        assert!(standings.a_total().games() < 1000);
        assert_eq!(standings.a_total().games(), seen);
    }
}
