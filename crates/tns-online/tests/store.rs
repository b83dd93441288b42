//! The store: games written, read back the same, across reopening the file.

use proptest::prelude::*;
use tns_board::Side;
use tns_online::{Event, EventKind, GameId, OnlineError, Seat, Store, Table, Token, Tokens};

fn new_game(store: &mut Store, sheep: Seat, tigers: Seat) -> (GameId, Tokens, Table) {
    let id = GameId::random().unwrap();
    let tokens = Tokens {
        sheep: sheep.is_friend().then(|| Token::random().unwrap()),
        tigers: tigers.is_friend().then(|| Token::random().unwrap()),
    };
    let kind = Table::created(sheep, tigers, Some("5+3")).unwrap();
    let first = Event { version: 1, at: 10, kind };
    store.create(id, tokens, &first).unwrap();
    (id, tokens, Table::replay(id, vec![first]).unwrap())
}

/// Plays `moves` (each side in turn), committing each to the store as the server does.
fn play(store: &mut Store, table: &mut Table, moves: &[&str]) {
    for (i, mv) in moves.iter().enumerate() {
        let at = 1_000 * (i as u64 + 1);
        let kinds = table.play(table.turn(), mv, at).unwrap();
        let mut events = Vec::new();
        for kind in kinds {
            let event = Event { version: table.version() + 1 + events.len() as u64, at, kind };
            events.push(event);
        }
        let finished = events.iter().any(|e| e.kind.ends());
        store.append(table.id(), &events, finished).unwrap();
        for event in events {
            table.apply(event).unwrap();
        }
    }
}

#[test]
fn a_game_reads_back_the_same_after_the_file_is_reopened() {
    let dir = tempdir();
    let path = dir.join("games.sqlite");
    let (id, tokens, table) = {
        let mut store = Store::open(&path).unwrap();
        let (id, tokens, mut table) =
            new_game(&mut store, Seat::Friend, Seat::Server("easy".into()));
        play(&mut store, &mut table, &["c3", "a5b4", "b5"]);
        store.beat(5_000).unwrap();
        (id, tokens, table)
    };
    let store = Store::open(&path).unwrap();
    let stored = store.load(id).unwrap().expect("the game is there");
    assert_eq!(stored.tokens, tokens);
    assert_eq!(stored.table.events(), table.events());
    assert_eq!(stored.table.view(9_000), table.view(9_000));
    assert_eq!(store.unfinished().unwrap(), [id]);
    assert_eq!(store.last_beat().unwrap(), Some(5_000));
    assert!(store.load("zzzzzzzzzz".parse().unwrap()).unwrap().is_none());
    let sheep = tokens.sheep.unwrap();
    assert_eq!(stored.tokens.side_of(&sheep), Some(Side::Sheep));
    assert_eq!(stored.tokens.side_of(&Token::random().unwrap()), None);
}

#[test]
fn a_finished_game_is_not_listed_as_unfinished() {
    let mut store = Store::in_memory().unwrap();
    let (id, _, mut table) = new_game(&mut store, Seat::Friend, Seat::Friend);
    let (other, _, _) = new_game(&mut store, Seat::Friend, Seat::Friend);
    let end = table.resign(Side::Sheep, 100).unwrap();
    let event = Event { version: 2, at: 100, kind: end };
    store.append(id, std::slice::from_ref(&event), true).unwrap();
    table.apply(event).unwrap();
    assert_eq!(store.unfinished().unwrap(), [other]);
    assert!(store.load(id).unwrap().unwrap().table.finish().is_some());
}

#[test]
fn an_event_number_taken_twice_is_refused() {
    let mut store = Store::in_memory().unwrap();
    let (id, _, table) = new_game(&mut store, Seat::Friend, Seat::Friend);
    let kinds = table.play(Side::Sheep, "c3", 5).unwrap();
    let event = Event { version: 2, at: 5, kind: kinds[0].clone() };
    store.append(id, std::slice::from_ref(&event), false).unwrap();
    let again = Event { version: 2, at: 6, kind: EventKind::DrawOffer { side: Side::Sheep } };
    assert!(matches!(store.append(id, &[again], false), Err(OnlineError::Database { .. })));
    assert_eq!(store.load(id).unwrap().unwrap().table.version(), 2);
}

#[test]
fn only_a_regular_file_is_opened_and_a_newer_schema_is_refused() {
    let dir = tempdir();
    let refused = Store::open(&dir).unwrap_err();
    assert!(matches!(refused, OnlineError::NotAFile { .. }), "{refused}");
    let path = dir.join("newer.sqlite");
    drop(Store::open(&path).unwrap());
    let db = rusqlite_user_version(&path, 99);
    let refused = Store::open(&path).unwrap_err();
    assert!(matches!(refused, OnlineError::NewerSchema { found: 99, .. }), "{refused} {db:?}");
}

#[test]
fn damaged_events_are_reported_not_replayed() {
    let dir = tempdir();
    let path = dir.join("damaged.sqlite");
    let mut store = Store::open(&path).unwrap();
    let (id, _, mut table) = new_game(&mut store, Seat::Friend, Seat::Friend);
    play(&mut store, &mut table, &["c3"]);
    drop(store);
    sqlite(
        &path,
        &format!("UPDATE events SET body = 'not json' WHERE game = '{id}' AND version = 2"),
    );
    let refused = Store::open(&path).unwrap().load(id).unwrap_err();
    assert!(matches!(refused, OnlineError::BadEvent { version: 2, .. }), "{refused}");
    assert!(std::error::Error::source(&refused).is_some(), "the cause is kept");
}

fn tempdir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tns-online-test-{}-{}",
        std::process::id(),
        GameId::random().unwrap()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `sql` on the database at `path` through a store-less connection.
fn sqlite(path: &std::path::Path, sql: &str) {
    let db = rusqlite::Connection::open(path).unwrap();
    db.execute_batch(sql).unwrap();
}

fn rusqlite_user_version(path: &std::path::Path, version: i64) -> i64 {
    sqlite(path, &format!("PRAGMA user_version = {version}"));
    version
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any game of legal moves, stored as it is played, reads back to the same events and the
    /// same answer.
    #[test]
    fn stored_games_replay_to_the_same_state(choices in proptest::collection::vec(0usize..64, 0..60)) {
        let mut store = Store::in_memory().unwrap();
        let (id, _, mut table) = new_game(&mut store, Seat::Friend, Seat::Friend);
        for (i, choice) in choices.iter().enumerate() {
            let legal = table.game().legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[choice % legal.len()].to_string();
            let at = 100 * (i as u64 + 1);
            let kinds = table.play(table.turn(), &mv, at).unwrap();
            let mut events = Vec::new();
            for kind in kinds {
                events.push(Event { version: table.version() + 1 + events.len() as u64, at, kind });
            }
            store.append(id, &events, events.iter().any(|e| e.kind.ends())).unwrap();
            for event in events {
                table.apply(event).unwrap();
            }
        }
        let back = store.load(id).unwrap().unwrap().table;
        prop_assert_eq!(back.events(), table.events());
        prop_assert_eq!(back.view(1_000_000), table.view(1_000_000));
    }
}
