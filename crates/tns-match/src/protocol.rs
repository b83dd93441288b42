//! The TSI protocol's lines (docs/protocol.md), for both of its ends: the commands a
//! controller writes and an engine parses ([`Command`], [`parse`], `Display`), and the
//! engine's answers that a controller reads ([`Reply`]). `tns-engine` speaks it as the engine,
//! [`ExternalPlayer`](crate::ExternalPlayer) as the controller.

use std::fmt;
use std::time::Duration;

use tns_board::{Board, MAX_MOVES, Move, MoveList, ParseMoveError, ParsePositionError};
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

impl fmt::Display for Command {
    /// The command's line, as [`parse`] reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Tsi => f.write_str("tsi"),
            Command::IsReady => f.write_str("isready"),
            Command::NewGame => f.write_str("newgame"),
            Command::Stop => f.write_str("stop"),
            Command::Quit => f.write_str("quit"),
            Command::SetOption { name, value } => {
                let value = if value.is_empty() { "<empty>" } else { value };
                write!(f, "setoption name {name} value {value}")
            }
            Command::Position { start, moves } => {
                // Always by its fen, the start too: a controller need not know the start.
                write!(f, "position fen {start}")?;
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for m in moves {
                        write!(f, " {m}")?;
                    }
                }
                Ok(())
            }
            Command::Go(go) => write!(f, "{go}"),
        }
    }
}

impl fmt::Display for Go {
    /// `go` and its words; a time is written in whole milliseconds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        let t = &self.time_left;
        for (word, value) in
            [("stime", t.stime), ("ttime", t.ttime), ("sinc", t.sinc), ("tinc", t.tinc)]
        {
            if let Some(ms) = value {
                write!(f, " {word} {ms}")?;
            }
        }
        if let Some(n) = t.movestogo {
            write!(f, " movestogo {n}")?;
        }
        if let Some(time) = self.limits.time {
            write!(f, " movetime {}", time.as_millis())?;
        }
        if let Some(depth) = self.limits.depth {
            write!(f, " depth {depth}")?;
        }
        if let Some(nodes) = self.limits.nodes {
            write!(f, " nodes {nodes}")?;
        }
        // A bare `go` is infinite already.
        let bare = *self == Go { infinite: true, ..Go::default() };
        if self.infinite && !bare {
            f.write_str(" infinite")?;
        }
        if let Some(moves) = &self.limits.moves {
            f.write_str(" searchmoves")?;
            for m in moves {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}

/// The start of an error line: what an engine answers to a line it refuses, or a search that
/// failed.
pub const ERROR_PREFIX: &str = "info string error: ";
/// The words an error line starts with, read with or without the colon.
const ERROR_WORDS: &str = "info string error";

/// One line an engine writes, as a controller reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply<'a> {
    /// `tsiok`: the end of the answer to `tsi`.
    TsiOk,
    /// `readyok`: every earlier command is done.
    ReadyOk,
    /// `bestmove <move>`, or `bestmove none` where there is no move to play.
    BestMove(Option<Move>),
    /// `info string error: <why>`.
    Error(&'a str),
    /// `option name <N> type ...`: an option the engine has, by its name.
    Option(&'a str),
    /// `id`, `info` and anything else.
    Other(&'a str),
}

impl Reply<'_> {
    /// The reply on `line`.
    ///
    /// # Errors
    /// [`CommandError::Move`] for a `bestmove` whose move does not parse.
    pub fn parse(line: &str) -> Result<Reply<'_>, CommandError> {
        let mut words = line.split_whitespace();
        Ok(match words.next() {
            Some("tsiok") => Reply::TsiOk,
            Some("readyok") => Reply::ReadyOk,
            Some("bestmove") => match words.next().unwrap_or("") {
                "none" => Reply::BestMove(None),
                text => Reply::BestMove(Some(
                    text.parse::<Move>()
                        .map_err(|e| CommandError::Move { text: quote(text), source: e })?,
                )),
            },
            Some("info") if line.starts_with(ERROR_WORDS) => {
                Reply::Error(line[ERROR_WORDS.len()..].trim_start_matches(':').trim_start())
            }
            Some("option") if words.next() == Some("name") => {
                // After the first `name` (`option` holds none), never at a byte offset: the
                // words may be parted by any whitespace.
                let rest = line.split_once("name").map_or("", |(_, rest)| rest).trim_start();
                Reply::Option(rest.split(" type ").next().unwrap_or(rest).trim_end())
            }
            _ => Reply::Other(line),
        })
    }
}

impl fmt::Display for Reply<'_> {
    /// The reply's line, as [`Reply::parse`] reads it back (an option by its name alone).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::TsiOk => f.write_str("tsiok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::BestMove(Some(m)) => write!(f, "bestmove {m}"),
            Reply::BestMove(None) => f.write_str("bestmove none"),
            Reply::Error(why) => write!(f, "{ERROR_PREFIX}{why}"),
            Reply::Option(name) => write!(f, "option name {name}"),
            Reply::Other(line) => f.write_str(line),
        }
    }
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
    #[error("bad position {text:?}: {source}")]
    Position {
        /// The position as given.
        text: String,
        /// What is wrong with it.
        source: ParsePositionError,
    },
    /// A move's text does not parse.
    #[error("bad move {text:?}: {source}")]
    Move {
        /// The move as given.
        text: String,
        /// What is wrong with it.
        source: ParseMoveError,
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
                .map_err(|e| CommandError::Position { text: quote(&text), source: e })?;
            (board, rest)
        }
        _ => return Err(CommandError::PositionShape),
    };
    let moves = match rest {
        [] => Vec::new(),
        ["moves", moves @ ..] => moves
            .iter()
            .map(|m| {
                m.parse::<Move>().map_err(|e| CommandError::Move { text: quote(m), source: e })
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
        let millis_from = |min: u64, max: u64| -> Result<u64, CommandError> {
            let text = value()?;
            text.parse::<u64>().ok().filter(|n| (min..=max).contains(n)).ok_or_else(|| {
                bad(format!("{word} takes milliseconds from {min} to {max}, not {:?}", quote(text)))
            })
        };
        let millis = |max: u64| millis_from(0, max);
        let limit = |e: crate::LimitError| bad(format!("{word}: {e}"));
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
            "depth" => go.limits.depth = Some(crate::limit::depth(value()?).map_err(limit)?),
            "nodes" => go.limits.nodes = Some(crate::limit::nodes(value()?).map_err(limit)?),
            "movetime" => {
                go.limits.time = Some(Duration::from_millis(millis_from(1, 86_400_000)?));
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
        // A range said is the range taken: movetime 0 is refused, and the message says 1.
        let e = parse("go movetime 0").unwrap_err().to_string();
        assert!(e.contains("from 1 to 86400000"), "{e}");
        // What was wrong is quoted short, however long the line.
        let long = format!("position fen {} s 1", "S".repeat(1_000_000));
        assert!(parse(&long).unwrap_err().to_string().len() < 200);
        let long = format!("go depth {}", "9".repeat(1_000_000));
        assert!(parse(&long).unwrap_err().to_string().len() < 400);
    }

    #[test]
    fn replies_parse_and_print_back() {
        let c3: Move = "c3".parse().unwrap();
        for (line, reply) in [
            ("tsiok", Reply::TsiOk),
            ("readyok", Reply::ReadyOk),
            ("bestmove c3", Reply::BestMove(Some(c3))),
            ("bestmove none", Reply::BestMove(None)),
            ("info string error: bad move", Reply::Error("bad move")),
            ("option name Hash", Reply::Option("Hash")),
            ("info depth 3 score 12", Reply::Other("info depth 3 score 12")),
        ] {
            assert_eq!(Reply::parse(line).unwrap(), reply, "{line}");
            assert_eq!(reply.to_string(), line);
        }
        assert_eq!(
            Reply::parse("option name Tablebase type string default <empty>").unwrap(),
            Reply::Option("Tablebase")
        );
        assert_eq!(Reply::parse("info string error bad").unwrap(), Reply::Error("bad"));
        // Words parted by other whitespace than one space, multi-byte ones too.
        assert_eq!(
            Reply::parse("option \u{3000}\u{3000}name Hash").unwrap(),
            Reply::Option("Hash")
        );
        assert_eq!(Reply::parse("  option\tname  Hash type spin").unwrap(), Reply::Option("Hash"));
        assert!(matches!(Reply::parse("bestmove zz"), Err(CommandError::Move { .. })));
    }

    #[test]
    fn a_bad_move_or_position_keeps_the_board_error() {
        use std::error::Error as _;
        let cause = "zz".parse::<Move>().unwrap_err();
        let e = parse("position startpos moves c3 zz").unwrap_err();
        assert_eq!(e, CommandError::Move { text: "zz".into(), source: cause.clone() });
        assert_eq!(e.to_string(), format!("bad move \"zz\": {cause}"));
        assert_eq!(e.source().and_then(|s| s.downcast_ref::<ParseMoveError>()), Some(&cause));
        let cause = "T3T/5/5/5/T3T x 20".parse::<Board>().unwrap_err();
        let e = parse("position fen T3T/5/5/5/T3T x 20").unwrap_err();
        assert_eq!(e.to_string(), format!("bad position \"T3T/5/5/5/T3T x 20\": {cause}"));
        assert_eq!(e.source().and_then(|s| s.downcast_ref::<ParsePositionError>()), Some(&cause));
    }

    mod round_trip {
        use proptest::prelude::*;
        use tns_board::{Board, Game, Move, MoveList};

        use super::super::{Command, Go, TimeLeft, parse};

        /// A game of up to 30 random legal moves from the start.
        fn game() -> impl Strategy<Value = (Board, Vec<Move>)> {
            proptest::collection::vec(any::<u16>(), 0..30).prop_map(|picks| {
                let mut game = Game::new();
                for pick in picks {
                    let moves = game.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[usize::from(pick) % moves.len()];
                    game.play(m).unwrap();
                }
                (Board::START, game.moves().to_vec())
            })
        }

        fn go() -> impl Strategy<Value = Go> {
            let ms = proptest::option::of(0u64..=86_400_000);
            (
                (proptest::option::of(1u32..=120), proptest::option::of(1u64..1 << 40)),
                proptest::option::of(1u64..=86_400_000),
                (ms.clone(), ms.clone(), ms.clone(), ms),
                proptest::option::of(1u32..=10_000),
                any::<bool>(),
                proptest::option::of(game()),
            )
                .prop_map(
                    |(
                        (depth, nodes),
                        movetime,
                        (stime, ttime, sinc, tinc),
                        movestogo,
                        infinite,
                        line,
                    )| {
                        let mut go = Go { infinite, ..Go::default() };
                        go.limits.depth = depth;
                        go.limits.nodes = nodes;
                        go.limits.time = movetime.map(std::time::Duration::from_millis);
                        go.time_left = TimeLeft { stime, ttime, sinc, tinc, movestogo };
                        go.limits.moves = line.map(|(_, moves)| {
                            let mut list = MoveList::new();
                            for m in moves.into_iter().take(8) {
                                if !list.contains(&m) {
                                    list.push(m);
                                }
                            }
                            list
                        });
                        go
                    },
                )
        }

        proptest! {
            #[test]
            fn a_go_reads_back_as_written(go in go()) {
                let line = Command::Go(Box::new(go.clone())).to_string();
                let read = parse(&line).unwrap().unwrap();
                let Command::Go(back) = read else { panic!("{line}") };
                // A go with no word at all is infinite, as a bare go is.
                let bare = Go { infinite: go.infinite, ..Go::default() } == go;
                let expected = if bare { Go { infinite: true, ..go } } else { go };
                prop_assert_eq!(*back, expected, "{}", line);
            }

            #[test]
            fn a_position_reads_back_as_written((_, moves) in game(), from_fen in any::<bool>()) {
                let start = if from_fen { "T3T/5/2S2/5/T3T t 19".parse().unwrap() } else { Board::START };
                let moves = if from_fen { Vec::new() } else { moves };
                let command = Command::Position { start, moves };
                prop_assert_eq!(parse(&command.to_string()).unwrap().unwrap(), command);
            }

            #[test]
            fn an_option_reads_back_as_written(name in "[A-Za-z][A-Za-z0-9]{0,12}", value in "([a-z0-9:=,.]{1,8}( [a-z0-9]{1,4})?)?") {
                let command = Command::SetOption { name, value };
                prop_assert_eq!(parse(&command.to_string()).unwrap().unwrap(), command);
            }
        }
    }
}
