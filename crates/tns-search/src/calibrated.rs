//! An evaluator read through a fitted [`WdlModel`]: its scores become its expected result, or
//! only its chances are the model's ([`Calibrated`]).

use std::sync::Arc;

use tns_board::{Board, MoveList};

use crate::wdl::Chances;
use crate::wdl_model::WdlModel;
use crate::{EvalError, Evaluator};

/// The score of a certain win in a calibrated evaluator's units: its scores are the expected
/// result for the side to move (the chance of a win less that of a loss) in hundredths of a
/// percent, fine enough that no two evaluations the raw scores tell apart become equal.
pub const CERTAIN_WIN: i32 = 10_000;

/// `E` read through `model`, in one of two ways:
///
/// - [`Calibrated::new`]: each evaluation becomes the expected result of `E`'s score in its
///   class of position (the side to move and the phase), in hundredths of a percent
///   ([`CERTAIN_WIN`]), and the search's chances are the model's.
/// - [`Calibrated::read_through`]: the search keeps `E`'s own scores (its play unchanged), and
///   only its chances are the model's: for an evaluator that plays better on its raw scores
///   (the heuristic) but whose chances people should see fitted.
///
/// An evaluator trained or tuned against the solved game need not mean the same by a score with
/// either side to move (the shipped network's targets give a draw that the side to move keeps
/// easily a good score, whoever moves): its scores then change sign with the parity of the
/// horizon. The expected result means the same in every class, so the search's score stays
/// steady from depth to depth. Within one class the model is increasing, so a fixed-depth search
/// of the placement, whose leaves at one ply share a class, chooses as `E` alone would.
///
/// ```
/// use std::sync::Arc;
/// use tns_board::Board;
/// use tns_search::{Calibrated, Evaluator, Heuristic, Reading, WdlModel};
///
/// let model = Arc::new(WdlModel::neutral(Reading::linear(400.0)));
/// let calibrated = Calibrated::new(Heuristic::default(), Arc::clone(&model));
/// assert!(calibrated.evaluate(Board::START).abs() <= tns_search::CERTAIN_WIN);
/// let read = Calibrated::read_through(Heuristic::default(), model);
/// let board: Board = "T3T/5/2S2/5/T3T t 19".parse()?;
/// assert_eq!(read.evaluate(board), Heuristic::default().evaluate(board), "its own scores");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Calibrated<E> {
    inner: E,
    model: Arc<WdlModel>,
    /// Whether the search's scores are the expected results (else `inner`'s own).
    rescored: bool,
    /// The chances of a search's root score, where fitted apart ([`Calibrated::with_root`]).
    root: Option<Arc<WdlModel>>,
}

impl<E: Evaluator> Calibrated<E> {
    /// `inner`'s scores read through `model` (fitted on `inner`'s scores): the search's scores
    /// are the expected results.
    pub fn new(inner: E, model: Arc<WdlModel>) -> Calibrated<E> {
        Calibrated { inner, model, rescored: true, root: None }
    }

    /// `inner` searching on its own scores, its chances read through `model`.
    pub fn read_through(inner: E, model: Arc<WdlModel>) -> Calibrated<E> {
        Calibrated { inner, model, rescored: false, root: None }
    }

    /// The same, with the chances of a search's root score read through `root`, a model fitted
    /// on searches' root scores (in this evaluator's units as it searches: the expected result
    /// in hundredths of a percent for [`Calibrated::new`], `inner`'s own for
    /// [`Calibrated::read_through`]) rather than on single evaluations. A search's score is the
    /// best of many evaluations, so it leans further than one evaluation does, the more so the
    /// deeper it looks; chances fitted on the search itself do not.
    #[must_use]
    pub fn with_root(mut self, root: Arc<WdlModel>) -> Calibrated<E> {
        self.root = Some(root);
        self
    }

    /// The evaluator inside.
    pub fn inner(&self) -> &E {
        &self.inner
    }

    /// The model.
    pub fn model(&self) -> &WdlModel {
        &self.model
    }
}

impl<E: Evaluator> Evaluator for Calibrated<E> {
    #[inline]
    #[expect(clippy::cast_possible_truncation, reason = "an expectation in [-1, 1] times 10,000")]
    fn evaluate(&self, board: Board) -> i32 {
        let score = self.inner.evaluate(board);
        if !self.rescored {
            return score;
        }
        let expected = self.model.expected(score, board);
        (expected * f64::from(CERTAIN_WIN)).round() as i32
    }

    fn worth_caching(&self) -> bool {
        self.inner.worth_caching()
    }

    fn exact(&self, board: Board) -> Option<i32> {
        self.inner.exact(board)
    }

    fn root_moves(&self, board: Board) -> Result<Option<MoveList>, EvalError> {
        self.inner.root_moves(board)
    }

    fn chances(&self, score: i32, board: Board) -> Chances {
        Chances::of_decisive(score).unwrap_or_else(|| {
            if let Some(root) = &self.root {
                root.chances(score, board)
            } else if self.rescored {
                self.model.chances_at_expected(f64::from(score) / f64::from(CERTAIN_WIN), board)
            } else {
                self.model.chances(score, board)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wdl_model::Reading;
    use crate::{Heuristic, win_in};

    #[test]
    fn a_root_model_gives_the_chances_and_leaves_the_scores() {
        let model = Arc::new(WdlModel::neutral(Reading::linear(400.0)));
        let root = Arc::new(WdlModel::neutral(Reading::linear(2_000.0)));
        let board: Board = "T3T/5/2S2/5/T3T t 19".parse().unwrap();
        for plain in [
            Calibrated::new(Heuristic::default(), Arc::clone(&model)),
            Calibrated::read_through(Heuristic::default(), Arc::clone(&model)),
        ] {
            let rooted = plain.clone().with_root(Arc::clone(&root));
            assert_eq!(rooted.evaluate(board), plain.evaluate(board));
            for score in [-3_000, -200, 0, 150, 2_500] {
                assert_eq!(rooted.chances(score, board), root.chances(score, board), "{score}");
            }
            assert_ne!(rooted.chances(1_500, board), plain.chances(1_500, board));
            assert_eq!(rooted.chances(win_in(3), board), Chances::certain(crate::Wdl::Win));
        }
    }
}
