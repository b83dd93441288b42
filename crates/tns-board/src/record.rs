//! Game records: header tags and the moves, one text that round-trips.
//!
//! ```text
//! [Sheep "human"]
//! [Tiger "heuristic"]
//! [Result "tiger"]
//! [Position "T3T/5/2S2/5/T3T t 19"]
//!
//! 1... a5b4 2. b5 b4a4
//! ```
//!
//! Tags are `[Name "value"]`, one a line, with `\"`, `\\` and `\n` escaped in values. `Position`
//! is written only when the game did not start from the standard position. `Result` is `sheep`,
//! `tiger`, `draw` or `*` (unfinished). The moves follow a blank line, numbered by sheep turns:
//! `1. c3 a5b4`, and `1... a5b4` when the tigers move first. Numbers are optional when reading.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use crate::error::{ParseRecordError, ReplayError};
use crate::{Board, Game, Move, Outcome, Side};

/// The result a record states.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum RecordResult {
    /// The sheep won.
    SheepWin,
    /// The tigers won.
    TigerWin,
    /// A draw.
    Draw,
    /// No result (a game in progress, or stopped).
    #[default]
    Unfinished,
}

impl RecordResult {
    /// The result for a game's outcome (`Unfinished` for `None`).
    pub fn from_outcome(outcome: Option<Outcome>) -> RecordResult {
        match outcome.map(|o| o.winner) {
            None => RecordResult::Unfinished,
            Some(None) => RecordResult::Draw,
            Some(Some(Side::Sheep)) => RecordResult::SheepWin,
            Some(Some(Side::Tiger)) => RecordResult::TigerWin,
        }
    }

    const fn tag_value(self) -> &'static str {
        match self {
            RecordResult::SheepWin => "sheep",
            RecordResult::TigerWin => "tiger",
            RecordResult::Draw => "draw",
            RecordResult::Unfinished => "*",
        }
    }
}

/// A recorded game: the start, the moves, the result, and any other header tags.
///
/// Parsing checks every move against the rules, so a parsed record always replays.
///
/// ```
/// use tns_board::{Game, GameRecord, RecordResult};
///
/// let mut game = Game::new();
/// game.play("c3".parse()?)?;
/// game.play("a5b4".parse()?)?;
/// let record = GameRecord::from_game(&game, "human", "heuristic");
/// let text = record.to_string();
/// assert!(text.contains("1. c3 a5b4"));
/// let back: GameRecord = text.parse()?;
/// assert_eq!(back, record);
/// assert_eq!(back.tag("Tiger"), Some("heuristic"));
/// assert_eq!(back.replay()?.board(), game.board());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameRecord {
    /// The position the game started from.
    pub start: Board,
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// The stated result.
    pub result: RecordResult,
    /// Every other tag, in order, such as `Sheep` and `Tiger` (the players). Names should be
    /// letters, digits and `_`, and not `Position` or `Result`.
    pub tags: Vec<(String, String)>,
}

impl GameRecord {
    /// The record of `game`, with the two players' names and the game's outcome as its result.
    pub fn from_game(game: &Game, sheep: &str, tiger: &str) -> GameRecord {
        GameRecord {
            start: game.start(),
            moves: game.moves().to_vec(),
            result: RecordResult::from_outcome(game.outcome()),
            tags: vec![("Sheep".into(), sheep.into()), ("Tiger".into(), tiger.into())],
        }
    }

    /// The value of the first tag named `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Plays the moves from the start.
    ///
    /// # Errors
    /// A [`ReplayError`] for the first move that cannot be played.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let mut game = Game::from_position(self.start);
        for (i, &mv) in self.moves.iter().enumerate() {
            game.play(mv).map_err(|source| ReplayError { ply: i + 1, mv, source })?;
        }
        Ok(game)
    }
}

fn write_tag(out: &mut String, name: &str, value: &str) {
    let _ = write!(out, "[{name} \"");
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        for (name, value) in &self.tags {
            write_tag(&mut out, name, value);
        }
        write_tag(&mut out, "Result", self.result.tag_value());
        if self.start != Board::START {
            write_tag(&mut out, "Position", &self.start.to_string());
        }
        out.push('\n');
        let mut line = String::new();
        let mut side = self.start.side_to_move();
        let mut number = 1;
        for (i, m) in self.moves.iter().enumerate() {
            let mut token = String::new();
            match side {
                Side::Sheep => {
                    let _ = write!(token, "{number}. ");
                }
                Side::Tiger if i == 0 => {
                    let _ = write!(token, "{number}... ");
                }
                Side::Tiger => {}
            }
            let _ = write!(token, "{m}");
            if side == Side::Tiger {
                number += 1;
            }
            side = side.other();
            if !line.is_empty() && line.len() + 1 + token.len() > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        if !line.is_empty() {
            out.push_str(&line);
            out.push('\n');
        }
        f.write_str(&out)
    }
}

/// Parses `[Name "value"]`, or `None` if the line is not a well-formed tag.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(match chars.next()? {
                'n' => '\n',
                c @ ('"' | '\\') => c,
                _ => return None,
            }),
            '"' => return None,
            _ => value.push(c),
        }
    }
    Some((name.to_owned(), value))
}

/// Strips a move number (`12.` or `12...`) from the front of a token.
fn strip_number(token: &str) -> &str {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && token[digits..].starts_with('.') {
        token[digits..].trim_start_matches('.')
    } else {
        token
    }
}

impl FromStr for GameRecord {
    type Err = ParseRecordError;

    fn from_str(s: &str) -> Result<GameRecord, ParseRecordError> {
        parse_lines(s.lines().enumerate().map(|(i, l)| (i + 1, l.trim())))
    }
}

impl GameRecord {
    /// Parses a text holding any number of records one after another, as a match writes them.
    /// A record ends where a tag line follows its moves, or follows the blank line after its
    /// header.
    ///
    /// ```
    /// use tns_board::GameRecord;
    ///
    /// let text = "[Result \"*\"]\n\n1. c3\n\n[Result \"*\"]\n\n1. b2 a5b4\n";
    /// let records = GameRecord::parse_all(text)?;
    /// assert_eq!(records.len(), 2);
    /// assert_eq!(records[1].moves.len(), 2);
    /// # Ok::<(), tns_board::ParseRecordError>(())
    /// ```
    ///
    /// # Errors
    /// The first record's [`ParseRecordError`], with line numbers counted in the whole text.
    pub fn parse_all(text: &str) -> Result<Vec<GameRecord>, ParseRecordError> {
        let mut records = Vec::new();
        let mut chunk: Vec<(usize, &str)> = Vec::new();
        let mut past_header = false;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.starts_with('[') && past_header {
                records.push(parse_lines(chunk.drain(..))?);
                past_header = false;
            }
            let has_header = chunk.iter().any(|(_, l)| !l.is_empty());
            if !line.is_empty() && !line.starts_with('[') || line.is_empty() && has_header {
                past_header = true;
            }
            chunk.push((i + 1, line));
        }
        if chunk.iter().any(|(_, l)| !l.is_empty()) {
            records.push(parse_lines(chunk.into_iter())?);
        }
        Ok(records)
    }
}

/// Parses one record from numbered, trimmed lines.
fn parse_lines<'a>(
    mut lines: impl Iterator<Item = (usize, &'a str)>,
) -> Result<GameRecord, ParseRecordError> {
    let mut record = GameRecord::default();
    let mut movetext = Vec::new();
    for (line, text) in lines.by_ref() {
        if text.is_empty() {
            continue;
        }
        if !text.starts_with('[') {
            movetext.push((line, text));
            break;
        }
        let (name, value) = parse_tag(text)
            .ok_or_else(|| ParseRecordError::BadTag { line, text: text.to_owned() })?;
        match name.as_str() {
            "Position" => {
                record.start =
                    value.parse().map_err(|source| ParseRecordError::Position { line, source })?;
            }
            "Result" => {
                record.result = match value.as_str() {
                    "sheep" => RecordResult::SheepWin,
                    "tiger" => RecordResult::TigerWin,
                    "draw" => RecordResult::Draw,
                    "*" => RecordResult::Unfinished,
                    _ => return Err(ParseRecordError::BadResult { line, value }),
                };
            }
            _ => record.tags.push((name, value)),
        }
    }
    movetext.extend(lines);
    let mut game = Game::from_position(record.start);
    for (line, text) in movetext {
        for token in text.split_whitespace().map(strip_number).filter(|t| !t.is_empty()) {
            let ply = game.len() + 1;
            let m: Move =
                token.parse().map_err(|source| ParseRecordError::BadMove { line, ply, source })?;
            game.play(m).map_err(|source| ParseRecordError::IllegalMove {
                line,
                ply,
                mv: m,
                source,
            })?;
        }
    }
    record.moves = game.moves().to_vec();
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{MoveError, PlayError};

    #[test]
    fn tiger_first_numbering() {
        let mut game = Game::from_position("T3T/5/2S2/5/T3T t 19".parse().unwrap());
        for m in ["a5b4", "b5", "b4a4"] {
            game.play(m.parse().unwrap()).unwrap();
        }
        let text = GameRecord::from_game(&game, "a", "b").to_string();
        assert!(text.contains("[Position \"T3T/5/2S2/5/T3T t 19\"]"), "{text}");
        assert!(text.ends_with("1... a5b4 2. b5 b4a4\n"), "{text}");
        assert_eq!(text.parse::<GameRecord>().unwrap().moves, game.moves());
    }

    #[test]
    fn escapes_round_trip() {
        let mut record = GameRecord::from_game(&Game::new(), "a \"quoted\"\\name", "two\nlines");
        record.result = RecordResult::Draw;
        assert_eq!(record.to_string().parse::<GameRecord>(), Ok(record));
    }

    #[test]
    fn errors() {
        let err = |s: &str| s.parse::<GameRecord>().unwrap_err();
        assert!(matches!(err("[Sheep human]\n"), ParseRecordError::BadTag { line: 1, .. }));
        assert!(matches!(err("[Sheep \"x\\q\"]"), ParseRecordError::BadTag { line: 1, .. }));
        assert!(matches!(err("\n[Result \"win\"]"), ParseRecordError::BadResult { line: 2, .. }));
        assert!(matches!(
            err("[Position \"T3T s 20\"]"),
            ParseRecordError::Position { line: 1, .. }
        ));
        assert!(matches!(err("\n1. c3 zz"), ParseRecordError::BadMove { line: 2, ply: 2, .. }));
        assert_eq!(
            err("1. c3\na5b4 2. c3"),
            ParseRecordError::IllegalMove {
                line: 2,
                ply: 3,
                mv: "c3".parse().unwrap(),
                source: PlayError::Illegal(MoveError::Occupied("c3".parse().unwrap())),
            }
        );
    }

    #[test]
    fn parse_all_splits_records_and_counts_lines_in_the_whole_text() {
        let mut game = Game::new();
        let mut texts = Vec::new();
        for m in ["c3", "a5b4", "b2", "b4a4"] {
            game.play(m.parse().unwrap()).unwrap();
            texts.push(GameRecord::from_game(&game, "s", "t").to_string());
        }
        // An empty game between them: tags and a blank line only.
        texts.insert(1, GameRecord::from_game(&Game::new(), "x", "y").to_string());
        let text = texts.join("\n");
        let records = GameRecord::parse_all(&text).unwrap();
        let lengths: Vec<usize> = records.iter().map(|r| r.moves.len()).collect();
        assert_eq!(lengths, [1, 0, 2, 3, 4]);
        assert_eq!(records[1].tag("Sheep"), Some("x"));
        assert_eq!(GameRecord::parse_all("\n\n"), Ok(Vec::new()));

        let broken = format!("{}\n{}", texts[0], texts[2].replace("a5b4", "a5e1"));
        let lines_before = texts[0].lines().count() + 1;
        match GameRecord::parse_all(&broken) {
            Err(ParseRecordError::IllegalMove { line, ply: 2, .. }) => {
                assert_eq!(line, lines_before + 5);
            }
            other => panic!("{other:?}"),
        }
    }
}
