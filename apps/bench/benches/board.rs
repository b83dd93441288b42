//! Criterion benches for the rules library: move generation, make-move, canonical, perft 5.
//! Each bench asserts its result first, so a fast wrong answer fails instead of looking good.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tns_board::{Board, MoveList, perft};

/// Positions from every phase: the start, placement with a kill on, the movement phase.
const POSITIONS: [&str; 4] = [
    "T3T/5/5/5/T3T s 20",
    "TSS2/1TS1S/S2S1/STST1/SSS2 s 5",
    "SS1SS/TT1SS/TSSSS/S1TSS/SS2S t 0",
    "STSTT/SSSSS/SSTSS/1S1SS/SSSSS s 0",
];

fn boards() -> Vec<Board> {
    POSITIONS.iter().map(|p| p.parse().unwrap()).collect()
}

fn movegen(c: &mut Criterion) {
    let boards = boards();
    let total: usize = boards.iter().map(|b| b.legal_moves().len()).sum();
    assert_eq!(total, 21 + 10 + 7 + 6);
    let mut list = MoveList::new();
    c.bench_function("movegen/4 positions", |b| {
        b.iter(|| {
            let mut n = 0;
            for &board in black_box(&boards) {
                board.generate_moves(&mut list);
                n += list.len();
            }
            n
        });
    });
    c.bench_function("count_moves/4 positions", |b| {
        b.iter(|| black_box(&boards).iter().map(|b| b.count_moves()).sum::<u32>());
    });
}

fn play(c: &mut Criterion) {
    let boards = boards();
    let pairs: Vec<_> = boards
        .iter()
        .flat_map(|&b| b.legal_moves().iter().map(move |&m| (b, m)).collect::<Vec<_>>())
        .collect();
    assert!(pairs.iter().all(|&(b, m)| b.after(m) == Ok(b.after_unchecked(m))));
    c.bench_function("play_unchecked/44 moves", |b| {
        b.iter(|| {
            black_box(&pairs).iter().fold(0u64, |acc, &(b, m)| acc ^ b.after_unchecked(m).key())
        });
    });
    c.bench_function("play checked/44 moves", |b| {
        b.iter(|| {
            black_box(&pairs).iter().fold(0u64, |acc, &(mut b, m)| {
                b.play(m).unwrap();
                acc ^ b.key()
            })
        });
    });
}

fn canonical(c: &mut Criterion) {
    let boards = boards();
    for &b in &boards {
        let (canon, sym) = b.canonical();
        assert_eq!(b.transformed(sym), canon);
    }
    c.bench_function("canonical/4 positions", |b| {
        b.iter(|| black_box(&boards).iter().fold(0u64, |acc, b| acc ^ b.canonical().0.key()));
    });
}

fn perft5(c: &mut Criterion) {
    assert_eq!(perft(Board::START, 5), 1_304_788);
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    group.bench_function("start depth 5", |b| b.iter(|| perft(black_box(Board::START), 5)));
    group.finish();
}

criterion_group!(benches, movegen, play, canonical, perft5);
criterion_main!(benches);
