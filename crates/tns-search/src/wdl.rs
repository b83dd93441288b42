//! A position's result for the side to move: the exact class ([`Wdl`]) and the chances of each
//! ([`Chances`]).

use std::fmt;

use tns_board::Side;

use crate::score::Score;

/// Win, draw or loss for the side to move, without the distance: what a solved position's
/// value is once its distance is dropped. Ordered from the side to move's view, so the best is
/// the greatest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// The side to move loses, however it defends.
    Loss = 0,
    /// Neither side can force a win.
    Draw = 1,
    /// The side to move wins, however the other side defends.
    Win = 2,
}

impl Wdl {
    /// Every class, worst first.
    pub const ALL: [Wdl; 3] = [Wdl::Loss, Wdl::Draw, Wdl::Win];

    /// The value one ply earlier, for the side that moved into this position.
    #[must_use]
    pub const fn before(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        })
    }
}

/// The chances that the side to move wins, draws and loses, in permille; they sum to 1,000.
///
/// A search reports them beside its score ([`Report::chances`](crate::Report::chances)): an
/// evaluator that knows how its scores turn out (a [`WdlModel`](crate::WdlModel) fitted on the
/// solved game, see [`Calibrated`](crate::Calibrated)) says them, and a forced result is
/// certain.
///
/// ```
/// use tns_search::{Chances, Wdl};
///
/// let c = Chances::from_probabilities(0.2, 0.05);
/// assert_eq!((c.win, c.draw, c.loss), (200, 750, 50));
/// assert_eq!(c.flipped(), Chances::from_probabilities(0.05, 0.2));
/// assert_eq!(c.likeliest(), Wdl::Draw);
/// assert_eq!(Chances::certain(Wdl::Win).win, 1000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chances {
    /// Permille that the side to move wins.
    pub win: u16,
    /// Permille of a draw.
    pub draw: u16,
    /// Permille that the side to move loses.
    pub loss: u16,
}

impl Chances {
    /// The chances of a result known for certain: 1,000 for it, 0 for the others.
    #[must_use]
    pub const fn certain(wdl: Wdl) -> Chances {
        match wdl {
            Wdl::Win => Chances { win: 1000, draw: 0, loss: 0 },
            Wdl::Draw => Chances { win: 0, draw: 1000, loss: 0 },
            Wdl::Loss => Chances { win: 0, draw: 0, loss: 1000 },
        }
    }

    /// From the probabilities of a win and of a loss (each clamped to [0, 1], a loss to what
    /// the win leaves), rounded to permille; the draw takes the rest, so the three sum to
    /// 1,000. A NaN counts as 0.
    #[must_use]
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "rounded and clamped to 0..=1000 first"
    )]
    pub fn from_probabilities(win: f64, loss: f64) -> Chances {
        let permille =
            |p: f64| if p.is_nan() { 0 } else { (p.clamp(0.0, 1.0) * 1000.0).round() as u16 };
        let win = permille(win);
        let loss = permille(loss).min(1000 - win);
        Chances { win, draw: 1000 - win - loss, loss }
    }

    /// The chances of a search score, when it is a forced win or loss (certain); `None` for
    /// other scores, which only an evaluator can read ([`Evaluator::chances`](crate::Evaluator::chances)).
    #[must_use]
    pub fn of_decisive(score: Score) -> Option<Chances> {
        if !score.is_decisive() {
            return None;
        }
        Some(Chances::certain(if score > Score::DRAW { Wdl::Win } else { Wdl::Loss }))
    }

    /// The same chances from the other side's view.
    #[must_use]
    pub const fn flipped(self) -> Chances {
        Chances { win: self.loss, draw: self.draw, loss: self.win }
    }

    /// The expected result in permille: the chance of a win less that of a loss, from -1,000 (a
    /// certain loss) to 1,000 (a certain win). What front ends show is this in ten-thousandths,
    /// [`Expected`](crate::Expected).
    #[must_use]
    pub const fn expected(self) -> i32 {
        self.win as i32 - self.loss as i32
    }

    /// The likeliest result (a draw where two are equally likely, else the win).
    #[must_use]
    pub fn likeliest(self) -> Wdl {
        if self.draw >= self.win && self.draw >= self.loss {
            Wdl::Draw
        } else if self.win >= self.loss {
            Wdl::Win
        } else {
            Wdl::Loss
        }
    }

    /// The Brier score of these chances against the result that came: the squared distance
    /// between them and certainty of that result, summed over win, draw and loss, from 0 (the
    /// result foretold for certain) to 2 (another result foretold for certain). Averaged over
    /// many readings, it says how well a player's chances foretell its games.
    ///
    /// ```
    /// use tns_search::{Chances, Wdl};
    ///
    /// assert_eq!(Chances::certain(Wdl::Draw).brier(Wdl::Draw), 0.0);
    /// assert_eq!(Chances::certain(Wdl::Win).brier(Wdl::Loss), 2.0);
    /// let even = Chances { win: 500, draw: 500, loss: 0 };
    /// assert!((even.brier(Wdl::Draw) - 0.5).abs() < 1e-12);
    /// ```
    #[must_use]
    pub fn brier(self, result: Wdl) -> f64 {
        let came = |wdl: Wdl| if wdl == result { 1.0 } else { 0.0 };
        [(self.win, Wdl::Win), (self.draw, Wdl::Draw), (self.loss, Wdl::Loss)]
            .into_iter()
            .map(|(permille, wdl)| (f64::from(permille) / 1000.0 - came(wdl)).powi(2))
            .sum()
    }

    /// The chances for people, from the sheep's end to the tigers' (as the game's score bar
    /// runs), in whole percent: `"Sheep 2% · Draw 78% · Tigers 20%"`, given the side to move
    /// whose view they are from.
    ///
    /// ```
    /// use tns_board::Side;
    /// use tns_search::Chances;
    ///
    /// let c = Chances::from_probabilities(0.2, 0.02);
    /// assert_eq!(c.describe(Side::Tiger), "Sheep 2% · Draw 78% · Tigers 20%");
    /// assert_eq!(c.describe(Side::Sheep), "Sheep 20% · Draw 78% · Tigers 2%");
    /// ```
    #[must_use]
    pub fn describe(self, side_to_move: Side) -> String {
        let (sheep, tigers) = match side_to_move {
            Side::Sheep => (self.win, self.loss),
            Side::Tiger => (self.loss, self.win),
        };
        let [sheep, draw, tigers] = whole_percents([sheep, self.draw, tigers]);
        format!("Sheep {sheep}% · Draw {draw}% · Tigers {tigers}%")
    }

    /// The chances in whole percent, summing to 100 (`"Sheep 1% · Draw 100% · Tigers 0%"`
    /// would not): each rounded down, then the points short given to the largest remainders.
    #[must_use]
    pub fn percents(self) -> [u16; 3] {
        whole_percents([self.win, self.draw, self.loss])
    }

    /// The chance of `wdl`, in permille.
    #[must_use]
    pub const fn of(self, wdl: Wdl) -> u16 {
        match wdl {
            Wdl::Win => self.win,
            Wdl::Draw => self.draw,
            Wdl::Loss => self.loss,
        }
    }
}

impl fmt::Display for Chances {
    /// `win W draw D loss L`, in permille.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "win {} draw {} loss {}", self.win, self.draw, self.loss)
    }
}

/// Three permille shares (summing to 1,000) in whole percent summing to 100: each rounded down,
/// then the points short given one each to the largest remainders (the first of equals).
fn whole_percents(permille: [u16; 3]) -> [u16; 3] {
    let mut out = permille.map(|p| p / 10);
    let short = 100u16.saturating_sub(out.iter().sum());
    let mut order = [0, 1, 2];
    order.sort_by_key(|&i| std::cmp::Reverse(permille[i] % 10));
    for &i in order.iter().take(usize::from(short)) {
        out[i] += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Eval, Score};
    use proptest::prelude::*;

    #[test]
    fn forced_results_are_certain() {
        assert_eq!(Chances::of_decisive(Score::win_in(3)), Some(Chances::certain(Wdl::Win)));
        assert_eq!(Chances::of_decisive(Score::loss_in(8)), Some(Chances::certain(Wdl::Loss)));
        assert_eq!(Chances::of_decisive(Score::from_eval(Eval::new(700))), None);
        for wdl in Wdl::ALL {
            assert_eq!(Chances::certain(wdl).of(wdl), 1000);
            assert_eq!(Chances::certain(wdl).likeliest(), wdl);
        }
    }

    proptest! {
        #[test]
        fn they_sum_to_a_thousand(win in -0.5f64..1.5, loss in -0.5f64..1.5) {
            let c = Chances::from_probabilities(win, loss);
            prop_assert_eq!(u32::from(c.win) + u32::from(c.draw) + u32::from(c.loss), 1000);
            prop_assert_eq!(c.flipped().flipped(), c);
            prop_assert_eq!(c.flipped().expected(), -c.expected());
        }
    }

    proptest::proptest! {
        #[test]
        fn whole_percents_sum_to_100_and_stay_within_a_point(win in 0u16..=1000, loss in 0u16..=1000) {
            let loss = loss.min(1000 - win);
            let chances = Chances { win, draw: 1000 - win - loss, loss };
            let percents = chances.percents();
            proptest::prop_assert_eq!(percents.iter().sum::<u16>(), 100);
            for (p, permille) in percents.iter().zip([chances.win, chances.draw, chances.loss]) {
                proptest::prop_assert!((i32::from(*p) * 10 - i32::from(permille)).abs() < 10);
            }
        }
    }
}
