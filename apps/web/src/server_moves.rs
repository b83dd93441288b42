//! The server's players in online games: when one is to move, it thinks in a search slot and
//! its move is committed like a person's.

use std::sync::Arc;
use std::time::Duration;

use tns_online::Seat;

use crate::api::{AppState, offered_spec, think};
use crate::error::ApiError;
use crate::games::{LiveGame, now_ms};

/// The least a server's player thinks, however short its clock.
const LEAST: Duration = Duration::from_millis(20);

/// Sets the server's player of `game` thinking, if it is to move; its move, or its failure
/// (logged), comes later.
pub(crate) fn spawn(state: Arc<AppState>, game: Arc<LiveGame>) {
    tokio::spawn(async move {
        // A refusal means the game moved on while it thought (it ended): nothing to say.
        if let Err(ApiError::Internal(cause)) = server_move(&state, &game).await {
            eprintln!("tns-web: game {}: the server's move failed: {cause:#}", game.id);
        }
    });
}

async fn server_move(state: &Arc<AppState>, game: &Arc<LiveGame>) -> Result<(), ApiError> {
    let games = Arc::clone(state.games()?);
    let (position, name, most) = {
        let seated = game.seated.lock().await;
        let table = &seated.table;
        let Seat::Server(name) = table.seat(table.turn()) else { return Ok(()) };
        if table.finish().is_some() {
            return Ok(());
        }
        // On a clock, a thirtieth of what is left: the server's players never lose on time.
        let most = match table.clock_at(now_ms()) {
            Some(clock) => Duration::from_millis(clock.of(table.turn()) / 30).max(LEAST),
            None => Duration::MAX,
        };
        (table.game().clone(), name.clone(), most)
    };
    let side = position.board().side_to_move();
    let spec = offered_spec(state, &name)?;
    let chosen = think(state, spec, position, most).await?;
    let mut seated = game.seated.lock().await;
    let now = now_ms();
    games.settle(game, &mut seated, now).await?;
    // The game may have ended while it thought (a resignation, a flag): then the move is
    // refused and dropped.
    let kinds = seated.table.play(side, &chosen.to_string(), now)?;
    games.commit(game, &mut seated, kinds, now).await
}
