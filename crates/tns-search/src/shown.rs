//! The one unit every front end shows: the expected result, or a forced end.

use std::fmt;
use std::ops::Neg;

use tns_board::Side;

use crate::score::Score;
use crate::wdl::Chances;

/// The expected result for the side to move, the chance of a win less that of a loss, in
/// ten-thousandths of a certain win: from `-10,000` (a certain loss) to [`CERTAIN_WIN`]
/// (`10,000`).
///
/// The number every front end prints for a search that found no forced end: the engine
/// protocol's `info score cp`, the web API's `score`, the game's and the bench's score. It is
/// read from the chances ([`Expected::of`]), so it means the same whatever scale the evaluator
/// searched on. Ten-thousandths (not the chances' permille) so that a
/// [`Calibrated`](crate::Calibrated) evaluator, which searches on this scale, tells apart every
/// two evaluations its raw scores do.
///
/// `Display` prints the bare number, as the protocol and the API send it.
///
/// [`CERTAIN_WIN`]: Expected::CERTAIN_WIN
///
/// ```
/// use tns_search::{Chances, Expected};
///
/// let chances = Chances { win: 30, draw: 950, loss: 20 };
/// assert_eq!(Expected::of(chances).to_string(), "100", "1% better than even");
/// assert_eq!(Expected::CERTAIN_WIN.get(), 10_000);
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Expected(i32);

impl Expected {
    /// A certain win.
    pub const CERTAIN_WIN: Expected = Expected(10_000);

    /// The expected result of `chances`.
    pub const fn of(chances: Chances) -> Expected {
        // Permille to ten-thousandths.
        Expected(chances.expected() * 10)
    }

    /// An expected result of `ten_thousandths` of a certain win.
    pub const fn new(ten_thousandths: i32) -> Expected {
        Expected(ten_thousandths)
    }

    /// The number, in ten-thousandths of a certain win.
    pub const fn get(self) -> i32 {
        self.0
    }
}

impl Neg for Expected {
    type Output = Expected;

    /// The expected result for the other side.
    fn neg(self) -> Expected {
        Expected(-self.0)
    }
}

impl fmt::Display for Expected {
    /// The number of ten-thousandths, as the engine protocol and the web API send it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// A search's score as people are shown it ([`Score::shown`]): a forced end as the search
/// found it, else the [`Expected`] result its chances give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShownScore {
    /// A forced win or loss ([`Score::is_decisive`]).
    Forced(Score),
    /// No forced end found: the expected result.
    Expected(Expected),
}

impl Score {
    /// This score in the one unit every front end shows: a forced end as the search found it,
    /// else the expected result that `chances` (the evaluator's reading of this score) give.
    /// Whatever scale the evaluator searched on (the heuristic's, the raw network's, a
    /// calibrated one), the number means the same.
    ///
    /// ```
    /// use tns_search::{Chances, Eval, Expected, Score, ShownScore};
    ///
    /// let chances = Chances { win: 30, draw: 950, loss: 20 };
    /// let score = Score::from_eval(Eval::new(364));
    /// let shown = ShownScore::Expected(Expected::new(100));
    /// assert_eq!(score.shown(chances), shown, "1% better than even, whatever 364 meant");
    /// assert_eq!(Score::win_in(7).shown(chances), ShownScore::Forced(Score::win_in(7)));
    /// ```
    pub const fn shown(self, chances: Chances) -> ShownScore {
        if self.is_decisive() {
            ShownScore::Forced(self)
        } else {
            ShownScore::Expected(Expected::of(chances))
        }
    }
}

impl ShownScore {
    /// As a person reads it, given the side to move: `"Tigers win in 7"` (plies), `"Sheep win
    /// in 2"` (the words of the tablebase's verdicts), or the tigers' expected result in
    /// percent of a certain win, such as `"+1.25"`.
    ///
    /// ```
    /// use tns_board::Side;
    /// use tns_search::{Expected, Score, ShownScore};
    ///
    /// assert_eq!(ShownScore::Forced(Score::win_in(7)).describe(Side::Tiger), "Tigers win in 7");
    /// assert_eq!(ShownScore::Forced(-Score::win_in(4)).describe(Side::Sheep), "Tigers win in 4");
    /// assert_eq!(ShownScore::Expected(Expected::new(150)).describe(Side::Sheep), "-1.50");
    /// ```
    pub fn describe(self, side_to_move: Side) -> String {
        match self {
            ShownScore::Forced(score) => score.describe(side_to_move),
            ShownScore::Expected(e) => {
                format!("{:+.2}", f64::from(e.0 * side_to_move.sign()) / 100.0)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Eval;

    /// The numbers and words the front ends print, as they were when the shown score was a
    /// bare `i32` (`shown_score` and `describe`).
    #[test]
    fn the_printed_units_are_those_of_before() {
        let chances = Chances { win: 30, draw: 950, loss: 20 };
        let even = Score::from_eval(Eval::new(364));
        assert_eq!(even.shown(chances), ShownScore::Expected(Expected::new(100)));
        assert_eq!(Expected::of(chances).to_string(), "100");
        assert_eq!(Expected::of(chances.flipped()).to_string(), "-100");
        assert_eq!(Expected::of(Chances::certain(crate::Wdl::Win)), Expected::CERTAIN_WIN);
        assert_eq!((-Expected::CERTAIN_WIN).to_string(), "-10000");
        assert_eq!(even.shown(chances).describe(Side::Tiger), "+1.00");
        assert_eq!(even.shown(chances).describe(Side::Sheep), "-1.00");
        let lean = Chances { win: 123, draw: 800, loss: 77 };
        assert_eq!(Expected::of(lean).to_string(), "460");
        assert_eq!(even.shown(lean).describe(Side::Tiger), "+4.60");
        let forced = Score::win_in(7);
        assert_eq!(forced.shown(chances).describe(Side::Tiger), "Tigers win in 7");
        assert_eq!((-forced).shown(chances).describe(Side::Tiger), "Sheep win in 7");
        assert_eq!(Score::from_eval(Eval::new(-150)).describe(Side::Tiger), "-1.50");
        assert_eq!(Score::from_eval(Eval::new(25)).describe(Side::Sheep), "-0.25");
    }
}
