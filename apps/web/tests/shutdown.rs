//! Stopping the server: a request in flight when SIGTERM comes still gets its answer, then the
//! server exits 0.

#![cfg(unix)]

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn requests_in_flight_finish_then_the_server_exits_0() {
    let mut server = Command::new(env!("CARGO_BIN_EXE_tns-web"))
        .args(["--addr", "127.0.0.1:0", "--max-move-time", "1.5", "--database"])
        .arg(std::env::temp_dir().join(format!("tns-web-shutdown-{}.sqlite", std::process::id())))
        .stdout(Stdio::piped())
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
    // A move from the heuristic, searching for its whole time.
    let mut stream = TcpStream::connect(&addr).unwrap();
    write!(
        stream,
        "GET /api/v1/move?moves=c3&player=heuristic HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    let killed = Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("\"move\":"), "{response}");
    // It answered after the signal, having searched on: the answer was not cut short.
    assert!(sent.elapsed() > Duration::from_millis(500), "{:?}", sent.elapsed());
    let status = server.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    assert!(rest.contains("stopped"), "{rest}");
    // New connections are refused once it has gone.
    assert!(TcpStream::connect(&addr).is_err());
}
