//! Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2012), as lichess rates its
//! puzzles and their solvers: a rating, how uncertain it is (the deviation), and how erratic
//! (the volatility).

/// The Glicko-2 scale's factor: 400 / ln 10.
const SCALE: f64 = 173.7178;
/// How fast the volatility may change. Glickman suggests 0.3 to 1.2; lichess uses 0.75.
pub const TAU: f64 = 0.75;
/// The rating everybody starts from.
pub const START: Rating = Rating { rating: 1500.0, deviation: 350.0, volatility: 0.06 };
/// The deviation a rating never goes below, so that it keeps moving with the solver.
pub const MIN_DEVIATION: f64 = 45.0;
/// The deviation taken for a puzzle: its rating comes from a fit over a ladder of players, not
/// from solvers, so it is held as known to about this much.
pub const PUZZLE_DEVIATION: f64 = 80.0;

/// A Glicko-2 rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating, 1500 at the start.
    pub rating: f64,
    /// How far the rating may be off: 350 at the start, smaller with each result.
    pub deviation: f64,
    /// How erratic the results have been.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        START
    }
}

/// One result against an opponent: a score of 1 for a win (a puzzle solved), 0 for a loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// The opponent's rating.
    pub opponent: Rating,
    /// 1 won, 0.5 drawn, 0 lost.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// The chance of scoring against `opponent`, from both ratings and the opponent's deviation.
    pub fn expected_score(self, opponent: Rating) -> f64 {
        expected(
            (self.rating - 1500.0) / SCALE,
            (opponent.rating - 1500.0) / SCALE,
            opponent.deviation / SCALE,
        )
    }

    /// The rating after one rating period with `outcomes`, with volatility constraint `tau`
    /// (steps 2 to 8 of Glickman's paper). No outcome only widens the deviation.
    #[must_use]
    pub fn updated_with(self, outcomes: &[Outcome], tau: f64) -> Rating {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        if outcomes.is_empty() {
            let phi = (phi * phi + self.volatility * self.volatility).sqrt();
            return Rating { deviation: phi * SCALE, ..self };
        }
        let (mut inv_v, mut sum) = (0.0, 0.0);
        for o in outcomes {
            let (mu_j, phi_j) =
                ((o.opponent.rating - 1500.0) / SCALE, o.opponent.deviation / SCALE);
            let e = expected(mu, mu_j, phi_j);
            inv_v += g(phi_j) * g(phi_j) * e * (1.0 - e);
            sum += g(phi_j) * (o.score - e);
        }
        let v = 1.0 / inv_v;
        let delta = v * sum;
        let sigma = new_volatility(self.volatility, phi, v, delta, tau);
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Rating { rating: mu_new * SCALE + 1500.0, deviation: phi_new * SCALE, volatility: sigma }
    }

    /// The rating after one puzzle of rating `puzzle`, solved or not: one Glicko-2 period of one
    /// result, the deviation kept from [`MIN_DEVIATION`] to the start's, the rating from 100
    /// to 4000.
    #[must_use]
    pub fn after_puzzle(self, puzzle: u16, solved: bool) -> Rating {
        let opponent =
            Rating { rating: f64::from(puzzle), deviation: PUZZLE_DEVIATION, volatility: 0.06 };
        let score = if solved { 1.0 } else { 0.0 };
        let next = self.updated_with(&[Outcome { opponent, score }], TAU);
        Rating {
            rating: next.rating.clamp(100.0, 4000.0),
            deviation: next.deviation.clamp(MIN_DEVIATION, START.deviation),
            volatility: next.volatility.clamp(0.01, 0.2),
        }
    }
}

/// The rating whose expected score (by the Elo logistic) over puzzles of `ratings` is `solved`:
/// a player's performance on a set. Clamped to 100 and 4000 when nothing or everything is
/// solved; `None` for no puzzle.
pub fn performance(ratings: &[u16], solved: f64) -> Option<f64> {
    if ratings.is_empty() {
        return None;
    }
    let expected = |r: f64| -> f64 {
        ratings.iter().map(|&p| 1.0 / (1.0 + 10f64.powf((f64::from(p) - r) / 400.0))).sum()
    };
    let (mut lo, mut hi) = (100.0_f64, 4000.0_f64);
    for _ in 0..60 {
        let mid = f64::midpoint(lo, hi);
        if expected(mid) < solved {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(f64::midpoint(lo, hi))
}

/// Step 5 of the paper: the new volatility, by the Illinois algorithm.
fn new_volatility(sigma: f64, phi: f64, v: f64, delta: f64, tau: f64) -> f64 {
    const EPSILON: f64 = 1e-6;
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < 1000.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    // The bracket halves at least every other step; 200 steps are far more than it needs.
    for _ in 0..200 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rating(rating: f64, deviation: f64) -> Rating {
        Rating { rating, deviation, volatility: 0.06 }
    }

    /// The worked example of Glickman's paper: 1500 (deviation 200) plays 1400 (30) and wins,
    /// 1550 (100) and loses, 1700 (300) and loses, with tau 0.5.
    #[test]
    fn the_papers_example_comes_out_as_printed() {
        let outcomes = [
            Outcome { opponent: rating(1400.0, 30.0), score: 1.0 },
            Outcome { opponent: rating(1550.0, 100.0), score: 0.0 },
            Outcome { opponent: rating(1700.0, 300.0), score: 0.0 },
        ];
        let next = rating(1500.0, 200.0).updated_with(&outcomes, 0.5);
        assert!((next.rating - 1464.06).abs() < 0.01, "{next:?}");
        assert!((next.deviation - 151.52).abs() < 0.01, "{next:?}");
        assert!((next.volatility - 0.05999).abs() < 0.00001, "{next:?}");
    }

    #[test]
    fn a_solved_puzzle_raises_and_a_failed_one_lowers() {
        let up = START.after_puzzle(1500, true);
        let down = START.after_puzzle(1500, false);
        assert!(up.rating > 1600.0 && down.rating < 1400.0, "{up:?} {down:?}");
        assert!(up.deviation < START.deviation);
        // Solving a far easier puzzle teaches little.
        let easy = START.after_puzzle(600, true);
        assert!(easy.rating - 1500.0 < (up.rating - 1500.0) / 4.0, "{easy:?}");
    }

    #[test]
    fn a_performance_of_half_is_the_puzzles_own_rating() {
        let r = performance(&[1400, 1600], 1.0).unwrap();
        assert!((r - 1500.0).abs() < 0.01, "{r}");
        assert!(performance(&[1500; 10], 9.0).unwrap() > 1800.0);
        assert!(performance(&[1500; 10], 0.0).unwrap() < 150.0);
        assert_eq!(performance(&[], 0.0), None);
    }

    proptest! {
        #[test]
        fn a_rating_stays_in_its_bounds_and_moves_the_right_way(
            results in proptest::collection::vec((0u16..3500, any::<bool>()), 1..60),
        ) {
            let mut r = START;
            for (puzzle, solved) in results {
                let next = r.after_puzzle(puzzle, solved);
                prop_assert!(next.rating.is_finite() && next.deviation.is_finite());
                prop_assert!((100.0..=4000.0).contains(&next.rating));
                prop_assert!((MIN_DEVIATION..=START.deviation).contains(&next.deviation));
                if solved {
                    prop_assert!(next.rating >= r.rating);
                } else {
                    prop_assert!(next.rating <= r.rating);
                }
                r = next;
            }
        }
    }
}
