//! The two sides.

use std::fmt;
use std::ops::Not;

/// A side of the game, and the kind of piece it plays.
///
/// ```
/// use tns_board::{Board, Side};
///
/// assert_eq!(Board::START.side_to_move(), Side::Sheep);
/// assert_eq!(!Side::Sheep, Side::Tiger);
/// assert_eq!("tiger".parse::<Side>()?, Side::Tiger);
/// assert_eq!(Side::ALL.map(|s| s.to_string()), ["sheep", "tiger"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Side {
    /// The twenty sheep, who move first.
    Sheep,
    /// The four tigers.
    Tiger,
}

impl Side {
    /// Both sides, the sheep (who move first) first.
    pub const ALL: [Side; 2] = [Side::Sheep, Side::Tiger];

    /// The other side.
    #[must_use]
    pub const fn other(self) -> Side {
        match self {
            Side::Sheep => Side::Tiger,
            Side::Tiger => Side::Sheep,
        }
    }

    /// The letter used in position notation: `s` or `t`.
    pub const fn letter(self) -> char {
        match self {
            Side::Sheep => 's',
            Side::Tiger => 't',
        }
    }

    /// `+1` for the tigers and `-1` for the sheep: the sign of a score from the tigers' view.
    pub const fn sign(self) -> i32 {
        match self {
            Side::Sheep => -1,
            Side::Tiger => 1,
        }
    }

    /// The plural name, for messages ("Tigers", "Sheep").
    pub const fn plural(self) -> &'static str {
        match self {
            Side::Sheep => "Sheep",
            Side::Tiger => "Tigers",
        }
    }
}

impl Not for Side {
    type Output = Side;
    fn not(self) -> Side {
        self.other()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Sheep => "sheep",
            Side::Tiger => "tiger",
        })
    }
}

impl std::str::FromStr for Side {
    type Err = crate::error::ParseSideError;

    /// `sheep` or `tiger` (as `Display` writes them), `tigers`, or the position notation's
    /// letters `s` and `t`; any case.
    fn from_str(s: &str) -> Result<Side, crate::error::ParseSideError> {
        match s.to_ascii_lowercase().as_str() {
            "sheep" | "s" => Ok(Side::Sheep),
            "tiger" | "tigers" | "t" => Ok(Side::Tiger),
            _ => Err(crate::error::ParseSideError(s.chars().take(40).collect())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_parse_from_what_they_print() {
        for side in Side::ALL {
            assert_eq!(side.to_string().parse::<Side>(), Ok(side));
            assert_eq!(side.letter().to_string().parse::<Side>(), Ok(side));
            assert_eq!(side.plural().parse::<Side>(), Ok(side));
        }
        assert!("goat".parse::<Side>().is_err());
    }
}
