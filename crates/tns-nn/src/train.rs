//! Training: mean squared error or cross-entropy on minibatches, gradients computed in parallel.

use rayon::prelude::*;
use tns_board::Board;

use crate::input::Features;
use crate::network::Pass;
use crate::{Adam, Network, Objective};

/// A training example: a position and the result expected for its side to move, in [-1, 1].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The position.
    pub board: Board,
    /// The target value for the side to move.
    pub target: f32,
}

/// Minibatches are split into this many pieces whatever the number of threads, and the pieces'
/// gradients summed in order, so training gives the same network on any number of threads.
const PIECES: usize = 8;

/// The mean squared error of `net` over `samples`.
pub fn loss(net: &Network, samples: &[Sample]) -> f32 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f32 = samples
        .par_iter()
        .map(|s| {
            let e = net.forward(s.board) - s.target;
            e * e
        })
        .sum();
    sum / count(samples.len())
}

/// A count as the divisor of a mean: exact up to 2^24, and past that off only in digits that a
/// mean of squared errors does not need.
#[expect(clippy::cast_precision_loss, reason = "see the function's docs")]
fn count(n: usize) -> f32 {
    n as f32
}

/// The gradient of the mean of `objective` over `batch`, and the mean squared error (whatever
/// the objective: the figure runs are compared by).
pub fn gradient(net: &Network, batch: &[Sample], objective: Objective) -> (Vec<f32>, f32) {
    let n = net.params().len();
    if batch.is_empty() {
        return (vec![0.0; n], 0.0);
    }
    let scale = 1.0 / count(batch.len());
    let piece = batch.len().div_ceil(PIECES);
    let parts: Vec<(Vec<f32>, f32)> = batch
        .par_chunks(piece)
        .map(|chunk| {
            let mut grad = vec![0.0; n];
            let mut pass = Pass::default();
            let mut loss = 0.0;
            for s in chunk {
                let bucket = net.buckets().of(s.board);
                let x = Features::of(s.board, net.inputs()).dense();
                net.forward_keep(&x, bucket, &mut pass);
                loss += net.backward(&mut pass, bucket, s.target, objective, scale, &mut grad);
            }
            (grad, loss)
        })
        .collect();
    let mut total = vec![0.0; n];
    let mut loss = 0.0;
    for (g, l) in parts {
        for (t, v) in total.iter_mut().zip(g) {
            *t += v;
        }
        loss += l;
    }
    (total, loss * scale)
}

/// One pass over `samples` in minibatches of `batch_size`, in the given order, each followed by
/// an Adam step on the gradient of `objective`. Returns the mean of the minibatches' squared
/// errors before their steps.
pub fn train_epoch(
    net: &mut Network,
    adam: &mut Adam,
    samples: &[Sample],
    batch_size: usize,
    objective: Objective,
) -> f32 {
    let mut total = 0.0;
    let mut batches = 0usize;
    for batch in samples.chunks(batch_size.max(1)) {
        let (grad, loss) = gradient(net, batch, objective);
        adam.step(net.params_mut(), &grad);
        total += loss;
        batches += 1;
    }
    if batches == 0 { 0.0 } else { total / count(batches) }
}
