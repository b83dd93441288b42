//! The network as the search's evaluator.

use tns_board::Board;
use tns_search::{Eval, Evaluator};

use crate::Network;

/// The network evaluator's unit: its [`Eval`] is the network's output (the tanh, in [-1, 1])
/// times this. A certain win (1.0) scores like 10 dead sheep in the heuristic's units, well
/// inside the search's evaluation limit ([`Eval::LIMIT`]).
pub const SCORE_SCALE: f32 = 1000.0;

/// The network output (before its tanh) past which the evaluation is ±[`SCORE_SCALE`].
const SATURATED: f32 = 4.5;

/// The network plugged into `tns_search::Search`: the neural player is the same search with
/// this evaluator. Its evaluations are the network's output times [`SCORE_SCALE`].
///
/// ```
/// use tns_board::Board;
/// use tns_nn::{Network, NeuralEvaluator};
/// use tns_search::{Eval, Evaluator};
///
/// let eval = NeuralEvaluator::new(Network::new(&[16], 1)?);
/// assert!(eval.evaluate(Board::START).get().abs() <= 1000);
/// # Ok::<(), tns_nn::NetworkError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct NeuralEvaluator {
    network: Network,
}

impl NeuralEvaluator {
    /// An evaluator using `network`.
    pub fn new(network: Network) -> NeuralEvaluator {
        NeuralEvaluator { network }
    }

    /// The network.
    pub fn network(&self) -> &Network {
        &self.network
    }
}

impl Evaluator for NeuralEvaluator {
    #[inline]
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a network's output, in [-1, 1], times the score scale: far inside an i32"
    )]
    fn evaluate(&self, board: Board) -> Eval {
        let y = self.network.forward_logit(board);
        // Beyond ±4.5 the tanh is past 0.99975, so 1,000 times it rounds to ±1,000: the same
        // score without computing the tanh (tanh is monotone, and 1,000 times a value at most 1
        // is at most 1,000).
        Eval::new(if y >= SATURATED {
            SCORE_SCALE as i32
        } else if y <= -SATURATED {
            -(SCORE_SCALE as i32)
        } else {
            (y.tanh() * SCORE_SCALE).round() as i32
        })
    }

    /// An evaluation costs hundreds of nanoseconds, and depends on the board alone.
    fn worth_caching(&self) -> bool {
        true
    }
}
