//! A request's query string: decoded, bounded, and turned into a game with clear errors.

use tns_board::{Board, Game, Move};

use crate::error::ApiError;

/// The longest query string accepted, in bytes.
pub const MAX_QUERY: usize = 8 * 1024;
/// The most moves a request may give.
pub const MAX_MOVES: usize = 500;

/// The parameters of a query string, decoded.
#[derive(Debug, Default)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// Decodes `raw` (the part after `?`): `key=value` pairs split by `&`, with `+` for a space
    /// and `%XX` escapes.
    ///
    /// # Errors
    /// A 400 for a query that is too long, a bad escape, text that is not UTF-8, or a key given
    /// twice.
    pub fn parse(raw: &str) -> Result<Query, ApiError> {
        if raw.len() > MAX_QUERY {
            return Err(ApiError::bad(format!(
                "the query is {} bytes, more than the {MAX_QUERY} accepted",
                raw.len()
            )));
        }
        let mut pairs: Vec<(String, String)> = Vec::new();
        for part in raw.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            let (key, value) = (decode(key)?, decode(value)?);
            if pairs.iter().any(|(k, _)| *k == key) {
                return Err(ApiError::bad(format!("{key} is given twice")));
            }
            pairs.push((key, value));
        }
        Ok(Query { pairs })
    }

    /// The value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Refuses any key but `known`, so a misspelt parameter is not silently ignored.
    ///
    /// # Errors
    /// A 400 naming the unknown key and the known ones.
    pub fn only(&self, known: &[&str]) -> Result<(), ApiError> {
        match self.pairs.iter().find(|(k, _)| !known.contains(&k.as_str())) {
            Some((k, _)) => Err(ApiError::bad(format!(
                "unknown parameter {k:?}: expected {}",
                known.join(", ")
            ))),
            None => Ok(()),
        }
    }

    /// The game the query names: `pos` (a position, `start` or left out for the start) and
    /// `moves` (comma-separated, played in order; repetitions count over them).
    ///
    /// # Errors
    /// A 400 with the parser's message for a bad position or move, and naming the move for an
    /// illegal one or one after the game ended.
    pub fn game(&self) -> Result<Game, ApiError> {
        let start = match self.get("pos").map(str::trim) {
            None | Some("" | "start" | "startpos") => Board::START,
            Some(text) => text
                .parse::<Board>()
                .map_err(|e| ApiError::bad(format!("bad position {:?}: {e}", short(text))))?,
        };
        let mut game = Game::from_position(start);
        let moves = self.get("moves").unwrap_or("");
        let moves: Vec<&str> = moves.split([',', ' ']).filter(|m| !m.is_empty()).collect();
        if moves.len() > MAX_MOVES {
            return Err(ApiError::bad(format!(
                "{} moves, more than the {MAX_MOVES} accepted",
                moves.len()
            )));
        }
        for (i, text) in moves.iter().enumerate() {
            let m: Move = text
                .parse()
                .map_err(|e| ApiError::bad(format!("move {} {:?}: {e}", i + 1, short(text))))?;
            if let Some(outcome) = game.outcome() {
                return Err(ApiError::bad(format!(
                    "move {} {m}: the game is already over ({outcome})",
                    i + 1
                )));
            }
            game.play(m).map_err(|e| ApiError::bad(format!("move {} {m}: {e}", i + 1)))?;
        }
        Ok(game)
    }
}

/// At most the first 40 characters of `text`, for an error message.
pub(crate) fn short(text: &str) -> String {
    if text.chars().count() <= 40 {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(40).collect::<String>())
    }
}

/// Decodes `+` and `%XX` escapes.
fn decode(text: &str) -> Result<String, ApiError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| ApiError::bad(format!("bad escape in {:?}", short(text))))?;
                out.push(hex);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| ApiError::bad("the query is not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_and_refuses() {
        let q = Query::parse("pos=T3T%2F5%2F5%2F5%2FT3T+s+20&moves=c3,a5b4").unwrap();
        assert_eq!(q.get("pos"), Some("T3T/5/5/5/T3T s 20"));
        let game = q.game().unwrap();
        assert_eq!(game.len(), 2);
        assert!(Query::parse("a=1&a=2").is_err());
        assert!(Query::parse("pos=%zz").is_err());
        assert!(Query::parse("pos=%ff").is_err());
        assert!(Query::parse(&"x".repeat(MAX_QUERY + 1)).is_err());
        let e = Query::parse("pos=T3T/5/5/5/T3T+q+20").unwrap().game().unwrap_err();
        assert!(e.message.starts_with("bad position"), "{}", e.message);
        let e = Query::parse("moves=c3,c3").unwrap().game().unwrap_err();
        assert!(e.message.starts_with("move 2 c3: "), "{}", e.message);
        let e = Query::parse("moves=zz").unwrap().game().unwrap_err();
        assert!(e.message.starts_with("move 1 \"zz\": "), "{}", e.message);
        assert!(Query::parse("pos=start&bogus=1").unwrap().only(&["pos"]).is_err());
        let many = vec!["c3"; MAX_MOVES + 1].join(",");
        assert!(Query::parse(&format!("moves={many}")).unwrap().game().is_err());
    }
}
