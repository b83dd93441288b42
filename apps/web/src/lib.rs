//! `tns-web`: the solved game of Tigers and Sheep in a browser. A JSON API under `/api/v1/`
//! (a position's verdict and every move's, a perfect line, a move from one of the server's
//! players) and a page at `/` to explore and play, both answered from the tablebase where it
//! holds the position and from the engine's search elsewhere. See docs/web.md.

mod analysis;
mod api;
mod error;
mod learn;
mod page;
mod query;
mod routes;
mod serve;

pub use analysis::{API_VERSION, Analyst, SearchBudget, Source};
pub use api::{AppState, RequestLimits};
pub use error::ApiError;
pub use query::{GameQuery, MAX_MOVES, MAX_QUERY, Params};
pub use routes::router;
pub use serve::{ConnectionLimits, serve};
