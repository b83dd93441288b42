//! The routes: the JSON API under `/api/v1/`, and the page.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Deserializer, Serialize};
use tns_board::Move;
use tns_match::{Budget, PlayerSpec};
use tokio::sync::Semaphore;

use crate::analysis::{API_VERSION, Analyst, MoveJson, PositionJson, Source};
use crate::error::ApiError;
use crate::games::Games;
use crate::query::{GameQuery, Params, game, within};
use crate::rate::Limiter;

/// What a request may cost: the server's limits on searching.
#[derive(Clone, Copy, Debug)]
pub struct RequestLimits {
    /// The longest a player may think for a `move` request.
    pub max_move_time: Duration,
    /// The longest a `mainline` request may take.
    pub max_line_time: Duration,
    /// Searches running at once (each request that searches waits for one).
    pub searches: usize,
}

/// Per-address limits on online games.
#[derive(Clone, Copy, Debug)]
pub struct OnlineLimits {
    /// Games one address may create a minute (and at once).
    pub games_per_minute: u32,
    /// Actions in games (moves, offers, resignations) one address may take a second.
    pub actions_per_second: u32,
}

impl Default for OnlineLimits {
    fn default() -> OnlineLimits {
        OnlineLimits { games_per_minute: 20, actions_per_second: 20 }
    }
}

/// What every request shares.
#[derive(Debug)]
pub struct AppState {
    pub(crate) analyst: Analyst,
    limits: RequestLimits,
    /// Searches running at once are bounded, so a burst of them queues instead of starving the
    /// table's answers of threads.
    searches: Arc<Semaphore>,
    /// Table answers running at once: two a core (one a core left cores idle between
    /// requests; more made the slowest wait longest). The semaphore is first come, first served,
    /// so under load requests queue in order instead of all sharing the cores at once (which
    /// made the slowest wait longest).
    lookups: Arc<Semaphore>,
    /// Players the operator added (`--offer`), by spec.
    extra: Vec<PlayerSpec>,
    /// The puzzles served (the shipped set), or why the set did not parse: the puzzle route
    /// says so, the rest of the server works on.
    pub(crate) puzzles: Result<Vec<tns_puzzles::Puzzle>, tns_puzzles::SetError>,
    /// The online games, when the server keeps them.
    pub(crate) games: Option<Arc<Games>>,
    /// The address the server's links start with (`https://example.org`), when it is not the
    /// one each request names in its `Host` header.
    pub(crate) public_url: Option<String>,
    /// Games an address may create.
    pub(crate) creating: Limiter,
    /// Actions in games an address may take (moves, offers...).
    pub(crate) acting: Limiter,
}

impl AppState {
    /// The state of a server answering with `analyst` within `limits`.
    pub fn new(analyst: Analyst, limits: RequestLimits) -> AppState {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        AppState {
            analyst,
            limits,
            searches: Arc::new(Semaphore::new(limits.searches.max(1))),
            lookups: Arc::new(Semaphore::new(2 * cores)),
            extra: Vec::new(),
            // The shipped set parses (its crate's tests read it); were it ever damaged, the
            // puzzle route would answer with the reason rather than the server not start.
            puzzles: tns_puzzles::shipped(),
            games: None,
            public_url: None,
            creating: Limiter::new(20, Duration::from_secs(60), "20 new games a minute".into()),
            acting: Limiter::new(20, Duration::from_secs(1), "20 actions a second".into()),
        }
    }

    /// Keeps online games in `games`: the routes under `/api/v1/games` answer (without, they
    /// say the server keeps none). Start [`crate::start_online`] once the server runs.
    pub fn keep_games(&mut self, games: Games, limits: OnlineLimits) {
        self.games = Some(Arc::new(games));
        let per_minute = limits.games_per_minute.max(1);
        let per_second = limits.actions_per_second.max(1);
        self.creating = Limiter::new(
            per_minute,
            Duration::from_secs(60),
            format!("{per_minute} new games a minute"),
        );
        self.acting = Limiter::new(
            per_second,
            Duration::from_secs(1),
            format!("{per_second} actions a second"),
        );
    }

    /// The address the online games' links start with, instead of the `Host` a request names.
    pub fn set_public_url(&mut self, url: &str) {
        self.public_url = Some(url.trim_end_matches('/').to_string());
    }

    /// The online games, or the refusal of a server that keeps none.
    pub(crate) fn games(&self) -> Result<&Arc<Games>, ApiError> {
        self.games.as_ref().ok_or(ApiError::NoGames)
    }

    /// Offers another player, named by its spec (a weights file, a heuristic's options).
    ///
    /// # Errors
    /// A spec that does not parse or load, or an external program (never offered).
    pub fn offer(&mut self, spec: &str) -> anyhow::Result<()> {
        let parsed: PlayerSpec = spec.parse()?;
        if !parsed.searches() && parsed.kind != tns_match::PlayerKind::Random {
            anyhow::bail!("only built-in players and weights files can be offered");
        }
        if parsed.needs_tablebase() && self.analyst.table.is_none() {
            anyhow::bail!("{spec} needs the tablebase, and this server has none (--tablebase)");
        }
        self.extra.push(parsed);
        Ok(())
    }
}

pub(crate) async fn not_found() -> ApiError {
    ApiError::NotFound
}

pub(crate) async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}

/// A JSON answer; answers from the table never change, so caches may keep them.
pub(crate) fn json<T: Serialize>(value: &T, from_table: bool) -> Response {
    let body = match serde_json::to_string(value) {
        Ok(body) => body,
        Err(e) => return ApiError::internal("an answer did not serialize", e).into_response(),
    };
    let mut response = ([(header::CONTENT_TYPE, "application/json")], body).into_response();
    let cache = if from_table { "public, max-age=31536000, immutable" } else { "no-store" };
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    response
}

/// Raises its flag when dropped: a request's work is told to stop when the client goes away
/// (the server drops the request's future).
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Which slots a request's work waits for.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Slot {
    /// A search (bounded by `--searches`).
    Search,
    /// A table answer (two a core).
    Lookup,
}

/// Runs `work` off the async threads once a slot is free, with a flag raised if the request is
/// dropped. The slot is held by the work itself, so an abandoned search keeps its slot until it
/// has seen the flag and stopped.
pub(crate) async fn off_thread<T: Send + 'static>(
    state: &Arc<AppState>,
    slot: Slot,
    work: impl FnOnce(&AppState, &AtomicBool) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let slots = match slot {
        Slot::Search => &state.searches,
        Slot::Lookup => &state.lookups,
    };
    // Nothing closes the slots: were they closed, it would be the server's own fault.
    let permit = Arc::clone(slots)
        .acquire_owned()
        .await
        .map_err(|e| ApiError::internal("the work's slots are closed", e))?;
    let stop = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(Arc::clone(&stop));
    let state = Arc::clone(state);
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work(&state, &stop)
    })
    .await
    .map_err(|e| ApiError::internal("the request's work failed", e))?
}

pub(crate) async fn position(
    State(state): State<Arc<AppState>>,
    Params(query): Params<GameQuery>,
) -> Result<Response, ApiError> {
    let game = game(query.pos.as_deref(), query.moves.as_deref())?;
    // Only searching needs a slot; the table answers at once.
    let needs_search = !state.analyst.holds(game.board()) && game.outcome().is_none();
    let slot = if needs_search { Slot::Search } else { Slot::Lookup };
    let answer: PositionJson =
        off_thread(&state, slot, move |s, stop| s.analyst.position(&game, stop)).await?;
    let from_table = answer.source == Source::Table;
    Ok(json(&answer, from_table))
}

#[derive(Serialize)]
struct MainlineJson {
    api: u32,
    position: String,
    source: Source,
    moves: Vec<MoveJson>,
}

/// The parameters of `mainline`.
#[derive(Deserialize)]
pub(crate) struct MainlineQuery {
    pos: Option<String>,
    moves: Option<String>,
    /// The longest line, 1 to 500 plies; 200 when not given.
    #[serde(default, deserialize_with = "plies")]
    plies: Option<usize>,
}

fn plies<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    within(d, &(1..=500), "1 to 500").map(Some)
}

pub(crate) async fn mainline(
    State(state): State<Arc<AppState>>,
    Params(query): Params<MainlineQuery>,
) -> Result<Response, ApiError> {
    let game = game(query.pos.as_deref(), query.moves.as_deref())?;
    let plies = query.plies.unwrap_or(200);
    let position = game.board().to_string();
    let (moves, source) = off_thread(&state, Slot::Search, move |s, stop| {
        s.analyst.mainline(&game, plies, s.limits.max_line_time, stop)
    })
    .await?;
    Ok(json(&MainlineJson { api: API_VERSION, position, source, moves }, false))
}

#[derive(Serialize)]
struct MoveAnswer {
    api: u32,
    #[serde(rename = "move")]
    mv: String,
    player: String,
    position: String,
}

/// The players the server offers, in the order every program lists them
/// ([`tns_match::offers`]: the levels, with the table's movement phase after the strongest
/// where there is a table, and the perfect player where it solves the whole game), then those
/// the operator added: each a name, the spec it stands for, and what it does.
fn offered(state: &AppState) -> Vec<PlayerJson> {
    let table = state.analyst.table.as_ref();
    let whole = table.is_some_and(|t| t.solves_whole_game());
    let mut players: Vec<PlayerJson> = tns_match::offers(table.is_some(), whole)
        .into_iter()
        .map(|o| PlayerJson { name: o.name, spec: o.spec, description: o.about })
        .collect();
    // An operator's player that is already listed (by its name or its level's) is listed once.
    for spec in &state.extra {
        let name = tns_match::level_name(&spec.to_string());
        if !players.iter().any(|p| p.name == name) {
            players.push(PlayerJson {
                name: spec.to_string(),
                spec: spec.to_string(),
                description: "offered by this server".to_string(),
            });
        }
    }
    players
}

/// The player of a move request that names none: the strongest, searching with the table's
/// movement phase where the server has one.
fn default_player(state: &AppState) -> &'static str {
    if state.analyst.table.is_some() { "strongest:table=on" } else { "strongest" }
}

/// The parameters of `move`.
#[derive(Deserialize)]
pub(crate) struct MoveQuery {
    pos: Option<String>,
    moves: Option<String>,
    /// One of the server's players, by name; the default when not given.
    player: Option<String>,
}

pub(crate) async fn play(
    State(state): State<Arc<AppState>>,
    Params(query): Params<MoveQuery>,
) -> Result<Response, ApiError> {
    let game = game(query.pos.as_deref(), query.moves.as_deref())?;
    let name = query.player.unwrap_or_else(|| default_player(&state).to_string());
    let spec = offered_spec(&state, &name)?;
    if let Some(outcome) = game.outcome() {
        return Err(ApiError::GameOver { outcome: outcome.to_string() });
    }
    let position = game.board().to_string();
    let chosen = think(&state, spec, game, state.limits.max_move_time).await?;
    let answer = MoveAnswer { api: API_VERSION, mv: chosen.to_string(), player: name, position };
    Ok(json(&answer, false))
}

/// The spec of the server's player `name`: never a program or a file named by the client, only
/// the server's own list, by a level's name or its spec (`strongest` or `network`).
///
/// # Errors
/// A name the server does not offer.
pub(crate) fn offered_spec(state: &AppState, name: &str) -> Result<PlayerSpec, ApiError> {
    let offered = offered(state);
    let level = tns_match::level_name(name);
    if !offered.iter().any(|p| p.name == name || p.name == level) {
        let names: Vec<&str> = offered.iter().map(|p| p.name.as_str()).collect();
        return Err(ApiError::UnknownPlayer { name: name.to_string(), offered: names.join(", ") });
    }
    match state.extra.iter().find(|s| s.to_string() == name) {
        Some(spec) => Ok(spec.clone()),
        None => name.parse().map_err(|e| ApiError::internal("an offered player's spec", e)),
    }
}

/// The names of the server's players, comma-separated.
pub(crate) fn offered_names(state: &AppState) -> String {
    offered(state).iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ")
}

/// The move `spec` chooses in `game`, thinking at most `most` (and no longer than the spec's
/// own time), on one thread with a small table, in one of the server's search slots.
pub(crate) async fn think(
    state: &Arc<AppState>,
    spec: PlayerSpec,
    game: tns_board::Game,
    most: Duration,
) -> Result<Move, ApiError> {
    off_thread(state, Slot::Search, move |s, stop| {
        let max = most.min(s.limits.max_move_time).as_secs_f64();
        let time = Some(spec.time.map_or(max, |t| t.min(max)));
        let mut capped = spec;
        (capped.time, capped.threads, capped.tt_mb) = (time, Some(1), Some(16));
        let budget = Budget { time, depth: None, threads: 1, tt_mb: 16 };
        let mut player = capped
            .build(budget, s.analyst.table.as_ref())
            .map_err(|e| ApiError::internal("the player could not be made", e))?;
        player.new_game(0);
        player.choose(&game, stop).map_err(|e| ApiError::internal("the player found no move", e))
    })
    .await
}

#[derive(Serialize)]
struct PlayerJson {
    name: String,
    spec: String,
    description: String,
}

#[derive(Serialize)]
struct PlayersJson {
    api: u32,
    players: Vec<PlayerJson>,
    /// The player a move request that names none gets, and the page chooses first.
    default: &'static str,
    max_move_time: f64,
    tablebase: bool,
}

pub(crate) async fn players(State(state): State<Arc<AppState>>) -> Response {
    let answer = PlayersJson {
        api: API_VERSION,
        players: offered(&state),
        default: default_player(&state),
        max_move_time: state.limits.max_move_time.as_secs_f64(),
        tablebase: state.analyst.table.is_some(),
    };
    json(&answer, false)
}
