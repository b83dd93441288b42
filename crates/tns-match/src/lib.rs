#![doc = include_str!("../README.md")]

mod error;
mod external;
mod level;
mod player;
pub mod protocol;
mod referee;
mod seed;
mod shipped;
mod spec;
mod spec_build;
mod spec_grammar;
mod stats;
mod strongest;
mod time_control;
mod tournament;

pub use external::{DEPTH_TIMEOUT, External, ExternalPlayer, HANDSHAKE_TIMEOUT, LATE_MARGIN};
pub use level::{Level, LevelError, Offer, level_name, offers};
pub mod limit;
pub use error::{ChooseError, MatchError, PlayerError, ProgramError};
pub use limit::{LimitError, MAX_MOVE_SECONDS, MAX_NODES};
pub use player::{Budget, Player, RandomPlayer, SearchPlayer};
pub use referee::{Conditions, OPENING_ATTEMPTS, Played, Termination, play, random_opening};
pub use seed::mix_seed;
pub use shipped::{Fitted, shipped_chances, shipped_endgame, shipped_network, with_endgame};
pub use spec::{PlayerKind, PlayerSpec, Searcher};
pub use stats::{
    EloEstimate, Pentanomial, Points, Sprt, SprtDecision, Tally, elo_of_score, score_of_elo,
};
pub use time_control::{Clocks, MAX_BASE, MAX_INCREMENT, TimeControl, TimeControlError};
pub use tournament::{Colours, GameReport, MatchConfig, Standings, run_match};
