//! The evaluator trait: how a search scores a position it does not search further.

use tns_board::{Board, MoveList};

use crate::calibrated::CERTAIN_WIN;
use crate::wdl::Chances;

/// Scores positions for the search. The search is generic over it, so the hand-written
/// heuristic, a neural network or a tablebase plug into the same search.
///
/// Implementations are shared between search threads, so they take `&self`; keep any scratch
/// space on the stack. They are `Debug` so that a boxed evaluator (`Box<dyn Evaluator>`, how a
/// program switches players at run time) can be printed.
pub trait Evaluator: Send + Sync + std::fmt::Debug {
    /// The score of `board` from the side to move's point of view, in hundredths of a sheep,
    /// within `±`[`EVAL_LIMIT`](crate::EVAL_LIMIT) (the search clamps it). It is called only on
    /// positions where the game goes on: fewer than five dead and a legal move to make.
    fn evaluate(&self, board: Board) -> i32;

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
    /// the side to move's view built with [`win_in`](crate::win_in) or
    /// [`loss_in`](crate::loss_in) counted from `board` itself (ply 0), or
    /// [`DRAW`](crate::DRAW). The default knows nothing.
    fn exact(&self, board: Board) -> Option<i32> {
        let _ = board;
        None
    }

    /// The moves worth searching at the root of a search of `board`, when the evaluator knows
    /// that only some of the legal moves keep the position's game-theoretic value (a solved
    /// placement phase does, where it has no distances to offer as exact scores). The search
    /// then chooses among these by its own evaluation. `None`, the default, searches them all.
    ///
    /// # Errors
    /// An evaluator that cannot answer (a damaged table file) says why: the search then fails
    /// with that error rather than search on without what the evaluator should have known.
    fn root_moves(&self, board: Board) -> Result<Option<MoveList>, EvalError> {
        let _ = board;
        Ok(None)
    }

    /// The chances that the side to move wins, draws and loses in `board` when a search of it
    /// scores `score` with this evaluator. A forced result is certain. The default reads
    /// other scores as an expected result in units of [`CERTAIN_WIN`], all of it won or lost
    /// and the rest drawn: right only for an evaluator in those units. An evaluator that knows
    /// how its scores turn out says so ([`Calibrated`](crate::Calibrated), a tablebase).
    fn chances(&self, score: i32, board: Board) -> Chances {
        let _ = board;
        Chances::of_decisive(score).unwrap_or_else(|| {
            let expected = f64::from(score) / f64::from(CERTAIN_WIN);
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
    fn evaluate(&self, board: Board) -> i32 {
        (**self).evaluate(board)
    }
    fn worth_caching(&self) -> bool {
        (**self).worth_caching()
    }
    fn exact(&self, board: Board) -> Option<i32> {
        (**self).exact(board)
    }
    fn root_moves(&self, board: Board) -> Result<Option<MoveList>, EvalError> {
        (**self).root_moves(board)
    }
    fn chances(&self, score: i32, board: Board) -> Chances {
        (**self).chances(score, board)
    }
}

impl<E: Evaluator + ?Sized> Evaluator for Box<E> {
    fn evaluate(&self, board: Board) -> i32 {
        (**self).evaluate(board)
    }
    fn worth_caching(&self) -> bool {
        (**self).worth_caching()
    }
    fn exact(&self, board: Board) -> Option<i32> {
        (**self).exact(board)
    }
    fn root_moves(&self, board: Board) -> Result<Option<MoveList>, EvalError> {
        (**self).root_moves(board)
    }
    fn chances(&self, score: i32, board: Board) -> Chances {
        (**self).chances(score, board)
    }
}

impl<E: Evaluator + ?Sized> Evaluator for std::sync::Arc<E> {
    fn evaluate(&self, board: Board) -> i32 {
        (**self).evaluate(board)
    }
    fn worth_caching(&self) -> bool {
        (**self).worth_caching()
    }
    fn exact(&self, board: Board) -> Option<i32> {
        (**self).exact(board)
    }
    fn root_moves(&self, board: Board) -> Result<Option<MoveList>, EvalError> {
        (**self).root_moves(board)
    }
    fn chances(&self, score: i32, board: Board) -> Chances {
        (**self).chances(score, board)
    }
}
