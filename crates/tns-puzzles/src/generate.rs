//! Making a puzzle set from the solved game: games between players of several strengths, the
//! positions where few moves keep the result, a ladder of players to rate them.
//!
//! Every player searches to a fixed depth on one thread from a cleared table, so the same seed
//! makes the same set to the byte.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rayon::prelude::*;
use tns_board::{Board, Move, Side};
use tns_match::{Budget, PlayerError, PlayerSpec, Searcher, mix_seed, random_opening};
use tns_search::{Limits, Wdl};
use tns_tablebase::{Tablebase, TablebaseError, Verdict};

use crate::check::keepers;
use crate::puzzle::Puzzle;
use crate::theme::Theme;

/// The players whose games the positions come from: weak enough to reach positions where a
/// result can slip, strong enough to reach ones worth solving.
pub const GAME_PLAYERS: [&str; 5] = [
    "heuristic:depth=1",
    "heuristic:depth=2",
    "heuristic:depth=3",
    "network:depth=2",
    "network:depth=4",
];

/// The ladder that rates the puzzles, from the weakest: each tries every puzzle once (random
/// counts its exact chance), and a puzzle's rating is fitted to who solved it.
pub const LADDER: [&str; 8] = [
    "random",
    "heuristic:depth=1",
    "heuristic:depth=2",
    "heuristic:depth=4",
    "heuristic:depth=6",
    "network:depth=2",
    "network:depth=4",
    "network:depth=6",
];

/// The longest game played for positions, in plies.
const MAX_PLIES: usize = 200;
/// The most random plies an opening starts with.
const MAX_OPENING: u64 = 8;

/// What to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Puzzles wanted.
    pub count: usize,
    /// Games played for positions.
    pub games: usize,
    /// The seed of the openings and the choice.
    pub seed: u64,
    /// The most moves that may keep the value of a puzzle's position.
    pub max_solutions: usize,
    /// The most moves a longer puzzle asks for.
    pub max_moves: usize,
    /// The players whose games give the positions ([`GAME_PLAYERS`]).
    pub game_players: &'static [&'static str],
    /// The ladder that rates the puzzles, from the weakest ([`LADDER`]); `random` counts its
    /// exact chance.
    pub ladder: &'static [&'static str],
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            count: 2400,
            games: 3000,
            seed: 1,
            max_solutions: 2,
            max_moves: 3,
            game_players: &GAME_PLAYERS,
            ladder: &LADDER,
        }
    }
}

/// How far the making has gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// Games played so far, of the total.
    Games {
        /// Played.
        done: usize,
        /// To play.
        total: usize,
    },
    /// Positions the table judged so far, of the total.
    Judged {
        /// Judged.
        done: usize,
        /// To judge.
        total: usize,
    },
    /// Candidates the ladder tried so far, of the total.
    Rated {
        /// Tried.
        done: usize,
        /// To try.
        total: usize,
    },
}

/// A ladder player's results over the candidates.
#[derive(Clone, Debug, PartialEq)]
pub struct Rung {
    /// Its spec.
    pub spec: &'static str,
    /// Its rating, fitted with the puzzles'.
    pub rating: f64,
    /// The share of the kept puzzles it solves.
    pub solved: f64,
}

/// A made set, and what its making found.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// The puzzles.
    pub puzzles: Vec<Puzzle>,
    /// The ladder, from the weakest.
    pub ladder: Vec<Rung>,
    /// Games played.
    pub games: usize,
    /// Distinct positions the games reached.
    pub positions: usize,
    /// Of those, the ones where few moves keep the result and some searching player fails.
    pub candidates: usize,
}

/// Why a set could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// A player of the games or the ladder cannot be built.
    #[error("cannot build the player {spec}")]
    Player {
        /// Its spec.
        spec: &'static str,
        /// Why.
        #[source]
        source: PlayerError,
    },
    /// The table failed (a damaged file).
    #[error("the table failed")]
    Table(#[source] TablebaseError),
    /// A player built once could not be built again for another thread.
    #[error("a player could not be built again")]
    Rebuilt,
    /// A search failed.
    #[error("a search failed")]
    Search(#[source] tns_search::SearchError),
}

/// A player that searches to its depth from a cleared table.
struct Searching {
    search: Searcher,
    limits: Limits,
}

impl Searching {
    fn new(spec: &'static str) -> Result<Option<Searching>, GenerateError> {
        let player = |source| GenerateError::Player { spec, source };
        let parsed: PlayerSpec = spec.parse().map_err(player)?;
        let defaults = Budget { time: None, depth: None, threads: 1, tt_mb: 1 };
        let Some(search) = parsed.searcher(defaults, None).map_err(player)? else {
            return Ok(None);
        };
        Ok(Some(Searching { search, limits: parsed.budget(defaults).limits() }))
    }

    fn choose(&mut self, board: Board, previous: &[Board]) -> Result<Option<Move>, GenerateError> {
        self.search.clear();
        let stop = AtomicBool::new(false);
        let result = self
            .search
            .search(board, previous, self.limits.clone(), &stop, |_| {})
            .map_err(GenerateError::Search)?;
        Ok(result.best_move)
    }
}

fn players(specs: &[&'static str]) -> Result<Vec<Option<Searching>>, GenerateError> {
    specs.iter().map(|&s| Searching::new(s)).collect()
}

/// A position where few moves keep the result.
struct Candidate {
    board: Board,
    keep: Vec<Move>,
    legal: usize,
    verdict: Verdict,
    /// Each rung's score: 1 solved, 0 failed, the chance for random.
    scores: Vec<f64>,
}

/// Makes a set from `table` (the whole game's for puzzles of every phase; a part gives puzzles
/// of the positions it holds).
///
/// # Errors
/// A player that cannot be built, or a table or a search that fails.
pub fn generate(
    table: &Arc<Tablebase>,
    settings: Settings,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<Generated, GenerateError> {
    // Built once here so that a player that cannot be built is reported with its cause; the
    // threads build their own.
    players(settings.ladder)?;
    players(settings.game_players)?;
    let boards = play_games(settings, on_event)?;
    let mut seen = HashSet::new();
    let boards: Vec<Board> = boards.into_iter().filter(|b| seen.insert(b.key())).collect();
    let positions = boards.len();

    let done = AtomicUsize::new(0);
    let judged: Vec<Option<Candidate>> = boards
        .par_iter()
        .map(|&board| {
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if n.is_multiple_of(1000) {
                on_event(Event::Judged { done: n, total: positions });
            }
            judge(table, board, settings.max_solutions)
        })
        .collect::<Result<_, _>>()?;
    let candidates: Vec<Candidate> = judged.into_iter().flatten().collect();

    let total = candidates.len();
    let done = AtomicUsize::new(0);
    let rated: Vec<Candidate> = candidates
        .into_par_iter()
        .map_init(
            || players(settings.ladder).ok(),
            |ladder, mut candidate| {
                let ladder = ladder.as_mut().ok_or(GenerateError::Rebuilt)?;
                candidate.scores = try_ladder(ladder, &candidate)?;
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if n.is_multiple_of(200) {
                    on_event(Event::Rated { done: n, total });
                }
                Ok(candidate)
            },
        )
        .collect::<Result<_, GenerateError>>()?;
    // A natural move drops it: some searching player fails.
    let rated: Vec<Candidate> =
        rated.into_iter().filter(|c| c.scores[1..].iter().any(|&s| s < 1.0)).collect();
    let (rung_ratings, puzzle_ratings) = fit_ratings(&rated, settings.ladder.len());

    let chosen = choose(&rated, settings);
    let mut puzzles = Vec::with_capacity(chosen.len());
    for &i in &chosen {
        puzzles.push(finish(table, &rated[i], puzzle_ratings[i], settings.max_moves)?);
    }
    let ladder = settings
        .ladder
        .iter()
        .enumerate()
        .map(|(j, &spec)| Rung {
            spec,
            rating: rung_ratings[j],
            solved: chosen.iter().map(|&i| rated[i].scores[j]).sum::<f64>()
                / share(chosen.len().max(1), 1),
        })
        .collect();
    Ok(Generated { puzzles, ladder, games: settings.games, positions, candidates: rated.len() })
}

/// The positions of `settings.games` games between [`GAME_PLAYERS`], each from a random opening,
/// in the order played.
fn play_games(
    settings: Settings,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<Vec<Board>, GenerateError> {
    let done = AtomicUsize::new(0);
    let games: Vec<Vec<Board>> = (0..settings.games)
        .into_par_iter()
        .map_init(
            || players(settings.game_players).ok(),
            |players, g| {
                let players = players.as_mut().ok_or(GenerateError::Rebuilt)?;
                let seed = mix_seed(settings.seed, g as u64, 0);
                let n = players.len() as u64;
                let sheep = usize::try_from(mix_seed(seed, 1, 0) % n).unwrap_or(0);
                let tiger = usize::try_from(mix_seed(seed, 2, 0) % n).unwrap_or(0);
                let plies = usize::try_from(mix_seed(seed, 3, 0) % (MAX_OPENING + 1)).unwrap_or(0);
                let mut game = random_opening(plies, seed).unwrap_or_default();
                let mut boards = Vec::new();
                while game.outcome().is_none() && game.len() < MAX_PLIES {
                    let board = game.board();
                    boards.push(board);
                    let who = if board.side_to_move() == Side::Sheep { sheep } else { tiger };
                    let Some(player) = players[who].as_mut() else { break };
                    let Some(m) = player.choose(board, game.previous())? else { break };
                    if game.play(m).is_err() {
                        break;
                    }
                }
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if n.is_multiple_of(100) {
                    on_event(Event::Games { done: n, total: settings.games });
                }
                Ok(boards)
            },
        )
        .collect::<Result<_, GenerateError>>()?;
    Ok(games.into_iter().flatten().collect())
}

/// `board` as a candidate: few moves keep a result worth keeping, and some move drops it.
fn judge(
    table: &Tablebase,
    board: Board,
    max_solutions: usize,
) -> Result<Option<Candidate>, GenerateError> {
    if board.dead() >= table.kills() {
        return Ok(None);
    }
    let (keep, legal, verdict) = match keepers(table, board) {
        Ok(found) => found,
        Err(TablebaseError::NoLayer(_)) => return Ok(None),
        Err(e) => return Err(GenerateError::Table(e)),
    };
    let worth = verdict.wdl != Wdl::Loss && legal >= 3 && (1..=max_solutions).contains(&keep.len());
    Ok(worth.then_some(Candidate { board, keep, legal, verdict, scores: Vec::new() }))
}

/// Each rung's score on `candidate`.
fn try_ladder(
    ladder: &mut [Option<Searching>],
    candidate: &Candidate,
) -> Result<Vec<f64>, GenerateError> {
    ladder
        .iter_mut()
        .map(|rung| match rung {
            None => Ok(share(candidate.keep.len(), candidate.legal)),
            Some(player) => {
                let m = player.choose(candidate.board, &[])?;
                Ok(if m.is_some_and(|m| candidate.keep.contains(&m)) { 1.0 } else { 0.0 })
            }
        })
        .collect()
}

/// Ratings for the rungs and the puzzles together, by the logistic model of Elo (a rung solves
/// a puzzle with chance 1 / (1 + 10^((puzzle - rung) / 400))), fitted by maximum likelihood
/// with the puzzles' ratings drawn towards 1500 (deviation 500) so that a puzzle every rung
/// solves, or none does, still gets a finite rating.
fn fit_ratings(candidates: &[Candidate], rungs: usize) -> (Vec<f64>, Vec<f64>) {
    const K: f64 = std::f64::consts::LN_10 / 400.0;
    const PRIOR: f64 = 1.0 / (500.0 * 500.0);
    let mut r = vec![1500.0; rungs];
    let mut p = vec![1500.0; candidates.len()];
    let chance = |rung: f64, puzzle: f64| 1.0 / (1.0 + (K * (puzzle - rung)).exp());
    for _ in 0..100 {
        for (i, c) in candidates.iter().enumerate() {
            let (mut grad, mut curv) = (-(p[i] - 1500.0) * PRIOR, PRIOR);
            for j in 0..rungs {
                let e = chance(r[j], p[i]);
                grad -= K * (c.scores[j] - e);
                curv += K * K * e * (1.0 - e);
            }
            p[i] += grad / curv;
        }
        for j in 0..rungs {
            let (mut grad, mut curv) = (0.0, 1e-9);
            for (i, c) in candidates.iter().enumerate() {
                let e = chance(r[j], p[i]);
                grad += K * (c.scores[j] - e);
                curv += K * K * e * (1.0 - e);
            }
            r[j] += (grad / curv).clamp(-400.0, 400.0);
        }
    }
    (r, p)
}

/// Which candidates become puzzles: about a quarter each of the placement and the movement
/// for either side, as far as there are, each group in an order drawn from the seed.
fn choose(candidates: &[Candidate], settings: Settings) -> Vec<usize> {
    let group = |c: &Candidate| {
        usize::from(c.board.in_hand() > 0) * 2 + usize::from(c.board.side_to_move() == Side::Tiger)
    };
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); 4];
    for (i, c) in candidates.iter().enumerate() {
        groups[group(c)].push(i);
    }
    for g in &mut groups {
        g.sort_by_key(|&i| mix_seed(settings.seed, candidates[i].board.key(), 7));
    }
    // Round robin over the groups, so a short group leaves its share to the others.
    let mut chosen = Vec::new();
    let mut next = [0usize; 4];
    while chosen.len() < settings.count {
        let before = chosen.len();
        for (g, members) in groups.iter().enumerate() {
            if chosen.len() < settings.count && next[g] < members.len() {
                chosen.push(members[next[g]]);
                next[g] += 1;
            }
        }
        if chosen.len() == before {
            break;
        }
    }
    chosen
}

/// The puzzle of `candidate`: its themes, and a line where the answer stays unique.
fn finish(
    table: &Tablebase,
    c: &Candidate,
    rating: f64,
    max_moves: usize,
) -> Result<Puzzle, GenerateError> {
    let mut line = Vec::new();
    if c.keep.len() == 1 {
        let mut board = c.board.after_unchecked(c.keep[0]);
        while 1 + line.len() / 2 < max_moves {
            let Some(reply) = best_reply(table, board)? else { break };
            let after = board.after_unchecked(reply);
            if after.dead() >= table.kills() || !after.has_moves() {
                break;
            }
            let (keep, legal, _) = keepers(table, after).map_err(GenerateError::Table)?;
            if keep.len() != 1 || legal < 2 {
                break;
            }
            line.extend([reply, keep[0]]);
            board = after.after_unchecked(keep[0]);
        }
    }
    let others: Vec<Move> =
        c.board.legal_moves().iter().copied().filter(|m| !c.keep.contains(m)).collect();
    let themes = Theme::of(c.board, &c.keep, &others, c.verdict.wdl, !line.is_empty());
    // Ratings are rounded to the unit and kept to the range people meet.
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "clamped to 100..=3500 first"
    )]
    let rating = rating.round().clamp(100.0, 3500.0) as u16;
    Ok(Puzzle {
        position: c.board,
        solutions: c.keep.clone(),
        value: c.verdict,
        rating,
        themes,
        line,
    })
}

/// The opponent's best reply at `board` (the first of the best, as the table orders them), or
/// `None` when the game is over there.
fn best_reply(table: &Tablebase, board: Board) -> Result<Option<Move>, GenerateError> {
    if board.dead() >= table.kills() || !board.has_moves() {
        return Ok(None);
    }
    let verdicts = table.verdicts(board).map_err(GenerateError::Table)?;
    Ok(verdicts.first().map(|&(m, _)| m))
}

/// `n / d` as a float, for counts far below 2^52.
#[expect(clippy::cast_precision_loss, reason = "counts of moves and puzzles, far below 2^52")]
fn share(n: usize, d: usize) -> f64 {
    n as f64 / d as f64
}
