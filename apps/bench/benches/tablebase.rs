//! Criterion bench for tablebase probes. It uses the real table in `tablebase/` (or
//! `TNS_TABLEBASE_DIR`) when one is built, and otherwise builds the 3-kill variant in memory and
//! says so in the bench's name. The probes are checked before timing: every position is found,
//! and its value is the one its best move gives.
//!
//! With placement layers built, it also times probes of placement positions (sheep to move,
//! worked out one ply on, and tigers to move, read from a layer file) and the perfect player's
//! choice of a placement move from the table (every move's verdict).

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use tns_board::{Bitboard, Board, KILLS_TO_WIN, Side};
use tns_tablebase::Tablebase;

/// 1,024 positions with no sheep in hand and fewer than `kills` dead, from a fixed seed.
fn positions(kills: u8) -> Vec<Board> {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        usize::try_from(state % n as u64).expect("a remainder below a usize")
    };
    (0..1024)
        .map(|i| {
            let mut points: Vec<u32> = (0..25).collect();
            for j in (1..25).rev() {
                points.swap(j, next(j + 1));
            }
            let dead = next(usize::from(kills));
            let tigers = points[..4].iter().fold(0, |m, &p| m | 1 << p);
            let sheep = points[4..24 - dead].iter().fold(0, |m, &p| m | 1 << p);
            let side = if i % 2 == 0 { Side::Sheep } else { Side::Tiger };
            Board::from_parts(
                Bitboard::from_bits_truncate(tigers),
                Bitboard::from_bits_truncate(sheep),
                0,
                side,
            )
            .expect("4 tigers and at most 20 sheep")
        })
        .collect()
}

fn probe(c: &mut Criterion) {
    let dir = std::env::var_os("TNS_TABLEBASE_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tablebase"),
        PathBuf::from,
    );
    let (table, name) = match Tablebase::load(KILLS_TO_WIN, &dir) {
        Ok(t) => (t, "tablebase probe/1024 positions"),
        Err(_) => (
            Tablebase::build(3, None, |_| {}).expect("the 3-kill table builds"),
            "tablebase probe (3-kill variant: no table built)/1024 positions",
        ),
    };
    let boards = positions(table.kills());
    for &b in &boards {
        let value = table.value(b).expect("the table holds every such position");
        if let Some((_, best)) = table.best_move(b) {
            assert_eq!(best, value, "{b}");
        }
    }
    c.bench_function(name, |bench| {
        bench.iter(|| black_box(&boards).iter().filter_map(|&b| table.value(b)).count());
    });
}

/// 256 placement positions with `side` to move and at least `from` sheep placed (fewer than 20),
/// from a fixed seed.
fn placement_positions(from: u8, side: Side) -> Vec<Board> {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        usize::try_from(state % n as u64).expect("a remainder below a usize")
    };
    let low = if side == Side::Tiger { from.max(1) } else { from };
    (0..256)
        .map(|_| {
            let placed = low + u8::try_from(next(usize::from(20 - low))).expect("under 20");
            let dead = next(usize::from(placed.min(4) + 1));
            let mut points: Vec<u32> = (0..25).collect();
            for j in (1..25).rev() {
                points.swap(j, next(j + 1));
            }
            let tigers = points[..4].iter().fold(0, |m, &p| m | 1 << p);
            let on_board = usize::from(placed) - dead;
            let sheep = points[4..4 + on_board].iter().fold(0, |m, &p| m | 1 << p);
            Board::from_parts(
                Bitboard::from_bits_truncate(tigers),
                Bitboard::from_bits_truncate(sheep),
                20 - placed,
                side,
            )
            .expect("a placement position")
        })
        .collect()
}

fn placement(c: &mut Criterion) {
    let dir = std::env::var_os("TNS_TABLEBASE_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tablebase"),
        PathBuf::from,
    );
    let Ok(table) = Tablebase::load(KILLS_TO_WIN, &dir) else { return };
    let Some(from) = table.placement_from() else { return };
    for side in [Side::Sheep, Side::Tiger] {
        let boards = placement_positions(from, side);
        for &b in &boards {
            let value = table.wdl(b).expect("the layers hold every such position");
            let best = table.verdicts(b).expect("and its children").first().map(|v| v.1.wdl);
            assert_eq!(best.unwrap_or(tns_tablebase::Wdl::Loss), value, "{b}");
        }
        let name = format!("placement probe/{} to move/256 positions", side.plural());
        c.bench_function(&name, |bench| {
            bench.iter(|| black_box(&boards).iter().filter_map(|&b| table.wdl(b).ok()).count());
        });
        let name = format!("placement move from the table/{} to move/256 positions", side.plural());
        c.bench_function(&name, |bench| {
            bench
                .iter(|| black_box(&boards).iter().filter_map(|&b| table.verdicts(b).ok()).count());
        });
    }
}

criterion_group!(benches, probe, placement);
criterion_main!(benches);
