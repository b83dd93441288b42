//! A seat's secret, and a game's public name: random bits from the operating system.

use std::fmt;
use std::str::FromStr;

use crate::error::OnlineError;

/// A seat's secret: 128 random bits, written as 32 lowercase hexadecimal digits. Whoever holds
/// it moves for the seat's side. Its `Debug` never shows it, so a logged value never leaks it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Token([u8; 16]);

impl Token {
    /// A new token from the operating system's random source.
    ///
    /// # Errors
    /// The system gave no random bits.
    pub fn random() -> Result<Token, OnlineError> {
        let mut bytes = [0; 16];
        getrandom::fill(&mut bytes).map_err(|e| OnlineError::Random(e.to_string()))?;
        Ok(Token(bytes))
    }

    /// Whether `other` is this token, in a time that does not depend on where they differ.
    pub fn matches(&self, other: &Token) -> bool {
        let mut diff = 0u8;
        for (a, b) in self.0.iter().zip(&other.0) {
            diff |= a ^ b;
        }
        // Hides the early-exit shortcut from the optimiser.
        std::hint::black_box(diff) == 0
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for byte in self.0 {
            write!(f, "{byte:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(…)")
    }
}

/// Why a text is not a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a seat's token is 32 hexadecimal digits")]
pub struct ParseTokenError;

impl FromStr for Token {
    type Err = ParseTokenError;

    fn from_str(text: &str) -> Result<Token, ParseTokenError> {
        let text = text.as_bytes();
        if text.len() != 32 {
            return Err(ParseTokenError);
        }
        let mut bytes = [0; 16];
        for (byte, pair) in bytes.iter_mut().zip(text.chunks_exact(2)) {
            let digit = |c: u8| (c as char).to_digit(16).ok_or(ParseTokenError);
            *byte = u8::try_from(digit(pair[0])? * 16 + digit(pair[1])?)
                .map_err(|_| ParseTokenError)?;
        }
        Ok(Token(bytes))
    }
}

/// The characters of a game's id.
const ID_CHARS: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// The length of a game's id.
pub const ID_LEN: usize = 10;

/// A game's public name: 10 letters and digits (about 59 random bits), in its links and
/// routes. Public: knowing it shows the game, never moves in it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId([u8; ID_LEN]);

impl GameId {
    /// A new id from the operating system's random source.
    ///
    /// # Errors
    /// The system gave no random bits.
    pub fn random() -> Result<GameId, OnlineError> {
        let mut bytes = [0u8; ID_LEN];
        // 248 is the largest multiple of 62 in a byte: bytes above are drawn again, so that
        // every character is equally likely.
        let mut filled = 0;
        while filled < ID_LEN {
            let mut draw = [0u8; 32];
            getrandom::fill(&mut draw).map_err(|e| OnlineError::Random(e.to_string()))?;
            for b in draw {
                if b < 248 && filled < ID_LEN {
                    bytes[filled] = ID_CHARS[usize::from(b % 62)];
                    filled += 1;
                }
            }
        }
        Ok(GameId(bytes))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        // Only ASCII letters and digits are ever stored.
        std::str::from_utf8(&self.0).unwrap_or("")
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameId({})", self.as_str())
    }
}

/// Why a text is not a game's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a game's id is {ID_LEN} letters and digits")]
pub struct ParseGameIdError;

impl FromStr for GameId {
    type Err = ParseGameIdError;

    fn from_str(text: &str) -> Result<GameId, ParseGameIdError> {
        let bytes: [u8; ID_LEN] = text.as_bytes().try_into().map_err(|_| ParseGameIdError)?;
        if bytes.iter().all(u8::is_ascii_alphanumeric) {
            Ok(GameId(bytes))
        } else {
            Err(ParseGameIdError)
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn random_tokens_differ_and_their_debug_hides_them() {
        let (a, b) = (Token::random().unwrap(), Token::random().unwrap());
        assert!(!a.matches(&b));
        assert!(a.matches(&a));
        assert_eq!(format!("{a:?}"), "Token(…)");
        assert!(!format!("{a:?}").contains(&a.to_string()));
    }

    #[test]
    fn bad_tokens_and_ids_are_refused() {
        for text in [
            "",
            "abc",
            &"g".repeat(32),
            &"0".repeat(31),
            &"0".repeat(33),
            "é0000000000000000000000000000000",
        ] {
            assert_eq!(text.parse::<Token>(), Err(ParseTokenError), "{text:?}");
        }
        for text in ["", "abc", "abcdefghi!", "abcdefghijk", "abcdéfghi"] {
            assert_eq!(text.parse::<GameId>(), Err(ParseGameIdError), "{text:?}");
        }
    }

    #[test]
    fn ids_are_letters_and_digits() {
        for _ in 0..100 {
            let id = GameId::random().unwrap();
            assert_eq!(id.as_str().len(), ID_LEN);
            assert_eq!(id.as_str().parse::<GameId>(), Ok(id));
        }
    }

    proptest! {
        #[test]
        fn tokens_round_trip_through_their_text(bytes: [u8; 16]) {
            let token = Token(bytes);
            let text = token.to_string();
            prop_assert_eq!(text.len(), 32);
            let back: Token = text.parse().unwrap();
            prop_assert!(back.matches(&token));
            prop_assert_eq!(text.to_uppercase().parse::<Token>().unwrap(), token);
        }

        #[test]
        fn tokens_match_only_themselves(a: [u8; 16], b: [u8; 16]) {
            prop_assert_eq!(Token(a).matches(&Token(b)), a == b);
        }
    }
}
