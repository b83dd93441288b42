//! Online games through the API, in-process over real HTTP: every route and every refusal of
//! docs/online.md, the events and their numbers, the server's own players, clocks and expiry.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tns_web::{
    Analyst, AppState, ConnectionLimits, Games, OnlineLimits, OnlineSettings, RequestLimits,
    SearchBudget, router,
};

fn settings() -> OnlineSettings {
    OnlineSettings {
        abandon: Duration::from_millis(300),
        expire: Duration::from_secs(3600),
        rematch_window: Duration::from_secs(2),
        ..OnlineSettings::default()
    }
}

fn limits() -> OnlineLimits {
    OnlineLimits { games_per_minute: 1000, actions_per_second: 1000 }
}

/// A server keeping its games in memory, as the program runs it.
fn server_with(settings: OnlineSettings, limits: OnlineLimits) -> SocketAddr {
    let analyst = Analyst {
        table: None,
        budget: SearchBudget {
            position: Duration::from_millis(20),
            per_move: Duration::from_millis(2),
        },
    };
    let requests = RequestLimits {
        max_move_time: Duration::from_millis(30),
        max_line_time: Duration::from_secs(5),
        searches: 2,
    };
    let mut state = AppState::new(analyst, requests);
    state.keep_games(Games::new(tns_online::Store::in_memory().unwrap(), settings), limits);
    let state = Arc::new(state);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            tns_web::start_online(&state).await.unwrap();
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let limits = ConnectionLimits::default();
            tns_web::serve(listener, router(state), limits, std::future::pending()).await.unwrap();
        });
    });
    rx.recv().unwrap()
}

fn server() -> SocketAddr {
    server_with(settings(), limits())
}

/// `method path` with an optional token and body: the status and the JSON answer.
fn call(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).unwrap();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: localhost:1\r\n{auth}Content-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    let value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{path}: {e}: {response}"));
    (status, value)
}

fn create(addr: SocketAddr, body: &Value) -> (u16, Value) {
    call(addr, "POST", "/api/v1/games", None, &body.to_string())
}

/// A friend-against-friend game: its id and the two tokens.
fn friends(addr: SocketAddr, clock: Option<&str>) -> (String, String, String) {
    let mut asked = json!({"sheep": "friend", "tigers": "friend"});
    if let Some(clock) = clock {
        asked["clock"] = json!(clock);
    }
    let (status, v) = create(addr, &asked);
    assert_eq!(status, 201, "{v}");
    let token = |side: &str| v["seats"][side]["token"].as_str().unwrap().to_string();
    (v["id"].as_str().unwrap().to_string(), token("sheep"), token("tigers"))
}

fn play(addr: SocketAddr, id: &str, token: &str, mv: &str) -> (u16, Value) {
    let body = json!({ "move": mv }).to_string();
    call(addr, "POST", &format!("/api/v1/games/{id}/move"), Some(token), &body)
}

fn act(addr: SocketAddr, id: &str, token: Option<&str>, action: &str) -> (u16, Value) {
    call(addr, "POST", &format!("/api/v1/games/{id}/{action}"), token, "")
}

fn game(addr: SocketAddr, id: &str) -> Value {
    let (status, v) = call(addr, "GET", &format!("/api/v1/games/{id}"), None, "");
    assert_eq!(status, 200, "{v}");
    v
}

/// Opens game `id`'s stream from `since`: the reader of its JSON lines (chunked).
fn stream(addr: SocketAddr, id: &str, since: u64) -> BufReader<TcpStream> {
    let stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut writer = stream.try_clone().unwrap();
    write!(
        writer,
        "GET /api/v1/games/{id}/stream?since={since} HTTP/1.1\r\nHost: localhost\r\n\r\n"
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        if line == "\r\n" {
            return reader;
        }
    }
}

/// The stream's next event, chunked framing removed and keepalives skipped; `None` at its end.
fn next_event(reader: &mut BufReader<TcpStream>) -> Option<Value> {
    loop {
        let mut size = String::new();
        reader.read_line(&mut size).unwrap();
        let size = usize::from_str_radix(size.trim(), 16).unwrap();
        if size == 0 {
            return None;
        }
        let mut chunk = vec![0; size + 2];
        reader.read_exact(&mut chunk).unwrap();
        let text = std::str::from_utf8(&chunk[..size]).unwrap().trim();
        let v: Value = serde_json::from_str(text).unwrap();
        if v != json!({}) {
            return Some(v);
        }
    }
}

fn page_status(addr: SocketAddr, path: &str) -> u16 {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.contains("<!doctype html>"), "{response}");
    response[9..12].parse().unwrap()
}

#[test]
fn a_game_is_created_with_a_seat_for_each_friend() {
    let addr = server();
    let (status, v) = create(addr, &json!({"sheep": "friend", "tigers": "easy", "clock": "5+3"}));
    assert_eq!(status, 201, "{v}");
    let id = v["id"].as_str().unwrap();
    assert_eq!(id.len(), 10);
    let token = v["seats"]["sheep"]["token"].as_str().unwrap();
    assert_eq!(token.len(), 32);
    assert!(token.chars().all(|c| c.is_ascii_hexdigit()));
    assert!(v["seats"]["tigers"].is_null(), "the server's side has no seat: {v}");
    assert_eq!(v["watch"], format!("http://localhost:1/play/{id}"));
    assert_eq!(v["seats"]["sheep"]["url"], format!("http://localhost:1/play/{id}#{token}"));
    let g = game(addr, id);
    assert_eq!((g["sheep"].as_str(), g["tigers"].as_str()), (Some("friend"), Some("easy")));
    assert_eq!(g["moves"], json!([]));
    assert_eq!(g["position"], "T3T/5/5/5/T3T s 20");
    assert_eq!(g["turn"], "sheep");
    assert!(g["result"].is_null());
    assert_eq!(g["version"], 1);
    let clock = json!({"control": "5+3", "sheep": 300_000, "tigers": 300_000, "running": null});
    assert_eq!(g["clock"], clock);
    // The watch link is the page.
    assert_eq!(page_status(addr, &format!("/play/{id}")), 200);
}

#[test]
fn bad_new_games_are_refused_with_their_reason() {
    let addr = server();
    let two_levels = json!({"sheep": "easy", "tigers": "medium"});
    let unknown = json!({"sheep": "friend", "tigers": "grandmaster"});
    let program = json!({"sheep": "friend", "tigers": "cmd:./engine"});
    let periods = json!({"sheep": "friend", "tigers": "friend", "clock": "40/5+3"});
    let soon = json!({"sheep": "friend", "tigers": "friend", "clock": "soon"});
    let colour = json!({"sheep": "friend", "tigers": "friend", "colour": "red"});
    for (body, status, says) in [
        (two_levels.to_string(), 422, "at least one side is `friend`"),
        (unknown.to_string(), 422, "unknown player \"grandmaster\""),
        (program.to_string(), 422, "unknown player"),
        (periods.to_string(), 422, "bad clock"),
        (soon.to_string(), 422, "bad clock"),
        (json!({"sheep": "friend"}).to_string(), 400, "missing field `tigers`"),
        (colour.to_string(), 400, "unknown field"),
        ("{not json".to_string(), 400, "bad request body"),
        (format!("{{\"sheep\": \"{}\"}}", "x".repeat(5000)), 413, "more than the 4096 bytes"),
    ] {
        let (got, v) = call(addr, "POST", "/api/v1/games", None, &body);
        assert_eq!(got, status, "{body:.80}: {v}");
        let error = v["error"].as_str().unwrap();
        assert!(error.contains(says), "{body:.80}: {error}");
    }
}

#[test]
fn only_a_seats_token_moves_its_side_in_its_turn() {
    let addr = server();
    let (id, sheep, tigers) = friends(addr, None);
    let (_, _, stranger) = friends(addr, None);
    let path = format!("/api/v1/games/{id}/move");
    let body = r#"{"move": "c3"}"#;
    for (token, says) in [
        (None, "this needs the seat's token"),
        (Some(stranger.as_str()), "this token holds no seat in this game"),
        (Some("not-a-token"), "the Authorization header is `Bearer`"),
    ] {
        let (status, v) = call(addr, "POST", &path, token, body);
        assert_eq!(status, 401, "{v}");
        assert!(v["error"].as_str().unwrap().contains(says), "{v}");
    }
    let (status, v) = play(addr, &id, &tigers, "a5b4");
    assert_eq!((status, v["error"].as_str()), (409, Some("it is the sheep' turn")), "{v}");
    let (status, v) = play(addr, &id, &sheep, "a5");
    assert_eq!(status, 422, "{v}");
    assert_eq!(v["error"], "a5 is not legal in T3T/5/5/5/T3T s 20");
    let (status, v) = play(addr, &id, &sheep, "banana");
    assert_eq!(status, 422, "{v}");
    // Asked with a token, the game says which side it plays.
    let path_game = format!("/api/v1/games/{id}");
    assert_eq!(call(addr, "GET", &path_game, Some(&tigers), "").1["you"], "tigers");
    assert!(call(addr, "GET", &path_game, None, "").1.get("you").is_none());
    assert_eq!(call(addr, "GET", &path_game, Some(&stranger), "").0, 401);
    let (status, v) = play(addr, &id, &sheep, "c3");
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (&v["moves"], &v["turn"], &v["version"]),
        (&json!(["c3"]), &json!("tigers"), &json!(2))
    );
    let (status, v) = play(addr, &id, &tigers, "a5b4");
    assert_eq!(status, 200, "{v}");
    let (status, v) = call(addr, "POST", &path, Some(&sheep), r#"{"mv": "b5"}"#);
    assert_eq!(status, 400, "{v}");
    let (status, v) = call(addr, "GET", "/api/v1/games/zzzzzzzzzz", None, "");
    assert_eq!((status, v["error"].as_str()), (404, Some("no game \"zzzzzzzzzz\"")));
    let (status, _) = play(addr, "not-an-id", &sheep, "b5");
    assert_eq!(status, 404);
    // Resigned: over, and nothing more moves.
    let (status, v) = act(addr, &id, Some(&sheep), "resign");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["result"], json!({"winner": "tigers", "reason": "resignation"}));
    let (status, v) = play(addr, &id, &sheep, "b5");
    assert_eq!(status, 409, "{v}");
    assert_eq!(v["error"], "the game is over: tigers win (resignation)");
    let (status, _) = act(addr, &id, Some(&tigers), "resign");
    assert_eq!(status, 409);
}

#[test]
fn a_draw_is_offered_and_accepted() {
    let addr = server();
    let (id, sheep, tigers) = friends(addr, None);
    let (status, v) = act(addr, &id, Some(&sheep), "draw");
    assert_eq!((status, v["draw_offer"].as_str()), (200, Some("sheep")), "{v}");
    let (status, v) = act(addr, &id, Some(&sheep), "draw");
    assert_eq!(status, 409, "{v}");
    let (status, v) = act(addr, &id, Some(&tigers), "draw");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["result"], json!({"winner": null, "reason": "agreement"}));
}

#[test]
fn the_win_is_claimed_once_the_opponent_is_gone() {
    let addr = server();
    let (id, sheep, _) = friends(addr, None);
    // The tigers' seat was never here; the server's `--abandon` is 300 ms in this test.
    let (status, v) = act(addr, &id, Some(&sheep), "claim");
    assert_eq!(status, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("you may claim in 1 s"), "{v}");
    std::thread::sleep(Duration::from_millis(400));
    let (status, v) = act(addr, &id, Some(&sheep), "claim");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["result"], json!({"winner": "sheep", "reason": "abandoned"}));
}

#[test]
fn a_rematch_swaps_the_sides_and_keeps_the_tokens() {
    let addr = server();
    let (id, sheep, tigers) = friends(addr, Some("3+2"));
    let (status, _) = act(addr, &id, Some(&sheep), "rematch");
    assert_eq!(status, 409, "not before the end");
    act(addr, &id, Some(&tigers), "resign");
    let (status, v) = act(addr, &id, Some(&sheep), "rematch");
    assert_eq!((status, v["rematch_offer"].as_str()), (200, Some("sheep")), "{v}");
    let (status, v) = act(addr, &id, Some(&tigers), "rematch");
    assert_eq!(status, 200, "{v}");
    let new = v["rematch"].as_str().unwrap().to_string();
    let g = game(addr, &new);
    assert_eq!(g["clock"]["control"], "3+2");
    // The tigers' player now has the sheep, and moves them with the same token.
    let (status, v) = play(addr, &new, &sheep, "c3");
    assert_eq!(status, 409, "{v}");
    let (status, v) = play(addr, &new, &tigers, "c3");
    assert_eq!(status, 200, "{v}");
    let (status, _) = act(addr, &id, Some(&tigers), "rematch");
    assert_eq!(status, 409, "made once");
}

#[test]
fn the_stream_sends_what_was_missed_then_each_event_live_then_ends() {
    let addr = server();
    let (id, sheep, tigers) = friends(addr, None);
    play(addr, &id, &sheep, "c3");
    play(addr, &id, &tigers, "a5b4");
    let mut all = stream(addr, &id, 0);
    let versions: Vec<u64> =
        (0..3).map(|_| next_event(&mut all).unwrap()["version"].as_u64().unwrap()).collect();
    assert_eq!(versions, [1, 2, 3]);
    // A client that saw 2 gets exactly 3, then what comes.
    let mut rest = stream(addr, &id, 2);
    let third = next_event(&mut rest).unwrap();
    let seen = (third["version"].as_u64(), third["type"].as_str(), third["move"].as_str());
    assert_eq!(seen, (Some(3), Some("move"), Some("a5b4")));
    play(addr, &id, &sheep, "b5");
    for reader in [&mut all, &mut rest] {
        let live = next_event(reader).unwrap();
        assert_eq!((live["version"].as_u64(), live["side"].as_str()), (Some(4), Some("sheep")));
    }
    act(addr, &id, Some(&tigers), "resign");
    let end = next_event(&mut rest).unwrap();
    assert_eq!(end["type"], "end");
    assert_eq!(end["result"], json!({"winner": "sheep", "reason": "resignation"}));
    // Then, the rematch window of this server (2 s) passed with no rematch, it ends.
    assert_eq!(next_event(&mut rest), None);
    let (status, v) = call(addr, "GET", &format!("/api/v1/games/{id}/stream?since=9"), None, "");
    assert_eq!(status, 400, "{v}");
    let says = "since must be at most the game's last event, 5";
    assert!(v["error"].as_str().unwrap().contains(says), "{v}");
}

#[test]
fn the_servers_player_answers_each_move_on_the_stream() {
    let addr = server();
    let (status, v) = create(addr, &json!({"sheep": "friend", "tigers": "easy"}));
    assert_eq!(status, 201);
    let id = v["id"].as_str().unwrap();
    let token = v["seats"]["sheep"]["token"].as_str().unwrap();
    let mut events = stream(addr, id, 1);
    for mv in ["c3", "c2", "c4", "d3", "b3"] {
        let (status, v) = play(addr, id, token, mv);
        if status == 422 {
            continue; // a tiger stands there
        }
        assert_eq!(status, 200, "{v}");
        let ours = next_event(&mut events).unwrap();
        assert_eq!(ours["side"], "sheep");
        let reply = next_event(&mut events).unwrap();
        let seen = (reply["type"].as_str(), reply["side"].as_str());
        assert_eq!(seen, (Some("move"), Some("tigers")), "after {mv}: {reply}");
    }
    // The server's player moves first when it has the sheep.
    let (_, v) = create(addr, &json!({"sheep": "easy", "tigers": "friend"}));
    let id = v["id"].as_str().unwrap();
    let mut events = stream(addr, id, 1);
    let first = next_event(&mut events).unwrap();
    let seen = (first["side"].as_str(), first["version"].as_u64());
    assert_eq!(seen, (Some("sheep"), Some(2)), "{first}");
}

#[test]
fn a_flag_falls_on_the_server_whoever_is_connected() {
    let addr = server();
    let (id, sheep, tigers) = friends(addr, Some("1s+0"));
    play(addr, &id, &sheep, "c3");
    play(addr, &id, &tigers, "a5b4");
    let started = Instant::now();
    // Nobody moves: the keeper ends it within its quarter second of the flag.
    let result = loop {
        let g = game(addr, &id);
        if !g["result"].is_null() {
            break g;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "no flag: {g}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(result["result"], json!({"winner": "tigers", "reason": "time forfeit"}));
    assert_eq!(result["clock"]["sheep"], 0);
    assert!(result["clock"]["running"].is_null());
}

#[test]
fn a_game_nobody_plays_expires() {
    let expiring = OnlineSettings { expire: Duration::from_millis(300), ..settings() };
    let addr = server_with(expiring, limits());
    let (id, _, _) = friends(addr, None);
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(game(addr, &id)["result"], json!({"winner": null, "reason": "expired"}));
}

#[test]
fn an_address_that_asks_too_often_waits() {
    let strict = OnlineLimits { games_per_minute: 2, actions_per_second: 3 };
    let addr = server_with(settings(), strict);
    let (id, sheep, _) = friends(addr, None);
    friends(addr, None);
    let (status, v) = create(addr, &json!({"sheep": "friend", "tigers": "friend"}));
    assert_eq!(status, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("at most 2 new games a minute"), "{v}");
    let statuses: Vec<u16> = (0..5).map(|_| act(addr, &id, Some(&sheep), "draw").0).collect();
    assert_eq!(statuses[..3], [200, 409, 409], "{statuses:?}");
    assert!(statuses[3..].iter().all(|s| *s == 429), "{statuses:?}");
}
