//! Match statistics: the score, the draw ratio, the likelihood of superiority, the Elo
//! difference with its error bar (from single games, and from game pairs as pentanomial counts),
//! and the SPRT.

use std::fmt;

/// The score of a pair of games (its two results added, 0 to 2 in halves) as a share of
/// the pair's points, by the pentanomial's index.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Wins, draws and losses of one engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Adds one game scored 1 (win), 0.5 (draw) or 0 (loss).
    pub fn add(&mut self, points: Points) {
        match points {
            Points::Win => self.wins += 1,
            Points::Draw => self.draws += 1,
            Points::Loss => self.losses += 1,
        }
    }

    /// The other engine's tally.
    #[must_use]
    pub fn flipped(&self) -> Tally {
        Tally { wins: self.losses, draws: self.draws, losses: self.wins }
    }

    /// The mean score per game, in [0, 1]; `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n))
    }

    /// The variance of one game's score.
    fn variance(&self, mean: f64) -> f64 {
        let n = f64::from(self.games());
        (f64::from(self.wins) * (1.0 - mean).powi(2)
            + f64::from(self.draws) * (0.5 - mean).powi(2)
            + f64::from(self.losses) * mean.powi(2))
            / n
    }

    /// The Elo difference the score implies and the half-width of its 95% confidence interval,
    /// from the normal approximation of the mean score. `None` before any game. The difference
    /// is infinite when every game was won or every game lost.
    pub fn elo(&self) -> Option<EloEstimate> {
        let mean = self.score()?;
        Some(estimate(mean, self.variance(mean), f64::from(self.games())))
    }

    /// The share of games drawn; `None` before any game.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| f64::from(self.draws) / f64::from(n))
    }

    /// The likelihood of superiority: the probability that this engine is the stronger, from
    /// wins and losses alone (draws say nothing about it); `None` before a decisive game.
    pub fn los(&self) -> Option<f64> {
        let decisive = f64::from(self.wins + self.losses);
        (decisive > 0.0).then(|| {
            0.5 * (1.0
                + erf((f64::from(self.wins) - f64::from(self.losses)) / (2.0 * decisive).sqrt()))
        })
    }
}

/// One game's result for one engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Points {
    /// 1 point.
    Win,
    /// Half a point.
    Draw,
    /// No point.
    Loss,
}

impl Points {
    /// The result in half points: 2, 1 or 0.
    pub fn half_points(self) -> u8 {
        match self {
            Points::Win => 2,
            Points::Draw => 1,
            Points::Loss => 0,
        }
    }
}

/// An Elo difference and its 95% error bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The estimated difference.
    pub elo: f64,
    /// Half the width of the 95% confidence interval (infinite when it is unbounded).
    pub error: f64,
}

impl fmt::Display for EloEstimate {
    /// `+12.3 +/- 45.6`; where the sample cannot give a figure (every game won, every result
    /// the same, or an interval that reaches a score of 0 or 1, where the Elo scale has no
    /// end), it says so instead of printing an infinity, a NaN or a zero error.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // (Adding 0.0 turns -0.0 into 0.0, so an even score prints as +0.0.)
        let elo = self.elo + 0.0;
        if !self.elo.is_finite() {
            let who = if self.elo > 0.0 { "won" } else { "lost" };
            write!(f, "not measurable yet: every game {who}, too small a sample to bound it")
        } else if self.error == 0.0 {
            write!(f, "{elo:+.1}, error unknown: every result the same, too small a sample")
        } else if !self.error.is_finite() {
            write!(f, "{elo:+.1}, error unbounded: too small a sample to bound it")
        } else {
            write!(f, "{elo:+.1} +/- {:.1}", self.error)
        }
    }
}

/// The Elo difference and its 95% error from the mean and variance of `n` independent scores
/// in [0, 1].
fn estimate(mean: f64, variance: f64, n: f64) -> EloEstimate {
    let margin = 1.959_964 * (variance / n).sqrt();
    let elo = elo_of_score(mean);
    // An interval that reaches a score of 0 or 1 has no end on the Elo scale: unbounded, never
    // a difference of two infinities.
    let (low, high) = (elo_of_score(mean - margin), elo_of_score(mean + margin));
    let error = if elo.is_finite() && low.is_finite() && high.is_finite() {
        (high - low) / 2.0
    } else {
        f64::INFINITY
    };
    EloEstimate { elo, error }
}

/// The error function, to 1.2e-7 (Numerical Recipes' `erfc` by Chebyshev fitting).
fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

/// Results over pairs of games that share an opening with colours swapped: how many pairs
/// scored 0, ½, 1, 1½ and 2 points for one engine. Pairs cancel most of the openings' bias, so
/// their spread gives an honester error bar than single games do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// `counts[k]`: pairs that scored `k` half-points (0 = lost both, 4 = won both).
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Counts one pair.
    pub fn add(&mut self, first: Points, second: Points) {
        self.counts[usize::from(first.half_points() + second.half_points())] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The Elo difference from the pairs, with the 95% error of their spread; `None` before
    /// any pair.
    pub fn elo(&self) -> Option<EloEstimate> {
        let n = f64::from(self.pairs());
        if n == 0.0 {
            return None;
        }
        let score = |k: usize| PAIR_SCORES[k];
        let mean = (0..5).map(|k| f64::from(self.counts[k]) * score(k)).sum::<f64>() / n;
        let variance =
            (0..5).map(|k| f64::from(self.counts[k]) * (score(k) - mean).powi(2)).sum::<f64>() / n;
        Some(estimate(mean, variance, n))
    }
}

impl fmt::Display for Pentanomial {
    /// `[3, 10, 40, 12, 5]`, from both lost to both won.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.counts;
        write!(f, "[{}, {}, {}, {}, {}]", c[0], c[1], c[2], c[3], c[4])
    }
}

/// The Elo difference at which the stronger side expects `score` per game: positive for a score
/// above one half, infinite at 0 and 1.
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score at an Elo difference of `elo`.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A sequential probability ratio test between H0: the Elo difference is `elo0`, and H1: it is
/// `elo1`, with error rates `alpha` (accepting H1 when H0 holds) and `beta` (the reverse).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// The false positive rate.
    pub alpha: f64,
    /// The false negative rate.
    pub beta: f64,
}

/// What the SPRT has decided so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Not enough evidence yet.
    Continue,
    /// H0 accepted: the difference is `elo0` or less.
    H0,
    /// H1 accepted: the difference is `elo1` or more.
    H1,
}

impl Sprt {
    /// The log-likelihood ratio of H1 against H0 after `tally`, in the normal approximation
    /// (the generalised SPRT that fishtest and cutechess use): `n (s1 - s0) (2 s - s0 - s1) /
    /// (2 var)` where `s` is the mean score, `var` one game's variance and `s0`, `s1` the scores
    /// the two hypotheses expect. Half a game of each result is added to the counts first, so
    /// that a one-sided run (every game won) has a variance above zero and still counts as
    /// evidence.
    pub fn llr(&self, tally: &Tally) -> f64 {
        let regularised = [tally.wins, tally.draws, tally.losses].map(|c| f64::from(c) + 0.5);
        let [w, d, l] = regularised;
        let n = w + d + l;
        let mean = (w + 0.5 * d) / n;
        let var = (w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * mean.powi(2)) / n;
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The log-likelihood ratio of H1 against H0 over pairs of games (the pentanomial counts),
    /// as fastchess computes it: the same normal approximation as [`Sprt::llr`], over pair
    /// scores (0, ¼, ½, ¾, 1 a game) with the pairs' own variance, which pairs that split by
    /// colour make much smaller than single games'. A quarter of a pair of each kind is added
    /// first, for the reason given there.
    pub fn llr_pairs(&self, pairs: &Pentanomial) -> f64 {
        let counts = pairs.counts.map(|c| f64::from(c) + 0.25);
        let n: f64 = counts.iter().sum();
        let score = |k: usize| PAIR_SCORES[k];
        let mean = (0..5).map(|k| counts[k] * score(k)).sum::<f64>() / n;
        let var = (0..5).map(|k| counts[k] * (score(k) - mean).powi(2)).sum::<f64>() / n;
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The decision for a log-likelihood ratio.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::H1
        } else if llr <= lower {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }

    /// The bounds the ratio is compared with: H0 is accepted at or below the first, H1 at or
    /// above the second.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The decision after `tally`.
    pub fn verdict(&self, tally: &Tally) -> SprtDecision {
        self.decide(self.llr(tally))
    }

    /// The decision after `pairs`.
    pub fn verdict_pairs(&self, pairs: &Pentanomial) -> SprtDecision {
        self.decide(self.llr_pairs(pairs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally { wins, draws, losses }
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(elo_of_score(0.5).abs() < 1e-9);
        // 10 to 1 odds is 400 Elo.
        assert!((elo_of_score(10.0 / 11.0) - 400.0).abs() < 1e-9);
        assert!((elo_of_score(0.75) - 190.848).abs() < 1e-3);
        assert!(elo_of_score(1.0).is_infinite() && elo_of_score(0.0) < 0.0);
        for elo in [-300.0, -20.0, 0.0, 55.5, 800.0] {
            assert!((elo_of_score(score_of_elo(elo)) - elo).abs() < 1e-9);
        }
    }

    #[test]
    fn error_bar_shrinks_with_games() {
        let small = tally(30, 40, 30).elo().unwrap();
        let large = tally(300, 400, 300).elo().unwrap();
        assert!(small.elo.abs() < 1e-9 && large.elo.abs() < 1e-9);
        // Ten times the games, about a third of the error.
        let ratio = small.error / large.error;
        assert!((ratio - 10f64.sqrt()).abs() < 0.1, "{ratio}");
        // 100 games, variance 0.15 a game: standard error 0.0387, so the score is 0.5 +/- 0.076
        // and the Elo 0 +/- 53.
        assert!((small.error - 53.2).abs() < 0.5, "{}", small.error);
        let sweep = tally(3, 0, 0).elo().unwrap();
        assert!(sweep.elo.is_infinite() && sweep.error.is_infinite());
        // No "+inf +/- inf" or "+/- 0.0" for people: the sample is said to be too small.
        assert!(sweep.to_string().starts_with("not measurable yet: every game won"), "{sweep}");
        let draws = tally(0, 4, 0).elo().unwrap().to_string();
        assert!(draws.contains("error unknown") && !draws.contains("+/-"), "{draws}");
        assert_eq!(small.to_string(), "+0.0 +/- 53.2");
        assert_eq!(Tally::default().elo(), None);
    }

    #[test]
    fn a_small_sample_whose_interval_reaches_a_sweep_is_unbounded_not_all_the_same() {
        // Two wins, a draw and a loss: the interval runs past a score of 1.
        let mixed = tally(2, 1, 1).elo().unwrap();
        assert!(mixed.error.is_infinite(), "{mixed:?}");
        assert_eq!(mixed.to_string(), "+88.7, error unbounded: too small a sample to bound it");
        let mut pairs = Pentanomial::default();
        pairs.add(Points::Win, Points::Loss);
        pairs.add(Points::Win, Points::Win);
        let text = pairs.elo().unwrap().to_string();
        assert!(text.contains("error unbounded") && !text.contains("same"), "{text}");
    }

    proptest::proptest! {
        /// Every tally and every set of pairs reads as a number with its error, or says in
        /// words why it has none; "every result the same" only when that is so.
        #[test]
        fn every_sample_reads_plainly(w in 0u32..40, d in 0u32..40, l in 0u32..40,
                                      counts in proptest::array::uniform5(0u32..12)) {
            let t = tally(w, d, l);
            let pairs = Pentanomial { counts };
            let all_same = |counts: &[u32]| counts.iter().filter(|&&c| c > 0).count() == 1;
            for (estimate, same) in [
                (t.elo(), all_same(&[w, d, l])),
                (pairs.elo(), all_same(&counts)),
            ] {
                let Some(estimate) = estimate else { continue };
                proptest::prop_assert!(!estimate.error.is_nan(), "{estimate:?}");
                let text = estimate.to_string();
                proptest::prop_assert!(!text.contains("NaN") && !text.contains("inf"), "{text}");
                proptest::prop_assert_eq!(text.contains("every result the same"),
                    same && estimate.elo.is_finite(), "{}", text);
            }
        }
    }

    #[test]
    fn sprt_accepts_the_right_hypothesis() {
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        let (lower, upper) = sprt.bounds();
        assert!((upper - 2.944).abs() < 1e-3 && (lower + 2.944).abs() < 1e-3);
        assert_eq!(sprt.verdict(&tally(0, 0, 0)), SprtDecision::Continue);
        assert_eq!(sprt.verdict(&tally(10, 0, 9)), SprtDecision::Continue);
        // A clearly stronger engine: H1.
        assert_eq!(sprt.verdict(&tally(600, 200, 400)), SprtDecision::H1);
        // A clearly weaker one: H0.
        assert_eq!(sprt.verdict(&tally(400, 200, 600)), SprtDecision::H0);
        // A sweep is evidence too.
        assert_eq!(sprt.verdict(&tally(40, 0, 0)), SprtDecision::H1);
        assert_eq!(sprt.verdict(&tally(0, 0, 40)), SprtDecision::H0);
        // The ratio grows with the evidence.
        assert!(sprt.llr(&tally(60, 20, 40)) < sprt.llr(&tally(120, 40, 80)));
    }

    #[test]
    fn the_pentanomial_sprt_weighs_pairs() {
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        assert_eq!(sprt.verdict_pairs(&Pentanomial::default()), SprtDecision::Continue);
        // A clearly stronger engine: H1; weaker: H0.
        assert_eq!(
            sprt.verdict_pairs(&Pentanomial { counts: [10, 60, 200, 100, 30] }),
            SprtDecision::H1
        );
        assert_eq!(
            sprt.verdict_pairs(&Pentanomial { counts: [30, 100, 200, 60, 10] }),
            SprtDecision::H0
        );
        // The same games, paired so that they split by colour, are stronger evidence than the
        // same results as single games: the pairs' variance is smaller.
        // 150 pairs split win-loss and 50 win-draw: as single games, 200 wins, 50 draws and 150
        // losses.
        let pairs = Pentanomial { counts: [0, 0, 150, 50, 0] };
        let singles = tally(200, 50, 150);
        assert!(sprt.llr_pairs(&pairs) > 2.0 * sprt.llr(&singles), "{}", sprt.llr(&singles));
        // More of the same evidence, a larger ratio.
        let small = Pentanomial { counts: [5, 20, 50, 30, 10] };
        let large = Pentanomial { counts: [10, 40, 100, 60, 20] };
        assert!(sprt.llr_pairs(&small) < sprt.llr_pairs(&large));
    }

    #[test]
    fn los_and_draw_ratio() {
        assert_eq!(tally(0, 5, 0).los(), None);
        assert!((tally(10, 3, 10).los().unwrap() - 0.5).abs() < 1e-7);
        // 60 wins, 40 losses: (W - L) / sqrt(W + L) = 2 standard deviations, LOS = Phi(2).
        assert!((tally(60, 7, 40).los().unwrap() - 0.977_25).abs() < 1e-5);
        assert!(tally(0, 0, 9).los().unwrap() < 0.01);
        assert!((tally(1, 2, 1).draw_ratio().unwrap() - 0.5).abs() < 1e-12);
        assert!((erf(1.0) - 0.842_700_79).abs() < 2e-7 && (erf(-0.5) + 0.520_499_88).abs() < 2e-7);
    }

    #[test]
    fn pentanomial_counts_pairs_and_its_error_is_narrower_when_pairs_split() {
        let mut p = Pentanomial::default();
        assert_eq!(p.elo(), None);
        p.add(Points::Win, Points::Loss);
        p.add(Points::Draw, Points::Draw);
        p.add(Points::Win, Points::Win);
        p.add(Points::Loss, Points::Draw);
        assert_eq!(p.counts, [0, 1, 2, 0, 1]);
        assert_eq!(p.pairs(), 4);
        assert_eq!(p.to_string(), "[0, 1, 2, 0, 1]");
        // Equal engines whose games always split by colour: every pair scores 1 of 2, so the
        // pairs show no spread at all, where single games (all decisive) show the most.
        let split = Pentanomial { counts: [0, 0, 100, 0, 0] };
        assert!(split.elo().unwrap().error == 0.0);
        let singles = tally(100, 0, 100).elo().unwrap();
        assert!(singles.error > 40.0, "{singles}");
        // The same games paired at random instead: a real spread, about the singles' size.
        let mixed = Pentanomial { counts: [25, 0, 50, 0, 25] };
        let e = mixed.elo().unwrap();
        assert!(e.elo.abs() < 1e-9 && (e.error - singles.error).abs() < 5.0, "{e} vs {singles}");
    }

    #[test]
    fn flipped_tally_mirrors_the_score() {
        let t = tally(7, 2, 3);
        assert_eq!(t.flipped().flipped(), t);
        assert!((t.score().unwrap() + t.flipped().score().unwrap() - 1.0).abs() < 1e-12);
    }
}
