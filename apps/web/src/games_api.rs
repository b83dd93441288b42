//! The online games' routes: create a game, read it, act in it (move, resign, draw, claim,
//! rematch), and follow it (JSON lines, or a WebSocket for the page). docs/online.md.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use tns_board::Side;
use tns_online::{
    CreatedGame, EventKind, GameView, NewGame, Refusal, RematchStep, Seat, SeatLink, SeatLinks,
    Table, Token,
};

use crate::api::{AppState, json, offered_names, offered_spec};
use crate::error::{ApiError, MAX_BODY};
use crate::follow::{Follower, Heard};
use crate::games::{Bearer, Games, LiveGame, now_ms};
use crate::query::Params;
use crate::server_moves;

/// Reads a JSON body of at most [`MAX_BODY`] bytes; an empty body reads as `{}`.
async fn read_json<T: for<'de> Deserialize<'de>>(body: Body) -> Result<T, ApiError> {
    let bytes: Bytes =
        axum::body::to_bytes(body, MAX_BODY).await.map_err(|_| ApiError::BodyTooLarge)?;
    let text: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) { b"{}" } else { &bytes };
    serde_json::from_slice(text).map_err(|e| {
        let mut why = e.to_string();
        why.truncate(200);
        ApiError::BadBody(why)
    })
}

/// The request's `Authorization: Bearer TOKEN`, if it has one.
fn bearer(headers: &HeaderMap) -> Bearer {
    let Some(value) = headers.get(header::AUTHORIZATION) else { return Bearer::None };
    let token = value
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer "))
        .and_then(|t| t.trim().parse::<Token>().ok());
    token.map_or(Bearer::Malformed, Bearer::Token)
}

/// Where the server's links start: the operator's `--public-url`, else `http://` and the
/// request's `Host` (when it is a plain host name or address), else the loopback default.
fn base_url(state: &AppState, headers: &HeaderMap) -> String {
    if let Some(url) = &state.public_url {
        return url.clone();
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).filter(|h| {
        !h.is_empty()
            && h.len() <= 255
            && h.chars().all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
    });
    format!("http://{}", host.unwrap_or("127.0.0.1:8080"))
}

fn answer(view: &GameView) -> Response {
    json(view, false)
}

/// `POST /api/v1/games`.
pub(crate) async fn create(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let games = state.games()?;
    state.creating.take(peer.ip())?;
    let asked: NewGame = read_json(body).await?;
    for seat in [&asked.sheep, &asked.tigers] {
        if let Seat::Server(name) = seat
            && offered_spec(&state, name).is_err()
        {
            let offered = offered_names(&state);
            return Err(ApiError::UnknownSeat { name: name.clone(), offered });
        }
    }
    let created = Table::created(asked.sheep, asked.tigers, asked.clock.as_deref())?;
    let (game, tokens) = games.create(created).await?;
    let base = base_url(&state, &headers);
    let watch = format!("{base}/play/{}", game.id);
    let link = |token: Option<Token>| {
        token.map(|t| SeatLink { token: t.to_string(), url: format!("{watch}#{t}") })
    };
    let seats = SeatLinks { sheep: link(tokens.sheep), tigers: link(tokens.tigers) };
    if game.seated.lock().await.table.server_to_move() {
        server_moves::spawn(Arc::clone(&state), Arc::clone(&game));
    }
    let mut response = json(&CreatedGame { id: game.id, seats, watch }, false);
    *response.status_mut() = StatusCode::CREATED;
    Ok(response)
}

/// `GET /api/v1/games/{id}`.
pub(crate) async fn show(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let games = state.games()?;
    let game = games.get(&id).await?;
    let mut seated = game.seated.lock().await;
    let now = now_ms();
    games.settle(&game, &mut seated, now).await?;
    let mut view = seated.table.view(now);
    // A token says which side it holds; without one, the game is shown as to a watcher.
    let bearer = bearer(&headers);
    if !matches!(bearer, Bearer::None) {
        let side = Games::side_of(&seated, bearer)?;
        game.seen(side, now);
        view.you = Some(side);
    }
    Ok(answer(&view))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoBody {}

/// The common start of a seat's action: the server keeps games, the address is within its
/// limit, the game exists.
async fn acting(
    state: &AppState,
    peer: SocketAddr,
    id: &str,
) -> Result<(Arc<Games>, Arc<LiveGame>), ApiError> {
    let games = Arc::clone(state.games()?);
    state.acting.take(peer.ip())?;
    let game = games.get(id).await?;
    Ok((games, game))
}

/// Answers an action's game, setting the server's player thinking when it is to move.
fn after_action(
    state: &Arc<AppState>,
    game: &Arc<LiveGame>,
    view: &GameView,
    server: bool,
) -> Response {
    if server {
        server_moves::spawn(Arc::clone(state), Arc::clone(game));
    }
    answer(view)
}

/// `POST /api/v1/games/{id}/move`.
pub(crate) async fn play(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let (games, game) = acting(&state, peer, &id).await?;
    let asked: MoveBody = read_json(body).await?;
    let (view, server) = games
        .act(&game, bearer(&headers), |table, side, now, _| table.play(side, &asked.mv, now))
        .await?;
    Ok(after_action(&state, &game, &view, server))
}

/// An action of a seat that takes no body and becomes one event by `rule` (given the game, the
/// seat's side, the time, and how long the opponent has been gone).
async fn seat_act(
    state: &AppState,
    peer: SocketAddr,
    id: &str,
    headers: &HeaderMap,
    body: Body,
    rule: impl FnOnce(&Table, Side, u64, Option<Duration>) -> Result<EventKind, Refusal>,
) -> Result<Response, ApiError> {
    let (games, game) = acting(state, peer, id).await?;
    let NoBody {} = read_json(body).await?;
    let (view, _) = games
        .act(&game, bearer(headers), |table, side, now, gone| {
            Ok(vec![rule(table, side, now, gone)?])
        })
        .await?;
    Ok(answer(&view))
}

/// `POST /api/v1/games/{id}/resign`.
pub(crate) async fn resign(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    seat_act(&state, peer, &id, &headers, body, |table, side, now, _| table.resign(side, now)).await
}

/// `POST /api/v1/games/{id}/draw`.
pub(crate) async fn draw(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    seat_act(&state, peer, &id, &headers, body, |table, side, now, _| table.draw(side, now)).await
}

/// `POST /api/v1/games/{id}/claim`.
pub(crate) async fn claim(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let abandon = state.games()?.settings.abandon;
    seat_act(&state, peer, &id, &headers, body, |table, side, now, gone| {
        table.claim(side, gone, abandon, now)
    })
    .await
}

/// `POST /api/v1/games/{id}/rematch`.
pub(crate) async fn rematch(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let (games, game) = acting(&state, peer, &id).await?;
    let NoBody {} = read_json(body).await?;
    let mut seated = game.seated.lock().await;
    let side = Games::side_of(&seated, bearer(&headers))?;
    let now = now_ms();
    game.seen(side, now);
    games.settle(&game, &mut seated, now).await?;
    match seated.table.ask_rematch(side)? {
        RematchStep::Ask(asked) => games.commit(&game, &mut seated, vec![asked], now).await?,
        RematchStep::Make => {
            let new = games.rematch(&game, &mut seated, now).await?;
            if new.seated.lock().await.table.server_to_move() {
                server_moves::spawn(Arc::clone(&state), new);
            }
        }
    }
    Ok(answer(&seated.table.view(now)))
}

/// The parameters of a game's stream.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StreamQuery {
    /// The last event the client has: the stream starts after it (0, all, when not given).
    #[serde(default)]
    since: Option<u64>,
}

/// A follower of game `id` from `since`, in one of the server's stream slots; `bearer`, where
/// given, makes the stream its seat's presence.
async fn follower(
    state: &AppState,
    id: &str,
    since: u64,
    bearer: Bearer,
) -> Result<Follower, ApiError> {
    let games = state.games()?;
    let game = games.get(id).await?;
    let slot = Arc::clone(&games.streams)
        .try_acquire_owned()
        .map_err(|_| ApiError::Full("as many streams as it serves"))?;
    let side = {
        let seated = game.seated.lock().await;
        let last = seated.table.version();
        if since > last {
            return Err(ApiError::parameter(
                "since",
                format!("must be at most the game's last event, {last}, not {since}"),
            ));
        }
        match bearer {
            Bearer::None => None,
            bearer => Some(Games::side_of(&seated, bearer)?),
        }
    };
    let mut follower = Follower::new(game, since, games.settings.rematch_window, slot);
    if let Some(side) = side {
        follower.as_seat(side);
    }
    Ok(follower)
}

/// A line of the stream: the event's JSON, or `{}` to say the connection is alive.
fn line(heard: &Heard) -> String {
    let mut text = match heard {
        Heard::Event(event) => serde_json::to_string(event).unwrap_or_else(|_| "{}".into()),
        Heard::Alive => "{}".into(),
    };
    text.push('\n');
    text
}

/// `GET /api/v1/games/{id}/stream?since=N`: JSON lines.
pub(crate) async fn stream(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Params(query): Params<StreamQuery>,
) -> Result<Response, ApiError> {
    let follower = follower(&state, &id, query.since.unwrap_or(0), bearer(&headers)).await?;
    let lines = futures_util::stream::unfold(follower, |mut follower| async move {
        let heard = follower.next().await?;
        Some((Ok::<_, Infallible>(line(&heard)), follower))
    });
    let mut response = Body::from_stream(lines).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-ndjson"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    // Proxies that buffer answers (nginx) pass each line on at once.
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    Ok(response)
}

/// What the page may send on its socket: its seat's token, so that its presence counts.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SocketHello {
    token: String,
}

/// `GET /api/v1/games/{id}/socket?since=N`: the same events over a WebSocket, one a message.
pub(crate) async fn socket(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Params(query): Params<StreamQuery>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let follower = follower(&state, &id, query.since.unwrap_or(0), Bearer::None).await?;
    let upgrade = upgrade.max_message_size(MAX_BODY).max_frame_size(MAX_BODY);
    Ok(upgrade.on_upgrade(move |socket| follow_socket(socket, follower)))
}

async fn follow_socket(mut socket: WebSocket, mut follower: Follower) {
    loop {
        tokio::select! {
            heard = follower.next() => {
                let Some(heard) = heard else { break };
                let text = line(&heard);
                if socket.send(Message::Text(text.trim_end().into())).await.is_err() {
                    return;
                }
            }
            message = socket.recv() => match message {
                Some(Ok(Message::Text(text))) => {
                    if let Ok(SocketHello { token }) = serde_json::from_str(&text)
                        && let Ok(token) = token.parse::<Token>()
                    {
                        let game = Arc::clone(follower.game());
                        let side = Games::side_of(&*game.seated.lock().await, Bearer::Token(token));
                        if let Ok(side) = side {
                            follower.as_seat(side);
                        }
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => return,
            },
        }
    }
    let _ = socket.send(Message::Close(None)).await;
}
