//! The evaluator trait: how a search scores a position it does not search further, and the
//! type of its answer.

use std::ops::Neg;

use tns_board::{Board, MoveList};

use crate::score::Score;
use crate::shown::Expected;
use crate::wdl::Chances;

/// An evaluator's score of a position, from the side to move's view, in the evaluator's own
/// unit: hundredths of a sheep for the [`Heuristic`](crate::Heuristic), the network's output
/// times 1,000 for tns-nn's evaluator, the expected result in ten-thousandths of a certain win
/// for a [`Calibrated`](crate::Calibrated) one. Each evaluator's docs say its unit, and a
/// [`WdlModel`](crate::WdlModel) fitted on it holds the unit as its `scale`.
///
/// One type for every evaluator rather than one a unit: the search is the same for all of them
/// (a program switches evaluators at run time behind `Box<dyn Evaluator>`), and what it does
/// with an evaluation is the same whatever the unit: it turns it into a [`Score`] at the
/// horizon ([`Score::from_eval`]) and hands the score back to the same evaluator for its
/// chances. What the type prevents is mixing an evaluation with the search's other numbers
/// (a forced result's encoding, the shown [`Expected`] result) without a named conversion.
///
/// `repr(transparent)` over an `i32`: the table of evaluations holds it as it held the number.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Eval(i32);

impl Eval {
    /// The largest evaluation the search takes: it clamps evaluations to `±LIMIT`
    /// ([`Score::from_eval`]), well inside the forced results' scores.
    pub const LIMIT: Eval = Eval(20_000);

    /// An evaluation of `value` in the evaluator's unit.
    pub const fn new(value: i32) -> Eval {
        Eval(value)
    }

    /// The number, in the evaluator's unit.
    pub const fn get(self) -> i32 {
        self.0
    }
}

impl Neg for Eval {
    type Output = Eval;

    /// The evaluation from the other side's view.
    #[inline]
    fn neg(self) -> Eval {
        Eval(-self.0)
    }
}

/// Scores positions for the search. The search is generic over it, so the hand-written
/// heuristic, a neural network or a tablebase plug into the same search.
///
/// Implementations are shared between search threads, so they take `&self`; keep any scratch
/// space on the stack. They are `Debug` so that a boxed evaluator (`Box<dyn Evaluator>`, how a
/// program switches players at run time) can be printed.
pub trait Evaluator: Send + Sync + std::fmt::Debug {
    /// The score of `board` from the side to move's point of view, in the evaluator's own
    /// unit (see [`Eval`]), within `±`[`Eval::LIMIT`] (the search clamps it). It is called only
    /// on positions where the game goes on: fewer than five dead and a legal move to make.
    fn evaluate(&self, board: Board) -> Eval;

    /// Whether an evaluation costs more than looking it up, so that the search should keep
    /// each thread's evaluations in a table (2 MiB a thread) and not make one twice: a
    /// network's does, the heuristic's (a few nanoseconds) does not. The default is `false`.
    ///
    /// Say `true` only if [`evaluate`](Evaluator::evaluate) depends on the board alone, always
    /// the same score for the same position: the table hands back what it was given.
    fn worth_caching(&self) -> bool {
        false
    }

    /// An exact result for `board`, if the evaluator knows one (a tablebase does): a score from
    /// the side to move's view built with [`Score::win_in`] or [`Score::loss_in`] counted from
    /// `board` itself (ply 0), or [`Score::DRAW`]. The default knows nothing.
    fn exact(&self, board: Board) -> Option<Score> {
        let _ = board;
        None
    }

    /// The moves worth searching at the root of a search of `board`, when the evaluator knows
    /// that only some of the legal moves keep the position's game-theoretic value (a solved
    /// placement phase does, where it has no distances to offer as exact scores). The search
    /// then chooses among these by its own evaluation. `None`, the default, searches them all.
    ///
    /// # Errors
    /// An evaluator that cannot answer (a damaged tablebase file) says why: the search then fails
    /// with that error rather than search on without what the evaluator should have known.
    fn root_moves(&self, board: Board) -> Result<Option<MoveList>, EvalError> {
        let _ = board;
        Ok(None)
    }

    /// The chances that the side to move wins, draws and loses in `board` when a search of it
    /// scores `score` with this evaluator. A forced result is certain; other scores are this
    /// evaluator's evaluations ([`Score::as_eval`]). The default reads them as an expected
    /// result in ten-thousandths of a certain win ([`Expected::CERTAIN_WIN`]), all of it won or
    /// lost and the rest drawn: right only for an evaluator in that unit. An evaluator that
    /// knows how its scores turn out says so ([`Calibrated`](crate::Calibrated), a tablebase).
    fn chances(&self, score: Score, board: Board) -> Chances {
        let _ = board;
        Chances::of_decisive(score).unwrap_or_else(|| {
            let expected =
                f64::from(score.as_eval().get()) / f64::from(Expected::CERTAIN_WIN.get());
            Chances::from_probabilities(expected.max(0.0), (-expected).max(0.0))
        })
    }
}

/// Why an evaluator could not answer: its own error, boxed, so that any evaluator's errors
/// reach the search's caller whole.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct EvalError(Box<dyn std::error::Error + Send + Sync>);

impl EvalError {
    /// An evaluator's error.
    pub fn new(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> EvalError {
        EvalError(error.into())
    }

    /// The evaluator's error, to be downcast to its own type.
    pub fn inner(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        &*self.0
    }
}

impl<E: Evaluator + ?Sized> Evaluator for &E {
    fn evaluate(&self, board: Board) -> Eval {
        (**self).evaluate(board)
    }
    fn worth_caching(&self) -> bool {
        (**self).worth_caching()
    }
    fn exact(&self, board: Board) -> Option<Score> {
        (**self).exact(board)
    }
    fn root_moves(&self, board: Board) -> Result<Option<MoveList>, EvalError> {
        (**self).root_moves(board)
    }
    fn chances(&self, score: Score, board: Board) -> Chances {
        (**self).chances(score, board)
    }
}

impl<E: Evaluator + ?Sized> Evaluator for Box<E> {
    fn evaluate(&self, board: Board) -> Eval {
        (**self).evaluate(board)
    }
    fn worth_caching(&self) -> bool {
        (**self).worth_caching()
    }
    fn exact(&self, board: Board) -> Option<Score> {
        (**self).exact(board)
    }
    fn root_moves(&self, board: Board) -> Result<Option<MoveList>, EvalError> {
        (**self).root_moves(board)
    }
    fn chances(&self, score: Score, board: Board) -> Chances {
        (**self).chances(score, board)
    }
}

impl<E: Evaluator + ?Sized> Evaluator for std::sync::Arc<E> {
    fn evaluate(&self, board: Board) -> Eval {
        (**self).evaluate(board)
    }
    fn worth_caching(&self) -> bool {
        (**self).worth_caching()
    }
    fn exact(&self, board: Board) -> Option<Score> {
        (**self).exact(board)
    }
    fn root_moves(&self, board: Board) -> Result<Option<MoveList>, EvalError> {
        (**self).root_moves(board)
    }
    fn chances(&self, score: Score, board: Board) -> Chances {
        (**self).chances(score, board)
    }
}
