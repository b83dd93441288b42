//! How an evaluator's scores turn out: the chances of a win, a draw and a loss for each score,
//! by the side to move and the phase, and the text file that holds them.

use std::fmt;
use std::str::FromStr;

use tns_board::{Board, Side};

use crate::eval::Eval;
use crate::wdl::Chances;

/// The phases a model tells apart, by the sheep in hand: 16 to 20, 11 to 15, 6 to 10, 1 to 5,
/// and none (the movement). Every position a search reaches at one ply of the placement has the
/// same sheep in hand, so a model that is monotone within a phase keeps every choice among them.
pub const PHASES: [(u8, u8); 5] = [(16, 20), (11, 15), (6, 10), (1, 5), (0, 0)];

/// How many classes a model holds: a phase and a side to move each.
pub const CLASSES: usize = 2 * PHASES.len();

/// The class of a position: its phase, then the side to move (sheep first).
#[must_use]
pub fn class_of(board: Board) -> usize {
    let in_hand = board.in_hand();
    let phase = PHASES.iter().position(|&(lo, hi)| (lo..=hi).contains(&in_hand)).unwrap_or(4);
    2 * phase + usize::from(board.side_to_move() == Side::Tiger)
}

/// A class's name in the model file: the side, then the sheep in hand (`sheep 16-20`,
/// `tigers 0`).
fn class_name(class: usize) -> (&'static str, String) {
    let (lo, hi) = PHASES[class / 2];
    let side = if class.is_multiple_of(2) { "sheep" } else { "tigers" };
    (side, if lo == hi { lo.to_string() } else { format!("{lo}-{hi}") })
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The chances of one class of position as two logistics of the score `x` (in the model's
/// units): the side to move wins with probability `σ(win_slope·x − win_at)` and loses with
/// `σ(loss_at − loss_slope·x)`, and draws otherwise. So a higher score means more wins and fewer
/// losses. The two boundaries have slopes of their own: an evaluator can be surer of its wins
/// than of its losses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Logistic {
    /// How fast the chance of a win grows with the score (positive).
    pub win_slope: f64,
    /// Where, in `win_slope·x`, a win is as likely as not.
    pub win_at: f64,
    /// How fast the chance of a loss falls with the score (positive).
    pub loss_slope: f64,
    /// Where, in `loss_slope·x`, a loss is as likely as not.
    pub loss_at: f64,
}

impl Logistic {
    /// A model with no knowledge: wins and losses balanced around 0.
    pub const NEUTRAL: Logistic =
        Logistic { win_slope: 3.0, win_at: 1.0, loss_slope: 3.0, loss_at: -1.0 };

    /// The probabilities of a win and a loss at `x`; where the two would add up to more than 1
    /// (far from every position the fit saw), the loss is cut to what the win leaves.
    #[must_use]
    pub fn win_loss(self, x: f64) -> (f64, f64) {
        let win = sigmoid(self.win_slope * x - self.win_at);
        let loss = sigmoid(self.loss_at - self.loss_slope * x);
        (win, loss.min(1.0 - win))
    }

    /// The expected result at `x`, from -1 (a certain loss) to 1: increasing with `x`.
    #[must_use]
    pub fn expected(self, x: f64) -> f64 {
        let (win, loss) = self.win_loss(x);
        win - loss
    }

    fn is_valid(self) -> bool {
        [self.win_slope, self.win_at, self.loss_slope, self.loss_at].iter().all(|v| v.is_finite())
            && self.win_slope > 0.0
            && self.loss_slope > 0.0
    }
}

/// How a model reads an evaluation ([`Eval`], in its evaluator's unit): divided by its units,
/// and, for an evaluator whose scores are a squashed output (a network's `tanh` times 1,000),
/// taken back through the `atanh` (`logit`), so that the outputs the squashing crowds near its
/// ends are spread out again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reading {
    /// The score that reads as 1 (before the `atanh`).
    pub units: f64,
    /// Whether the score over its units is taken through the `atanh` (clamped inside ±1).
    pub logit: bool,
}

impl Reading {
    /// Scores divided by `units`.
    #[must_use]
    pub const fn linear(units: f64) -> Reading {
        Reading { units, logit: false }
    }

    /// Scores divided by `units` and taken through the `atanh`.
    #[must_use]
    pub const fn logit(units: f64) -> Reading {
        Reading { units, logit: true }
    }

    /// The logistics' input for `eval`: increasing in it.
    #[must_use]
    pub fn x(self, eval: Eval) -> f64 {
        let x = f64::from(eval.get()) / self.units;
        if self.logit { x.clamp(-0.9999, 0.9999).atanh() } else { x }
    }
}

/// How an evaluator's scores turn out, fitted on the solved game ([`WdlModel::fit`]): for each
/// class of position (the side to move and the phase, [`class_of`]) a pair of [`Logistic`]s
/// over the score as its [`Reading`] takes it.
///
/// Its text form, as `Display` writes and `FromStr` reads it (the shipped models are such
/// files):
///
/// ```text
/// # chances of an evaluator's scores (tns-search WdlModel)
/// scale 1000
/// sheep 16-20 9.5 7.2 8.8 -5.1
/// ...
/// ```
///
/// one line a class with its `win_slope`, `win_at`, `loss_slope` and `loss_at`; `#` starts a
/// comment.
///
/// ```
/// use tns_board::Board;
/// use tns_search::WdlModel;
///
/// let model = WdlModel::neutral(tns_search::Reading::logit(1000.0));
/// let text = model.to_string();
/// assert_eq!(text.parse::<WdlModel>()?, model);
/// let even = model.chances(tns_search::Eval::new(0), Board::START);
/// assert_eq!(even.win, even.loss);
/// # Ok::<(), tns_search::WdlModelError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct WdlModel {
    reading: Reading,
    classes: [Logistic; CLASSES],
}

impl WdlModel {
    /// A model of scores read as `reading` with every class [`Logistic::NEUTRAL`].
    #[must_use]
    pub fn neutral(reading: Reading) -> WdlModel {
        WdlModel { reading, classes: [Logistic::NEUTRAL; CLASSES] }
    }

    /// A model from its reading and each class's logistic (in [`class_of`]'s order).
    ///
    /// # Errors
    /// [`WdlModelError::Scale`] or [`WdlModelError::Class`] for units or a class out of range.
    pub fn new(reading: Reading, classes: [Logistic; CLASSES]) -> Result<WdlModel, WdlModelError> {
        if !(reading.units.is_finite() && reading.units > 0.0) {
            return Err(WdlModelError::Scale);
        }
        if let Some(bad) = classes.iter().position(|l| !l.is_valid()) {
            let (side, in_hand) = class_name(bad);
            return Err(WdlModelError::Class { class: format!("{side} {in_hand}") });
        }
        Ok(WdlModel { reading, classes })
    }

    /// How it reads a score.
    #[must_use]
    pub fn reading(&self) -> Reading {
        self.reading
    }

    /// Each class's logistic, in [`class_of`]'s order.
    #[must_use]
    pub fn classes(&self) -> &[Logistic; CLASSES] {
        &self.classes
    }

    /// The logistic that reads `board`'s scores.
    #[must_use]
    pub fn logistic(&self, board: Board) -> Logistic {
        self.classes[class_of(board)]
    }

    /// The chances of `eval` (the evaluator's, from the side to move's view; or a search's
    /// score on its scale, [`Score::as_eval`](crate::Score::as_eval)) in `board`.
    #[must_use]
    pub fn chances(&self, eval: Eval, board: Board) -> Chances {
        let (win, loss) = self.logistic(board).win_loss(self.reading.x(eval));
        Chances::from_probabilities(win, loss)
    }

    /// The expected result of `eval` in `board`, from -1 to 1.
    #[must_use]
    pub fn expected(&self, eval: Eval, board: Board) -> f64 {
        self.logistic(board).expected(self.reading.x(eval))
    }

    /// The chances of a position whose expected result (from -1 to 1) is `expected`, read with
    /// `board`'s class: the score that class expects that of, and its chances. So a search
    /// score on the expected result's scale ([`Calibrated`](crate::Calibrated)) gets the draw
    /// share its class has at that expectation.
    #[must_use]
    pub fn chances_at_expected(&self, expected: f64, board: Board) -> Chances {
        let logistic = self.logistic(board);
        let target = expected.clamp(-1.0, 1.0);
        // The expectation is increasing in x: bisection over a range far past saturation.
        let slope = logistic.win_slope.min(logistic.loss_slope);
        let reach = (60.0 + logistic.win_at.abs() + logistic.loss_at.abs()) / slope;
        let (mut lo, mut hi) = (-reach, reach);
        for _ in 0..100 {
            let mid = f64::midpoint(lo, hi);
            if logistic.expected(mid) < target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let (win, loss) = logistic.win_loss(f64::midpoint(lo, hi));
        Chances::from_probabilities(win, loss)
    }
}

/// Why a model's text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WdlModelError {
    /// The scale is missing, not a number, or not positive.
    #[error(
        "a model needs a `scale UNITS` line (`scale UNITS logit` for a squashed score), the units positive"
    )]
    Scale,
    /// A class's slope is not positive, or a number is not finite.
    #[error("the class {class} has a slope that is not positive or a number that is not finite")]
    Class {
        /// The class, as the file names it.
        class: String,
    },
    /// A line that is not a comment, the scale or a class of six fields with four numbers.
    #[error(
        "line {line}: expected `SIDE IN_HAND WIN_SLOPE WIN_AT LOSS_SLOPE LOSS_AT` or `scale UNITS`"
    )]
    Line {
        /// The line's number, from 1.
        line: usize,
    },
    /// A class named twice, or not at all.
    #[error("the class {class} is {}", if *.twice { "given twice" } else { "missing" })]
    Classes {
        /// The class.
        class: String,
        /// Given twice rather than missing.
        twice: bool,
    },
}

impl FromStr for WdlModel {
    type Err = WdlModelError;

    fn from_str(text: &str) -> Result<WdlModel, WdlModelError> {
        let mut scale = None;
        let mut classes: [Option<Logistic>; CLASSES] = [None; CLASSES];
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let bad = WdlModelError::Line { line: i + 1 };
            let fields: Vec<&str> = line.split_whitespace().collect();
            match fields[..] {
                ["scale", units, ref rest @ ..] => {
                    let units = units.parse::<f64>().map_err(|_| WdlModelError::Scale)?;
                    scale = Some(match rest {
                        [] => Reading::linear(units),
                        ["logit"] => Reading::logit(units),
                        _ => return Err(WdlModelError::Scale),
                    });
                }
                [side, in_hand, win_slope, win_at, loss_slope, loss_at] => {
                    let class = (0..CLASSES)
                        .find(|&c| class_name(c) == (side, in_hand.to_string()))
                        .ok_or(bad.clone())?;
                    let number = |s: &str| s.parse::<f64>().map_err(|_| bad.clone());
                    let logistic = Logistic {
                        win_slope: number(win_slope)?,
                        win_at: number(win_at)?,
                        loss_slope: number(loss_slope)?,
                        loss_at: number(loss_at)?,
                    };
                    if classes[class].replace(logistic).is_some() {
                        return Err(WdlModelError::Classes {
                            class: format!("{side} {in_hand}"),
                            twice: true,
                        });
                    }
                }
                _ => return Err(bad),
            }
        }
        let mut all = [Logistic::NEUTRAL; CLASSES];
        for (c, logistic) in classes.into_iter().enumerate() {
            let (side, in_hand) = class_name(c);
            all[c] = logistic.ok_or(WdlModelError::Classes {
                class: format!("{side} {in_hand}"),
                twice: false,
            })?;
        }
        WdlModel::new(scale.ok_or(WdlModelError::Scale)?, all)
    }
}

impl fmt::Display for WdlModel {
    /// The text form, which [`FromStr`] reads back to the same model.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "# chances of an evaluator's scores (tns-search WdlModel)")?;
        writeln!(
            f,
            "# side in_hand win_slope win_at loss_slope loss_at: x the score as the scale"
        )?;
        writeln!(
            f,
            "# reading, P(win) = σ(win_slope·x - win_at), P(loss) = σ(loss_at - loss_slope·x)"
        )?;
        let logit = if self.reading.logit { " logit" } else { "" };
        writeln!(f, "scale {}{logit}", self.reading.units)?;
        for (c, l) in self.classes.iter().enumerate() {
            let (side, in_hand) = class_name(c);
            writeln!(
                f,
                "{side} {in_hand} {} {} {} {}",
                l.win_slope, l.win_at, l.loss_slope, l.loss_at
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    #[test]
    fn classes_follow_the_phase_and_the_side() {
        assert_eq!(class_of(Board::START), 0);
        assert_eq!(class_of(board("T3T/5/2S2/5/T3T t 19")), 1);
        assert_eq!(class_of(board("SS3/S2T1/1T2S/ST1TS/S2SS s 10")), 4);
        assert_eq!(class_of(board("SSSSS/SSTSS/SS1TS/STS1T/SS1SS t 0")), 9);
        assert_eq!(class_name(9), ("tigers", "0".to_string()));
    }

    #[test]
    fn bad_text_is_refused_with_its_line() {
        let good = WdlModel::neutral(Reading::linear(400.0)).to_string();
        assert_eq!(good.parse::<WdlModel>().unwrap().reading(), Reading::linear(400.0));
        let squashed = WdlModel::neutral(Reading::logit(1000.0)).to_string();
        assert_eq!(squashed.parse::<WdlModel>().unwrap().reading(), Reading::logit(1000.0));
        let without = good.replace("sheep 0 3 1 3 -1\n", "");
        assert!(matches!(
            without.parse::<WdlModel>(),
            Err(WdlModelError::Classes { twice: false, .. })
        ));
        let twice = format!("{good}sheep 0 3 1 3 -1\n");
        assert!(matches!(
            twice.parse::<WdlModel>(),
            Err(WdlModelError::Classes { twice: true, .. })
        ));
        let garbage = format!("{good}wolves 0 3 1 3 -1\n");
        assert_eq!(garbage.parse::<WdlModel>(), Err(WdlModelError::Line { line: 15 }));
        let swapped = good.replace("sheep 0 3 1 3 -1", "sheep 0 -3 1 3 -1");
        assert!(matches!(swapped.parse::<WdlModel>(), Err(WdlModelError::Class { .. })));
        assert_eq!(
            good.replace("scale 400", "scale -4").parse::<WdlModel>(),
            Err(WdlModelError::Scale)
        );
    }

    proptest! {
        #[test]
        fn chances_grow_with_the_score(
            win_slope in 0.1f64..20.0, win_at in -5.0f64..5.0,
            loss_slope in 0.1f64..20.0, loss_at in -5.0f64..5.0,
            a in -3000i32..3000, b in -3000i32..3000,
        ) {
            let logistic = Logistic { win_slope, win_at, loss_slope, loss_at };
            let model = WdlModel::new(Reading::logit(1000.0), [logistic; CLASSES]).unwrap();
            let (lo, hi) = (a.min(b), a.max(b));
            let (lo, hi) = (Eval::new(lo), Eval::new(hi));
            let (c_lo, c_hi) = (model.chances(lo, Board::START), model.chances(hi, Board::START));
            prop_assert!(c_lo.win <= c_hi.win && c_lo.loss >= c_hi.loss);
            prop_assert!(model.expected(lo, Board::START) <= model.expected(hi, Board::START));
            // Reading the chances back from the expected result finds the same score's.
            let back = model.chances_at_expected(model.expected(hi, Board::START), Board::START);
            prop_assert!((i32::from(back.win) - i32::from(c_hi.win)).abs() <= 1);
            prop_assert!((i32::from(back.loss) - i32::from(c_hi.loss)).abs() <= 1);
        }
    }
}
