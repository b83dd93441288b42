//! What can go wrong naming a player or playing a match.

use std::sync::Arc;
use std::time::Duration;

use crate::protocol::CommandError;

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
    #[error("the perfect player (or `table=on`) needs the tablebase of the real game")]
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
    Program {
        /// The player's name.
        player: String,
        /// Why.
        #[source]
        reason: ProgramError,
    },
    /// A thread for the games could not be started.
    #[error("cannot start a thread for the games: {0}")]
    Thread(#[source] Arc<std::io::Error>),
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

/// Why [`Player::choose`](crate::Player::choose) gave no move. One `Result` rather than an
/// `Option` and a reason asked for apart: a caller that plays on needs a move and nothing
/// else, and every way of having none (the game's end, a stop, a failure) comes with the
/// error, so none is lost. The game's end and a stop are variants of their own, not failures,
/// so a caller can tell them from a player that broke.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ChooseError {
    /// The game is over: there is no move to give (a caller that asks only in play never
    /// sees it).
    #[error("the game is over: no move to give")]
    GameOver,
    /// `stop` was raised before a move was found.
    #[error("stopped before a move was found")]
    Stopped,
    /// The search failed: its evaluator could not answer (a damaged table, say).
    #[error("{0}")]
    Search(#[source] Arc<tns_search::SearchError>),
    /// Another program failed: it crashed, answered late or answered nonsense.
    #[error("{0}")]
    Program(#[source] ProgramError),
}

/// Why another program (a `cmd:` player) failed to give a move ([`ChooseError::Program`]) or
/// cannot play ([`Player::prepare`](crate::Player::prepare)): it does not start, answers
/// late, exits, refuses an option or a position, or answers a move that does not read. (A
/// search's failure is [`ChooseError::Search`].) Like [`PlayerError`], its message names its
/// cause, and the cause is kept (`source()`), shared so that the error can be cloned.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ProgramError {
    /// An external player with an empty command.
    #[error("no program given")]
    NoProgram,
    /// The program could not be started (not there, not executable).
    #[error("cannot start {program}: {source}")]
    Start {
        /// The program.
        program: String,
        /// The system's error.
        source: Arc<std::io::Error>,
    },
    /// The program's input or output could not be had as a pipe.
    #[error("no {0} pipe")]
    NoPipe(&'static str),
    /// The thread reading the program's output could not be started.
    #[error("cannot start a thread to read {program}: {source}")]
    ReaderThread {
        /// The program.
        program: String,
        /// The system's error.
        source: Arc<std::io::Error>,
    },
    /// The program exited.
    #[error("the engine exited ({0})")]
    Exited(std::process::ExitStatus),
    /// The program closed its output (or its input) but has not exited.
    #[error("the engine closed its output")]
    Closed,
    /// The program did not answer in time.
    #[error("no {awaited:?} within {:.2} s (late)", within.as_secs_f64())]
    Late {
        /// The answer awaited: `tsiok`, `readyok`, `bestmove`.
        awaited: &'static str,
        /// How long it was waited for.
        within: Duration,
    },
    /// The handshake (`tsi`, answered by `tsiok`) failed.
    #[error("handshake: {0}")]
    Handshake(#[source] Box<ProgramError>),
    /// Setting an option failed (the program exited or answered late).
    #[error("{option}: {source}")]
    SetOption {
        /// The `setoption` line sent.
        option: String,
        /// What went wrong.
        source: Box<ProgramError>,
    },
    /// The program refused an option (`info string error: ...` before `readyok`).
    #[error("it refused {option}: {why}")]
    RefusedOption {
        /// The `setoption` line sent.
        option: String,
        /// The program's reason.
        why: String,
    },
    /// The program refused the position it was asked to move in.
    #[error("it refused the position: {why}")]
    RefusedPosition {
        /// The program's reason.
        why: String,
    },
    /// `bestmove none` where the game goes on.
    #[error("it answered bestmove none in a game that goes on")]
    NoMoveInPlay,
    /// A `bestmove` that does not read.
    #[error("unreadable {}", unreadable(.0))]
    Unreadable(#[source] CommandError),
    /// The program's answers ended without a `bestmove`.
    #[error("no bestmove")]
    NoBestMove,
}

/// What of a `bestmove` does not read: its move, or the line.
fn unreadable(error: &CommandError) -> String {
    match error {
        CommandError::Move { text, source } => format!("move {text:?}: {source}"),
        other => format!("bestmove: {other}"),
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;
    use std::io;

    use super::*;

    #[test]
    fn no_move_says_why_and_a_failure_keeps_its_cause() {
        use std::sync::atomic::AtomicBool;

        use crate::player::{Player, RandomPlayer};
        let late = ProgramError::Late { awaited: "bestmove", within: Duration::from_secs(1) };
        let failed = ChooseError::Program(late.clone());
        assert_eq!(failed.to_string(), late.to_string());
        assert!(matches!(
            failed.source().and_then(|s| s.downcast_ref::<ProgramError>()),
            Some(ProgramError::Late { .. })
        ));
        assert!(ChooseError::GameOver.source().is_none());
        // A finished game: no move, and the reason says so, not a failure.
        let mut game = tns_board::Game::new();
        let mut player = RandomPlayer::new(3);
        let stop = AtomicBool::new(false);
        while game.outcome().is_none() {
            game.play(player.choose(&game, &stop).unwrap()).unwrap();
        }
        assert!(matches!(player.choose(&game, &stop), Err(ChooseError::GameOver)));
    }

    #[test]
    fn an_engine_error_says_why_and_keeps_its_cause() {
        let missing = || Arc::new(io::Error::new(io::ErrorKind::NotFound, "no such file"));
        let start = ProgramError::Start { program: "/no/such/engine".into(), source: missing() };
        assert_eq!(start.to_string(), "cannot start /no/such/engine: no such file");
        let cause = start.source().unwrap();
        assert_eq!(cause.to_string(), "no such file");
        assert!(cause.downcast_ref::<Arc<io::Error>>().is_some());
        let thread = ProgramError::ReaderThread { program: "e".into(), source: missing() };
        assert_eq!(thread.to_string(), "cannot start a thread to read e: no such file");
        assert!(thread.source().is_some());

        let late = ProgramError::Late { awaited: "tsiok", within: Duration::from_secs(10) };
        assert_eq!(late.to_string(), "no \"tsiok\" within 10.00 s (late)");
        assert!(late.source().is_none());
        let handshake = ProgramError::Handshake(Box::new(late.clone()));
        assert_eq!(handshake.to_string(), "handshake: no \"tsiok\" within 10.00 s (late)");
        assert_eq!(handshake.source().unwrap().to_string(), late.to_string());
        let option = ProgramError::SetOption {
            option: "setoption name Hash value 8".into(),
            source: Box::new(ProgramError::Closed),
        };
        assert_eq!(option.to_string(), "setoption name Hash value 8: the engine closed its output");
        assert!(matches!(
            option.source().and_then(|e| e.downcast_ref::<Box<ProgramError>>()).map(|e| &**e),
            Some(ProgramError::Closed)
        ));

        let refused = ProgramError::RefusedOption {
            option: "setoption name Hash value 999".into(),
            why: "Hash must be at most 64".into(),
        };
        assert_eq!(
            refused.to_string(),
            "it refused setoption name Hash value 999: Hash must be at most 64"
        );
        let position = ProgramError::RefusedPosition { why: "bad".into() };
        assert_eq!(position.to_string(), "it refused the position: bad");
        assert_eq!(
            ProgramError::NoMoveInPlay.to_string(),
            "it answered bestmove none in a game that goes on"
        );
        assert_eq!(ProgramError::NoProgram.to_string(), "no program given");
        assert_eq!(ProgramError::NoPipe("input").to_string(), "no input pipe");
        assert_eq!(ProgramError::NoBestMove.to_string(), "no bestmove");
    }

    #[test]
    fn an_unreadable_move_names_it_and_keeps_the_protocol_error() {
        let e = crate::protocol::Reply::parse("bestmove zz").unwrap_err();
        let unreadable = ProgramError::Unreadable(e.clone());
        assert!(unreadable.to_string().starts_with("unreadable move \"zz\": "), "{unreadable}");
        assert_eq!(unreadable.source().and_then(|s| s.downcast_ref::<CommandError>()), Some(&e));
        let other = ProgramError::Unreadable(CommandError::SetOption);
        assert_eq!(
            other.to_string(),
            "unreadable bestmove: setoption takes: setoption name <name> value <value>"
        );
    }

    #[test]
    fn an_exit_and_a_failed_search_read_as_before() {
        let status = std::process::Command::new("sh").args(["-c", "exit 3"]).status().unwrap();
        let exited = ProgramError::Exited(status);
        assert!(exited.to_string().starts_with("the engine exited ("), "{exited}");
        assert!(exited.to_string().contains('3'), "{exited}");
        let search = tns_search::SearchError::Threads { given: 0 };
        let text = search.to_string();
        let failed = ChooseError::Search(Arc::new(search));
        assert_eq!(failed.to_string(), text);
        assert_eq!(failed.source().unwrap().to_string(), text);
    }

    #[test]
    fn a_match_error_keeps_the_engine_error_and_the_system_error() {
        let reason = ProgramError::RefusedPosition { why: "bad".into() };
        let e = MatchError::Program { player: "cmd:e".into(), reason };
        assert_eq!(e.to_string(), "cmd:e cannot play: it refused the position: bad");
        assert!(matches!(
            e.source().and_then(|s| s.downcast_ref::<ProgramError>()),
            Some(ProgramError::RefusedPosition { .. })
        ));
        let e = MatchError::Thread(Arc::new(io::Error::other("too many threads")));
        assert_eq!(e.to_string(), "cannot start a thread for the games: too many threads");
        assert_eq!(e.source().unwrap().to_string(), "too many threads");
    }
}
