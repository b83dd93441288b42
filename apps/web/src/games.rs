//! The online games the server holds: each live game's state in memory, its events committed
//! to the store before anyone hears of them, its followers told of each, and who is here.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tns_board::Side;
use tns_online::{Event, EventKind, GameId, GameView, Refusal, Store, Table, Token, Tokens};
use tokio::sync::broadcast;

use crate::error::ApiError;
use crate::store_writer::StoreWriter;

/// How online games are held.
#[derive(Clone, Copy, Debug)]
pub struct OnlineSettings {
    /// How long a side must be gone (no stream open, no request) before its opponent may claim
    /// the win.
    pub abandon: Duration,
    /// How long a game in which both sides have not moved lasts before it ends unplayed.
    pub expire: Duration,
    /// How long a finished game waits for a rematch before it leaves memory (it stays stored).
    pub rematch_window: Duration,
    /// Games held in memory at once (live, or finished within the rematch window).
    pub max_games: usize,
    /// Streams and sockets open at once.
    pub max_streams: usize,
}

impl Default for OnlineSettings {
    fn default() -> OnlineSettings {
        OnlineSettings {
            abandon: Duration::from_secs(60),
            expire: Duration::from_secs(3600),
            rematch_window: Duration::from_secs(120),
            max_games: 2000,
            max_streams: 4096,
        }
    }
}

/// Milliseconds since 1970, the times events carry.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Who of a side is here: streams open with the seat's token, and when the side was last seen.
#[derive(Clone, Copy, Debug)]
struct Presence {
    streams: usize,
    last_seen: u64,
}

/// A game's state and its seats' secrets, changed only under the game's lock.
#[derive(Debug)]
pub(crate) struct Seated {
    pub(crate) table: Table,
    pub(crate) tokens: Tokens,
}

/// A game held in memory.
#[derive(Debug)]
pub(crate) struct LiveGame {
    pub(crate) id: GameId,
    /// The state: actions are decided and committed one at a time under this lock.
    pub(crate) seated: tokio::sync::Mutex<Seated>,
    /// Each committed event, to the game's followers.
    pub(crate) events: broadcast::Sender<Event>,
    presence: Mutex<[Presence; 2]>,
}

fn side_index(side: Side) -> usize {
    match side {
        Side::Sheep => 0,
        Side::Tiger => 1,
    }
}

impl LiveGame {
    fn new(table: Table, tokens: Tokens, now: u64) -> Arc<LiveGame> {
        let (events, _) = broadcast::channel(64);
        let here = Presence { streams: 0, last_seen: now };
        Arc::new(LiveGame {
            id: table.id(),
            seated: tokio::sync::Mutex::new(Seated { table, tokens }),
            events,
            presence: Mutex::new([here; 2]),
        })
    }

    /// `side` was seen at `now` (a request with its token).
    pub(crate) fn seen(&self, side: Side, now: u64) {
        let mut presence = self.presence.lock().unwrap_or_else(PoisonError::into_inner);
        presence[side_index(side)].last_seen = now;
    }

    /// A stream of `side` opened (`true`) or closed.
    pub(crate) fn streaming(&self, side: Side, open: bool, now: u64) {
        let mut presence = self.presence.lock().unwrap_or_else(PoisonError::into_inner);
        let here = &mut presence[side_index(side)];
        here.streams = if open { here.streams + 1 } else { here.streams.saturating_sub(1) };
        here.last_seen = now;
    }

    /// How long `side` has been gone at `now`; `None` while it has a stream open.
    pub(crate) fn gone_for(&self, side: Side, now: u64) -> Option<Duration> {
        let presence = self.presence.lock().unwrap_or_else(PoisonError::into_inner);
        let here = presence[side_index(side)];
        (here.streams == 0).then(|| Duration::from_millis(now.saturating_sub(here.last_seen)))
    }
}

/// The games the server holds, and its store.
#[derive(Debug)]
pub struct Games {
    store: StoreWriter,
    live: Mutex<HashMap<GameId, Arc<LiveGame>>>,
    pub(crate) settings: OnlineSettings,
    pub(crate) streams: Arc<tokio::sync::Semaphore>,
}

/// What a request's token says.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Bearer {
    /// No `Authorization` header.
    None,
    /// A header that is not `Bearer` and a token.
    Malformed,
    /// A token.
    Token(Token),
}

impl Games {
    /// Games kept in `store`, held as `settings` say.
    pub fn new(store: Store, settings: OnlineSettings) -> Games {
        Games {
            store: StoreWriter::start(store),
            live: Mutex::new(HashMap::new()),
            streams: Arc::new(tokio::sync::Semaphore::new(settings.max_streams.max(1))),
            settings,
        }
    }

    /// Reads every game not over back into memory, restarting their clocks where the server
    /// stopped (charged up to its last heartbeat). Returns the games the server is to move in.
    ///
    /// # Errors
    /// The store fails, or a stored game does not replay.
    pub(crate) async fn resume(&self) -> Result<Vec<Arc<LiveGame>>, ApiError> {
        let now = now_ms();
        let (stored, last_beat) = self
            .store
            .run("reading the games back", |store| {
                let mut games = Vec::new();
                for id in store.unfinished()? {
                    if let Some(game) = store.load(id)? {
                        games.push(game);
                    }
                }
                Ok((games, store.last_beat()?))
            })
            .await?;
        let mut to_move = Vec::new();
        for game in stored {
            let live = LiveGame::new(game.table, game.tokens, now);
            {
                let mut seated = live.seated.lock().await;
                if let Some(resumed) = seated.table.resume(last_beat.unwrap_or(now)) {
                    self.commit(&live, &mut seated, vec![resumed], now).await?;
                }
                if seated.table.server_to_move() {
                    to_move.push(Arc::clone(&live));
                }
            }
            self.lock_live().insert(live.id, live);
        }
        Ok(to_move)
    }

    fn lock_live(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, Arc<LiveGame>>> {
        self.live.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Games held in memory now.
    pub(crate) fn held(&self) -> usize {
        self.lock_live().len()
    }

    /// Creates a game whose first event is `created`, with a token for each friend's seat.
    pub(crate) async fn create(
        &self,
        created: EventKind,
    ) -> Result<(Arc<LiveGame>, Tokens), ApiError> {
        if self.held() >= self.settings.max_games {
            return Err(ApiError::Full("as many games as it holds"));
        }
        let EventKind::Created { sheep, tigers, .. } = &created else {
            return Err(ApiError::internal("a game created", std::fmt::Error));
        };
        let random = |friend: bool| -> Result<Option<Token>, ApiError> {
            friend.then(Token::random).transpose().map_err(|e| ApiError::internal("a token", e))
        };
        let tokens =
            Tokens { sheep: random(sheep.is_friend())?, tigers: random(tigers.is_friend())? };
        self.create_with(created, tokens).await.map(|game| (game, tokens))
    }

    async fn create_with(
        &self,
        created: EventKind,
        tokens: Tokens,
    ) -> Result<Arc<LiveGame>, ApiError> {
        let now = now_ms();
        let id = GameId::random().map_err(|e| ApiError::internal("a game's id", e))?;
        let first = Event { version: 1, at: now, kind: created };
        let table = Table::replay(id, vec![first.clone()])
            .map_err(|e| ApiError::internal("a new game", e))?;
        self.store.run("storing a new game", move |store| store.create(id, tokens, &first)).await?;
        let game = LiveGame::new(table, tokens, now);
        self.lock_live().insert(id, Arc::clone(&game));
        Ok(game)
    }

    /// Game `id`: from memory, else from the store (a finished game, which is not kept).
    pub(crate) async fn get(&self, id: &str) -> Result<Arc<LiveGame>, ApiError> {
        let unknown = || ApiError::NoSuchGame { id: id.chars().take(16).collect() };
        let id: GameId = id.parse().map_err(|_| unknown())?;
        if let Some(game) = self.lock_live().get(&id) {
            return Ok(Arc::clone(game));
        }
        let stored = self.store.run("reading a game", move |store| store.load(id)).await?;
        let stored = stored.ok_or_else(unknown)?;
        // Held until the keeper lets it go, so that two requests at once act on one copy; a
        // full server answers from a copy of its own (its store refuses a second writer of
        // one event number, so two copies never both commit).
        let game = LiveGame::new(stored.table, stored.tokens, now_ms());
        let mut live = self.lock_live();
        if live.len() >= self.settings.max_games && !live.contains_key(&id) {
            return Ok(game);
        }
        Ok(Arc::clone(live.entry(id).or_insert(game)))
    }

    /// Commits `kinds` as the game's next events, then applies them and tells the followers.
    /// Nothing changes when the store refuses them.
    pub(crate) async fn commit(
        &self,
        game: &LiveGame,
        seated: &mut Seated,
        kinds: Vec<EventKind>,
        now: u64,
    ) -> Result<(), ApiError> {
        if kinds.is_empty() {
            return Ok(());
        }
        let first = seated.table.version() + 1;
        let events: Vec<Event> =
            (first..).zip(kinds).map(|(version, kind)| Event { version, at: now, kind }).collect();
        let finished = events.iter().any(|e| e.kind.ends());
        let id = game.id;
        self.store.append(id, events.clone(), finished).await?;
        for event in events {
            seated.table.apply(event.clone()).map_err(|e| ApiError::internal("an event", e))?;
            // No follower is not an error.
            let _ = game.events.send(event);
        }
        Ok(())
    }

    /// The side whose seat `bearer` holds in `game`.
    pub(crate) fn side_of(seated: &Seated, bearer: Bearer) -> Result<Side, ApiError> {
        match bearer {
            Bearer::None => Err(ApiError::Unauthorized(
                "this needs the seat's token: Authorization: Bearer TOKEN",
            )),
            Bearer::Malformed => Err(ApiError::Unauthorized(
                "the Authorization header is `Bearer` and the seat's 32-digit token",
            )),
            Bearer::Token(token) => seated
                .tokens
                .side_of(&token)
                .ok_or(ApiError::Unauthorized("this token holds no seat in this game")),
        }
    }

    /// A seat's action in `game`: what fell due first (a flag, an expiry) is committed, then
    /// `decide` turns the action into events, which are committed. Answers the game after.
    pub(crate) async fn act(
        &self,
        game: &LiveGame,
        bearer: Bearer,
        decide: impl FnOnce(&Table, Side, u64, Option<Duration>) -> Result<Vec<EventKind>, Refusal>,
    ) -> Result<(GameView, bool), ApiError> {
        let mut seated = game.seated.lock().await;
        let side = Games::side_of(&seated, bearer)?;
        let now = now_ms();
        game.seen(side, now);
        self.settle(game, &mut seated, now).await?;
        let gone = game.gone_for(side.other(), now);
        let kinds = decide(&seated.table, side, now, gone)?;
        self.commit(game, &mut seated, kinds, now).await?;
        Ok((seated.table.view(now), seated.table.server_to_move()))
    }

    /// Commits what has fallen due in `game` by `now`: a flag, an expiry.
    pub(crate) async fn settle(
        &self,
        game: &LiveGame,
        seated: &mut Seated,
        now: u64,
    ) -> Result<(), ApiError> {
        match seated.table.due(now, self.settings.expire) {
            Some(due) => self.commit(game, seated, vec![due], now).await,
            None => Ok(()),
        }
    }

    /// The rematch of `game`, created with the seats and tokens swapped, and recorded in
    /// `game` (under its lock, held by the caller).
    pub(crate) async fn rematch(
        &self,
        game: &LiveGame,
        seated: &mut Seated,
        now: u64,
    ) -> Result<Arc<LiveGame>, ApiError> {
        let created = seated.table.rematch_created();
        let new = self.create_with(created, seated.tokens.swapped()).await?;
        self.commit(game, seated, vec![EventKind::Rematch { game: new.id }], now).await?;
        Ok(new)
    }

    /// One round of the keeper: commits what fell due in every game held, and lets go of the
    /// finished games that nobody follows or whose rematch window has passed. Returns the number held after.
    pub(crate) async fn sweep(&self) -> Result<usize, ApiError> {
        let games: Vec<Arc<LiveGame>> = self.lock_live().values().cloned().collect();
        let window = u64::try_from(self.settings.rematch_window.as_millis()).unwrap_or(u64::MAX);
        let mut done = Vec::new();
        for game in games {
            let mut seated = game.seated.lock().await;
            let now = now_ms();
            self.settle(&game, &mut seated, now).await?;
            let table = &seated.table;
            // A finished game stays while someone follows it and a rematch may come; with no
            // follower it is let go at once (the store has it, should anyone ask).
            let followed = game.events.receiver_count() > 0;
            if table.finish().is_some()
                && (table.rematch().is_some()
                    || !followed
                    || now.saturating_sub(table.last_at()) >= window)
            {
                done.push(game.id);
            }
        }
        let mut live = self.lock_live();
        for id in done {
            live.remove(&id);
        }
        Ok(live.len())
    }

    /// Records that the server is alive now.
    pub(crate) async fn beat(&self) -> Result<(), ApiError> {
        let now = now_ms();
        self.store.run("the heartbeat", move |store| store.beat(now)).await
    }
}

/// Reads the stored games back (restarting their clocks and their server's players), then keeps
/// the games: four times a second it commits what fell due (flags, expiries) and lets go of
/// finished games; every second it writes the heartbeat. Call once the server runs.
///
/// # Errors
/// The store fails, or a stored game does not replay.
pub async fn start_online(state: &Arc<crate::AppState>) -> Result<(), ApiError> {
    let games = Arc::clone(state.games()?);
    // The last heartbeat is read before the first of this run is written.
    for game in games.resume().await? {
        crate::server_moves::spawn(Arc::clone(state), game);
    }
    games.beat().await?;
    let state = Arc::clone(state);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        for round in 1u64.. {
            tick.tick().await;
            if let Err(ApiError::Internal(cause)) = games.sweep().await {
                eprintln!("tns-web: keeping the games: {cause:#}");
            }
            if round % 4 == 0
                && let Err(ApiError::Internal(cause)) = games.beat().await
            {
                eprintln!("tns-web: the heartbeat: {cause:#}");
            }
            if round % 240 == 0 {
                state.creating.prune();
                state.acting.prune();
            }
        }
    });
    Ok(())
}
