//! Tigers and Sheep puzzles with exact answers, made from the solved game.
//!
//! A [`Puzzle`] is a position from a game where few moves keep the side to move's result (one,
//! ideally) and natural moves give it up; its answers are every move that keeps it, checked
//! against the table ([`check`]). The set that ships with the crate ([`shipped`]) needs no table
//! to play: each line holds the position, the answers, the value they keep, a rating and the
//! themes (see [`parse_line`] for the columns). [`Progress`] keeps a solver's Glicko-2
//! [`Rating`] and streak, and picks the next puzzle near that rating. [`generate`] makes a set
//! again from the table and a seed, the same to the byte.
//!
//! ```
//! use tns_puzzles::{Progress, shipped};
//!
//! let puzzles = shipped()?;
//! let mut progress = Progress::default();
//! let next = progress.next(&puzzles, 7).expect("the set is not empty");
//! let puzzle = &puzzles[next];
//! // The solver plays one of the answers...
//! let solved = puzzle.solutions.contains(&puzzle.solutions[0]);
//! progress.record(next, puzzle.rating, solved);
//! assert_eq!(progress.streak, 1);
//! # Ok::<(), tns_puzzles::SetError>(())
//! ```

mod check;
mod format;
mod generate;
mod glicko;
mod progress;
mod puzzle;
mod review;
mod theme;

pub use check::{CheckError, check, keepers};
pub use format::{LineError, MAX_LINE, SetError, parse, parse_line, shipped, write};
pub use generate::{
    Event, GAME_PLAYERS, GenerateError, Generated, LADDER, Rung, Settings, generate,
};
pub use glicko::{MIN_DEVIATION, Outcome, PUZZLE_DEVIATION, Rating, START, TAU, performance};
pub use progress::{MAX_PROGRESS_TEXT, MAX_PUZZLES, NEAREST, Progress, ProgressError};
pub use puzzle::Puzzle;
pub use review::{Judgement, Mark, Ply, Review, ReviewError, TurningPoint, review, turning_point};
pub use theme::{ParseThemeError, THEMES, Theme};
