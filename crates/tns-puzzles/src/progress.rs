//! A solver's record: the rating, the streak, the puzzles seen, and the choice of the next one.

use std::fmt::Write as _;

use crate::glicko::{Rating, START};
use crate::puzzle::Puzzle;

/// How many of the puzzles nearest the solver's rating the next one is drawn from.
pub const NEAREST: usize = 16;
/// The longest progress text the reader takes, in bytes.
pub const MAX_PROGRESS_TEXT: usize = 64 * 1024;
/// The most puzzles a record can mark as seen.
pub const MAX_PUZZLES: usize = 100_000;

/// A solver's rating and record over one set of puzzles.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// The solver's rating.
    pub rating: Rating,
    /// Puzzles solved in a row, up to now.
    pub streak: u32,
    /// The longest streak.
    pub best_streak: u32,
    /// Puzzles tried.
    pub tried: u32,
    /// Puzzles solved.
    pub solved: u32,
    /// For each puzzle of the set (by its place, from 0), whether it was tried.
    seen: Vec<bool>,
}

impl Default for Progress {
    fn default() -> Progress {
        Progress { rating: START, streak: 0, best_streak: 0, tried: 0, solved: 0, seen: Vec::new() }
    }
}

/// Why a progress text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProgressError {
    /// Longer than [`MAX_PROGRESS_TEXT`].
    #[error("longer than {MAX_PROGRESS_TEXT} bytes")]
    TooLong,
    /// A line that is not `key value...` with a known key and good values.
    #[error("line {0} is not understood")]
    Line(usize),
}

impl Progress {
    /// Whether puzzle `index` was tried.
    pub fn has_seen(&self, index: usize) -> bool {
        self.seen.get(index).copied().unwrap_or(false)
    }

    /// Counts a try at puzzle `index` (of rating `puzzle_rating`): the rating moves, the streak
    /// grows or ends. An index beyond [`MAX_PUZZLES`] moves the rating but is not marked seen.
    pub fn record(&mut self, index: usize, puzzle_rating: u16, solved: bool) {
        self.rating = self.rating.after_puzzle(puzzle_rating, solved);
        self.tried = self.tried.saturating_add(1);
        if solved {
            self.solved = self.solved.saturating_add(1);
            self.streak = self.streak.saturating_add(1);
            self.best_streak = self.best_streak.max(self.streak);
        } else {
            self.streak = 0;
        }
        if index < MAX_PUZZLES {
            if self.seen.len() <= index {
                self.seen.resize(index + 1, false);
            }
            self.seen[index] = true;
        }
    }

    /// The next puzzle to offer: drawn by `seed` from the [`NEAREST`] puzzles not yet seen
    /// whose ratings are nearest the solver's (from all of them once every one is seen);
    /// `None` for an empty set.
    pub fn next(&self, puzzles: &[Puzzle], seed: u64) -> Option<usize> {
        let mut candidates: Vec<usize> =
            (0..puzzles.len()).filter(|&i| !self.has_seen(i)).collect();
        if candidates.is_empty() {
            candidates = (0..puzzles.len()).collect();
        }
        let target = self.rating.rating;
        candidates.sort_by(|&a, &b| {
            let da = (f64::from(puzzles[a].rating) - target).abs();
            let db = (f64::from(puzzles[b].rating) - target).abs();
            da.total_cmp(&db).then(a.cmp(&b))
        });
        candidates.truncate(NEAREST);
        let n = candidates.len() as u64;
        (n > 0).then(|| candidates[usize::try_from(seed % n).unwrap_or(0)])
    }

    /// The record as text, for the solver's data folder.
    pub fn to_text(&self) -> String {
        let mut out = String::from("# Tigers and Sheep puzzles: the solver's record\n");
        let r = self.rating;
        let _ = writeln!(out, "rating {} {} {}", r.rating, r.deviation, r.volatility);
        let _ = writeln!(out, "streak {} {}", self.streak, self.best_streak);
        let _ = writeln!(out, "tried {} {}", self.tried, self.solved);
        let seen: Vec<String> =
            self.seen.iter().enumerate().filter(|(_, s)| **s).map(|(i, _)| i.to_string()).collect();
        let _ = writeln!(out, "seen {}", seen.join(" "));
        out
    }

    /// A record from [`to_text`](Progress::to_text)'s text.
    ///
    /// # Errors
    /// A text longer than [`MAX_PROGRESS_TEXT`], or a line that is not understood (its number, from 1).
    pub fn from_text(text: &str) -> Result<Progress, ProgressError> {
        if text.len() > MAX_PROGRESS_TEXT {
            return Err(ProgressError::TooLong);
        }
        let mut progress = Progress::default();
        for (i, line) in text.lines().enumerate() {
            let bad = || ProgressError::Line(i + 1);
            let mut words = line.split_whitespace();
            let Some(key) = words.next().filter(|k| !k.starts_with('#')) else { continue };
            let numbers: Vec<&str> = words.collect();
            match (key, numbers.as_slice()) {
                ("rating", [r, d, v]) => {
                    let read = |s: &str| s.parse::<f64>().ok().filter(|x| x.is_finite());
                    let (r, d, v) = (
                        read(r).ok_or_else(bad)?,
                        read(d).ok_or_else(bad)?,
                        read(v).ok_or_else(bad)?,
                    );
                    if !(100.0..=4000.0).contains(&r)
                        || !(1.0..=350.0).contains(&d)
                        || !(0.0..=1.0).contains(&v)
                    {
                        return Err(bad());
                    }
                    progress.rating = Rating { rating: r, deviation: d, volatility: v };
                }
                ("streak", [s, b]) => {
                    progress.streak = s.parse().map_err(|_| bad())?;
                    progress.best_streak = b.parse().map_err(|_| bad())?;
                }
                ("tried", [t, s]) => {
                    progress.tried = t.parse().map_err(|_| bad())?;
                    progress.solved = s.parse().map_err(|_| bad())?;
                }
                ("seen", seen) => {
                    for s in seen {
                        let index: usize = s.parse().map_err(|_| bad())?;
                        if index >= MAX_PUZZLES {
                            return Err(bad());
                        }
                        if progress.seen.len() <= index {
                            progress.seen.resize(index + 1, false);
                        }
                        progress.seen[index] = true;
                    }
                }
                _ => return Err(bad()),
            }
        }
        Ok(progress)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_line;
    use proptest::prelude::*;

    fn set(ratings: &[u16]) -> Vec<Puzzle> {
        let base = parse_line("T3T/5/2S2/2T2/T4 t 19\tc2xc4\twin\t900\ttigers").unwrap();
        ratings.iter().map(|&rating| Puzzle { rating, ..base.clone() }).collect()
    }

    #[test]
    fn the_next_puzzle_is_near_the_rating_and_not_seen() {
        let ratings: Vec<u16> = (0..100).map(|i| 500 + i * 20).collect();
        let puzzles = set(&ratings);
        let mut progress = Progress::default();
        for seed in 0..50 {
            let i = progress.next(&puzzles, seed).unwrap();
            assert!((i32::from(puzzles[i].rating) - 1500).abs() <= 20 * 8, "{}", puzzles[i].rating);
        }
        let first = progress.next(&puzzles, 3).unwrap();
        progress.record(first, puzzles[first].rating, true);
        for seed in 0..50 {
            assert_ne!(
                progress.next(&puzzles, seed),
                Some(first),
                "a puzzle seen is not offered again"
            );
        }
        assert_eq!(progress.next(&[], 1), None);
    }

    #[test]
    fn the_streak_grows_and_breaks() {
        let mut progress = Progress::default();
        progress.record(0, 1500, true);
        progress.record(1, 1500, true);
        progress.record(2, 1500, false);
        progress.record(3, 1500, true);
        assert_eq!(
            (progress.streak, progress.best_streak, progress.tried, progress.solved),
            (1, 2, 4, 3)
        );
    }

    #[test]
    fn bad_records_are_refused() {
        for text in [
            "rating 1500 350",
            "rating nan 350 0.06",
            "streak x 1",
            "seen 1 -2",
            "colour blue",
            "seen 100000",
        ] {
            assert!(Progress::from_text(text).is_err(), "{text}");
        }
        assert_eq!(
            Progress::from_text(&" ".repeat(MAX_PROGRESS_TEXT + 1)),
            Err(ProgressError::TooLong)
        );
    }

    proptest! {
        #[test]
        fn a_record_reads_back(results in proptest::collection::vec((0usize..3000, 0u16..3000, any::<bool>()), 0..40)) {
            let mut progress = Progress::default();
            for (index, rating, solved) in results {
                progress.record(index, rating, solved);
            }
            let back = Progress::from_text(&progress.to_text()).unwrap();
            prop_assert_eq!(back.streak, progress.streak);
            prop_assert_eq!(back.seen.iter().filter(|s| **s).count(), progress.seen.iter().filter(|s| **s).count());
            prop_assert!((back.rating.rating - progress.rating.rating).abs() < 1e-9);
        }
    }
}
