//! Evaluators read through a fitted [`WdlModel`]: one whose scores become its expected result
//! ([`Calibrated`]), and one that keeps its own scores but whose chances are the model's
//! ([`ReadThrough`]).

use std::sync::Arc;

use tns_board::{Board, MoveList};

use crate::wdl::Chances;
use crate::wdl_model::WdlModel;
use crate::{EvalError, Evaluator};

/// The score of a certain win in a calibrated evaluator's units: its scores are the expected
/// result for the side to move (the chance of a win less that of a loss) in hundredths of a
/// percent, fine enough that no two evaluations the raw scores tell apart become equal.
pub const CERTAIN_WIN: i32 = 10_000;

/// `E` with its scores read through `model`: each evaluation becomes the expected result of
/// `E`'s score in its class of position (the side to move and the phase), in hundredths of a
/// percent ([`CERTAIN_WIN`]), and the search's chances are the model's.
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
/// let calibrated = Calibrated::new(Heuristic::default(), Arc::new(WdlModel::neutral(Reading::linear(400.0))));
/// assert!(calibrated.evaluate(Board::START).abs() <= tns_search::CERTAIN_WIN);
/// ```
#[derive(Clone, Debug)]
pub struct Calibrated<E> {
    inner: E,
    model: Arc<WdlModel>,
}

impl<E: Evaluator> Calibrated<E> {
    /// `inner`'s scores read through `model` (fitted on `inner`'s scores).
    pub fn new(inner: E, model: Arc<WdlModel>) -> Calibrated<E> {
        Calibrated { inner, model }
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
    #[expect(clippy::cast_possible_truncation, reason = "an expectation in [-1, 1] times 1,000")]
    fn evaluate(&self, board: Board) -> i32 {
        let expected = self.model.expected(self.inner.evaluate(board), board);
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
            self.model.chances_at_expected(f64::from(score) / f64::from(CERTAIN_WIN), board)
        })
    }
}

/// `E` searching with its own scores, its chances read through `model`: for an evaluator that
/// plays better on its raw scores (the heuristic, whose search keeps its own scale) but whose
/// chances people should see fitted. The search's result then carries the model's chances, and
/// every front end prints the expected result from them: one unit whatever the evaluator.
///
/// ```
/// use std::sync::Arc;
/// use tns_board::Board;
/// use tns_search::{Evaluator, Heuristic, ReadThrough, Reading, WdlModel};
///
/// let model = Arc::new(WdlModel::neutral(Reading::linear(400.0)));
/// let read = ReadThrough::new(Heuristic::default(), model);
/// let board: Board = "T3T/5/2S2/5/T3T t 19".parse()?;
/// assert_eq!(read.evaluate(board), Heuristic::default().evaluate(board), "its own scores");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct ReadThrough<E> {
    inner: E,
    model: Arc<WdlModel>,
}

impl<E: Evaluator> ReadThrough<E> {
    /// `inner`, its chances read through `model` (fitted on `inner`'s scores).
    pub fn new(inner: E, model: Arc<WdlModel>) -> ReadThrough<E> {
        ReadThrough { inner, model }
    }
}

impl<E: Evaluator> Evaluator for ReadThrough<E> {
    #[inline]
    fn evaluate(&self, board: Board) -> i32 {
        self.inner.evaluate(board)
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
        Chances::of_decisive(score).unwrap_or_else(|| self.model.chances(score, board))
    }
}
