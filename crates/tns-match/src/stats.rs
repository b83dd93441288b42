//! Match statistics: the score, the Elo difference with its error bar, and the SPRT.

use std::fmt;

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
        let n = f64::from(self.games());
        let margin = 1.959_964 * (self.variance(mean) / n).sqrt();
        let low = elo_of_score(mean - margin);
        let high = elo_of_score(mean + margin);
        let elo = elo_of_score(mean);
        let error = if elo.is_finite() { (high - low) / 2.0 } else { f64::INFINITY };
        Some(EloEstimate { elo, error })
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

/// An Elo difference and its 95% error bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The estimated difference.
    pub elo: f64,
    /// Half the width of the 95% confidence interval (infinite when it is unbounded).
    pub error: f64,
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:+.1} +/- {:.1}", self.elo, self.error)
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
pub enum Verdict {
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

    /// The bounds the ratio is compared with: H0 is accepted at or below the first, H1 at or
    /// above the second.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The decision after `tally`.
    pub fn verdict(&self, tally: &Tally) -> Verdict {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
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
        assert_eq!(sweep.to_string(), "+inf +/- inf");
        assert_eq!(Tally::default().elo(), None);
    }

    #[test]
    fn sprt_accepts_the_right_hypothesis() {
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        let (lower, upper) = sprt.bounds();
        assert!((upper - 2.944).abs() < 1e-3 && (lower + 2.944).abs() < 1e-3);
        assert_eq!(sprt.verdict(&tally(0, 0, 0)), Verdict::Continue);
        assert_eq!(sprt.verdict(&tally(10, 0, 9)), Verdict::Continue);
        // A clearly stronger engine: H1.
        assert_eq!(sprt.verdict(&tally(600, 200, 400)), Verdict::H1);
        // A clearly weaker one: H0.
        assert_eq!(sprt.verdict(&tally(400, 200, 600)), Verdict::H0);
        // A sweep is evidence too.
        assert_eq!(sprt.verdict(&tally(40, 0, 0)), Verdict::H1);
        assert_eq!(sprt.verdict(&tally(0, 0, 40)), Verdict::H0);
        // The ratio grows with the evidence.
        assert!(sprt.llr(&tally(60, 20, 40)) < sprt.llr(&tally(120, 40, 80)));
    }

    #[test]
    fn flipped_tally_mirrors_the_score() {
        let t = tally(7, 2, 3);
        assert_eq!(t.flipped().flipped(), t);
        assert!((t.score().unwrap() + t.flipped().score().unwrap() - 1.0).abs() < 1e-12);
    }
}
