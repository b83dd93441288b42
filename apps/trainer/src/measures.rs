//! Exact measures of a network against the solved game, on a held-out set: how far its values
//! are from the table's, how often its class is the table's, and how often the move it would
//! choose keeps the position's value where some move would drop it.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use tns_board::{Board, Move};
use tns_nn::Network;
use tns_search::{Evaluator, Limits, Search, SearchConfig};
use tns_tablebase::Wdl;

use crate::sampling::{self, Seat, VALIDATION_SEATS};
use crate::teacher::{Teacher, class_of, target};

/// A held-out position with its value, and, when it is critical, the value of each move.
#[derive(Clone, Debug, PartialEq)]
pub struct Held {
    /// The position.
    pub board: Board,
    /// Its value for the side to move.
    pub value: Wdl,
    /// Each legal move and its value for the side that plays it, when some move keeps the
    /// position's value and another drops it; empty otherwise.
    pub moves: Vec<(Move, Wdl)>,
}

impl Held {
    /// Whether the position is critical: a move can throw its value away.
    pub fn is_critical(&self) -> bool {
        !self.moves.is_empty()
    }

    /// Whether `m` keeps the position's value.
    pub fn keeps(&self, m: Move) -> bool {
        self.moves.iter().any(|&(n, v)| n == m && v == self.value)
    }
}

/// The held-out set: positions of games between players of several strengths (random play, the
/// heuristic at depths 1 to 4 and perfect play, never the network), each symmetry class once.
/// It depends on the seed alone, and no position of it (in any of its symmetries) is ever
/// trained on.
#[derive(Clone, Debug, Default)]
pub struct Validation {
    /// The positions.
    pub held: Vec<Held>,
    /// Their classes' keys, to keep them out of training.
    pub keys: HashSet<u64>,
}

impl Validation {
    /// The positions of `games` games (seeded from `seed`) that the teacher holds.
    pub fn build(
        teacher: &Teacher,
        games: usize,
        epsilon: f64,
        max_plies: usize,
        seed: u64,
    ) -> Validation {
        Self::from_seats(teacher, &VALIDATION_SEATS, games, epsilon, max_plies, seed)
    }

    fn from_seats(
        teacher: &Teacher,
        seats: &[Seat],
        games: usize,
        epsilon: f64,
        max_plies: usize,
        seed: u64,
    ) -> Validation {
        let boards: Vec<Vec<Board>> = (0..games)
            .into_par_iter()
            .map(|i| {
                let game_seed = tns_match::mix_seed(seed, i as u64, 0x5A11);
                sampling::game_positions(teacher, seats, None, epsilon, max_plies, game_seed)
            })
            .collect();
        let boards = sampling::distinct(boards.into_iter().flatten(), &HashSet::new());
        let held: Vec<Held> = boards
            .into_par_iter()
            .filter_map(|board| {
                let value = teacher.value(board)?;
                let moves = teacher.move_values(board).unwrap_or_default();
                let critical = moves.iter().any(|&(_, v)| v == value)
                    && moves.iter().any(|&(_, v)| v != value);
                Some(Held { board, value, moves: if critical { moves } else { Vec::new() } })
            })
            .collect();
        let keys = held.iter().map(|h| sampling::class_key(h.board)).collect();
        Validation { held, keys }
    }

    /// The critical positions.
    pub fn critical(&self) -> impl Iterator<Item = &Held> {
        self.held.iter().filter(|h| h.is_critical())
    }
}

/// A network's figures on the held-out set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figures {
    /// Mean squared error against the table's values (1, 0, -1).
    pub loss: f64,
    /// The share of positions whose class (the nearest of win, draw, loss) is the table's.
    pub values: f64,
    /// The share of critical positions where the network's one-ply choice keeps the value.
    pub moves: f64,
    /// How many critical positions there were.
    pub critical: usize,
}

/// The network's one-ply choice: a move that ends the game at once (the last kill, or leaving
/// the other side without a move), else the move to the position the network likes least for
/// the side to move there. The first such move in the generator's order.
pub fn one_ply_choice(net: &Network, teacher: &Teacher, board: Board) -> Option<Move> {
    let mut best: Option<(Move, f32)> = None;
    for &m in &board.legal_moves() {
        let child = board.after_unchecked(m);
        let score = if teacher.is_over(child) { 2.0 } else { -net.forward(child) };
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((m, score));
        }
    }
    best.map(|(m, _)| m)
}

/// A count of positions as an f64: far below 2^52, so exact.
#[expect(clippy::cast_precision_loss, reason = "see the function's docs")]
fn count(n: usize) -> f64 {
    n as f64
}

/// `part` of `whole` as a share, 0 when `whole` is 0.
fn share(part: usize, whole: usize) -> f64 {
    count(part) / count(whole.max(1))
}

/// The network's figures on `validation`.
pub fn figures(net: &Network, teacher: &Teacher, validation: &Validation) -> Figures {
    let n = count(validation.held.len().max(1));
    let (loss, right) = validation
        .held
        .par_iter()
        .map(|h| {
            let y = net.forward(h.board);
            let e = f64::from(y - target(h.value));
            (e * e, u32::from(class_of(y) == h.value))
        })
        .reduce(|| (0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let critical: Vec<&Held> = validation.critical().collect();
    let kept = critical
        .par_iter()
        .filter(|h| one_ply_choice(net, teacher, h.board).is_some_and(|m| h.keeps(m)))
        .count();
    Figures {
        loss: loss / n,
        values: f64::from(right) / n,
        moves: share(kept, critical.len()),
        critical: critical.len(),
    }
}

/// How often a search kept the value: in all the critical positions it was asked about, and
/// in those of the placement (sheep in hand).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    /// Positions where the chosen move keeps the value.
    pub kept: usize,
    /// Positions asked about.
    pub of: usize,
    /// Of those, placement positions where it keeps the value.
    pub placement_kept: usize,
    /// Placement positions asked about.
    pub placement_of: usize,
}

impl Kept {
    /// The share kept, overall.
    pub fn share(&self) -> f64 {
        share(self.kept, self.of)
    }

    /// The share kept in the placement.
    pub fn placement_share(&self) -> f64 {
        share(self.placement_kept, self.placement_of)
    }
}

/// "96.8% of 1000 critical positions (96.2% of the 532 in the placement; 32 missed, 20 of
/// them in the placement)": the counts too, since a tenth of a percent of a few thousand
/// positions hides the handful that tell two searches apart.
impl std::fmt::Display for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.1}% of {} critical positions ({:.1}% of the {} in the placement; {} missed, {} of \
             them in the placement)",
            100.0 * self.share(),
            self.of,
            100.0 * self.placement_share(),
            self.placement_of,
            self.of.saturating_sub(self.kept),
            self.placement_of.saturating_sub(self.placement_kept)
        )
    }
}

/// The two limits every search is judged at, named: depth 4, and 0.05 s a move.
pub fn judged_limits() -> [(String, Limits); 2] {
    limits_at(4, std::time::Duration::from_millis(50))
}

/// A fixed depth and a fixed time a move, named as [`judged_limits`] names its two ("depth 4",
/// "0.05 s a move").
pub fn limits_at(depth: u32, time: std::time::Duration) -> [(String, Limits); 2] {
    [
        (format!("depth {depth}"), Limits::depth(depth)),
        (format!("{} s a move", time.as_secs_f64()), Limits::time(time)),
    ]
}

/// The search's share of kept values for two evaluators side by side, at depth 4 and at 0.05 s
/// a move, over at most `limit` critical positions: one line each limit, naming them `a_name`
/// and `b_name` ("with the network, 90.0% (84.2%) with the heuristic").
pub fn compare_searches<A, B>(
    (a, a_name): (&A, &str),
    (b, b_name): (&B, &str),
    validation: &Validation,
    limit: usize,
) -> Vec<String>
where
    A: Evaluator + Clone + Send + Sync,
    B: Evaluator + Clone + Send + Sync,
{
    judged_limits()
        .into_iter()
        .map(|(what, limits)| {
            let x = search_move_accuracy(a, validation, &limits, limit);
            let y = search_move_accuracy(b, validation, &limits, limit);
            format!(
                "search at {what}: keeps the value in {x} {a_name}, {:.1}% ({:.1}%) {b_name}",
                100.0 * y.share(),
                100.0 * y.placement_share()
            )
        })
        .collect()
}

/// What the search chose in one critical position.
#[derive(Clone, Copy, Debug)]
pub struct Choice<'a> {
    /// The position, its value and its moves'.
    pub held: &'a Held,
    /// The move the search chose (`None` only if it failed).
    pub chosen: Option<Move>,
    /// The depth of its last completed iteration.
    pub depth: u32,
}

impl Choice<'_> {
    /// Whether the chosen move keeps the value.
    pub fn kept(&self) -> bool {
        self.chosen.is_some_and(|m| self.held.keeps(m))
    }
}

impl Kept {
    /// The shares of these choices.
    pub fn of_choices(choices: &[Choice<'_>]) -> Kept {
        let mut k = Kept::default();
        for c in choices {
            let placement = usize::from(c.held.board.in_hand() > 0);
            let kept = usize::from(c.kept());
            k.kept += kept;
            k.of += 1;
            k.placement_kept += kept * placement;
            k.placement_of += placement;
        }
        k
    }
}

/// The move the search with `evaluator` at `limits` (one thread, from no history) chooses in
/// each critical position (at most `limit` of them, the first), in the held-out set's order.
///
/// # Panics
/// Only on a machine without the memory for an 8 MiB table.
pub fn search_choices<'a, E: Evaluator + Clone + Send + Sync>(
    evaluator: &E,
    validation: &'a Validation,
    limits: &Limits,
    limit: usize,
) -> Vec<Choice<'a>> {
    let critical: Vec<&Held> = validation.critical().take(limit).collect();
    let stop = AtomicBool::new(false);
    let config = SearchConfig::default().with_threads(1).with_tt_mb(8);
    critical
        .par_iter()
        .map_init(
            // One thread and 8 MiB are within the bounds: only a machine out of memory fails.
            || Search::new(evaluator.clone(), config).expect("an 8 MiB one-thread search"),
            |search, &held| {
                search.clear();
                // The network's search has no root moves to fail on: an error keeps nothing.
                let result = search.search(held.board, &[], limits.clone(), &stop, |_| {}).ok();
                Choice {
                    held,
                    chosen: result.as_ref().and_then(|r| r.best_move),
                    depth: result.map_or(0, |r| r.depth),
                }
            },
        )
        .collect()
}

/// How often the search with `evaluator` at `limits` (one thread, from no history) picks a
/// move that keeps the value, in the critical positions (at most `limit` of them, the first).
///
/// # Panics
/// Only on a machine without the memory for an 8 MiB table.
pub fn search_move_accuracy<E: Evaluator + Clone + Send + Sync>(
    evaluator: &E,
    validation: &Validation,
    limits: &Limits,
    limit: usize,
) -> Kept {
    Kept::of_choices(&search_choices(evaluator, validation, limits, limit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_names_its_shares_and_what_it_missed() {
        let k = Kept { kept: 968, of: 1000, placement_kept: 512, placement_of: 532 };
        assert_eq!(
            k.to_string(),
            "96.8% of 1000 critical positions (96.2% of the 532 in the placement; 32 missed, 20 of \
             them in the placement)"
        );
        // Fields set by hand beyond their totals do not underflow.
        let odd = Kept { kept: 3, of: 2, placement_kept: 1, placement_of: 0 };
        assert!(odd.to_string().contains("0 missed, 0 of them"), "{odd}");
    }
}
