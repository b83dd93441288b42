//! The set's file: one puzzle a line, its columns separated by tabs.
//!
//! ```text
//! # comment lines start with '#'
//! position → solutions → value → rating → themes → line      (→ a tab)
//! 2S2/1T1ST/SSTS1/S1SSS/T1S1S s 3 → b2 → draw → 1612 → placement sheep hold guard →
//! ```
//!
//! - **position**: the position in the notation of [`tns_board::Board`], its side to move the
//!   solver;
//! - **solutions**: every move that keeps the value, separated by spaces (kills as `a5xc3`);
//! - **value**: what they keep, for the solver: `win in N` (plies, where the table holds the
//!   distance), `win`, or `draw`;
//! - **rating**: how hard it is (see [`Rating`](crate::Rating));
//! - **themes**: [`Theme`] names separated by spaces;
//! - **line**: for a longer puzzle, the opponent's reply, the next move to find, and so on,
//!   separated by spaces; empty (or absent) for a puzzle of one move.

use std::num::ParseIntError;

use tns_board::{Board, Move, MoveError, ParseMoveError, ParsePositionError};
use tns_tablebase::{Value, Verdict, Wdl};

use crate::puzzle::Puzzle;
use crate::theme::{ParseThemeError, Theme};

/// The longest line the reader takes, in bytes; a puzzle's line is far shorter.
pub const MAX_LINE: usize = 1024;

/// The shipped set's text, as the generator wrote it.
const SHIPPED: &str = include_str!("../puzzles.tsv");

/// What is wrong with one line of a set.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LineError {
    /// Longer than [`MAX_LINE`].
    #[error("longer than {MAX_LINE} bytes")]
    TooLong,
    /// Fewer than five columns or more than six.
    #[error("{0} columns, expected 5 or 6 separated by tabs")]
    Columns(usize),
    /// The position does not parse.
    #[error("bad position")]
    Position(#[source] ParsePositionError),
    /// A move does not parse.
    #[error("bad move {0:?}")]
    Move(String, #[source] ParseMoveError),
    /// A move is not legal where it is played.
    #[error("{0} is not legal where it is played")]
    Illegal(Move, #[source] MoveError),
    /// No solution, or one written twice.
    #[error("the solutions must be one or more distinct moves")]
    Solutions,
    /// A line given to a puzzle with more than one solution (which would it follow?), or a
    /// line that does not end with a move to find.
    #[error("a line follows one solution and ends on a move to find")]
    Line,
    /// The value is not `win in N`, `win` or `draw`.
    #[error("bad value {0:?}: expected `win in N`, `win` or `draw`")]
    Value(String),
    /// The rating is not a number from 0 to 65535.
    #[error("bad rating")]
    Rating(#[source] ParseIntError),
    /// A theme is unknown.
    #[error("bad theme")]
    Theme(#[source] ParseThemeError),
}

/// What is wrong with a set: the line, from 1, and why.
#[derive(Debug, thiserror::Error)]
#[error("puzzle line {line}: {source}")]
pub struct SetError {
    /// The line's number, from 1.
    pub line: usize,
    /// Why it is refused.
    #[source]
    pub source: LineError,
}

/// One puzzle from one line of a set (without its line end).
///
/// ```
/// use tns_puzzles::{Theme, parse_line};
///
/// let puzzle = parse_line("T3T/5/2S2/2T2/T4 t 19\tc2xc4\twin\t900\tplacement tigers win jump")?;
/// assert_eq!(puzzle.solutions[0].to_string(), "c2xc4");
/// assert!(puzzle.has(Theme::Jump));
/// # Ok::<(), tns_puzzles::LineError>(())
/// ```
///
/// # Errors
/// Why the line is not a puzzle: see [`LineError`]. Moves are checked to be legal where they
/// are played; whether they solve the puzzle only the table can say ([`crate::check`]).
pub fn parse_line(line: &str) -> Result<Puzzle, LineError> {
    if line.len() > MAX_LINE {
        return Err(LineError::TooLong);
    }
    let columns: Vec<&str> = line.split('\t').collect();
    if !(5..=6).contains(&columns.len()) {
        return Err(LineError::Columns(columns.len()));
    }
    let position: Board = columns[0].parse().map_err(LineError::Position)?;
    let solutions = moves(columns[1])?;
    if solutions.is_empty() || solutions.iter().enumerate().any(|(i, m)| solutions[..i].contains(m))
    {
        return Err(LineError::Solutions);
    }
    for &m in &solutions {
        position.check_move(m).map_err(|e| LineError::Illegal(m, e))?;
    }
    let mut value = value(columns[2])?;
    // Where the movement table holds the position, its draw is an exact value too.
    if value.wdl == Wdl::Draw && position.in_hand() == 0 {
        value = Value::Draw.into();
    }
    let rating = columns[3].parse().map_err(LineError::Rating)?;
    let themes = columns[4]
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<Vec<Theme>, _>>()
        .map_err(LineError::Theme)?;
    let line = moves(columns.get(5).copied().unwrap_or(""))?;
    if !line.is_empty() {
        if solutions.len() != 1 || line.len() % 2 != 0 {
            return Err(LineError::Line);
        }
        let mut board = position.after_unchecked(solutions[0]);
        for &m in &line {
            board.play(m).map_err(|e| LineError::Illegal(m, e))?;
        }
    }
    Ok(Puzzle { position, solutions, value, rating, themes, line })
}

fn moves(column: &str) -> Result<Vec<Move>, LineError> {
    column
        .split_whitespace()
        .map(|text| text.parse().map_err(|e| LineError::Move(text.to_string(), e)))
        .collect()
}

fn value(text: &str) -> Result<Verdict, LineError> {
    let bad = || LineError::Value(text.to_string());
    match text {
        "win" => Ok(Wdl::Win.into()),
        "draw" => Ok(Wdl::Draw.into()),
        _ => {
            let plies = text.strip_prefix("win in ").ok_or_else(bad)?;
            let plies: u16 = plies.parse().map_err(|_| bad())?;
            Ok(Value::Win(plies).into())
        }
    }
}

/// Every puzzle of a set's text, in order; blank lines and lines starting with `#` are skipped.
///
/// # Errors
/// The first line that is not a puzzle, with its number.
pub fn parse(text: &str) -> Result<Vec<Puzzle>, SetError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| parse_line(l).map_err(|source| SetError { line: i + 1, source }))
        .collect()
}

/// A set as the file holds it: a header of comment lines (each given line prefixed with `# `),
/// then one puzzle a line.
pub fn write(header: &[String], puzzles: &[Puzzle]) -> String {
    let mut out = String::new();
    for line in header {
        out.push_str("# ");
        out.push_str(line);
        out.push('\n');
    }
    for puzzle in puzzles {
        out.push_str(&puzzle.to_string());
        out.push('\n');
    }
    out
}

/// The set that ships with the crate (`puzzles.tsv`), made from the solved game by
/// `tns-tablebase puzzles`.
///
/// # Errors
/// A line that does not parse: never for the file as shipped, which the crate's tests read.
pub fn shipped() -> Result<Vec<Puzzle>, SetError> {
    parse(SHIPPED)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const LONG: &str = "T3T/5/2S2/2T2/T4 t 19\tc2xc4\twin in 3\t1234\ttigers long\ta2 c4c3 b5 a1b1";

    #[test]
    fn a_line_reads_back_as_it_was_written() {
        let puzzle = parse_line(LONG).unwrap();
        assert_eq!(puzzle.value, Verdict::from(Value::Win(3)));
        assert_eq!(puzzle.rating, 1234);
        assert_eq!(puzzle.line.len(), 4);
        assert_eq!(puzzle.moves_to_find(), 3);
        assert_eq!(puzzle.to_string(), LONG);
        assert_eq!(puzzle.solutions_at(1), [puzzle.line[1]]);
        assert_eq!(puzzle.reply_after(2), None);
    }

    #[test]
    fn bad_lines_say_why() {
        let cases = [
            ("T3T/5/5/5/T3T t 20\ta1a2\tdraw\t1500", "columns"),
            ("T3T/5/5/5/T3T t 9\ta1a2\tdraw\t1500\t", "position"),
            ("T3T/5/5/5/T3T t 20\ta1z9\tdraw\t1500\t", "move"),
            ("T3T/5/5/5/T3T t 20\ta1a3\tdraw\t1500\t", "legal"),
            ("T3T/5/5/5/T3T t 20\t\tdraw\t1500\t", "solutions"),
            ("T3T/5/5/5/T3T t 20\ta1a2 a1a2\tdraw\t1500\t", "solutions"),
            ("T3T/5/5/5/T3T t 20\ta1a2\tloss\t1500\t", "value"),
            ("T3T/5/5/5/T3T t 20\ta1a2\tdraw\t-3\t", "rating"),
            ("T3T/5/5/5/T3T t 20\ta1a2\tdraw\t1500\tpin", "theme"),
            ("T3T/5/5/5/T3T t 20\ta1a2 a1b1\tdraw\t1500\t\tc3 a2a3", "line"),
            ("T3T/5/5/5/T3T t 20\ta1a2\tdraw\t1500\t\tc3", "line"),
        ];
        for (line, why) in cases {
            let error = parse_line(line).expect_err(line);
            let text = format!("{error:?}").to_lowercase();
            assert!(text.contains(why), "{line}: {error:?}");
        }
        assert!(matches!(parse_line(&"x".repeat(MAX_LINE + 1)), Err(LineError::TooLong)));
        let error = parse("# header\n\nT3T/5/5/5/T3T t 20\ta1a3\tdraw\t1500\t\n").unwrap_err();
        assert_eq!(error.line, 3);
        assert!(std::error::Error::source(&error).is_some(), "the cause is kept");
    }

    #[test]
    fn the_shipped_set_parses_and_is_large() {
        let puzzles = shipped().unwrap();
        assert!(puzzles.len() >= 2000, "{} puzzles", puzzles.len());
    }

    proptest! {
        #[test]
        fn any_written_set_reads_back(ratings in proptest::collection::vec(0u16..4000, 1..20)) {
            let base = parse_line(LONG).unwrap();
            let puzzles: Vec<Puzzle> =
                ratings.iter().map(|&rating| Puzzle { rating, ..base.clone() }).collect();
            let text = write(&["made by a test".to_string()], &puzzles);
            prop_assert_eq!(parse(&text).unwrap(), puzzles);
        }
    }
}
