//! Fitting a [`WdlModel`] to positions whose results are known: maximum likelihood, class by
//! class, each drawn towards the fit of all classes together where it has few positions.

use std::collections::BTreeMap;

use tns_board::Board;

use crate::wdl::Wdl;
use crate::wdl_model::{CLASSES, Logistic, WdlModel, class_of};

/// A position for [`WdlModel::fit`]: the evaluator's score of it and its exact result, both
/// from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WdlSample {
    /// The position.
    pub board: Board,
    /// The evaluator's score.
    pub score: i32,
    /// The exact result (a solved game's).
    pub result: Wdl,
}

/// Scores and how many positions of each result have them: the data of one class.
type Counts = BTreeMap<i32, [f64; 3]>;

/// The parameters the optimiser moves: `ln slope`, `loss_at` and `ln(draw_at − loss_at)`, so
/// every point is a valid logistic.
#[derive(Clone, Copy, Debug)]
struct Free([f64; 3]);

impl Free {
    fn of(l: Logistic) -> Free {
        Free([l.slope.ln(), l.loss_at, (l.draw_at - l.loss_at).ln()])
    }

    fn logistic(self) -> Logistic {
        let [b, loss_at, g] = self.0;
        Logistic { slope: b.exp(), loss_at, draw_at: loss_at + g.exp() }
    }
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The mean log-likelihood of `counts` under `free`, less `prior`'s pull, and its gradient.
#[expect(clippy::many_single_char_names, reason = "the formulas' own names: x, t, l, n, w")]
fn objective(
    counts: &Counts,
    scale: f64,
    free: Free,
    prior: Option<(Free, f64)>,
) -> (f64, [f64; 3]) {
    let l = free.logistic();
    let gap = free.0[2].exp();
    let (mut value, mut grad, mut total) = (0.0, [0.0; 3], 0.0);
    for (&score, n) in counts {
        let x = f64::from(score) / scale;
        let t = l.slope * x;
        let p1 = sigmoid(l.loss_at - t);
        let p2 = sigmoid(l.draw_at - t);
        // d/d loss_at, d/d draw_at and d/dt of each result's log-probability.
        let terms = [
            (p1.max(1e-300).ln(), 1.0 - p1, 0.0, -(1.0 - p1)),
            {
                let d = (p2 - p1).max(1e-12);
                let (a, b) = (p1 * (1.0 - p1), p2 * (1.0 - p2));
                (d.ln(), -a / d, b / d, (a - b) / d)
            },
            ((1.0 - p2).max(1e-300).ln(), 0.0, -p2, p2),
        ];
        for (k, &(ll, d_loss, d_draw, d_t)) in terms.iter().enumerate() {
            let w = n[k];
            if w == 0.0 {
                continue;
            }
            total += w;
            value += w * ll;
            grad[0] += w * d_t * t;
            grad[1] += w * (d_loss + d_draw);
            grad[2] += w * d_draw * gap;
        }
    }
    let total = total.max(1.0);
    let mut grad = grad.map(|g| g / total);
    let mut value = value / total;
    if let Some((centre, weight)) = prior {
        for i in 0..3 {
            let d = free.0[i] - centre.0[i];
            value -= weight * d * d / 2.0;
            grad[i] -= weight * d;
        }
    }
    (value, grad)
}

/// Gradient ascent with Adam's steps from `start`.
fn maximise(counts: &Counts, scale: f64, start: Free, prior: Option<(Free, f64)>) -> Free {
    const STEPS: usize = 3000;
    const RATE: f64 = 0.02;
    let (mut m, mut v) = ([0.0; 3], [0.0; 3]);
    let mut free = start;
    for step in 1..=STEPS {
        let (_, grad) = objective(counts, scale, free, prior);
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_possible_wrap,
            reason = "a step count, at most 3,000"
        )]
        let (c1, c2) = (1.0 - 0.9f64.powi(step as i32), 1.0 - 0.999f64.powi(step as i32));
        for i in 0..3 {
            m[i] = 0.9 * m[i] + 0.1 * grad[i];
            v[i] = 0.999 * v[i] + 0.001 * grad[i] * grad[i];
            free.0[i] += RATE * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-9);
        }
    }
    free
}

impl WdlModel {
    /// The model that makes `samples`' results likeliest, for scores in units of `scale`:
    /// first one logistic for every class together, then one for each side to move drawn
    /// towards it, then each class's own drawn towards its side's, each as if it had `prior`
    /// positions more of the shape it is drawn to. So a class with few positions keeps close
    /// to its side's shape, and one with none is it.
    ///
    /// ```
    /// use tns_board::Board;
    /// use tns_search::{Wdl, WdlModel, WdlSample};
    ///
    /// // Scores above 300 win, below -300 lose, the rest draw.
    /// let samples: Vec<WdlSample> = (-1000..=1000)
    ///     .step_by(10)
    ///     .map(|score| {
    ///         let result = if score > 300 { Wdl::Win } else if score < -300 { Wdl::Loss } else { Wdl::Draw };
    ///         WdlSample { board: Board::START, score, result }
    ///     })
    ///     .collect();
    /// let model = WdlModel::fit(&samples, 1000.0, 10.0);
    /// assert!(model.chances(0, Board::START).draw > 990);
    /// assert!(model.chances(800, Board::START).win > 990);
    /// ```
    #[must_use]
    pub fn fit(samples: &[WdlSample], scale: f64, prior: f64) -> WdlModel {
        let mut all = Counts::new();
        let mut sides = [Counts::new(), Counts::new()];
        let mut classes: Vec<Counts> = vec![Counts::new(); CLASSES];
        for s in samples {
            let (k, class) = (s.result as usize, class_of(s.board));
            all.entry(s.score).or_default()[k] += 1.0;
            sides[class % 2].entry(s.score).or_default()[k] += 1.0;
            classes[class].entry(s.score).or_default()[k] += 1.0;
        }
        let drawn_to = |counts: &Counts, centre: Free| -> Free {
            let n: f64 = counts.values().flatten().sum();
            if n > 0.0 {
                maximise(counts, scale, centre, Some((centre, prior / n)))
            } else {
                centre
            }
        };
        let common = maximise(&all, scale, Free::of(Logistic::NEUTRAL), None);
        let sides = [drawn_to(&sides[0], common), drawn_to(&sides[1], common)];
        let mut fitted = [Logistic::NEUTRAL; CLASSES];
        for (c, counts) in classes.iter().enumerate() {
            fitted[c] = drawn_to(counts, sides[c % 2]).logistic();
        }
        WdlModel::new(scale, fitted).unwrap_or_else(|_| WdlModel::neutral(scale))
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
        let truth = Logistic { slope: 4.0, loss_at: -2.0, draw_at: 1.5 };
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
                WdlSample { board: Board::START, score, result }
            })
            .collect();
        let got = WdlModel::fit(&samples, 1000.0, 1.0).logistic(Board::START);
        assert!((got.slope - 4.0).abs() < 0.3, "{got:?}");
        assert!((got.loss_at + 2.0).abs() < 0.2, "{got:?}");
        assert!((got.draw_at - 1.5).abs() < 0.2, "{got:?}");
    }
}
