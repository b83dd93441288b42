//! The network as the search's evaluator.

use tns_board::Board;
use tns_search::Evaluator;

use crate::Network;

/// Search scores per unit of network output: a certain win (1.0) scores like 10 dead sheep in
/// the heuristic's units, well inside the search's evaluation limit.
pub const SCORE_SCALE: f32 = 1000.0;

/// The network plugged into `tns_search::Search`: the neural player is the same search with
/// this evaluator.
///
/// ```
/// use tns_board::Board;
/// use tns_nn::{Network, NeuralEvaluator};
/// use tns_search::Evaluator;
///
/// let eval = NeuralEvaluator::new(Network::new(&[16], 1)?);
/// assert!(eval.evaluate(Board::START).abs() <= 1000);
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
    fn evaluate(&self, board: Board) -> i32 {
        (self.network.forward(board) * SCORE_SCALE).round() as i32
    }
}
