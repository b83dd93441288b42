//! Players, the referee, matches and their statistics for Tigers and Sheep engines: the one
//! place a program (the game, the benchmark runner, the trainer) turns a player's name into a
//! player and plays games between players.
//!
//! A player is named by a [`PlayerSpec`]: `heuristic`, `perfect`, `random`, a weights file, with
//! options such as `heuristic:time=0.2,dead=350`, or `cmd:<program> [args]` for another program
//! speaking the TSI protocol ([`ExternalPlayer`]). [`run_match`] plays a match between two, and
//! [`Tally`] and [`Sprt`] say what the result means.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use tns_match::{Budget, Colours, MatchConfig, run_match};
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
//!     book: Vec::new(),
//! };
//! let standings = run_match(&config, &AtomicBool::new(false), |_| {})?;
//! assert_eq!(standings.a_total().games(), 2);
//! # Ok::<(), tns_match::MatchError>(())
//! ```

#![warn(missing_docs)]

mod external;
mod player;
mod referee;
mod stats;
mod tournament;

pub use external::{DEPTH_TIMEOUT, ExternalPlayer, HANDSHAKE_TIMEOUT, LATE_MARGIN};
pub use player::{
    Budget, Kind, LEVELS, Player, PlayerError, PlayerSpec, RandomPlayer, SearchPlayer,
};
pub use referee::{OPENING_ATTEMPTS, Played, Termination, play, random_opening};
pub use stats::{
    EloEstimate, Pentanomial, Points, Sprt, Tally, Verdict, elo_of_score, score_of_elo,
};
pub use tournament::{Colours, GameReport, MatchConfig, MatchError, Standings, run_match};
