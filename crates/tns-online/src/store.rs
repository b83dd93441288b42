//! The games' database: `SQLite`, one file. A game is its seats' tokens and its events; every
//! event is committed before the caller goes on (and so before a player hears of it).

use std::path::Path;

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use tns_board::Side;

use crate::error::OnlineError;
use crate::event::Event;
use crate::table::Table;
use crate::token::{GameId, Token};

/// The schema's migrations, in order: the database's `user_version` is how many have run.
const MIGRATIONS: [&str; 1] = [include_str!("../migrations/0001_games.sql")];

/// The seats' tokens of a game: `None` where the server plays the side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tokens {
    /// The sheep's seat.
    pub sheep: Option<Token>,
    /// The tigers' seat.
    pub tigers: Option<Token>,
}

impl Tokens {
    /// The side whose seat `token` holds. Both seats are compared, each in constant time, so
    /// the answer's time says nothing of either.
    pub fn side_of(&self, token: &Token) -> Option<Side> {
        let sheep = self.sheep.is_some_and(|t| t.matches(token));
        let tigers = self.tigers.is_some_and(|t| t.matches(token));
        match (sheep, tigers) {
            (true, _) => Some(Side::Sheep),
            (false, true) => Some(Side::Tiger),
            (false, false) => None,
        }
    }

    /// The tokens with the sides swapped: a rematch's.
    #[must_use]
    pub fn swapped(self) -> Tokens {
        Tokens { sheep: self.tigers, tigers: self.sheep }
    }
}

/// A game read back: its state and its seats' tokens.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// The game, replayed from its events.
    pub table: Table,
    /// Its seats' tokens.
    pub tokens: Tokens,
}

/// The database of online games.
#[derive(Debug)]
pub struct Store {
    db: Connection,
}

impl Store {
    /// Opens the database at `path`, creating it (and its schema) on first use and bringing an
    /// older schema up to date.
    ///
    /// # Errors
    /// The path is something other than a regular file, the database cannot be opened or
    /// migrated, or it was written by a newer version.
    pub fn open(path: &Path) -> Result<Store, OnlineError> {
        if std::fs::metadata(path).is_ok_and(|meta| !meta.is_file()) {
            return Err(OnlineError::NotAFile { path: path.display().to_string() });
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let db = Connection::open_with_flags(path, flags)
            .map_err(OnlineError::db("cannot be opened"))?;
        // WAL: a commit is in the log file before it returns, so a killed process loses no
        // committed event; NORMAL syncs the log at checkpoints, not at each commit (a power cut
        // may lose the last moments; a crash of the server does not).
        db.pragma_update(None, "journal_mode", "WAL")
            .map_err(OnlineError::db("cannot use its log"))?;
        db.pragma_update(None, "synchronous", "NORMAL")
            .map_err(OnlineError::db("cannot be set up"))?;
        db.pragma_update(None, "foreign_keys", "ON")
            .map_err(OnlineError::db("cannot be set up"))?;
        Store::migrated(db)
    }

    /// A database in memory, for tests and trials: gone when dropped.
    ///
    /// # Errors
    /// `SQLite` cannot start.
    pub fn in_memory() -> Result<Store, OnlineError> {
        let db = Connection::open_in_memory().map_err(OnlineError::db("cannot be opened"))?;
        Store::migrated(db)
    }

    fn migrated(mut db: Connection) -> Result<Store, OnlineError> {
        let known = i64::try_from(MIGRATIONS.len()).unwrap_or(i64::MAX);
        let found: i64 = db
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(OnlineError::db("has no schema version"))?;
        if found > known {
            return Err(OnlineError::NewerSchema { found, known });
        }
        for (number, sql) in MIGRATIONS.iter().enumerate().skip(usize::try_from(found).unwrap_or(0))
        {
            let tx = db.transaction().map_err(OnlineError::db("cannot be migrated"))?;
            tx.execute_batch(sql).map_err(OnlineError::db("cannot be migrated"))?;
            tx.pragma_update(None, "user_version", number + 1)
                .map_err(OnlineError::db("cannot be migrated"))?;
            tx.commit().map_err(OnlineError::db("cannot be migrated"))?;
        }
        Ok(Store { db })
    }

    /// Stores a new game: its seats' tokens and its first event.
    ///
    /// # Errors
    /// The database refuses it (an id already taken among them).
    pub fn create(&mut self, id: GameId, tokens: Tokens, first: &Event) -> Result<(), OnlineError> {
        let body = serde_json::to_string(first).map_err(|e| OnlineError::BadEvent {
            game: id.to_string(),
            version: first.version,
            source: e,
        })?;
        let tx = self.db.transaction().map_err(OnlineError::db("cannot store a game"))?;
        tx.execute(
            "INSERT INTO games (id, created_at, sheep_token, tigers_token) VALUES (?1, ?2, ?3, ?4)",
            params![
                id.as_str(),
                i64::try_from(first.at).unwrap_or(i64::MAX),
                tokens.sheep.map(|t| t.to_string()),
                tokens.tigers.map(|t| t.to_string()),
            ],
        )
        .map_err(OnlineError::db("cannot store a game"))?;
        insert_event(&tx, id, first, &body)?;
        tx.commit().map_err(OnlineError::db("cannot store a game"))
    }

    /// Appends `events` to game `id` in one transaction; `finished` marks the game over.
    ///
    /// # Errors
    /// The database refuses them (a number already taken: another writer got there first).
    pub fn append(
        &mut self,
        id: GameId,
        events: &[Event],
        finished: bool,
    ) -> Result<(), OnlineError> {
        self.append_all(&[(id, events, finished)])
    }

    /// Appends several games' events in one transaction (a group commit): each entry is a
    /// game, its events, and whether they finish it. All or none are stored.
    ///
    /// # Errors
    /// The database refuses one of them; then none is stored.
    pub fn append_all(&mut self, batch: &[(GameId, &[Event], bool)]) -> Result<(), OnlineError> {
        let tx = self.db.transaction().map_err(OnlineError::db("cannot store an event"))?;
        for &(id, events, finished) in batch {
            for event in events {
                let body = serde_json::to_string(event).map_err(|e| OnlineError::BadEvent {
                    game: id.to_string(),
                    version: event.version,
                    source: e,
                })?;
                insert_event(&tx, id, event, &body)?;
            }
            if finished {
                tx.execute("UPDATE games SET finished = 1 WHERE id = ?1", [id.as_str()])
                    .map_err(OnlineError::db("cannot store an event"))?;
            }
        }
        tx.commit().map_err(OnlineError::db("cannot store an event"))
    }

    /// Game `id`, if it is stored.
    ///
    /// # Errors
    /// The database fails, or the game's events do not replay.
    pub fn load(&self, id: GameId) -> Result<Option<StoredGame>, OnlineError> {
        let tokens = self
            .db
            .query_row(
                "SELECT sheep_token, tigers_token FROM games WHERE id = ?1",
                [id.as_str()],
                |row| Ok((row.get::<_, Option<String>>(0)?, row.get::<_, Option<String>>(1)?)),
            )
            .optional()
            .map_err(OnlineError::db("cannot read a game"))?;
        let Some((sheep, tigers)) = tokens else { return Ok(None) };
        let token = |text: Option<String>| -> Result<Option<Token>, OnlineError> {
            text.map(|t| {
                t.parse().map_err(|e: crate::token::ParseTokenError| OnlineError::Replay {
                    game: id.to_string(),
                    version: 0,
                    why: format!("a stored token: {e}"),
                })
            })
            .transpose()
        };
        let tokens = Tokens { sheep: token(sheep)?, tigers: token(tigers)? };
        let mut statement = self
            .db
            .prepare_cached("SELECT version, body FROM events WHERE game = ?1 ORDER BY version")
            .map_err(OnlineError::db("cannot read a game"))?;
        let rows = statement
            .query_map([id.as_str()], |row| Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?)))
            .map_err(OnlineError::db("cannot read a game"))?;
        let mut events = Vec::new();
        for row in rows {
            let (version, body) = row.map_err(OnlineError::db("cannot read a game"))?;
            let version = u64::try_from(version).unwrap_or(0);
            let event: Event = serde_json::from_str(&body).map_err(|e| OnlineError::BadEvent {
                game: id.to_string(),
                version,
                source: e,
            })?;
            if event.version != version {
                return Err(OnlineError::Replay {
                    game: id.to_string(),
                    version,
                    why: format!("stored as event {version}, numbered {}", event.version),
                });
            }
            events.push(event);
        }
        Ok(Some(StoredGame { table: Table::replay(id, events)?, tokens }))
    }

    /// The ids of the games not over.
    ///
    /// # Errors
    /// The database fails.
    pub fn unfinished(&self) -> Result<Vec<GameId>, OnlineError> {
        let mut statement = self
            .db
            .prepare("SELECT id FROM games WHERE finished = 0 ORDER BY created_at")
            .map_err(OnlineError::db("cannot list the games"))?;
        let rows = statement
            .query_map([], |row| row.get::<_, String>(0))
            .map_err(OnlineError::db("cannot list the games"))?;
        let mut ids = Vec::new();
        for row in rows {
            let text = row.map_err(OnlineError::db("cannot list the games"))?;
            let id = text.parse().map_err(|_| OnlineError::Replay {
                game: text.chars().take(20).collect(),
                version: 0,
                why: "not a game's id".into(),
            })?;
            ids.push(id);
        }
        Ok(ids)
    }

    /// Records that the server is alive at `now`.
    ///
    /// # Errors
    /// The database fails.
    pub fn beat(&self, now: u64) -> Result<(), OnlineError> {
        self.db
            .execute(
                "INSERT INTO heartbeat (id, at) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET at = ?1",
                [i64::try_from(now).unwrap_or(i64::MAX)],
            )
            .map(drop)
            .map_err(OnlineError::db("cannot record the heartbeat"))
    }

    /// The last heartbeat recorded, if any.
    ///
    /// # Errors
    /// The database fails.
    pub fn last_beat(&self) -> Result<Option<u64>, OnlineError> {
        self.db
            .query_row("SELECT at FROM heartbeat WHERE id = 1", [], |row| row.get::<_, i64>(0))
            .optional()
            .map(|at| at.map(|at| u64::try_from(at).unwrap_or(0)))
            .map_err(OnlineError::db("cannot read the heartbeat"))
    }
}

fn insert_event(
    tx: &rusqlite::Transaction<'_>,
    id: GameId,
    event: &Event,
    body: &str,
) -> Result<(), OnlineError> {
    // Cached: a busy server inserts thousands a second, each with the same statement.
    let mut insert = tx
        .prepare_cached("INSERT INTO events (game, version, body) VALUES (?1, ?2, ?3)")
        .map_err(OnlineError::db("cannot store an event"))?;
    insert
        .execute(params![id.as_str(), i64::try_from(event.version).unwrap_or(i64::MAX), body])
        .map(drop)
        .map_err(OnlineError::db("cannot store an event"))
}
