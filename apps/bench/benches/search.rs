//! Criterion benches for the engine: the heuristic and network evaluations, and the search to a
//! fixed depth on each bench position. Each bench checks its answer before timing it.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use tns_bench::BENCH_POSITIONS;
use tns_board::{Board, Side, Symmetry};
use tns_nn::{Network, NeuralEvaluator};
use tns_search::{Evaluator, Heuristic, Limits, Search, SearchConfig};

/// The depth of the search benches.
const DEPTH: u32 = 9;

/// The move a depth-9 search picks in each bench position with the default weights. A change to
/// the weights or the search that changes a move must update this list on purpose.
const EXPECTED: [&str; 6] = ["a3", "b4", "b2", "b2d2", "e5d5", "c3b4"];

fn evaluation(c: &mut Criterion) {
    let h = Heuristic::default();
    let boards: Vec<Board> = BENCH_POSITIONS.iter().map(tns_bench::BenchPosition::board).collect();
    for &b in &boards {
        // Symmetric images score the same, and the score is from the side to move's view.
        for s in Symmetry::ALL {
            assert_eq!(h.evaluate(b.transformed(s)), h.evaluate(b));
        }
        assert_eq!(h.evaluate(b).get(), h.tiger_score(b) * b.side_to_move().sign());
    }
    let kill = boards[3];
    assert!(kill.side_to_move() == Side::Tiger && h.evaluate(kill).get() > 0);
    c.bench_function("heuristic eval/6 positions", |bench| {
        bench.iter(|| black_box(&boards).iter().map(|&b| h.evaluate(b).get()).sum::<i32>());
    });
}

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search depth 9");
    group.sample_size(20);
    let stop = AtomicBool::new(false);
    let mut search = Search::new(Heuristic::default(), SearchConfig::default().with_tt_mb(16))
        .expect("a 16 MiB one-thread search");
    for (p, expected) in BENCH_POSITIONS.iter().zip(EXPECTED) {
        let board = p.board();
        let run = |search: &mut Search<Heuristic>| {
            search.clear();
            search
                .search(board, &[], Limits::depth(DEPTH), &stop, |_| {})
                .expect("the heuristic names no root moves")
        };
        let best = run(&mut search).best_move.map(|m| m.to_string());
        assert_eq!(best.as_deref(), Some(expected), "{}", p.name);
        group.bench_function(p.name, |bench| bench.iter(|| run(&mut search).nodes));
    }
    group.finish();
}

/// The network: the shipped `weights/latest.bin` when it loads, otherwise a fresh network of the
/// default shape (64 and 32 hidden), named so in the bench.
fn network_evaluation(c: &mut Criterion) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../weights/latest.bin");
    let (net, name) = match Network::load(&path) {
        Ok(net) => (net, "network eval (weights/latest.bin)/6 positions"),
        Err(_) => (
            Network::new(&[64, 32], 1).expect("valid sizes"),
            "network eval (untrained 64-32)/6 positions",
        ),
    };
    let eval = NeuralEvaluator::new(net);
    let boards: Vec<Board> = BENCH_POSITIONS.iter().map(tns_bench::BenchPosition::board).collect();
    for &b in &boards {
        // The evaluation is the network's output scaled, and stays inside the search's limit.
        #[expect(clippy::cast_possible_truncation, reason = "an output in [-1, 1] times 1,000")]
        let expected = (eval.network().forward(b) * tns_nn::SCORE_SCALE).round() as i32;
        assert_eq!(eval.evaluate(b).get(), expected);
        assert!(expected.abs() <= tns_search::Eval::LIMIT.get());
    }
    c.bench_function(name, |bench| {
        bench.iter(|| black_box(&boards).iter().map(|&b| eval.evaluate(b).get()).sum::<i32>());
    });
}

criterion_group!(benches, evaluation, network_evaluation, search);
criterion_main!(benches);
