//! What can go wrong naming a player or playing a match.

use std::sync::Arc;

/// Why a player's name could not be understood. Its causes are kept (`source()`), shared so
/// that the error can be cloned (a decoded asset's failure is kept once and handed to every
/// caller). Its message names the cause too, as every program here prints an error on one
/// line; a caller that walks `source()` finds the cause's own error.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum PlayerError {
    /// Not a level, `heuristic`, `network`, `perfect`, `random`, or an existing file.
    #[error(
        "unknown player {0:?}: expected a level (random, easy, medium, hard, strongest, \
         perfect), heuristic, network or a weights file, with options after a colon (hard:time=1, \
         heuristic:depth=2)"
    )]
    Unknown(String),
    /// An external program where only a built-in player will do (the game's own seats).
    #[error("{0} is an external engine: it can play in matches, not here")]
    External(String),
    /// `cmd:` with no program after it.
    #[error("cmd: needs a program to run, as in cmd:target/release/tns-engine")]
    NoProgram,
    /// A perfect player, or one with `table=on`, but no tablebase of the real game was given.
    #[error(
        "the perfect player (or `table=on`) needs the tablebase: build it with `tns-tablebase build`"
    )]
    NoTablebase,
    /// A tablebase that cannot stand in front of a player: one for a variant (fewer kills)
    /// rather than the real game.
    #[error("the tablebase cannot be searched with: {0}")]
    WrongTablebase(#[source] Arc<tns_tablebase::TablebaseError>),
    /// A weights file that does not load (the loader's error names the file).
    #[error("{0}")]
    Network(#[source] Arc<tns_nn::NetworkError>),
    /// The network built in does not decode (a build from a damaged checkout).
    #[error("the shipped network: {0}")]
    ShippedNetwork(#[source] Arc<tns_nn::NetworkError>),
    /// The endgame built into the program does not decode (a build from a damaged checkout).
    #[error("the endgame built in: {0}")]
    Endgame(#[source] Arc<tns_tablebase::TablebaseError>),
    /// The chances fitted for a built-in evaluator do not parse (a build from a damaged
    /// checkout).
    #[error("the chances built in")]
    Chances(#[source] tns_search::WdlModelError),
    /// An option that is not `key=value`, or not known for this kind of player.
    #[error("unknown option {option:?} for {kind}: expected {expected}")]
    Option {
        /// The option's text.
        option: String,
        /// The player's kind.
        kind: String,
        /// The options it takes.
        expected: String,
    },
    /// A limit (`time`, `depth`, `threads`, `tt`) that does not parse or is out of range.
    #[error(transparent)]
    Limit(#[from] crate::limit::LimitError),
    /// The search could not be made (no memory for its table, say).
    #[error("the search cannot be made: {0}")]
    Search(#[source] Arc<tns_search::SearchError>),
    /// An option's value that does not parse or is out of range.
    #[error("bad value {value:?} for {key}: {why}")]
    Value {
        /// The option's name.
        key: String,
        /// The value given.
        value: String,
        /// What is expected.
        why: &'static str,
    },
}

/// Why a match could not be played.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum MatchError {
    /// A player could not be built.
    #[error(transparent)]
    Player(#[from] PlayerError),
    /// A player cannot play: an external program that does not start, fails its handshake or
    /// refuses an option. Found before the first game.
    #[error("{player} cannot play: {reason}")]
    Engine {
        /// The player's name.
        player: String,
        /// Why.
        reason: String,
    },
    /// A thread for the games could not be started.
    #[error("cannot start a thread for the games: {0}")]
    Thread(String),
    /// Random play could not reach the asked opening length.
    #[error(
        "no random opening of {plies} plies: {attempts} tries all ended the game first (random \
         play rarely lasts long; ask for fewer plies)"
    )]
    Opening {
        /// The plies asked for.
        plies: usize,
        /// How many openings were drawn.
        attempts: u32,
    },
}
