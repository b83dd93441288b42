//! Game records: header tags and the moves, one text that round-trips, in the shape of PGN so
//! that PGN tools read them.
//!
//! ```text
//! [Event "?"]
//! [Site "?"]
//! [Date "????.??.??"]
//! [Round "?"]
//! [White "human"]
//! [Black "heuristic"]
//! [Result "0-1"]
//! [Sheep "human"]
//! [Tiger "heuristic"]
//! [Position "T3T/5/2S2/5/T3T t 19"]
//!
//! 1... a5b4 2. b5 b4a4 0-1
//! ```
//!
//! Tags are `[Name "value"]`, one a line, with `\"`, `\\` and `\n` escaped in values. The
//! header opens with PGN's seven-tag roster: `Event`, `Site`, `Date` and `Round` from the tags of
//! those names (`?` and `????.??.??` when there are none), `White` for the sheep's player and
//! `Black` for the tigers' (from the `Sheep` and `Tiger` tags), and `Result`: `1-0` when the sheep
//! won (they move first, as White does), `0-1` when the tigers did, `1/2-1/2` or `*`. The other
//! tags follow; `Position` is written only when the game did not start from the standard
//! position. The moves follow a blank line, numbered by sheep turns (`1. c3 a5b4`, and
//! `1... a5b4` when the tigers move first), and end with the result again.
//!
//! Reading takes these records and the older ones (a `Result` of `sheep`, `tiger` or `draw`, no
//! roster, no result token); numbers are optional, but a wrong one is refused. A roster tag that
//! only repeats what the writer derives (`?`, or `White` equal to `Sheep`) is not kept; a
//! `White` or `Black` without `Sheep` or `Tiger` (a record from elsewhere) becomes them.
//!
//! So every record whose moves replay from its start and whose result agrees with how they end
//! (every parsed record, and every one [`GameRecord::from_game`] makes) reads back from its text
//! equal to itself: its tags are set only through [`GameRecord::set_tag`], which keeps names the
//! text can hold and puts the roster's first, where they are written (a property test holds
//! the records to that).

use std::fmt::{self, Write as _};
use std::str::FromStr;

use crate::error::{ParseRecordError, ReplayError, TagError};
use crate::{Board, Game, Move, Outcome, Side};

/// The result a record states, written as PGN writes it (the sheep move first, as White does).
///
/// ```
/// use tns_board::{Outcome, RecordResult, Side};
///
/// assert_eq!(RecordResult::SheepWin.to_string(), "1-0");
/// assert_eq!("1/2-1/2".parse::<RecordResult>()?, RecordResult::Draw);
/// // Older records said who won in words.
/// assert_eq!("tiger".parse::<RecordResult>()?, RecordResult::TigerWin);
/// assert_eq!(RecordResult::from_outcome(Some(Outcome::DRAW_BY_REPETITION)), RecordResult::Draw);
/// assert_eq!(RecordResult::from_outcome(None), RecordResult::Unfinished);
/// assert!("2-0".parse::<RecordResult>().is_err());
/// # Ok::<(), tns_board::ParseRecordError>(())
/// ```
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

    /// The result as PGN writes it: `1-0` (the sheep won), `0-1`, `1/2-1/2` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            RecordResult::SheepWin => "1-0",
            RecordResult::TigerWin => "0-1",
            RecordResult::Draw => "1/2-1/2",
            RecordResult::Unfinished => "*",
        }
    }

    /// The result a tag value or result token names: PGN's four, or the older `sheep`, `tiger`
    /// and `draw`.
    fn from_text(text: &str) -> Option<RecordResult> {
        Some(match text {
            "1-0" | "sheep" => RecordResult::SheepWin,
            "0-1" | "tiger" => RecordResult::TigerWin,
            "1/2-1/2" | "draw" => RecordResult::Draw,
            "*" => RecordResult::Unfinished,
            _ => return None,
        })
    }
}

impl fmt::Display for RecordResult {
    /// As [`RecordResult::as_str`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for RecordResult {
    type Err = ParseRecordError;

    /// PGN's `1-0`, `0-1`, `1/2-1/2`, `*`, or the older `sheep`, `tiger`, `draw`.
    fn from_str(s: &str) -> Result<RecordResult, ParseRecordError> {
        RecordResult::from_text(s)
            .ok_or_else(|| ParseRecordError::BadResult { line: 1, value: s.to_owned() })
    }
}

/// The UTC date of a Unix time as year, month and day (Howard Hinnant's days-to-civil
/// method), for a record's `Date` tag: `format!("{y:04}.{m:02}.{d:02}")`.
///
/// ```
/// assert_eq!(tns_board::utc_date(1_796_083_200), (2026, 12, 1));
/// ```
pub fn utc_date(unix_seconds: u64) -> (i64, u32, u32) {
    let days = i64::try_from(unix_seconds / 86_400).unwrap_or(i64::MAX / 2);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    // Both are small by construction: a day of 1 to 31, a month of 1 to 12.
    (year, u32::try_from(month).unwrap_or(1), u32::try_from(day).unwrap_or(1))
}

/// PGN's seven-tag roster, less `Result`, with the value written when a record has no tag of
/// that name (`White` and `Black` come from `Sheep` and `Tiger`).
const ROSTER: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
];

/// The tag a roster tag is derived from, if any.
fn derived_from(roster_tag: &str) -> Option<&'static str> {
    match roster_tag {
        "White" => Some("Sheep"),
        "Black" => Some("Tiger"),
        _ => None,
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
    /// Every other tag, in order: set only through [`GameRecord::set_tag`] (or parsing), so
    /// that every name is one the text can hold and reads back as it was.
    tags: Vec<(String, String)>,
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

    /// Sets the tag `name` to `value`, replacing a tag of that name, so that the record still
    /// reads back from its text equal to itself: the roster's `Event`, `Site`, `Date` and `Round`
    /// go first in their order, as they are written, and a roster tag set to what the writer
    /// writes without one (`?`, and `????.??.??` for the date) is removed.
    ///
    /// ```
    /// use tns_board::{Game, GameRecord};
    ///
    /// let mut record = GameRecord::from_game(&Game::new(), "human", "network");
    /// record.set_tag("Termination", "resigned")?;
    /// record.set_tag("Event", "club night")?;
    /// assert_eq!(record.tags()[0], ("Event".to_string(), "club night".to_string()));
    /// assert!(record.set_tag("Result", "1-0").is_err());
    /// assert!(record.set_tag("my tag", "x").is_err());
    /// assert_eq!(record.to_string().parse::<GameRecord>()?, record);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`TagError::BadName`] for a name that is empty or holds anything but ASCII letters,
    /// digits and `_`; [`TagError::Reserved`] for `Position`, `Result`, `White` and `Black`,
    /// which are written from the record's start, result and `Sheep` and `Tiger` tags.
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), TagError> {
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(TagError::BadName(name.chars().take(40).collect()));
        }
        if ["Position", "Result", "White", "Black"].contains(&name) {
            return Err(TagError::Reserved(name.to_owned()));
        }
        self.tags.retain(|(n, _)| n != name);
        let roster = ["Event", "Site", "Date", "Round"];
        let default = ROSTER.iter().find(|(n, _)| *n == name).map(|(_, d)| *d);
        match roster.iter().position(|r| *r == name) {
            Some(_) if Some(value) == default => {}
            Some(rank) => {
                let before = |n: &str| roster[..rank].contains(&n);
                let at = self.tags.iter().take_while(|(n, _)| before(n)).count();
                self.tags.insert(at, (name.to_owned(), value.to_owned()));
            }
            None => self.tags.push((name.to_owned(), value.to_owned())),
        }
        Ok(())
    }

    /// The value of the tag named `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Every tag but `Position` and `Result` (the record's start and result), in the order
    /// they are written: such as `Sheep` and `Tiger` (the players), `Event` or `Date`. Each
    /// name is ASCII letters, digits and `_`, and appears once.
    ///
    /// ```
    /// use tns_board::{Game, GameRecord};
    ///
    /// let mut record = GameRecord::from_game(&Game::new(), "human", "network");
    /// record.set_tag("Round", "3")?;
    /// let names: Vec<&str> = record.tags().iter().map(|(n, _)| n.as_str()).collect();
    /// assert_eq!(names, ["Round", "Sheep", "Tiger"]);
    /// # Ok::<(), tns_board::TagError>(())
    /// ```
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// Removes the tag `name`, returning its value if it had one.
    ///
    /// ```
    /// use tns_board::{Game, GameRecord};
    ///
    /// let mut record = GameRecord::from_game(&Game::new(), "human", "network");
    /// assert_eq!(record.remove_tag("Tiger").as_deref(), Some("network"));
    /// assert_eq!(record.tag("Tiger"), None);
    /// assert_eq!(record.remove_tag("Tiger"), None);
    /// ```
    pub fn remove_tag(&mut self, name: &str) -> Option<String> {
        let at = self.tags.iter().position(|(n, _)| n == name)?;
        Some(self.tags.remove(at).1)
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
        let roster = |name: &str| ROSTER.iter().any(|(n, _)| *n == name);
        for (name, default) in ROSTER {
            let value = self.tag(derived_from(name).unwrap_or(name)).unwrap_or(default);
            write_tag(&mut out, name, value);
        }
        write_tag(&mut out, "Result", self.result.as_str());
        for (name, value) in self.tags.iter().filter(|(n, _)| !roster(n)) {
            write_tag(&mut out, name, value);
        }
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
        let result = self.result.as_str();
        if !line.is_empty() && line.len() + 1 + result.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(result);
        out.push_str(&line);
        out.push('\n');
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

/// Splits a move number (`12.` or `12...`) from the front of a token: the number, if any, and
/// the rest.
fn split_number(token: &str) -> (Option<&str>, &str) {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && token[digits..].starts_with('.') {
        (Some(&token[..digits]), token[digits..].trim_start_matches('.'))
    } else {
        (None, token)
    }
}

impl FromStr for GameRecord {
    type Err = ParseRecordError;

    fn from_str(s: &str) -> Result<GameRecord, ParseRecordError> {
        parse_lines(s.lines().enumerate().map(|(i, l)| (i + 1, l.trim()))).map(|(r, _)| r)
    }
}

impl GameRecord {
    /// Parses a text holding any number of records one after another, as a match writes them.
    /// A record ends where a tag line follows its moves, or follows the blank line after its
    /// header. Each must end in its result (`1-0`, `0-1`, `1/2-1/2` or `*`), as PGN asks and
    /// as every record written does: one that does not was cut off as it was written, and is
    /// an error rather than a game that ends early.
    ///
    /// ```
    /// use tns_board::{GameRecord, ParseRecordError};
    ///
    /// let text = "[Result \"*\"]\n\n1. c3 *\n\n[Result \"*\"]\n\n1. b2 a5b4 *\n";
    /// let records = GameRecord::parse_all(text)?;
    /// assert_eq!(records.len(), 2);
    /// assert_eq!(records[1].moves.len(), 2);
    /// // Cut off before its result: the file was cut short.
    /// let cut = &text[..text.len() - 2];
    /// assert_eq!(GameRecord::parse_all(cut), Err(ParseRecordError::CutShort { line: 5 }));
    /// # Ok::<(), tns_board::ParseRecordError>(())
    /// ```
    ///
    /// # Errors
    /// The first record's [`ParseRecordError`], with line numbers counted in the whole text;
    /// [`ParseRecordError::CutShort`] for a record that does not end in its result.
    pub fn parse_all(text: &str) -> Result<Vec<GameRecord>, ParseRecordError> {
        let mut records = Vec::new();
        let mut chunk: Vec<(usize, &str)> = Vec::new();
        let mut past_header = false;
        let whole = |chunk: &mut Vec<(usize, &str)>| -> Result<GameRecord, ParseRecordError> {
            let first = chunk.iter().find(|(_, l)| !l.is_empty()).map_or(1, |&(n, _)| n);
            let (record, ended) = parse_lines(chunk.drain(..))?;
            if ended { Ok(record) } else { Err(ParseRecordError::CutShort { line: first }) }
        };
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.starts_with('[') && past_header {
                records.push(whole(&mut chunk)?);
                past_header = false;
            }
            let has_header = chunk.iter().any(|(_, l)| !l.is_empty());
            if !line.is_empty() && !line.starts_with('[') || line.is_empty() && has_header {
                past_header = true;
            }
            chunk.push((i + 1, line));
        }
        if chunk.iter().any(|(_, l)| !l.is_empty()) {
            records.push(whole(&mut chunk)?);
        }
        Ok(records)
    }
}

/// Drops the roster tags that only say what the writer derives (the defaults, `White` equal to
/// `Sheep`, `Black` to `Tiger`), and turns a `White` or `Black` with no `Sheep` or `Tiger` into
/// them.
fn keep_what_the_roster_adds(tags: &mut Vec<(String, String)>) {
    let find = |tags: &[(String, String)], name: &str| {
        tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
    };
    for (roster, default) in ROSTER {
        let Some(value) = find(tags, roster) else { continue };
        match derived_from(roster) {
            Some(source) if find(tags, source).is_none() && value != default => {
                if let Some(tag) = tags.iter_mut().find(|(n, _)| n == roster) {
                    source.clone_into(&mut tag.0);
                }
            }
            None if value != default => {}
            _ => tags.retain(|(n, _)| n != roster),
        }
    }
}

/// Parses one record from numbered, trimmed lines; with whether its moves ended in a result.
fn parse_lines<'a>(
    mut lines: impl Iterator<Item = (usize, &'a str)>,
) -> Result<(GameRecord, bool), ParseRecordError> {
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
                record.result = RecordResult::from_text(&value)
                    .ok_or(ParseRecordError::BadResult { line, value })?;
            }
            _ => record.tags.push((name, value)),
        }
    }
    keep_what_the_roster_adds(&mut record.tags);
    movetext.extend(lines);
    let mut game = Game::from_position(record.start);
    let mut ended = false;
    // Moves are numbered by sheep turns: the number goes up after each tiger move.
    let mut number = 1usize;
    for (line, text) in movetext {
        for token in text.split_whitespace() {
            let (given, token) = split_number(token);
            if let Some(given) = given
                && given.parse::<usize>().ok() != Some(number)
            {
                return Err(ParseRecordError::MoveNumber {
                    line,
                    found: given.chars().take(20).collect(),
                    expected: number,
                });
            }
            if token.is_empty() {
                continue;
            }
            let pgn_token = ["1-0", "0-1", "1/2-1/2", "*"].contains(&token);
            if let Some(result) = RecordResult::from_text(token).filter(|_| pgn_token) {
                if ended || result != record.result {
                    return Err(ParseRecordError::ResultMismatch {
                        line,
                        token: token.to_owned(),
                        tag: record.result.as_str().to_owned(),
                    });
                }
                ended = true;
                continue;
            }
            let ply = game.len() + 1;
            let m: Move =
                token.parse().map_err(|source| ParseRecordError::BadMove { line, ply, source })?;
            let tigers = game.board().side_to_move() == Side::Tiger;
            game.play(m).map_err(|source| ParseRecordError::IllegalMove {
                line,
                ply,
                mv: m,
                source,
            })?;
            number += usize::from(tigers);
        }
    }
    // A game the rules ended cannot have another result.
    if let Some(outcome) = game.outcome() {
        let by_rules = RecordResult::from_outcome(Some(outcome));
        if record.result != RecordResult::Unfinished && record.result != by_rules {
            return Err(ParseRecordError::ResultContradicts {
                tag: record.result.as_str().to_owned(),
                outcome: outcome.to_string(),
            });
        }
    }
    record.moves = game.moves().to_vec();
    Ok((record, ended))
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
        assert!(text.ends_with("1... a5b4 2. b5 b4a4 *\n"), "{text}");
        assert_eq!(text.parse::<GameRecord>().unwrap().moves, game.moves());
    }

    #[test]
    fn records_are_pgn_and_the_old_ones_still_read() {
        let mut game = Game::new();
        for m in ["c3", "a5b4"] {
            game.play(m.parse().unwrap()).unwrap();
        }
        let mut record = GameRecord::from_game(&game, "human", "heuristic");
        record.result = RecordResult::TigerWin;
        // The roster's tags come first in the text, so first in the tags too to read back equal.
        record.tags.insert(0, ("Event".into(), "tns-bench match".into()));
        record.tags.push(("Termination".into(), "forfeit".into()));
        let text = record.to_string();
        let header: Vec<&str> = text.lines().take(7).collect();
        assert_eq!(
            header,
            [
                "[Event \"tns-bench match\"]",
                "[Site \"?\"]",
                "[Date \"????.??.??\"]",
                "[Round \"?\"]",
                "[White \"human\"]",
                "[Black \"heuristic\"]",
                "[Result \"0-1\"]",
            ]
        );
        assert!(text.ends_with("\n\n1. c3 a5b4 0-1\n"), "{text}");
        assert_eq!(text.parse::<GameRecord>(), Ok(record.clone()));
        // Today's records read as before.
        let old = "[Sheep \"human\"]\n[Tiger \"heuristic\"]\n[Result \"tiger\"]\n\n1. c3 a5b4\n";
        let back: GameRecord = old.parse().unwrap();
        assert_eq!(
            (back.result, back.tag("Sheep"), back.moves.len()),
            (RecordResult::TigerWin, Some("human"), 2)
        );
        // A record from elsewhere: White and Black name the players.
        let other = "[White \"a\"]\n[Black \"b\"]\n[Result \"1/2-1/2\"]\n\n1. c3 1/2-1/2\n";
        let back: GameRecord = other.parse().unwrap();
        assert_eq!(
            (back.tag("Sheep"), back.tag("Tiger"), back.result),
            (Some("a"), Some("b"), RecordResult::Draw)
        );
        // A result token that disagrees with the tag is an error.
        let wrong = "[Result \"1-0\"]\n\n1. c3 0-1\n";
        assert!(matches!(
            wrong.parse::<GameRecord>(),
            Err(ParseRecordError::ResultMismatch { line: 3, .. })
        ));
        assert_eq!("1/2-1/2".parse::<RecordResult>(), Ok(RecordResult::Draw));
        // Wrong move numbers, and a result the moves contradict, are errors.
        assert!(matches!(
            "1. c3 a5b4 3. b2\n".parse::<GameRecord>(),
            Err(ParseRecordError::MoveNumber { line: 1, expected: 2, .. })
        ));
        assert!("1. c3 a5b4 2. b2\n".parse::<GameRecord>().is_ok());
        let over = "[Result \"1-0\"]\n\n1. c3 a5b4 2. e3 b4xd2\n";
        assert!(over.parse::<GameRecord>().is_ok(), "the game goes on: any result may stand");
        let ended = "[Result \"1-0\"]\n[Position \"TS2T/5/5/5/T3T t 15\"]\n\n1... a5c5\n";
        assert!(matches!(
            ended.parse::<GameRecord>(),
            Err(ParseRecordError::ResultContradicts { .. })
        ));
        assert!(ended.replace("1-0", "0-1").parse::<GameRecord>().is_ok());
        // Kills as the game shows them read as jumps.
        let kill: GameRecord = "1. c3 a5b4 2. e3 b4xd2\n".parse().unwrap();
        assert_eq!(kill.replay().unwrap().board().dead(), 1);
        assert_eq!(RecordResult::SheepWin.to_string(), "1-0");
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
        let moves_line = texts[2].lines().position(|l| l.starts_with("1. ")).unwrap() + 1;
        match GameRecord::parse_all(&broken) {
            Err(ParseRecordError::IllegalMove { line, ply: 2, .. }) => {
                assert_eq!(line, lines_before + moves_line);
            }
            other => panic!("{other:?}"),
        }

        // A file cut short while a record was written: its tags and nothing after them. A
        // record written whole ends in its result, an empty game's too.
        let whole = format!("{}\n{}", texts[0], texts[1]);
        assert_eq!(GameRecord::parse_all(&whole).unwrap().len(), 2);
        let cut_at = texts[2].find("[Result").unwrap();
        let cut = format!("{}\n{}", texts[0], &texts[2][..cut_at]);
        let line = texts[0].lines().count() + 2;
        assert_eq!(GameRecord::parse_all(&cut), Err(ParseRecordError::CutShort { line }));
    }
}
