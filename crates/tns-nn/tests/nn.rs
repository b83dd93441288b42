//! Network tests: gradients against finite differences, Adam on a small fitted problem, the
//! sparse and dense forward passes, files and every way loading them can fail.

use proptest::prelude::*;
use tns_board::{Board, Side};
use tns_file::FileError;
use tns_nn::{
    Adam, Buckets, Inputs, Network, NetworkError, NeuralEvaluator, Objective, SCORE_SCALE, Sample,
    gradient, loss, train_epoch,
};
use tns_search::Evaluator as _;

/// Positions from seeded random play.
fn positions(n: usize, seed: u64) -> Vec<Board> {
    let mut state = seed | 1;
    let mut out = Vec::new();
    let mut board = Board::START;
    while out.len() < n {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let moves = board.legal_moves();
        if moves.is_empty() {
            board = Board::START;
            continue;
        }
        let pick = usize::try_from(state % moves.len() as u64).expect("below the move count");
        board = board.after_unchecked(moves[pick]);
        out.push(board);
    }
    out
}

fn samples(n: usize, seed: u64) -> Vec<Sample> {
    positions(n, seed)
        .into_iter()
        .map(|board| {
            // Something learnable from the raw position: dead sheep, by side to move.
            let dead = f32::from(board.dead()) / 5.0;
            let target = if board.side_to_move() == Side::Tiger { dead } else { -dead };
            Sample { board, target: target.clamp(-0.9, 0.9) }
        })
        .collect()
}

#[test]
fn gradient_matches_finite_differences() {
    for inputs in Inputs::ALL {
        for buckets in Buckets::ALL {
            for objective in [Objective::Squared, Objective::CrossEntropy] {
                gradient_matches_finite_differences_on(inputs, buckets, objective);
            }
        }
    }
}

/// The mean of `objective` over `batch`, from the network's outputs.
fn mean_objective(net: &Network, batch: &[Sample], objective: Objective) -> f32 {
    let sum: f32 = batch.iter().map(|s| objective.of(net.forward(s.board), s.target)).sum();
    sum / 12.0
}

fn gradient_matches_finite_differences_on(inputs: Inputs, buckets: Buckets, objective: Objective) {
    let net = Network::with_buckets(inputs, buckets, &[8, 6], 5).unwrap();
    let batch = samples(12, 9);
    let (grad, squared) = gradient(&net, &batch, objective);
    assert!((squared - loss(&net, &batch)).abs() < 1e-5, "the error reported is the squared one");
    let mut checked = 0;
    let mut close = 0;
    for index in (0..net.params().len()).step_by(7) {
        let h = 1e-2;
        let mut plus = net.clone();
        plus.params_mut()[index] += h;
        let mut minus = net.clone();
        minus.params_mut()[index] -= h;
        let numeric = (mean_objective(&plus, &batch, objective)
            - mean_objective(&minus, &batch, objective))
            / (2.0 * h);
        checked += 1;
        // A ReLU kink between the two probes can break a single comparison.
        if (numeric - grad[index]).abs() <= 2e-3 + 0.05 * numeric.abs() {
            close += 1;
        }
    }
    assert!(close * 100 >= checked * 95, "{close} of {checked} close");
    assert!(grad.iter().any(|g| g.abs() > 1e-4), "the gradient is not all zero");
}

#[test]
fn adam_fits_a_small_problem() {
    let mut net = Network::new(&[16], 2).unwrap();
    let train = samples(256, 3);
    let mut adam = Adam::new(net.params().len(), 0.01);
    let before = loss(&net, &train);
    for _ in 0..150 {
        train_epoch(&mut net, &mut adam, &train, 32, Objective::Squared);
    }
    let after = loss(&net, &train);
    assert!(after < before * 0.2, "{before} -> {after}");
}

#[test]
fn gradients_do_not_depend_on_the_thread_count() {
    let net = Network::new(&[24, 8], 4).unwrap();
    let batch = samples(100, 6);
    let on = |threads| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| gradient(&net, &batch, Objective::CrossEntropy))
    };
    assert_eq!(on(1), on(2));
}

fn version_of(bytes: &[u8], version: u8) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[8] = version;
    out
}

/// Thirty epochs of Adam on 200 positions of seed `seed` halve `net`'s loss.
fn fits(net: &Network, seed: u64) {
    let data = samples(200, seed);
    let mut fitted = net.clone();
    let mut adam = Adam::new(fitted.params().len(), 0.01);
    let before = loss(&fitted, &data);
    for _ in 0..30 {
        train_epoch(&mut fitted, &mut adam, &data, 50, Objective::Squared);
    }
    assert!(loss(&fitted, &data) < before * 0.5, "{before} -> {}", loss(&fitted, &data));
}

#[test]
fn a_network_on_the_threats_inputs_round_trips_and_trains() {
    let net = Network::with_inputs(Inputs::Threats, &[16], 4).unwrap();
    assert_eq!(net.sizes(), &[87, 16, 1]);
    assert_eq!(net.inputs(), Inputs::Threats);
    assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
    fits(&net, 3);
}

#[test]
fn save_load_round_trip_and_every_error() {
    let dir = std::env::temp_dir().join(format!("tns-nn-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.bin");
    let net = Network::new(&[12, 5], 8).unwrap();
    net.save(&path).unwrap();
    assert_eq!(Network::load(&path).unwrap(), net);

    let bytes = std::fs::read(&path).unwrap();
    // Truncated at every byte: an error, never a panic.
    for len in 0..bytes.len() {
        assert!(Network::from_bytes(&bytes[..len]).is_err(), "{len}");
    }
    let err = |b: &[u8]| Network::from_bytes(b).unwrap_err();
    assert!(matches!(err(b"PK\x03\x04 a zip file"), NetworkError::File(FileError::Foreign(_))));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(matches!(err(&version), NetworkError::File(FileError::Version { found: 9, .. })));
    let mut padded = bytes.clone();
    padded.push(0);
    assert!(matches!(err(&padded), NetworkError::File(FileError::Length { .. })));
    let mut flipped = bytes.clone();
    flipped[40] ^= 1;
    assert!(matches!(err(&flipped), NetworkError::File(FileError::Checksum)));
    // Version 3: magic, version, the input set's id (12), the buckets' id (16), the number of
    // sizes (20), the sizes (24).
    let mut sizes = bytes.clone();
    sizes[24] = 51;
    assert!(matches!(err(&sizes), NetworkError::Sizes(_)));
    for id in [0u8, 3, 9] {
        let mut other = bytes.clone();
        other[16] = id;
        assert!(matches!(err(&other), NetworkError::Buckets(b) if b == u32::from(id)), "{id}");
    }
    // An input set id that is unknown, or not the one the first layer size says.
    for id in [0u8, 2, 9] {
        let mut other = bytes.clone();
        other[12] = id;
        assert!(matches!(err(&other), NetworkError::Inputs { first: 52, .. }), "{id}");
    }
    // A version 2 file (from before buckets, no buckets' id) and version 4 (a newer trainer's)
    // are refused by name.
    for version in [1, 2, 4] {
        assert!(matches!(
            err(&version_of(&bytes, version)),
            NetworkError::File(FileError::Version { found, expected: 3 }) if found == u32::from(version)
        ));
    }
    // A NaN with a valid checksum is still refused.
    let mut nan = net.clone();
    nan.params_mut()[3] = f32::NAN;
    assert!(matches!(err(&nan.to_bytes()), NetworkError::NotFinite { index: 3 }));
    // Nor is such a network ever saved: the file that was there stays as it was.
    let refused = nan.save(&path).unwrap_err();
    assert!(refused.to_string().contains("parameter 3 is not a finite number"), "{refused}");
    assert_eq!(Network::load(&path).unwrap(), net);
    // Loading names the file around the error.
    std::fs::write(&path, &flipped).unwrap();
    let damaged = Network::load(&path).unwrap_err();
    assert!(damaged.to_string().starts_with(&path.display().to_string()), "{damaged}");
    assert!(damaged.to_string().ends_with("checksum mismatch, the file is corrupted"));
    assert!(Network::load(&dir.join("missing.bin")).unwrap_err().is_missing());
    assert!(!damaged.is_missing());
    assert!(matches!(Network::new(&[600], 1), Err(NetworkError::Sizes(_))));
    assert!(matches!(Network::new(&[0], 1), Err(NetworkError::Sizes(_))));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Whether a network's evaluations equal its output times 1,000, rounded, on random positions
/// (its weights scaled by the square root of `gain` from a fresh network's), and how many of
/// them are the saturated ±1,000.
fn evaluations_agree(seed: u64, gain: f32) -> (bool, usize) {
    let mut net = Network::with_buckets(Inputs::Mobility, Buckets::Phase, &[48, 16], seed).unwrap();
    for p in net.params_mut() {
        *p *= gain.sqrt();
    }
    let eval = NeuralEvaluator::new(net);
    let (mut same, mut saturated) = (true, 0);
    for board in positions(40, seed) {
        if board.dead() >= 5 || !board.has_moves() {
            continue;
        }
        #[expect(clippy::cast_possible_truncation, reason = "an output in [-1, 1] times 1,000")]
        let expected = (eval.network().forward(board) * SCORE_SCALE).round() as i32;
        same &= eval.evaluate(board).get() == expected;
        saturated += usize::from(expected.abs() == 1000);
    }
    (same, saturated)
}

#[test]
fn evaluation_saturates_where_it_should() {
    let (mut saturated, mut all) = (0, 0);
    for seed in 1..30 {
        let (same, n) = evaluations_agree(seed, 40.0);
        assert!(same, "seed {seed}");
        saturated += n;
        all += 40;
    }
    // Both branches are taken: saturated evaluations and others.
    assert!(saturated > 0 && saturated < all, "{saturated} of {all}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The evaluation skips the tanh where it saturates, and is still the output times 1,000
    /// rounded, on networks whose outputs reach far past the saturation and on ones that stay
    /// near it.
    #[test]
    fn evaluation_is_the_output_scaled_and_rounded(seed in 1u64..10_000, gain in 0.5f32..40.0) {
        let (same, _) = evaluations_agree(seed, gain);
        prop_assert!(same);
    }

    #[test]
    fn sparse_forward_equals_dense_training_pass(
        seed in 1u64..10_000,
        inputs in 0usize..3,
        phase in any::<bool>(),
        // Widths below, at and between the forward pass's chunks of 32 outputs.
        first in 1usize..=100,
        second in 1usize..=70,
    ) {
        let inputs = Inputs::ALL[inputs];
        let buckets = if phase { Buckets::Phase } else { Buckets::One };
        let net = Network::with_buckets(inputs, buckets, &[first, second], seed).unwrap();
        let batch: Vec<Sample> = positions(4, seed)
            .into_iter()
            .map(|board| Sample { board, target: 0.0 })
            .collect();
        // With target 0 the loss is the mean of the squared outputs of the dense pass.
        let (_, dense) = gradient(&net, &batch, Objective::Squared);
        let sparse: f32 = batch.iter().map(|s| net.forward(s.board).powi(2)).sum::<f32>() / 4.0;
        prop_assert!((dense - sparse).abs() < 1e-5, "{dense} vs {sparse}");
    }
}

#[test]
fn each_bucket_judges_its_own_positions_and_round_trips() {
    let net = Network::with_buckets(Inputs::Threats, Buckets::Phase, &[24, 8], 3).unwrap();
    assert_eq!(net.buckets(), Buckets::Phase);
    assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
    // The layers after the first are 24 * 8 + 8 + 8 + 1 parameters a bucket, after the first
    // layer's 87 * 24 + 24. Change bucket 1's (tigers to move, 11 or more sheep in hand)
    // output bias: its positions change, the others' do not.
    let first = 87 * 24 + 24;
    let later = 24 * 8 + 8 + 8 + 1;
    let mut changed = net.clone();
    changed.params_mut()[first + later + later - 1] += 0.5;
    for board in positions(200, 5) {
        let moved = (changed.forward(board) - net.forward(board)).abs() > 1e-6;
        assert_eq!(moved, Buckets::Phase.of(board) == 1, "{board}");
    }
    // Training fits positions of every bucket.
    fits(&net, 4);
}

#[test]
fn a_huge_weights_file_is_refused_before_it_is_read() {
    // A sparse file of 20 GB takes no disk and would take 20 GB of memory to read.
    let path = std::env::temp_dir().join(format!("tns-huge-weights-{}.bin", std::process::id()));
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(20 << 30).unwrap();
    let e = tns_nn::Network::load(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert!(e.to_string().contains("more than the"), "{e}");
}
