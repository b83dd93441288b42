//! A request's query string: checked, decoded by axum's `Query` into a route's parameters, and
//! turned into a game with clear errors.

use std::fmt::Display;
use std::ops::RangeInclusive;
use std::str::FromStr;

use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequestParts, Query};
use axum::http::Uri;
use axum::http::request::Parts;
use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, Visitor};
use tns_board::{Board, Game, Move};

use crate::error::ApiError;

/// The longest query string accepted, in bytes.
pub const MAX_QUERY: usize = 8 * 1024;
/// The most moves a request may give.
pub const MAX_MOVES: usize = 500;

/// A route's parameters `T`, from the query string by axum's [`Query`], with what it leaves
/// out checked first: the length, before anything is decoded; escapes that are not escapes and
/// text that is not UTF-8, which it would pass on mangled; a parameter the route does not take
/// or one given twice, named in the route's words.
#[derive(Debug)]
pub struct Params<T>(pub T);

impl<S: Sync, T: DeserializeOwned> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        check(&parts.uri, fields::<T>())?;
        let Query(params) = Query::try_from_uri(&parts.uri).map_err(|e| refused(&e))?;
        Ok(Params(params))
    }
}

/// Refuses a query that is too long, has a bad escape or is not UTF-8 text, or gives a key
/// that is not in `known` or is given twice.
fn check(uri: &Uri, known: &[&str]) -> Result<(), ApiError> {
    let raw = uri.query().unwrap_or("");
    if raw.len() > MAX_QUERY {
        return Err(ApiError::QueryTooLong { bytes: raw.len() });
    }
    for part in raw.split('&') {
        let bytes = part.as_bytes();
        let escapes_whole = bytes.iter().enumerate().filter(|&(_, &b)| b == b'%').all(|(i, _)| {
            bytes.get(i + 1..i + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
        });
        if !escapes_whole {
            return Err(ApiError::BadEscape { part: short(part) });
        }
    }
    // `&`, `=` and `+` are ASCII, so the whole query is UTF-8 exactly when each key and value is.
    if percent_encoding::percent_decode_str(raw).decode_utf8().is_err() {
        return Err(ApiError::NotUtf8);
    }
    let Query(pairs) =
        Query::<Vec<(String, String)>>::try_from_uri(uri).map_err(|e| refused(&e))?;
    let mut seen: Vec<&str> = Vec::new();
    for (key, _) in &pairs {
        if !known.contains(&key.as_str()) {
            return Err(ApiError::UnknownParameter {
                name: short(key),
                expected: known.join(", "),
            });
        }
        if seen.contains(&key.as_str()) {
            return Err(ApiError::Repeated { name: key.clone() });
        }
        seen.push(key);
    }
    Ok(())
}

/// A query that axum's `Query` refused: a value that did not parse, named by the path the
/// decoder was at. Whatever else it could refuse ([`check`] has ruled out the rest) is said in
/// serde's words, after "the query".
fn refused(rejection: &QueryRejection) -> ApiError {
    type Refusal = serde_path_to_error::Error<serde_urlencoded::de::Error>;
    // The rejection's source is axum's error, whose source is the decoder's.
    let refusal = std::error::Error::source(rejection)
        .and_then(std::error::Error::source)
        .and_then(|e| e.downcast_ref::<Refusal>());
    match refusal {
        Some(e) if e.path().iter().next().is_some() => {
            ApiError::parameter(&e.path().to_string(), e.inner().to_string())
        }
        Some(e) => ApiError::parameter("the query", format!("is not understood: {}", e.inner())),
        None => ApiError::parameter("the query", format!("is not understood: {rejection}")),
    }
}

/// The names of the fields of `T`'s derived `Deserialize`: the parameters its route takes.
fn fields<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    /// A deserializer that only notes the fields a struct asks for.
    struct Fields(&'static [&'static str]);

    impl<'de> Deserializer<'de> for &mut Fields {
        type Error = de::value::Error;

        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("not a struct"))
        }

        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            self.0 = fields;
            Err(de::Error::custom("only the fields are wanted"))
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
            ignored_any
        }
    }

    let mut names = Fields(&[]);
    let _ = T::deserialize(&mut names);
    names.0
}

/// The parameters that name a game: `pos` (a position, `start` or left out for the start) and
/// `moves` (comma-separated, played in order; repetitions count over them).
#[derive(Debug, Default, serde::Deserialize)]
pub struct GameQuery {
    /// The position.
    pub pos: Option<String>,
    /// The moves.
    pub moves: Option<String>,
}

/// The game of `pos` and `moves` (see [`GameQuery`]).
///
/// # Errors
/// A 400 with the parser's message for a bad position or move, and naming the move for an
/// illegal one or one after the game ended.
pub(crate) fn game(pos: Option<&str>, moves: Option<&str>) -> Result<Game, ApiError> {
    let start = match pos.map(str::trim) {
        None | Some("" | "start" | "startpos") => Board::START,
        Some(text) => text
            .parse::<Board>()
            .map_err(|e| ApiError::BadPosition { text: short(text), reason: e.to_string() })?,
    };
    let mut game = Game::from_position(start);
    let moves: Vec<&str> =
        moves.unwrap_or("").split([',', ' ']).filter(|m| !m.is_empty()).collect();
    if moves.len() > MAX_MOVES {
        return Err(ApiError::TooManyMoves { count: moves.len() });
    }
    for (i, text) in moves.iter().enumerate() {
        let number = i + 1;
        let m: Move = text.parse().map_err(|e: tns_board::ParseMoveError| ApiError::BadMove {
            number,
            shown: format!("{:?}", short(text)),
            reason: e.to_string(),
        })?;
        if let Some(outcome) = game.outcome() {
            return Err(ApiError::BadMove {
                number,
                shown: m.to_string(),
                reason: format!("the game is already over ({outcome})"),
            });
        }
        game.play(m).map_err(|e| ApiError::BadMove {
            number,
            shown: m.to_string(),
            reason: e.to_string(),
        })?;
    }
    Ok(game)
}

/// At most the first 40 characters of `text`, for an error message.
pub(crate) fn short(text: &str) -> String {
    if text.chars().count() <= 40 {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(40).collect::<String>())
    }
}

/// A value of type `T` within `range`, refused as "must be `what`, not ...". Its parameter's
/// name is put before the refusal by [`Params`], from where the decoder was.
pub(crate) fn within<'de, D, T>(d: D, range: &RangeInclusive<T>, what: &str) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr + PartialOrd + Display,
{
    let text = String::deserialize(d)?;
    text.parse::<T>()
        .ok()
        .filter(|x| range.contains(x))
        .ok_or_else(|| de::Error::custom(format!("must be {what}, not {:?}", short(&text))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(query: &str, known: &[&str]) -> Result<(), ApiError> {
        super::check(&format!("/?{query}").parse().unwrap(), known)
    }

    #[test]
    fn checks_and_refuses() {
        let known = &["pos", "moves"];
        assert!(check("pos=T3T%2F5%2F5%2F5%2FT3T+s+20&moves=c3,a5b4", known).is_ok());
        assert!(matches!(check("pos=1&pos=2", known), Err(ApiError::Repeated { .. })));
        assert!(matches!(check("pos=%zz", known), Err(ApiError::BadEscape { .. })));
        assert!(matches!(check("pos=%f", known), Err(ApiError::BadEscape { .. })));
        assert!(matches!(check("pos=%ff", known), Err(ApiError::NotUtf8)));
        assert!(matches!(
            check(&"x".repeat(MAX_QUERY + 1), known),
            Err(ApiError::QueryTooLong { .. })
        ));
        let e = check("pos=start&bogus=1", known).unwrap_err().to_string();
        assert_eq!(e, "unknown parameter \"bogus\": expected pos, moves");
        assert_eq!(fields::<GameQuery>(), ["pos", "moves"]);
    }

    #[test]
    fn the_game_named() {
        let game = game(Some("T3T/5/5/5/T3T s 20"), Some("c3,a5b4")).unwrap();
        assert_eq!(game.len(), 2);
        let e = super::game(Some("T3T/5/5/5/T3T q 20"), None).unwrap_err().to_string();
        assert!(e.starts_with("bad position"), "{e}");
        let e = super::game(None, Some("c3,c3")).unwrap_err().to_string();
        assert!(e.starts_with("move 2 c3: "), "{e}");
        let e = super::game(None, Some("zz")).unwrap_err().to_string();
        assert!(e.starts_with("move 1 \"zz\": "), "{e}");
        let many = vec!["c3"; MAX_MOVES + 1].join(",");
        assert!(matches!(super::game(None, Some(&many)), Err(ApiError::TooManyMoves { .. })));
    }
}
