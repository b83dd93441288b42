//! Criterion bench for the trainer's inner loop: the gradient of a minibatch on the shipped
//! network's shape. Checks its answer before timing it.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tns_board::{Board, Game};
use tns_nn::{Objective, Sample, gradient};

/// Positions of a few games of pseudo-random moves, the same every run.
fn samples(count: usize) -> Vec<Sample> {
    let mut out = Vec::with_capacity(count);
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        state >> 33
    };
    while out.len() < count {
        let mut game = Game::new();
        for _ in 0..80 {
            let moves = game.legal_moves();
            if moves.is_empty() || out.len() == count {
                break;
            }
            let pick = usize::try_from(next()).unwrap_or(0) % moves.len();
            game.play(moves[pick]).expect("a legal move");
            let board: Board = game.board();
            let target = if next() % 3 == 0 { 0.5 } else { -0.25 };
            out.push(Sample { board, target });
        }
    }
    out
}

fn train(c: &mut Criterion) {
    let net = tns_match::shipped_network().expect("the shipped network");
    let batch = samples(1024);
    let (grad, loss) = gradient(&net, &batch, Objective::Squared);
    assert_eq!(grad.len(), net.params().len());
    assert!(grad.iter().all(|g| g.is_finite()) && grad.iter().any(|&g| g != 0.0));
    assert!(loss.is_finite() && loss > 0.0);
    c.bench_function("gradient/1024 samples, the shipped network", |bench| {
        bench.iter(|| gradient(black_box(&net), black_box(&batch), Objective::Squared));
    });
}

criterion_group!(benches, train);
criterion_main!(benches);
