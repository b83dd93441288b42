//! A real server killed with -9 in the middle of a game and started again on the same
//! database: every acknowledged move is there, the clocks go on charging only the time the
//! server was up, and the game plays on. Nothing either run wrote names a seat's token.

#![cfg(unix)]

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Starts the server on `database`: the process and its address.
fn start(database: &Path) -> (Child, String) {
    let mut server = Command::new(env!("CARGO_BIN_EXE_tns-web"))
        .args(["--listen", "127.0.0.1:0", "--database"])
        .arg(database)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(server.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    server.stdout = Some(out.into_inner());
    (server, addr)
}

fn call(addr: &str, method: &str, path: &str, token: Option<&str>, body: &str) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).unwrap();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {response}")))
}

fn play(addr: &str, id: &str, token: &str, mv: &str) -> Value {
    let body = json!({ "move": mv }).to_string();
    let (status, v) = call(addr, "POST", &format!("/api/v1/games/{id}/move"), Some(token), &body);
    assert_eq!(status, 200, "{mv}: {v}");
    v
}

/// What a process wrote, once it has ended.
fn output(mut server: Child) -> String {
    let mut text = String::new();
    server.stdout.take().unwrap().read_to_string(&mut text).unwrap();
    server.stderr.take().unwrap().read_to_string(&mut text).unwrap();
    server.wait().unwrap();
    text
}

#[test]
fn a_server_killed_mid_game_goes_on_with_every_move_and_its_clocks() {
    let dir = std::env::temp_dir().join(format!("tns-web-restart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let database = dir.join("games.sqlite");
    let _ = std::fs::remove_file(&database);

    let (mut server, addr) = start(&database);
    let asked = json!({"sheep": "friend", "tigers": "friend", "clock": "10+0"}).to_string();
    let (status, created) = call(&addr, "POST", "/api/v1/games", None, &asked);
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let sheep = created["seats"]["sheep"]["token"].as_str().unwrap().to_string();
    let tigers = created["seats"]["tigers"]["token"].as_str().unwrap().to_string();
    play(&addr, &id, &sheep, "c3");
    play(&addr, &id, &tigers, "a5b4");
    let before = play(&addr, &id, &sheep, "b5");
    // The tigers think for a second and a half, then the server dies without a word.
    std::thread::sleep(Duration::from_millis(1500));
    server.kill().unwrap();
    let killed_at = Instant::now();
    let first_run = output(server);
    // Down for three seconds: not the tigers' time.
    std::thread::sleep(Duration::from_secs(3));

    let (server, addr) = start(&database);
    let down = killed_at.elapsed();
    let (status, after) = call(&addr, "GET", &format!("/api/v1/games/{id}"), None, "");
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["moves"], before["moves"], "every acknowledged move is there");
    assert_eq!(after["version"], 5, "the moves, then the restart's clock event: {after}");
    let tigers_left = after["clock"]["tigers"].as_u64().unwrap();
    // Charged up to the last heartbeat (at most a second before the kill): 1.5 s thought, so
    // between 0.5 and 1.5 s (and a little for this test's own requests), never the downtime.
    let charged = 600_000 - tigers_left;
    assert!((400..2_500).contains(&charged), "charged {charged} ms, down {down:?}: {after}");
    assert_eq!(after["clock"]["running"], "tigers");
    // The stream from the start has every event, numbered without a gap.
    let mut stream = TcpStream::connect(&addr).unwrap();
    write!(stream, "GET /api/v1/games/{id}/stream?since=0 HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut reader = BufReader::new(stream);
    let mut versions = Vec::new();
    let mut line = String::new();
    while versions.len() < 5 {
        line.clear();
        reader.read_line(&mut line).unwrap();
        if let Ok(event) = serde_json::from_str::<Value>(line.trim())
            && let Some(v) = event["version"].as_u64()
        {
            versions.push(v);
        }
    }
    assert_eq!(versions, [1, 2, 3, 4, 5]);
    // The game plays on.
    let on = play(&addr, &id, &tigers, "b4a5");
    assert_eq!(on["version"], 6);
    let mut server = server;
    server.kill().unwrap();
    let second_run = output(server);
    for token in [&sheep, &tigers] {
        assert!(!first_run.contains(token.as_str()), "the first run wrote a token: {first_run}");
        assert!(!second_run.contains(token.as_str()), "the second run wrote a token: {second_run}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
