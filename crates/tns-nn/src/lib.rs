#![doc = include_str!("../README.md")]

mod adam;
mod buckets;
mod error;
mod eval;
mod file;
mod input;
mod kernels;
mod network;
mod objective;
mod train;

pub use adam::Adam;
pub use buckets::Buckets;
pub use error::{NameError, NetworkError};
pub use eval::{NeuralEvaluator, SCORE_SCALE};
pub use file::WEIGHTS_VERSION;
pub use input::{INPUTS, Inputs};
pub use kernels::MAX_WIDTH;
pub use network::Network;
pub use objective::Objective;
pub use train::{Sample, gradient, loss, train_epoch};
