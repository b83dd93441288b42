//! Who sits on a side: a person with a link, or one of the server's players.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The longest name of a server's player a seat holds.
pub const MAX_PLAYER_NAME: usize = 64;

/// Who plays a side of an online game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// A person (or a program) holding the seat's link: written `friend`.
    Friend,
    /// One of the server's players, by the name the server lists it under (`easy`,
    /// `strongest:table=on`); the server plays it.
    Server(String),
}

impl Seat {
    /// Whether a person holds this seat.
    pub fn is_friend(&self) -> bool {
        matches!(self, Seat::Friend)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Friend => f.write_str("friend"),
            Seat::Server(name) => f.write_str(name),
        }
    }
}

/// Why a text names no seat.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "a side is `friend` or the name of one of the server's players (at most \
     {MAX_PLAYER_NAME} letters, digits and `:=,._-/`), not {given:?}"
)]
pub struct ParseSeatError {
    /// The text given, shortened.
    pub given: String,
}

impl FromStr for Seat {
    type Err = ParseSeatError;

    fn from_str(text: &str) -> Result<Seat, ParseSeatError> {
        let allowed = |c: char| c.is_ascii_alphanumeric() || ":=,._-/".contains(c);
        if text == "friend" {
            Ok(Seat::Friend)
        } else if !text.is_empty() && text.len() <= MAX_PLAYER_NAME && text.chars().all(allowed) {
            Ok(Seat::Server(text.to_string()))
        } else {
            Err(ParseSeatError { given: text.chars().take(MAX_PLAYER_NAME).collect() })
        }
    }
}

impl Serialize for Seat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Seat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_parse_and_print() {
        assert_eq!("friend".parse(), Ok(Seat::Friend));
        assert_eq!("easy".parse(), Ok(Seat::Server("easy".into())));
        assert_eq!(Seat::Server("strongest:table=on".into()).to_string(), "strongest:table=on");
        for bad in ["", "<script>", "a b", &"x".repeat(65)] {
            assert!(bad.parse::<Seat>().is_err(), "{bad:?}");
        }
    }
}
