//! The pieces of `tns-bench` its benchmarks share: audits of games against the solved game,
//! and the fixed positions the benchmarks search. Players, matches and their statistics are
//! the `tns-match` library's.

mod audit;
mod positions;

pub use audit::{Audit, FirstError, PlayerAudit, audit};
pub use positions::{BENCH_POSITIONS, BenchPosition};
