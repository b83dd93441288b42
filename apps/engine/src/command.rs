//! The protocol's commands, parsed from one line each.

use std::time::Duration;

use tns_board::{Board, MAX_MOVES, Move, MoveList};
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
    Go(Box<Go>),
    /// `stop`: end the search now and answer its `bestmove`.
    Stop,
    /// `quit`: stop and exit.
    Quit,
}

/// What a `go` asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// The limits given by `depth`, `movetime`, `nodes` and `searchmoves`.
    pub limits: Limits,
    /// Whether `go infinite` (or a bare `go`) was asked: `bestmove` waits for `stop`, even when
    /// the search ends sooner.
    pub infinite: bool,
    /// The time left on the clocks, when `stime`/`ttime` were given.
    pub time_left: TimeLeft,
}

/// The clocks of a `go`, in milliseconds, as given: the sheep's and the tigers' time left and
/// increments, and the moves until the next time control.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeLeft {
    /// `stime`: the sheep's time left.
    pub stime: Option<u64>,
    /// `ttime`: the tigers' time left.
    pub ttime: Option<u64>,
    /// `sinc`: the sheep's increment.
    pub sinc: Option<u64>,
    /// `tinc`: the tigers' increment.
    pub tinc: Option<u64>,
    /// `movestogo`: moves until the next time control.
    pub movestogo: Option<u32>,
}

/// The longest a quoted piece of input may be in an error line.
const QUOTE: usize = 40;

/// The first few characters of `text`, for an error line (with `...` when cut).
pub fn quote(text: &str) -> String {
    quote_to(text, QUOTE)
}

/// `text` cut to `max` characters, with `...` when cut.
pub fn quote_to(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(max).collect::<String>())
    }
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
    /// `go` with an unknown word, or a number missing or out of range. The engine answers it
    /// with `bestmove none` as well, since every `go` gets one.
    #[error(
        "go takes: go [depth <1-120>] [movetime <ms>] [nodes <n>] [stime <ms> ttime <ms> [sinc \
         <ms>] [tinc <ms>] [movestogo <n>]] [infinite] [searchmoves <move>...] ({0})"
    )]
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
        other => return Err(CommandError::Unknown(quote(other))),
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
                .map_err(|e| CommandError::Position { text: quote(&text), why: e.to_string() })?;
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
                    .map_err(|e| CommandError::Move { text: quote(m), why: e.to_string() })
            })
            .collect::<Result<_, _>>()?,
        _ => return Err(CommandError::PositionShape),
    };
    Ok(Command::Position { start, moves })
}

const GO_WORDS: [&str; 11] = [
    "depth",
    "movetime",
    "nodes",
    "infinite",
    "stime",
    "ttime",
    "sinc",
    "tinc",
    "movestogo",
    "searchmoves",
    "ponder",
];

fn parse_go(words: &[&str]) -> Result<Command, CommandError> {
    let bad = |why: String| CommandError::Go(why);
    let mut go = Go { infinite: words.is_empty(), ..Go::default() };
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let value =
            || words.get(i + 1).copied().ok_or_else(|| bad(format!("{word} needs a number")));
        let millis = |max: u64| -> Result<u64, CommandError> {
            let text = value()?;
            text.parse::<u64>().ok().filter(|&n| n <= max).ok_or_else(|| {
                bad(format!("{word} takes milliseconds from 0 to {max}, not {:?}", quote(text)))
            })
        };
        let limit = |e: tns_match::LimitError| bad(format!("{word}: {e}"));
        match word {
            "infinite" => {
                go.infinite = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                let mut moves = MoveList::new();
                i += 1;
                while i < words.len() && !GO_WORDS.contains(&words[i]) {
                    let m = words[i].parse::<Move>().map_err(|e| {
                        bad(format!("searchmoves: bad move {:?}: {e}", quote(words[i])))
                    })?;
                    if !moves.contains(&m) && moves.len() < MAX_MOVES {
                        moves.push(m);
                    }
                    i += 1;
                }
                go.limits.moves = Some(moves);
                continue;
            }
            "depth" => go.limits.depth = Some(tns_match::limit::depth(value()?).map_err(limit)?),
            "nodes" => go.limits.nodes = Some(tns_match::limit::nodes(value()?).map_err(limit)?),
            "movetime" => {
                let ms = millis(86_400_000)?;
                if ms == 0 {
                    return Err(bad("movetime must be at least 1 ms".into()));
                }
                go.limits.time = Some(Duration::from_millis(ms));
            }
            "stime" => go.time_left.stime = Some(millis(u64::from(u32::MAX))?),
            "ttime" => go.time_left.ttime = Some(millis(u64::from(u32::MAX))?),
            "sinc" => go.time_left.sinc = Some(millis(86_400_000)?),
            "tinc" => go.time_left.tinc = Some(millis(86_400_000)?),
            "movestogo" => {
                let text = value()?;
                let n = text.parse::<u32>().ok().filter(|n| (1..=10_000).contains(n));
                go.time_left.movestogo = Some(n.ok_or_else(|| {
                    bad(format!("movestogo takes 1 to 10000, not {:?}", quote(text)))
                })?);
            }
            "wtime" | "btime" | "winc" | "binc" => {
                return Err(bad(format!(
                    "{word} is UCI's: TSI's clocks are stime and ttime (the sheep's and the \
                     tigers'), sinc and tinc"
                )));
            }
            "ponder" => return Err(bad("pondering is not supported".into())),
            other => return Err(bad(format!("unknown word {:?}", quote(other)))),
        }
        i += 2;
    }
    Ok(Command::Go(Box::new(go)))
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
            Ok(Some(Command::Go(Box::new(Go {
                limits: Limits::time(Duration::from_millis(250)),
                ..Go::default()
            }))))
        );
        assert_eq!(
            parse("go infinite"),
            Ok(Some(Command::Go(Box::new(Go { infinite: true, ..Go::default() }))))
        );
        assert!(parse("go depth 3 nodes 1000").unwrap().is_some());
        // Infinite with a depth: search to the depth, answer on stop.
        let Ok(Some(Command::Go(go))) = parse("go infinite depth 3") else { panic!() };
        assert!(go.infinite && go.limits.depth == Some(3));
        let Ok(Some(Command::Go(go))) =
            parse("go stime 1000 ttime 2000 sinc 10 tinc 20 movestogo 5 searchmoves c3 d2 depth 4")
        else {
            panic!()
        };
        assert_eq!(
            go.time_left,
            TimeLeft {
                stime: Some(1000),
                ttime: Some(2000),
                sinc: Some(10),
                tinc: Some(20),
                movestogo: Some(5)
            }
        );
        assert_eq!(go.limits.moves.as_ref().map(|m| m.len()), Some(2));
        assert_eq!(go.limits.depth, Some(4));
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
            "go wtime 1000 btime 1000",
            "go searchmoves zz",
            "go stime -4",
            "go movestogo 0",
        ] {
            assert!(parse(line).is_err(), "{line}");
        }
        // What was wrong is quoted short, however long the line.
        let long = format!("position fen {} s 1", "S".repeat(1_000_000));
        assert!(parse(&long).unwrap_err().to_string().len() < 200);
        let long = format!("go depth {}", "9".repeat(1_000_000));
        assert!(parse(&long).unwrap_err().to_string().len() < 400);
    }
}
