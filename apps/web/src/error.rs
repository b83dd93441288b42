//! An API error: what the client may be told, or the server's own failure; answered as JSON.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use tns_online::RefusalKind;

use crate::query::{MAX_MOVES, MAX_QUERY};

/// The longest request body read: a game's actions are a few words of JSON.
pub const MAX_BODY: usize = 4096;

/// What went wrong with a request. Each variant but [`ApiError::Internal`] is the client's to
/// know, and its text is the answer's `error`.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The query string is longer than [`MAX_QUERY`] bytes.
    #[error("the query is {bytes} bytes, more than the {MAX_QUERY} accepted")]
    QueryTooLong {
        /// Its length.
        bytes: usize,
    },
    /// A `%` not followed by two hexadecimal digits, in this part of the query.
    #[error("bad escape in {part:?}")]
    BadEscape {
        /// The part (`key=value`) it is in, shortened.
        part: String,
    },
    /// The query's escapes decode to bytes that are not UTF-8.
    #[error("the query is not UTF-8 text")]
    NotUtf8,
    /// A parameter the route does not take: refused, so a misspelt one is not silently ignored.
    #[error("unknown parameter {name:?}: expected {expected}")]
    UnknownParameter {
        /// The parameter given, shortened.
        name: String,
        /// The route's parameters, comma-separated.
        expected: String,
    },
    /// A parameter given twice.
    #[error("{name} is given twice")]
    Repeated {
        /// The parameter.
        name: String,
    },
    /// A parameter's value refused, or one missing that another needs.
    #[error("{name} {reason}")]
    BadParameter {
        /// The parameter.
        name: String,
        /// What was wrong, worded to follow the parameter's name ("must be 1 to 500, not
        /// \"0\"").
        reason: String,
    },
    /// `pos` is not a position.
    #[error("bad position {text:?}: {reason}")]
    BadPosition {
        /// The text given, shortened.
        text: String,
        /// The parser's message.
        reason: String,
    },
    /// More moves than [`MAX_MOVES`].
    #[error("{count} moves, more than the {MAX_MOVES} accepted")]
    TooManyMoves {
        /// How many were given.
        count: usize,
    },
    /// A move of `moves` that is not a move, not legal, or after the game ended.
    #[error("move {number} {shown}: {reason}")]
    BadMove {
        /// Its place in `moves`, from 1.
        number: usize,
        /// The move in notation, or the text given quoted (and shortened) where it is none.
        shown: String,
        /// Why it cannot be played.
        reason: String,
    },
    /// A player the server does not offer.
    #[error("unknown player {name:?}: this server offers {offered}")]
    UnknownPlayer {
        /// The name given.
        name: String,
        /// The players offered, comma-separated.
        offered: String,
    },
    /// A move asked for in a game that has ended.
    #[error("the game is over: {outcome}")]
    GameOver {
        /// How it ended.
        outcome: String,
    },
    /// A path that is not the API's nor the page's.
    #[error("no such page: the API is under /api/v1/ (docs/web.md)")]
    NotFound,
    /// A method the path does not answer (`GET` and `HEAD` for the explorer's routes, `POST` for
    /// a game's actions).
    #[error("this method is not answered here")]
    MethodNotAllowed,
    /// A request body that is not the JSON the route takes.
    #[error("bad request body: {0}")]
    BadBody(String),
    /// A request body longer than [`MAX_BODY`] bytes.
    #[error("the request body is more than the {MAX_BODY} bytes accepted")]
    BodyTooLarge,
    /// No game has this id.
    #[error("no game {id:?}")]
    NoSuchGame {
        /// The id asked for, shortened.
        id: String,
    },
    /// A game's action without a token, or with one that holds no seat in the game.
    #[error("{0}")]
    Unauthorized(&'static str),
    /// The rules of the game refuse the action.
    #[error("{0}")]
    Refused(#[from] tns_online::Refusal),
    /// A side of a new game that is neither `friend` nor one of the server's players.
    #[error("unknown player {name:?} for a side: `friend`, or one of {offered}")]
    UnknownSeat {
        /// The name given.
        name: String,
        /// The players offered, comma-separated.
        offered: String,
    },
    /// This address asks too often.
    #[error("too many requests from this address: at most {limit}; wait a moment")]
    TooManyRequests {
        /// The limit, in words ("20 games a minute").
        limit: String,
    },
    /// The server holds as many live games, or streams, as it may.
    #[error("the server is full: {0}; try again later")]
    Full(&'static str),
    /// The server keeps no online games.
    #[error("this server keeps no online games")]
    NoGames,
    /// The server has no puzzles to set.
    #[error("the server has no puzzles")]
    NoPuzzles,
    /// The server failed: a damaged table file, a search that could not start, a task that
    /// panicked. Its cause is logged, never sent: it can name the server's files and says
    /// nothing the client could act on.
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl ApiError {
    /// The server's failure, `context` saying what failed over `cause`.
    pub(crate) fn internal(context: &'static str, cause: impl Into<anyhow::Error>) -> ApiError {
        ApiError::Internal(cause.into().context(context))
    }

    /// A refused `name`, with why in words that follow the name.
    pub(crate) fn parameter(name: &str, reason: impl Into<String>) -> ApiError {
        ApiError::BadParameter { name: name.to_string(), reason: reason.into() }
    }

    /// The status that says what kind of error it is.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::NotFound | ApiError::NoSuchGame { .. } => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::NoPuzzles | ApiError::Full(_) | ApiError::NoGames => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::BodyTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::UnknownSeat { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Refused(refusal) => match refusal.kind() {
                RefusalKind::Conflict => StatusCode::CONFLICT,
                RefusalKind::Invalid => StatusCode::UNPROCESSABLE_ENTITY,
            },
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::BAD_REQUEST,
        }
    }
}

impl IntoResponse for ApiError {
    /// The status and `{"error": text}`. An internal error's whole cause chain goes to the
    /// server's log (stderr, where the program writes the rest of what it has to say) and the
    /// client gets only "internal error": the cause is for the operator.
    fn into_response(self) -> Response {
        if let ApiError::Internal(cause) = &self {
            eprintln!("tns-web: internal error: {cause:#}");
        }
        let body = serde_json::json!({ "error": self.to_string() }).to_string();
        (self.status(), [(header::CONTENT_TYPE, "application/json")], body).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body(response: Response) -> String {
        let bytes = axum::body::to_bytes(response.into_body(), 4096).await.unwrap();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[tokio::test]
    async fn an_internal_error_sends_no_cause() {
        let cause = std::io::Error::other("/srv/table/movement-3.tns: checksum mismatch");
        let error = ApiError::internal("the tablebase failed", cause);
        // The log has the whole chain.
        let ApiError::Internal(inner) = &error else { unreachable!() };
        assert_eq!(
            format!("{inner:#}"),
            "the tablebase failed: /srv/table/movement-3.tns: checksum mismatch"
        );
        let response = error.into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = body(response).await;
        assert_eq!(body, r#"{"error":"internal error"}"#);
    }

    #[tokio::test]
    async fn each_client_error_has_its_status_and_message() {
        for (error, status, text) in [
            (ApiError::NotFound, 404, "no such page: the API is under /api/v1/ (docs/web.md)"),
            (ApiError::MethodNotAllowed, 405, "this method is not answered here"),
            (ApiError::NoPuzzles, 503, "the server has no puzzles"),
            (
                ApiError::QueryTooLong { bytes: 9000 },
                400,
                "the query is 9000 bytes, more than the 8192 accepted",
            ),
            (
                ApiError::parameter("plies", "must be 1 to 500, not \"0\""),
                400,
                "plies must be 1 to 500, not \"0\"",
            ),
            (ApiError::Repeated { name: "pos".into() }, 400, "pos is given twice"),
            (ApiError::TooManyMoves { count: 501 }, 400, "501 moves, more than the 500 accepted"),
            (
                ApiError::GameOver { outcome: "the sheep win".into() },
                400,
                "the game is over: the sheep win",
            ),
        ] {
            let response = error.into_response();
            assert_eq!(response.status().as_u16(), status, "{text}");
            let body: serde_json::Value = serde_json::from_str(&body(response).await).unwrap();
            assert_eq!(body, serde_json::json!({ "error": text }));
        }
    }
}
