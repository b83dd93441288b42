//! The multilayer perceptron: dense layers, ReLU between them, tanh at the output.

use rand::rngs::StdRng;
use rand::{RngExt as _, SeedableRng as _};
use tns_board::Board;

use crate::buckets::Buckets;
use crate::input::{Features, IN_HAND, Inputs, MAX_INPUTS};
use crate::kernels::{MAX_WIDTH, Nonzero, gathered_layer, sparse_layer};
use crate::{NetworkError, Objective};

/// A network: the inputs of an [`Inputs`] set, hidden layers of the caller's sizes with ReLU,
/// and one output squashed by tanh into [-1, 1], the expected result for the side to move (1 a
/// win, -1 a loss).
///
/// The parameters are one flat vector, layer after layer, each layer's weights stored input by
/// input (`w[i][j]` joins input `i` to output `j`) and then its biases, so the forward pass
/// adds whole rows for the inputs that are on and skips the rest. With [`Buckets`] other than
/// [`Buckets::One`], the first layer is followed by one copy of the later layers a bucket, in
/// the order of the buckets.
///
/// ```
/// use tns_board::Board;
/// use tns_nn::Network;
///
/// let net = Network::new(&[32, 16], 7)?;
/// assert_eq!(net.sizes(), &[52, 32, 16, 1]);
/// let v = net.forward(Board::START);
/// assert!((-1.0..=1.0).contains(&v));
/// # Ok::<(), tns_nn::NetworkError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    inputs: Inputs,
    buckets: Buckets,
    sizes: Vec<usize>,
    params: Vec<f32>,
}

/// The parameters of the layers joining these sizes, one copy.
fn layers_count(sizes: &[usize]) -> usize {
    sizes.windows(2).map(|w| w[0] * w[1] + w[1]).sum()
}

/// Where each layer's weights and biases start in the flat parameters, for the later layers
/// those of `bucket`: `(inputs, outputs, weights, biases)` a layer.
fn offsets(
    sizes: &[usize],
    bucket: usize,
) -> impl Iterator<Item = (usize, usize, usize, usize)> + '_ {
    let later = layers_count(&sizes[1.min(sizes.len())..]);
    let mut at = 0;
    sizes.windows(2).enumerate().map(move |(l, w)| {
        if l == 1 {
            at += bucket * later;
        }
        let (inputs, outputs) = (w[0], w[1]);
        let weights = at;
        let biases = at + inputs * outputs;
        at = biases + outputs;
        (inputs, outputs, weights, biases)
    })
}

/// The number of parameters of a network with these layer sizes and buckets.
pub(crate) fn parameter_count(sizes: &[usize], buckets: Buckets) -> usize {
    let first = layers_count(&sizes[..2.min(sizes.len())]);
    first + buckets.count() * layers_count(&sizes[1.min(sizes.len())..])
}

/// The most layers of weights a network has: 8 hidden layers and the output.
const MAX_LAYERS: usize = 9;

/// The buffers of one sample's forward and backward passes, kept from sample to sample so that
/// training allocates nothing per sample once they have grown to the network's widths.
#[derive(Clone, Debug, Default)]
pub(crate) struct Pass {
    /// Every layer's output after its activation: the input first, the tanh output last.
    acts: Vec<Vec<f32>>,
    /// The gradient with respect to the current layer's outputs.
    delta: Vec<f32>,
    /// The gradient with respect to its inputs, which becomes the next `delta`.
    back: Vec<f32>,
}

/// Checks layer sizes: an input set's count first, 1 last, every size 1 to `MAX_WIDTH`, at most
/// 8 hidden layers. Returns the input set.
pub(crate) fn check_sizes(sizes: &[usize]) -> Result<Inputs, NetworkError> {
    let inputs = sizes.first().and_then(|&n| Inputs::from_count(n));
    let ok = sizes.len() >= 2
        && sizes.len() <= MAX_LAYERS + 1
        && inputs.is_some()
        && sizes.last() == Some(&1)
        && sizes.iter().all(|&s| (1..=MAX_WIDTH).contains(&s));
    match inputs {
        Some(inputs) if ok => Ok(inputs),
        _ => Err(NetworkError::Sizes(sizes.to_vec())),
    }
}

#[inline]
fn axpy(out: &mut [f32], a: f32, x: &[f32]) {
    for (o, &xi) in out.iter_mut().zip(x) {
        *o += a * xi;
    }
}

impl Network {
    /// A network on the [`Inputs::Pieces`] inputs with hidden layers of the given sizes, its
    /// weights drawn from `seed` (He initialisation for the ReLU layers, small weights into the
    /// output).
    ///
    /// # Errors
    /// [`NetworkError::Sizes`] for more than 8 hidden layers or a layer wider than
    /// [`MAX_WIDTH`] or empty.
    pub fn new(hidden: &[usize], seed: u64) -> Result<Network, NetworkError> {
        Network::with_inputs(Inputs::Pieces, hidden, seed)
    }

    /// [`Network::new`] on another input set.
    ///
    /// # Errors
    /// As [`Network::new`].
    pub fn with_inputs(
        inputs: Inputs,
        hidden: &[usize],
        seed: u64,
    ) -> Result<Network, NetworkError> {
        Network::with_buckets(inputs, Buckets::One, hidden, seed)
    }

    /// [`Network::with_inputs`] with a copy of the layers after the first for each of the
    /// `buckets`, each drawn as a new network's would be.
    ///
    /// ```
    /// use tns_nn::{Buckets, Inputs, Network};
    ///
    /// let one = Network::with_inputs(Inputs::Threats, &[32, 8], 1)?;
    /// let eight = Network::with_buckets(Inputs::Threats, Buckets::Phase, &[32, 8], 1)?;
    /// // The first layer (87 by 32) once, the rest (32 by 8, 8 by 1) eight times.
    /// assert_eq!(one.params().len(), 87 * 32 + 32 + 32 * 8 + 8 + 8 + 1);
    /// assert_eq!(eight.params().len(), 87 * 32 + 32 + 8 * (32 * 8 + 8 + 8 + 1));
    /// # Ok::<(), tns_nn::NetworkError>(())
    /// ```
    ///
    /// # Errors
    /// As [`Network::new`].
    pub fn with_buckets(
        inputs: Inputs,
        buckets: Buckets,
        hidden: &[usize],
        seed: u64,
    ) -> Result<Network, NetworkError> {
        let mut sizes = vec![inputs.count()];
        sizes.extend_from_slice(hidden);
        sizes.push(1);
        let inputs = check_sizes(&sizes)?;
        let mut rng = StdRng::seed_from_u64(seed);
        let mut params = vec![0.0; parameter_count(&sizes, buckets)];
        let last = sizes.len() - 2;
        for bucket in 0..buckets.count() {
            for (l, (inputs, outputs, weights, _)) in offsets(&sizes, bucket).enumerate() {
                if l == 0 && bucket > 0 {
                    continue;
                }
                #[expect(clippy::cast_precision_loss, reason = "a layer's width, at most 256")]
                let bound = if l == last { 0.1 } else { (6.0 / inputs as f32).sqrt() };
                for w in &mut params[weights..weights + inputs * outputs] {
                    *w = rng.random_range(-bound..bound);
                }
            }
        }
        Ok(Network { inputs, buckets, sizes, params })
    }

    /// A network from its layer sizes and flat parameters (as [`Network::params`] gives them);
    /// the first size names the input set (52 [`Inputs::Pieces`], 87 [`Inputs::Threats`], 103
    /// [`Inputs::Mobility`]).
    ///
    /// # Errors
    /// [`NetworkError::Sizes`] for sizes [`Network::new`] would refuse,
    /// [`NetworkError::ParameterCount`] when `params` has the wrong length, and
    /// [`NetworkError::NotFinite`] for a NaN or infinite parameter.
    pub fn from_params(sizes: Vec<usize>, params: Vec<f32>) -> Result<Network, NetworkError> {
        Network::from_bucket_params(sizes, Buckets::One, params)
    }

    /// [`Network::from_params`] for a network with `buckets`, its parameters laid out as
    /// [`Network::params`] describes.
    ///
    /// # Errors
    /// As [`Network::from_params`].
    pub fn from_bucket_params(
        sizes: Vec<usize>,
        buckets: Buckets,
        params: Vec<f32>,
    ) -> Result<Network, NetworkError> {
        let inputs = check_sizes(&sizes)?;
        let expected = parameter_count(&sizes, buckets);
        if params.len() != expected {
            return Err(NetworkError::ParameterCount { expected, found: params.len() });
        }
        if let Some(index) = params.iter().position(|p| !p.is_finite()) {
            return Err(NetworkError::NotFinite { index });
        }
        Ok(Network { inputs, buckets, sizes, params })
    }

    /// How the layers after the first are chosen for a position.
    pub fn buckets(&self) -> Buckets {
        self.buckets
    }

    /// The input set.
    pub fn inputs(&self) -> Inputs {
        self.inputs
    }

    /// The layer sizes, inputs first and the single output last.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// The parameters, layer after layer (weights input by input, then biases).
    pub fn params(&self) -> &[f32] {
        &self.params
    }

    /// The parameters, to change them (training does).
    pub fn params_mut(&mut self) -> &mut [f32] {
        &mut self.params
    }

    /// The expected result for the side to move, in [-1, 1]. Allocates nothing.
    #[inline]
    pub fn forward(&self, board: Board) -> f32 {
        self.forward_logit(board).tanh()
    }

    /// [`Network::forward`] before its tanh.
    #[inline]
    pub(crate) fn forward_logit(&self, board: Board) -> f32 {
        let features = Features::of(board, self.inputs);
        let mut layers = offsets(&self.sizes, self.buckets.of(board));
        // Two layers' outputs, each layer reading one and writing the other.
        let mut a = [0.0f32; MAX_WIDTH];
        let mut b = [0.0f32; MAX_WIDTH];
        let (mut this, mut next) = (&mut a, &mut b);
        let mut on = Nonzero::new();
        // The first layer: the rows of the inputs that are on, then the sheep in hand's.
        let Some((_, mut width, weights, biases)) = layers.next() else {
            unreachable!("a network has at least one layer (`check_sizes`)")
        };
        sparse_layer(
            &mut this[..width],
            &self.params[biases..biases + width],
            &self.params[weights..biases],
            &features.ones[..features.len],
            (IN_HAND, features.in_hand),
        );
        for (_, outputs, weights, biases) in layers {
            // ReLU, then the next layer on the outputs above zero alone.
            on.find(&this[..width]);
            gathered_layer(
                &mut next[..outputs],
                &self.params[biases..biases + outputs],
                &self.params[weights..biases],
                on.indices(),
                &this[..width],
            );
            std::mem::swap(&mut this, &mut next);
            width = outputs;
        }
        // The last layer has one output (`check_sizes`).
        this[0]
    }

    /// The forward pass on dense inputs through `bucket`'s layers, keeping every layer's output
    /// (after its activation) in `pass` for the backward pass.
    pub(crate) fn forward_keep(&self, x: &[f32; MAX_INPUTS], bucket: usize, pass: &mut Pass) {
        let acts = &mut pass.acts;
        acts.resize_with(self.sizes.len(), Vec::new);
        acts[0].clear();
        acts[0].extend_from_slice(&x[..self.inputs.count()]);
        let last = self.sizes.len() - 2;
        for (l, (inputs, outputs, weights, biases)) in offsets(&self.sizes, bucket).enumerate() {
            let (below, above) = acts.split_at_mut(l + 1);
            let (input, out) = (&below[l], &mut above[0]);
            out.clear();
            out.extend_from_slice(&self.params[biases..biases + outputs]);
            for (i, &xi) in input.iter().enumerate().take(inputs) {
                if xi != 0.0 {
                    axpy(out, xi, &self.params[weights + i * outputs..weights + (i + 1) * outputs]);
                }
            }
            for v in out.iter_mut() {
                *v = if l == last { v.tanh() } else { v.max(0.0) };
            }
        }
    }

    /// Adds the gradient of `objective(y, target) * scale` with respect to every parameter to
    /// `grad`, where `y` is the output `forward_keep` left in `pass` through `bucket`'s layers.
    /// Returns `(y - target)²`.
    pub(crate) fn backward(
        &self,
        pass: &mut Pass,
        bucket: usize,
        target: f32,
        objective: Objective,
        scale: f32,
        grad: &mut [f32],
    ) -> f32 {
        let Pass { acts, delta, back } = pass;
        let y = acts[acts.len() - 1][0];
        let error = y - target;
        delta.clear();
        delta.push(objective.delta(y, target) * scale);
        let mut layers = [(0, 0, 0, 0); MAX_LAYERS];
        let mut count = 0;
        for layer in offsets(&self.sizes, bucket) {
            layers[count] = layer;
            count += 1;
        }
        for (l, &(inputs, outputs, weights, biases)) in layers[..count].iter().enumerate().rev() {
            let input = &acts[l];
            for (j, &d) in delta.iter().enumerate() {
                grad[biases + j] += d;
            }
            back.clear();
            back.resize(inputs, 0.0);
            for i in 0..inputs {
                let row = weights + i * outputs;
                if input[i] != 0.0 {
                    for (j, &d) in delta.iter().enumerate() {
                        grad[row + j] += input[i] * d;
                    }
                }
                if l > 0 {
                    let w = &self.params[row..row + outputs];
                    back[i] = w.iter().zip(delta.iter()).map(|(w, d)| w * d).sum();
                }
            }
            if l > 0 {
                // Through the ReLU of the layer below: zero where it was off.
                for (b, &x) in back.iter_mut().zip(input) {
                    if x <= 0.0 {
                        *b = 0.0;
                    }
                }
            }
            std::mem::swap(delta, back);
        }
        error * error
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The forward pass as the search had it before `sparse_layer` and `gathered_layer`: every
    /// input that is on times its row, ones included, and only a ReLU's outputs above zero
    /// taken into the next layer, in order, each picked out one at a time.
    fn reference_forward(net: &Network, board: Board) -> f32 {
        let features = Features::of(board, net.inputs);
        let mut active: Vec<(usize, f32)> =
            features.ones[..features.len].iter().map(|&i| (usize::from(i), 1.0)).collect();
        active.push((IN_HAND, features.in_hand));
        let layers: Vec<_> = offsets(&net.sizes, net.buckets.of(board)).collect();
        let mut out = Vec::new();
        for (l, &(_, outputs, weights, biases)) in layers.iter().enumerate() {
            out = net.params[biases..biases + outputs].to_vec();
            for &(i, x) in &active {
                let row = &net.params[weights + i * outputs..weights + (i + 1) * outputs];
                for (o, &w) in out.iter_mut().zip(row) {
                    *o += x * w;
                }
            }
            if l + 1 < layers.len() {
                active = out.iter().copied().enumerate().filter(|&(_, v)| v > 0.0).collect();
            }
        }
        out[0].tanh()
    }

    /// A position `plies` random moves from the start (or fewer, if the game ends).
    fn random_position(seed: u64, plies: usize) -> Board {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut board = Board::START;
        for _ in 0..plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board = board.after_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        board
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Adding a row for an input of 1 without multiplying, and the ReLU outputs above zero
        /// found eight at a time, gives the same bits as the sums of only what is on.
        #[test]
        fn forward_is_the_sparse_sums_to_the_bit(
            seed in 1u64..100_000,
            plies in 0usize..120,
            inputs in 0usize..3,
            phase in any::<bool>(),
            // Widths below, at and between the chunks of 32 outputs, and a third layer.
            first in 1usize..=140,
            second in 1usize..=70,
            third in 0usize..=40,
        ) {
            let buckets = if phase { Buckets::Phase } else { Buckets::One };
            let mut hidden = vec![first, second];
            if third > 0 {
                hidden.push(third);
            }
            let net = Network::with_buckets(Inputs::ALL[inputs], buckets, &hidden, seed).unwrap();
            let board = random_position(seed, plies);
            prop_assert_eq!(net.forward(board).to_bits(), reference_forward(&net, board).to_bits());
        }
    }
}
