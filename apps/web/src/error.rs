//! An API error: a status and a message, answered as JSON.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// What went wrong with a request, and the status that says so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What was wrong, for a person.
    pub message: String,
}

impl ApiError {
    /// A 400: the request was wrong.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::BAD_REQUEST, message: message.into() }
    }

    /// A 503: the server cannot do it now (too busy, or no table for what was asked).
    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::SERVICE_UNAVAILABLE, message: message.into() }
    }

    /// A 500: the server failed (a damaged table file, say).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::INTERNAL_SERVER_ERROR, message: message.into() }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message }).to_string();
        (self.status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
    }
}
