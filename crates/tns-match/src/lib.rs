#![doc = include_str!("../README.md")]

mod external;
mod player;
mod referee;
mod stats;
mod tournament;

pub use external::{DEPTH_TIMEOUT, ExternalPlayer, HANDSHAKE_TIMEOUT, LATE_MARGIN};
pub use player::{
    Budget, Kind, LEVELS, Player, PlayerError, PlayerSpec, RandomPlayer, SearchPlayer,
    shipped_network,
};
pub use referee::{OPENING_ATTEMPTS, Played, Termination, play, random_opening};
pub use stats::{
    EloEstimate, Pentanomial, Points, Sprt, Tally, Verdict, elo_of_score, score_of_elo,
};
pub use tournament::{Colours, GameReport, MatchConfig, MatchError, Standings, run_match};
