//! An evaluator read through a fitted [`WdlModel`]: its scores become its expected result, or
//! only its chances are the model's ([`Calibrated`]).

use std::sync::Arc;

use tns_board::{Board, MoveList};

use crate::wdl::Chances;
use crate::wdl_model::WdlModel;
use crate::{Eval, EvalError, Evaluator, Expected, Score};

/// A certain win in a calibrated evaluator's unit, as a number: its evaluations are the
/// [`Expected`] result for the side to move, in ten-thousandths of a certain win (fine enough
/// that no two evaluations the raw scores tell apart become equal).
fn certain_win() -> f64 {
    f64::from(Expected::CERTAIN_WIN.get())
}

/// `E` read through `model`, in one of two ways:
///
/// - [`Calibrated::new`]: each evaluation becomes the expected result of `E`'s score in its
///   class of position (the side to move and the phase), in ten-thousandths of a certain win
///   (an [`Expected`] result as its [`Eval`]), and the search's chances are the model's.
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
/// let certain = tns_search::Expected::CERTAIN_WIN.get();
/// assert!(calibrated.evaluate(Board::START).get().abs() <= certain);
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
    /// in ten-thousandths of a certain win for [`Calibrated::new`], `inner`'s own for
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
    fn evaluate(&self, board: Board) -> Eval {
        let eval = self.inner.evaluate(board);
        if !self.rescored {
            return eval;
        }
        let expected = self.model.expected(eval, board);
        // The expected result is this evaluator's unit: the one place the two scales meet.
        Eval::new((expected * certain_win()).round() as i32)
    }

    fn worth_caching(&self) -> bool {
        self.inner.worth_caching()
    }

    fn exact(&self, board: Board) -> Option<Score> {
        self.inner.exact(board)
    }

    fn root_moves(&self, board: Board) -> Result<Option<MoveList>, EvalError> {
        self.inner.root_moves(board)
    }

    fn chances(&self, score: Score, board: Board) -> Chances {
        Chances::of_decisive(score).unwrap_or_else(|| {
            let eval = score.as_eval();
            if let Some(root) = &self.root {
                root.chances(eval, board)
            } else if self.rescored {
                self.model.chances_at_expected(f64::from(eval.get()) / certain_win(), board)
            } else {
                self.model.chances(eval, board)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Heuristic;
    use crate::wdl_model::Reading;

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
            for e in [-3_000, -200, 0, 150, 2_500].map(Eval::new) {
                let score = Score::from_eval(e);
                assert_eq!(rooted.chances(score, board), root.chances(e, board), "{e:?}");
            }
            let score = Score::from_eval(Eval::new(1_500));
            assert_ne!(rooted.chances(score, board), plain.chances(score, board));
            let win = Score::win_in(3);
            assert_eq!(rooted.chances(win, board), Chances::certain(crate::Wdl::Win));
        }
    }
}
