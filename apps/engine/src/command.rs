//! The protocol's commands, parsed from one line each.

// Casts allowed in this file only:
// narrowing casts of values that fit by construction (point indices under 25, move counts, table indices, durations in milliseconds).
#![allow(clippy::cast_possible_truncation)]

use std::time::Duration;

use tns_board::{Board, Move};
use tns_search::Limits;

/// One command from the controlling program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `tsi`: identify, list the options, answer `tsiok`.
    Tsi,
    /// `isready`: answer `readyok` once every earlier command is done.
    IsReady,
    /// `setoption name <N> value <V>`.
    SetOption {
        /// The option's name (as the `option` lines spell it; matched without case).
        name: String,
        /// Its new value (may hold spaces; empty for `<empty>`).
        value: String,
    },
    /// `newgame`: forget the game's history and the search's tables.
    NewGame,
    /// `position startpos|fen <ranks> <s|t> <in hand> [moves <m> ...]`.
    Position {
        /// The position the moves start from.
        start: Board,
        /// The moves played from it, in order (not yet checked for legality).
        moves: Vec<Move>,
    },
    /// `go ...`: search the current position within these limits (none: until `stop`).
    Go {
        /// The limits; all `None` for `go infinite`.
        limits: Limits,
        /// Whether `go infinite` was asked: `bestmove` waits for `stop` even when the search
        /// ends sooner.
        infinite: bool,
    },
    /// `stop`: end the search now and answer its `bestmove`.
    Stop,
    /// `quit`: stop and exit.
    Quit,
}

/// Why a line is not a command. Its text is what the engine sends back after
/// `info string error: `.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The first word is no command.
    #[error("unknown command {0:?} (tsi, isready, setoption, newgame, position, go, stop, quit)")]
    Unknown(String),
    /// `setoption` without `name <N> value <V>`.
    #[error("setoption takes: setoption name <name> value <value>")]
    SetOption,
    /// `position` that is neither `startpos` nor `fen` with three fields.
    #[error("position takes: position startpos|fen <ranks> <s|t> <in hand> [moves <m> ...]")]
    PositionShape,
    /// The position's text does not parse.
    #[error("bad position {text:?}: {why}")]
    Position {
        /// The position as given.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// A move's text does not parse.
    #[error("bad move {text:?}: {why}")]
    Move {
        /// The move as given.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// `go` with an unknown word, or a number missing or out of range.
    #[error("go takes: go depth <1-120> | movetime <ms> | nodes <n> | infinite (got {0:?})")]
    Go(String),
}

/// Parses one line. `Ok(None)` for a blank line, which is ignored.
///
/// # Errors
/// A [`CommandError`] saying what is wrong with the line.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else { return Ok(None) };
    let rest: Vec<&str> = words.collect();
    Ok(Some(match first {
        "tsi" => Command::Tsi,
        "isready" => Command::IsReady,
        "newgame" => Command::NewGame,
        "stop" => Command::Stop,
        "quit" => Command::Quit,
        "setoption" => parse_setoption(&rest)?,
        "position" => parse_position(&rest)?,
        "go" => parse_go(&rest)?,
        other => return Err(CommandError::Unknown(other.chars().take(40).collect())),
    }))
}

fn parse_setoption(words: &[&str]) -> Result<Command, CommandError> {
    if words.first() != Some(&"name") {
        return Err(CommandError::SetOption);
    }
    let value_at = words.iter().position(|w| *w == "value").ok_or(CommandError::SetOption)?;
    let name = words[1..value_at].join(" ");
    let value = words[value_at + 1..].join(" ");
    if name.is_empty() {
        return Err(CommandError::SetOption);
    }
    let value = if value == "<empty>" { String::new() } else { value };
    Ok(Command::SetOption { name, value })
}

fn parse_position(words: &[&str]) -> Result<Command, CommandError> {
    let (start, rest) = match words {
        ["startpos", rest @ ..] => (Board::START, rest),
        ["fen", ranks, side, hand, rest @ ..] => {
            let text = format!("{ranks} {side} {hand}");
            let board = text
                .parse::<Board>()
                .map_err(|e| CommandError::Position { text: text.clone(), why: e.to_string() })?;
            (board, rest)
        }
        _ => return Err(CommandError::PositionShape),
    };
    let moves = match rest {
        [] => Vec::new(),
        ["moves", moves @ ..] => moves
            .iter()
            .map(|m| {
                m.parse::<Move>()
                    .map_err(|e| CommandError::Move { text: (*m).into(), why: e.to_string() })
            })
            .collect::<Result<_, _>>()?,
        _ => return Err(CommandError::PositionShape),
    };
    Ok(Command::Position { start, moves })
}

fn parse_go(words: &[&str]) -> Result<Command, CommandError> {
    let bad = || CommandError::Go(words.join(" ").chars().take(60).collect());
    let mut limits = Limits::default();
    let mut infinite = words.is_empty();
    let mut i = 0;
    while i < words.len() {
        let number = || words.get(i + 1).and_then(|w| w.parse::<u64>().ok()).ok_or_else(bad);
        match words[i] {
            "infinite" => {
                infinite = true;
                i += 1;
                continue;
            }
            "depth" => {
                let d = number()?;
                if !(1..=120).contains(&d) {
                    return Err(bad());
                }
                limits.depth = Some(d as u32);
            }
            "movetime" => {
                let ms = number()?;
                if ms == 0 || ms > 86_400_000 {
                    return Err(bad());
                }
                limits.time = Some(Duration::from_millis(ms));
            }
            "nodes" => {
                let n = number()?;
                if n == 0 {
                    return Err(bad());
                }
                limits.nodes = Some(n);
            }
            _ => return Err(bad()),
        }
        i += 2;
    }
    if infinite && limits != Limits::default() {
        return Err(bad());
    }
    Ok(Command::Go { limits, infinite })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(parse("  "), Ok(None));
        assert_eq!(parse("tsi"), Ok(Some(Command::Tsi)));
        assert_eq!(
            parse("setoption name Hash value 64"),
            Ok(Some(Command::SetOption { name: "Hash".into(), value: "64".into() }))
        );
        assert_eq!(
            parse("setoption name Evaluator value heuristic:depth=2"),
            Ok(Some(Command::SetOption {
                name: "Evaluator".into(),
                value: "heuristic:depth=2".into()
            }))
        );
        let Ok(Some(Command::Position { start, moves })) =
            parse("position fen T3T/5/5/5/T3T t 20 moves a5b4 c3")
        else {
            panic!()
        };
        assert_eq!(start.to_string(), "T3T/5/5/5/T3T t 20");
        assert_eq!(moves.len(), 2);
        assert_eq!(
            parse("go movetime 250"),
            Ok(Some(Command::Go {
                limits: Limits::time(Duration::from_millis(250)),
                infinite: false
            }))
        );
        assert_eq!(
            parse("go infinite"),
            Ok(Some(Command::Go { limits: Limits::default(), infinite: true }))
        );
        assert!(parse("go depth 3 nodes 1000").unwrap().is_some());
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        for line in [
            "hello",
            "setoption Hash 3",
            "setoption name value 3",
            "position",
            "position fen 5/5",
            "position fen T3T/5/5/5/T3T x 20",
            "position startpos moves zz",
            "position startpos c3",
            "go depth",
            "go depth 0",
            "go depth 121",
            "go movetime -5",
            "go nodes 0",
            "go sideways 3",
            "go infinite depth 3",
        ] {
            assert!(parse(line).is_err(), "{line}");
        }
    }
}
