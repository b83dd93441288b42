//! The server's routes: each path and the handler that answers it.

use std::sync::Arc;

use axum::Router;
use axum::routing::get;

use crate::api::{self, AppState};
use crate::{learn, page};

/// The server's routes.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/style.css", get(page::style))
        .route("/favicon.svg", get(page::icon))
        .route("/favicon.ico", get(page::icon))
        .route("/api/v1/position", get(api::position))
        .route("/api/v1/mainline", get(api::mainline))
        .route("/api/v1/move", get(api::play))
        .route("/api/v1/players", get(api::players))
        .route("/api/v1/puzzle", get(learn::puzzle))
        .route("/api/v1/review", get(learn::review))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .with_state(state)
}
