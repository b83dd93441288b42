//! Texel tuning of the heuristic against the solved game: its weights fitted so that a logistic
//! curve of its score predicts the table's result (1 a win, ½ a draw, 0 a loss for the side to
//! move), on positions of games between players of every strength.

use std::collections::HashSet;

use rayon::prelude::*;
use tns_board::Board;
use tns_search::{Heuristic, Terms, Weights};
use tns_tablebase::Wdl;

use crate::sampling::{self, VALIDATION_SEATS};
use crate::teacher::Teacher;

/// A position reduced to what the fit needs: its terms, the sign that turns the tigers' score
/// into the side to move's, and its result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The heuristic's terms.
    pub terms: Terms,
    /// 1 with the tigers to move, -1 with the sheep.
    pub sign: i32,
    /// 1 a win, 0.5 a draw, 0 a loss, for the side to move.
    pub result: f64,
}

impl Point {
    /// The point of a position with its value.
    pub fn new(board: Board, value: Wdl) -> Point {
        let result = match value {
            Wdl::Win => 1.0,
            Wdl::Draw => 0.5,
            Wdl::Loss => 0.0,
        };
        Point { terms: Heuristic::terms(board), sign: board.side_to_move().sign(), result }
    }

    fn score(&self, w: &[i32; 7]) -> f64 {
        let dot: i32 = self.terms.iter().zip(w).map(|(t, w)| t * w).sum();
        f64::from(dot * self.sign)
    }
}

/// The fit's data: the positions of `games` games (random play and the heuristic at depths 1
/// to 4) that the teacher holds, each class once, none of `exclude` (the held-out set).
pub fn points<S: std::hash::BuildHasher + Sync>(
    teacher: &Teacher,
    games: usize,
    epsilon: f64,
    max_plies: usize,
    seed: u64,
    exclude: &HashSet<u64, S>,
) -> Vec<Point> {
    let boards: Vec<Vec<Board>> = (0..games)
        .into_par_iter()
        .map(|i| {
            let game_seed = tns_match::mix_seed(seed, i as u64, 0x7E);
            sampling::game_positions(
                teacher,
                &VALIDATION_SEATS,
                None,
                epsilon,
                max_plies,
                game_seed,
            )
        })
        .collect();
    sampling::distinct(boards.into_iter().flatten(), exclude)
        .into_par_iter()
        .filter_map(|b| Some(Point::new(b, teacher.value(b)?)))
        .collect()
}

/// The mean squared error of the logistic curve `1 / (1 + e^(-score / scale))` against the
/// results.
pub fn error(points: &[Point], weights: &[i32; 7], scale: f64) -> f64 {
    let sum: f64 = points
        .iter()
        .map(|p| {
            let predicted = 1.0 / (1.0 + (-p.score(weights) / scale).exp());
            (p.result - predicted).powi(2)
        })
        .sum();
    #[expect(clippy::cast_precision_loss, reason = "a count of positions, far below 2^52")]
    let n = points.len().max(1) as f64;
    sum / n
}

/// The scale (score units per logistic unit) that fits `weights` best: a search over 20 to
/// 5,000 by golden sections.
pub fn best_scale(points: &[Point], weights: &[i32; 7]) -> f64 {
    let (mut lo, mut hi) = (20f64.ln(), 5000f64.ln());
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - golden * (hi - lo);
        let b = lo + golden * (hi - lo);
        if error(points, weights, a.exp()) < error(points, weights, b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    f64::midpoint(lo, hi).exp()
}

/// The tuned weights, the scale and their error: from `start`, each weight but the first (a
/// dead sheep, the unit every other weight is counted in) moved by a step while that lowers the
/// error, the step halved from 64 down to 1 (Texel's local search), the scale fitted again
/// after every pass. Deterministic; at most `rounds` passes a step size.
pub fn tune(points: &[Point], start: Weights, rounds: usize) -> (Weights, f64, f64) {
    let mut w = start.to_array();
    let mut scale = best_scale(points, &w);
    let mut best = error(points, &w, scale);
    let mut step = 64;
    while step >= 1 {
        for _ in 0..rounds {
            let mut improved = false;
            for i in 1..w.len() {
                for delta in [step, -step] {
                    let mut trial = w;
                    trial[i] = (trial[i] + delta).clamp(-2000, 2000);
                    let e = error(points, &trial, scale);
                    if e < best {
                        (w, best, improved) = (trial, e, true);
                        break;
                    }
                }
            }
            scale = best_scale(points, &w);
            best = error(points, &w, scale);
            if !improved {
                break;
            }
        }
        step /= 2;
    }
    (Weights::from_array(w), scale, best)
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{RngExt as _, SeedableRng as _};

    use super::*;

    #[test]
    fn tuning_finds_the_weights_that_made_the_results() {
        // Results drawn from a known curve of known weights: the fit comes back near them.
        let truth = [300, 150, 40, -100, 10, 0, 15];
        let mut rng = StdRng::seed_from_u64(7);
        let mut next = || rng.random::<u64>();
        let points: Vec<Point> = (0..4000)
            .map(|_| {
                let terms: Terms = std::array::from_fn(|_| (next() % 6) as i32);
                let sign = if next() % 2 == 0 { 1 } else { -1 };
                let p = Point { terms, sign, result: 0.0 };
                let predicted = 1.0 / (1.0 + (-p.score(&truth) / 400.0).exp());
                Point { result: predicted, ..p }
            })
            .collect();
        // The first weight is the unit and stays: the others and the scale come back to fit it.
        let start = Weights::from_array([300, 200, 200, 0, 0, 50, 0]);
        let before = error(&points, &start.to_array(), 400.0);
        let (tuned, _, after) = tune(&points, start, 200);
        assert!(after < before / 10.0, "{before} -> {after}");
        let tuned = tuned.to_array();
        // The scale is fitted too, so the weights come back up to a common factor.
        let factor = f64::from(tuned[0]) / f64::from(truth[0]);
        for (t, w) in truth.iter().zip(tuned) {
            assert!(
                (f64::from(*t) * factor - f64::from(w)).abs() <= 20.0 * factor.max(1.0),
                "{truth:?} vs {tuned:?}"
            );
        }
    }
}
