//! Fitting a [`WdlModel`] to positions whose results are known: maximum likelihood, class by
//! class, each drawn towards the fit of all classes together where it has few positions.

use std::collections::BTreeMap;

use tns_board::Board;

use crate::eval::Eval;
use crate::score::Score;
use crate::wdl::Wdl;
use crate::wdl_model::{CLASSES, Logistic, Reading, WdlModel, class_of};

/// A position for [`WdlModel::fit`]: a score of it and its exact result, both from the side to
/// move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WdlSample {
    /// The position.
    pub board: Board,
    /// The evaluator's evaluation ([`Score::from_eval`]), or a search's score of it, which the
    /// model reads on the evaluator's scale ([`Score::as_eval`]: a forced result as an
    /// evaluation past every other).
    pub score: Score,
    /// The exact result (a solved game's).
    pub result: Wdl,
}

/// Scores and how many positions of each result (loss, draw, win) have them: one class's data.
type Counts = BTreeMap<Eval, [f64; 3]>;

/// One boundary of a class (the win's or the loss's) as the optimiser moves it: `ln slope` and
/// the threshold, so every point is a valid logistic with a positive slope.
#[derive(Clone, Copy, Debug)]
struct Boundary([f64; 2]);

/// Which boundary: `P(win) = σ(slope·x − at)`, or `P(loss) = σ(at − slope·x)`, which is the
/// same as `σ(slope·(−x) − (−at))`: the loss's boundary is the win's of the negated score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Win,
    Loss,
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The mean log-likelihood of `counts` having `side`'s result or not under `b`, less the
/// prior's pull towards its centre, and the gradient.
#[expect(clippy::many_single_char_names, reason = "the formulas' own names")]
fn objective(
    counts: &Counts,
    reading: Reading,
    side: Side,
    b: Boundary,
    prior: Option<(Boundary, f64)>,
) -> [f64; 2] {
    let slope = b.0[0].exp();
    let (mut grad, mut total) = ([0.0; 2], 0.0);
    for (&score, n) in counts {
        let (x, hit) = match side {
            Side::Win => (reading.x(score), n[2]),
            Side::Loss => (-reading.x(score), n[0]),
        };
        let at = match side {
            Side::Win => b.0[1],
            Side::Loss => -b.0[1],
        };
        let w: f64 = n.iter().sum();
        let p = sigmoid(slope * x - at);
        // d/dz of hit·ln p + (w − hit)·ln(1 − p), z = slope·x − at.
        let d = hit - w * p;
        total += w;
        grad[0] += d * slope * x;
        grad[1] += match side {
            Side::Win => -d,
            Side::Loss => d,
        };
    }
    let total = total.max(1.0);
    let mut grad = grad.map(|g| g / total);
    if let Some((centre, weight)) = prior {
        for (g, (v, c)) in grad.iter_mut().zip(b.0.iter().zip(centre.0)) {
            *g -= weight * (v - c);
        }
    }
    grad
}

/// Gradient ascent with Adam's steps from `start`.
fn maximise(
    counts: &Counts,
    reading: Reading,
    side: Side,
    start: Boundary,
    prior: Option<(Boundary, f64)>,
) -> Boundary {
    const STEPS: usize = 3000;
    const RATE: f64 = 0.02;
    let (mut m, mut v) = ([0.0; 2], [0.0; 2]);
    let mut b = start;
    for step in 1..=STEPS {
        let grad = objective(counts, reading, side, b, prior);
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_possible_wrap,
            reason = "a step count, at most 3,000"
        )]
        let (c1, c2) = (1.0 - 0.9f64.powi(step as i32), 1.0 - 0.999f64.powi(step as i32));
        for i in 0..2 {
            m[i] = 0.9 * m[i] + 0.1 * grad[i];
            v[i] = 0.999 * v[i] + 0.001 * grad[i] * grad[i];
            b.0[i] += RATE * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-9);
        }
    }
    b
}

/// Fits one boundary over every class: all together, then each side to move drawn towards
/// that, then each class towards its side's, each as if it had `prior` positions more.
fn fit_boundary(
    all: &Counts,
    sides: &[Counts; 2],
    classes: &[Counts],
    reading: Reading,
    prior: f64,
    side: Side,
    start: Boundary,
) -> Vec<Boundary> {
    let drawn_to = |counts: &Counts, centre: Boundary| -> Boundary {
        let n: f64 = counts.values().flatten().sum();
        if n > 0.0 {
            maximise(counts, reading, side, centre, Some((centre, prior / n)))
        } else {
            centre
        }
    };
    let common = maximise(all, reading, side, start, None);
    let by_side = [drawn_to(&sides[0], common), drawn_to(&sides[1], common)];
    classes.iter().enumerate().map(|(c, counts)| drawn_to(counts, by_side[c % 2])).collect()
}

impl WdlModel {
    /// The model that makes `samples`' results likeliest, for scores read as `reading`: each
    /// boundary (win or not, loss or not) by maximum likelihood, first for every class
    /// together, then for each side to move drawn towards that, then for each class drawn
    /// towards its side's, each as if it had `prior` positions more of the shape it is drawn
    /// to. So a class with few positions keeps close to its side's shape, and one with none is
    /// it.
    ///
    /// ```
    /// use tns_board::Board;
    /// use tns_search::{Eval, Reading, Score, Wdl, WdlModel, WdlSample};
    ///
    /// // Scores above 300 win, below -300 lose, the rest draw.
    /// let samples: Vec<WdlSample> = (-1000..=1000)
    ///     .step_by(10)
    ///     .map(|score| {
    ///         let result = if score > 300 { Wdl::Win } else if score < -300 { Wdl::Loss } else { Wdl::Draw };
    ///         WdlSample { board: Board::START, score: Score::from_eval(Eval::new(score)), result }
    ///     })
    ///     .collect();
    /// let model = WdlModel::fit(&samples, Reading::linear(1000.0), 10.0);
    /// assert!(model.chances(Eval::new(0), Board::START).draw > 990);
    /// assert!(model.chances(Eval::new(800), Board::START).win > 990);
    /// ```
    #[must_use]
    pub fn fit(samples: &[WdlSample], reading: Reading, prior: f64) -> WdlModel {
        let mut all = Counts::new();
        let mut sides = [Counts::new(), Counts::new()];
        let mut classes: Vec<Counts> = vec![Counts::new(); CLASSES];
        for s in samples {
            let (k, class) = (s.result as usize, class_of(s.board));
            let eval = s.score.as_eval();
            all.entry(eval).or_default()[k] += 1.0;
            sides[class % 2].entry(eval).or_default()[k] += 1.0;
            classes[class].entry(eval).or_default()[k] += 1.0;
        }
        let n = Logistic::NEUTRAL;
        let wins = fit_boundary(
            &all,
            &sides,
            &classes,
            reading,
            prior,
            Side::Win,
            Boundary([n.win_slope.ln(), n.win_at]),
        );
        let losses = fit_boundary(
            &all,
            &sides,
            &classes,
            reading,
            prior,
            Side::Loss,
            Boundary([n.loss_slope.ln(), n.loss_at]),
        );
        let mut fitted = [Logistic::NEUTRAL; CLASSES];
        for (c, (w, l)) in wins.iter().zip(&losses).enumerate() {
            fitted[c] = Logistic {
                win_slope: w.0[0].exp(),
                win_at: w.0[1],
                loss_slope: l.0[0].exp(),
                loss_at: l.0[1],
            };
        }
        WdlModel::new(reading, fitted).unwrap_or_else(|_| WdlModel::neutral(reading))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small xorshift generator: the test needs uniform numbers, not a dependency.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            #[expect(clippy::cast_precision_loss, reason = "53 bits")]
            let u = (self.0 >> 11) as f64 / (1u64 << 53) as f64;
            u
        }
    }

    /// Samples drawn from a known logistic are fitted back to it.
    #[test]
    fn a_known_model_is_recovered() {
        let truth = Logistic { win_slope: 4.0, win_at: 1.5, loss_slope: 6.0, loss_at: -2.0 };
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let samples: Vec<WdlSample> = (0..20_000)
            .map(|_| {
                #[expect(clippy::cast_possible_truncation, reason = "within ±1000")]
                let score = (rng.next() * 2000.0 - 1000.0).round() as i32;
                let (win, loss) = truth.win_loss(f64::from(score) / 1000.0);
                let u = rng.next();
                let result = if u < loss {
                    Wdl::Loss
                } else if u < 1.0 - win {
                    Wdl::Draw
                } else {
                    Wdl::Win
                };
                WdlSample { board: Board::START, score: Score::from_eval(Eval::new(score)), result }
            })
            .collect();
        let got = WdlModel::fit(&samples, Reading::linear(1000.0), 1.0).logistic(Board::START);
        assert!((got.win_slope - 4.0).abs() < 0.4, "{got:?}");
        assert!((got.win_at - 1.5).abs() < 0.2, "{got:?}");
        assert!((got.loss_slope - 6.0).abs() < 0.6, "{got:?}");
        assert!((got.loss_at + 2.0).abs() < 0.2, "{got:?}");
    }
}
