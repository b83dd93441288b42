//! The library's errors: the store's, and a stored game that does not replay.

/// What went wrong outside the rules: the database, the system's random source, a stored game
/// that does not replay.
#[derive(Debug, thiserror::Error)]
pub enum OnlineError {
    /// The operating system gave no random bits.
    #[error("no random bits from the system: {0}")]
    Random(String),
    /// The database failed.
    #[error("the games' database {what}")]
    Database {
        /// What was being done.
        what: &'static str,
        /// The database's error.
        #[source]
        source: rusqlite::Error,
    },
    /// The database path is not where a regular file may stand.
    #[error("{path} is not a regular file")]
    NotAFile {
        /// The path.
        path: String,
    },
    /// The database was written by a newer version of this program.
    #[error("the games' database has schema {found}; this program knows up to {known}")]
    NewerSchema {
        /// The database's schema version.
        found: i64,
        /// The newest this program knows.
        known: i64,
    },
    /// A stored event does not read back as an event.
    #[error("game {game}: event {version} does not read")]
    BadEvent {
        /// The game.
        game: String,
        /// The event's number.
        version: u64,
        /// The reader's error.
        #[source]
        source: serde_json::Error,
    },
    /// A stored game's events do not follow the rules, or not in order.
    #[error("game {game}: event {version} does not replay: {why}")]
    Replay {
        /// The game.
        game: String,
        /// The event's number.
        version: u64,
        /// What is wrong with it.
        why: String,
    },
}

impl OnlineError {
    pub(crate) fn db(what: &'static str) -> impl FnOnce(rusqlite::Error) -> OnlineError {
        move |source| OnlineError::Database { what, source }
    }
}
