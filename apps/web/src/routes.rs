//! The server's routes: each path and the handler that answers it.

use std::sync::Arc;

use axum::Router;
use axum::routing::{get, post};

use crate::api::{self, AppState};
use crate::{games_api, learn, page};

/// The server's routes.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/online.js", get(page::online))
        .route("/style.css", get(page::style))
        .route("/favicon.svg", get(page::icon))
        .route("/favicon.ico", get(page::icon))
        .route("/api/v1/position", get(api::position))
        .route("/api/v1/mainline", get(api::mainline))
        .route("/api/v1/move", get(api::play))
        .route("/api/v1/players", get(api::players))
        .route("/api/v1/puzzle", get(learn::puzzle))
        .route("/api/v1/review", get(learn::review))
        .route("/play/{id}", get(page::index))
        .route("/api/v1/games", post(games_api::create))
        .route("/api/v1/games/{id}", get(games_api::show))
        .route("/api/v1/games/{id}/move", post(games_api::play))
        .route("/api/v1/games/{id}/resign", post(games_api::resign))
        .route("/api/v1/games/{id}/draw", post(games_api::draw))
        .route("/api/v1/games/{id}/claim", post(games_api::claim))
        .route("/api/v1/games/{id}/rematch", post(games_api::rematch))
        .route("/api/v1/games/{id}/stream", get(games_api::stream))
        .route("/api/v1/games/{id}/socket", get(games_api::socket))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .with_state(state)
}
