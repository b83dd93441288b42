//! `tns-web`: the solved game of Tigers and Sheep in a browser. A JSON API under `/api/v1/`
//! (a position's verdict and every move's, a perfect line, a move from one of the server's
//! players) and a page at `/` to explore and play, both answered from the tablebase where it
//! holds the position and from the engine's search elsewhere; and games between people by link,
//! kept in a database, under `/api/v1/games`. See docs/web.md and docs/online.md.

mod analysis;
mod api;
mod error;
mod follow;
mod games;
mod games_api;
mod learn;
mod page;
mod query;
mod rate;
mod routes;
mod serve;
mod server_moves;
mod store_writer;

pub use analysis::{API_VERSION, Analyst, SearchBudget, Source};
pub use api::{AppState, OnlineLimits, RequestLimits};
pub use error::{ApiError, MAX_BODY};
pub use games::{Games, OnlineSettings, start_online};
pub use query::{GameQuery, MAX_MOVES, MAX_QUERY, Params};
pub use routes::router;
pub use serve::{ConnectionLimits, serve};
