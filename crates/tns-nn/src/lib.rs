//! A small neural network that learns to evaluate Tigers and Sheep positions.
//!
//! [`Network`] is a multilayer perceptron over the raw position (where the tigers and sheep
//! stand, the sheep in hand, the side to move) with ReLU hidden layers of the caller's sizes and
//! a tanh output: the expected result for the side to move. Its forward pass allocates nothing
//! and adds only the weight rows of the inputs that are on. [`gradient`] and [`train_epoch`]
//! train it on mean squared error with [`Adam`], each minibatch's gradient computed in parallel
//! (rayon) yet summed in a fixed order, so the result does not depend on the thread count.
//! Weights files carry a magic number, a version, the layer sizes and a checksum, and are saved
//! atomically. [`NeuralEvaluator`] plugs a network into `tns_search::Search`.
//!
//! ```
//! use tns_board::Board;
//! use tns_nn::{Adam, Network, Sample, loss, train_epoch};
//!
//! let mut net = Network::new(&[16], 3)?;
//! let mut adam = Adam::new(net.params().len(), 0.01);
//! // Teach it that the start is a draw and that two dead sheep favour the tigers.
//! let samples = [
//!     Sample { board: Board::START, target: 0.0 },
//!     Sample { board: "TSS1T/SSSSS/SS1SS/SSSS1/TSSST t 0".parse()?, target: 0.8 },
//! ];
//! let before = loss(&net, &samples);
//! for _ in 0..50 {
//!     train_epoch(&mut net, &mut adam, &samples, 2);
//! }
//! assert!(loss(&net, &samples) < before);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod adam;
mod error;
mod eval;
mod file;
mod input;
mod network;
mod train;

pub use adam::Adam;
pub use error::NetworkError;
pub use eval::{NeuralEvaluator, SCORE_SCALE};
pub use file::WEIGHTS_VERSION;
pub use input::INPUTS;
pub use network::{MAX_WIDTH, Network};
pub use train::{Sample, gradient, loss, train_epoch};
