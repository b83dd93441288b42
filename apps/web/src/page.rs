//! The page: five files built into the binary, nothing else served.

use axum::http::header;
use axum::response::IntoResponse;

const INDEX: &str = include_str!("../static/index.html");
const SCRIPT: &str = include_str!("../static/app.js");
const ONLINE: &str = include_str!("../static/online.js");
const STYLE: &str = include_str!("../static/style.css");
const ICON: &str = include_str!("../static/favicon.svg");

/// `/`: the page.
pub async fn index() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX)
}

/// `/app.js`: the page's script.
pub async fn script() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], SCRIPT)
}

/// `/online.js`: the online game's module, which the page loads under `/play/{id}`.
pub async fn online() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], ONLINE)
}

/// `/style.css`: the page's look.
pub async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE)
}

/// `/favicon.svg`, and `/favicon.ico` for browsers that ask for it before reading the page's
/// link: the board with a tiger.
pub async fn icon() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "image/svg+xml")], ICON)
}
