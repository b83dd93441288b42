//! Helpers shared by the tablebase tests.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use tns_board::{Bitboard, KILLS_TO_WIN, Symmetry};
use tns_tablebase::Tablebase;

/// The real game's table's directory: `tablebase/`, or `TNS_TABLEBASE_DIR`.
#[allow(dead_code)] // Only the tests on the real table use it.
pub fn real_dir() -> PathBuf {
    std::env::var_os("TNS_TABLEBASE_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tablebase"),
        PathBuf::from,
    )
}

/// The real game's table, built into [`real_dir`], loaded once.
#[allow(dead_code)] // Only the tests on the real table use it.
pub fn real_table() -> &'static Arc<Tablebase> {
    static TABLE: OnceLock<Arc<Tablebase>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let dir = real_dir();
        let table = Tablebase::load(KILLS_TO_WIN, &dir).unwrap_or_else(|e| {
            panic!(
                "{e}: build it with `cargo run --release -p tns-tablebase-cli -- build \
                 --from-placed 18`"
            )
        });
        Arc::new(table)
    })
}

/// The number of symmetry classes of positions with 4 tigers and `empties` empty points (the
/// rest sheep), one side to move, by Burnside's lemma: the mean over the 8 symmetries of the
/// number of positions each leaves unchanged. A position is unchanged when its tiger set and its
/// empty set are unions of the symmetry's cycles of points, so the count is taken over cycles.
pub fn burnside(empties: usize) -> u64 {
    let mut total = 0;
    for s in Symmetry::ALL {
        let mut seen = 0u32;
        let mut cycles = Vec::new();
        for p in 0..25u32 {
            if seen & 1 << p != 0 {
                continue;
            }
            let mut len = 0;
            let mut q = Bitboard::from_bits_truncate(1 << p);
            while seen & q.bits() == 0 {
                seen |= q.bits();
                len += 1;
                q = s.apply_bitboard(q);
            }
            cycles.push(len);
        }
        // ways[t][e]: ways to pick t tiger points and e empty points from the cycles so far.
        let mut ways = [[0u64; 22]; 5];
        ways[0][0] = 1;
        for &len in &cycles {
            let mut next = ways;
            for t in 0..5 {
                for e in 0..22 {
                    if t >= len {
                        next[t][e] += ways[t - len][e];
                    }
                    if e >= len {
                        next[t][e] += ways[t][e - len];
                    }
                }
            }
            ways = next;
        }
        total += ways[4][empties];
    }
    assert_eq!(total % 8, 0);
    total / 8
}
