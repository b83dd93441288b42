//! Perft counts against the reference vectors in `data/perft.tsv`.
//!
//! Counts up to two million leaves run in every `cargo test`; the deeper ones are ignored in
//! debug builds and run by CI in release (`cargo test --release -- --ignored`).

use tns_board::{Board, perft, perft_divide};

const SHALLOW_LIMIT: u64 = 2_000_000;

fn vectors() -> Vec<(Board, u32, u64)> {
    include_str!("data/perft.tsv")
        .lines()
        .skip(1)
        .map(|line| {
            let mut f = line.split('\t');
            let (pos, depth, nodes) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
            (pos.parse().unwrap(), depth.parse().unwrap(), nodes.parse().unwrap())
        })
        .collect()
}

fn check(filter: impl Fn(u64) -> bool) {
    let mut checked = 0;
    for (board, depth, nodes) in vectors().into_iter().filter(|v| filter(v.2)) {
        assert_eq!(perft(board, depth), nodes, "perft({board}, {depth})");
        checked += 1;
    }
    assert!(checked > 0, "no vector selected");
}

#[test]
fn shallow_vectors() {
    check(|nodes| nodes <= SHALLOW_LIMIT);
}

#[test]
#[ignore = "deep perft: run in release"]
fn deep_vectors() {
    check(|nodes| nodes > SHALLOW_LIMIT);
}

#[test]
fn divide_sums_to_perft() {
    for (board, depth, nodes) in vectors().into_iter().filter(|v| v.2 <= 100_000 && v.1 >= 2) {
        let parts = perft_divide(board, depth);
        assert_eq!(parts.len(), board.legal_moves().len());
        assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), nodes);
    }
}
