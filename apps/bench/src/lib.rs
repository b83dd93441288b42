//! The pieces of `tns-bench`: players named on the command line, the referee, matches with
//! Elo and SPRT statistics, audits of games against the solved game, and the fixed positions
//! the benchmarks search.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use tns_bench::{Budget, Colours, MatchConfig, run_match};
//!
//! let config = MatchConfig {
//!     a: "heuristic".parse()?,
//!     b: "random".parse()?,
//!     colours: Colours::Alternate,
//!     games: 2,
//!     openings: 2,
//!     seed: 1,
//!     concurrency: 1,
//!     max_plies: 300,
//!     defaults: Budget { time: None, depth: Some(2), threads: 1, tt_mb: 1 },
//!     tablebase: None,
//! };
//! let standings = run_match(&config, &AtomicBool::new(false), |_| {})?;
//! assert_eq!(standings.a_total().games(), 2);
//! # Ok::<(), tns_bench::PlayerError>(())
//! ```

#![warn(missing_docs)]

mod audit;
mod elo;
mod player;
mod positions;
mod referee;
mod tournament;

pub use audit::{Audit, FirstError, PlayerAudit, audit};
pub use elo::{EloEstimate, Points, Sprt, Tally, Verdict, elo_of_score, score_of_elo};
pub use player::{Budget, Kind, Player, PlayerError, PlayerSpec, RandomPlayer, SearchPlayer};
pub use positions::{BENCH_POSITIONS, BenchPosition};
pub use referee::{Played, Termination, play, random_opening};
pub use tournament::{Colours, GameReport, MatchConfig, Standings, run_match};
