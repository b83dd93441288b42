//! One validation for every limit a player can be given, wherever it comes from: a player
//! spec's options, an engine's `setoption` or `go`, a command-line flag. Each check parses the
//! text and bounds the value the same way, and says what was wrong in the same words.

use tns_search::{MAX_DEPTH, MAX_THREADS, MAX_TT_MB};

/// The longest time a move may be given, in seconds: a day.
pub const MAX_MOVE_SECONDS: f64 = 86_400.0;

/// The most nodes a search may be given.
pub const MAX_NODES: u64 = 1 << 48;

/// A limit that does not parse or lies outside its bounds.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} must be {range}, not {given:?}")]
pub struct LimitError {
    /// The limit: `threads`, `hash`, `depth`, `time`, `nodes`.
    pub what: &'static str,
    /// Its bounds, in words.
    pub range: String,
    /// The text given (its first 40 characters).
    pub given: String,
}

fn error(what: &'static str, range: String, given: &str) -> LimitError {
    LimitError { what, range, given: given.chars().take(40).collect() }
}

fn whole<T>(what: &'static str, text: &str, max: T) -> Result<T, LimitError>
where
    T: std::str::FromStr + PartialOrd + From<u8> + std::fmt::Display + Copy,
{
    let range = || format!("a whole number from 1 to {max}");
    match text.trim().parse::<T>() {
        Ok(n) if n >= T::from(1) && n <= max => Ok(n),
        _ => Err(error(what, range(), text)),
    }
}

/// Search threads: 1 to [`MAX_THREADS`].
///
/// # Errors
/// A [`LimitError`] for anything else.
pub fn threads(text: &str) -> Result<usize, LimitError> {
    whole("threads", text, MAX_THREADS)
}

/// A transposition table's size in MiB: 1 to [`MAX_TT_MB`].
///
/// # Errors
/// A [`LimitError`] for anything else.
pub fn hash_mb(text: &str) -> Result<usize, LimitError> {
    whole("the transposition table size in MiB", text, MAX_TT_MB)
}

/// Plies: 1 to [`MAX_DEPTH`].
///
/// # Errors
/// A [`LimitError`] for anything else.
pub fn depth(text: &str) -> Result<u32, LimitError> {
    whole("depth", text, MAX_DEPTH)
}

/// Nodes: 1 to [`MAX_NODES`].
///
/// # Errors
/// A [`LimitError`] for anything else.
pub fn nodes(text: &str) -> Result<u64, LimitError> {
    whole("nodes", text, MAX_NODES)
}

/// Seconds a move: above 0, at most [`MAX_MOVE_SECONDS`] (fractions allowed).
///
/// # Errors
/// A [`LimitError`] for anything else, a NaN or an infinity included.
pub fn seconds(text: &str) -> Result<f64, LimitError> {
    match text.trim().parse::<f64>() {
        Ok(t) if t > 0.0 && t <= MAX_MOVE_SECONDS => Ok(t),
        _ => Err(error(
            "time",
            format!("a number of seconds above 0 and at most {MAX_MOVE_SECONDS}"),
            text,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_limit_is_bounded_in_the_same_words() {
        assert_eq!(threads("64"), Ok(64));
        assert_eq!(
            threads("200").unwrap_err().to_string(),
            "threads must be a whole number from 1 to 64, not \"200\""
        );
        assert!(threads("0").is_err() && threads("-1").is_err() && threads("two").is_err());
        assert_eq!(hash_mb("4096"), Ok(4096));
        assert!(hash_mb("99999999").is_err() && hash_mb("4097").is_err());
        assert_eq!(depth("120"), Ok(120));
        assert!(depth("121").is_err() && depth("0").is_err());
        assert_eq!(nodes("1"), Ok(1));
        assert!(nodes("0").is_err());
        assert_eq!(seconds("0.05"), Ok(0.05));
        assert_eq!(seconds("100000").unwrap_err().what, "time");
        assert!(
            seconds("100000").unwrap_err().to_string().contains("at most 86400"),
            "{}",
            seconds("100000").unwrap_err()
        );
        for bad in ["-1", "0", "NaN", "inf", "", "1s"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        // A long input is quoted short.
        assert!(threads(&"9".repeat(10_000)).unwrap_err().to_string().len() < 120);
    }
}
