//! `tns-bench online-load`: a load test of `tns-web`'s online games on this machine. So many
//! friend-against-friend games at once, each with its two players: each player follows its
//! seat's stream (with its token, so the stream counts as the seat being there) and, when its
//! side is to move, posts a random legal move on a kept-alive connection. Measured: the time from
//! a move's `POST` to the opponent's stream showing it, the `POST`'s own answer time, the
//! events lost or seen twice, the errors, and with `--server-pid` the server's memory.
//!
//! With `--acks FILE` every acknowledged move is written down as it is answered, and
//! `--verify FILE` checks later (after the server was killed and started again) that the
//! server still has each of them, at its number.
//!
//! A game stops after `--moves-per-game` plies (the player to move then resigns, so that the
//! game ends and leaves the server's memory) or at its natural end; a new game then starts in
//! its place, so that `--games` stay live until the time limit.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::Write as _;
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use rand::rngs::StdRng;
use rand::{RngExt as _, SeedableRng as _};
use serde_json::Value;
use tns_board::{Game, Move, Side};

use crate::http_reader::{Chunked, HttpReader};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The server, on this machine only: `127.0.0.1:PORT`, `localhost:PORT` or `[::1]:PORT`.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Games live at once, each with its two players (two threads, four connections).
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=5000))]
    games: u32,
    /// Seconds of load; then the players stop moving and read what is left of their streams.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    time_limit: u64,
    /// The seed of the players' moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plies after which a game stops (its player to move resigns) and a new one takes its place.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    moves_per_game: u32,
    /// Milliseconds each player waits before each of its moves (a person's pace); 0 moves as
    /// soon as its turn is shown.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    think: u64,
    /// Appends each acknowledged move to this file as it is answered: `GAME VERSION MOVE`.
    #[arg(long, value_name = "FILE")]
    acks: Option<PathBuf>,
    /// The server's process: its memory (`VmRSS`) is sampled every second.
    #[arg(long, value_name = "PID")]
    server_pid: Option<u32>,
    /// The server is killed and restarted during the load: connection errors are counted and
    /// reported, not failures (lost or doubled events and other errors still are).
    #[arg(long)]
    restarts: bool,
    /// Instead of a load: checks that the server has every move of an acks file, at its number.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["acks", "server_pid", "restarts"])]
    verify: Option<PathBuf>,
}

/// The longest line of a stream read: an event is a few hundred bytes.
const LINE_LIMIT: usize = 64 * 1024;
/// The largest answer read: a game's JSON.
const BODY_LIMIT: usize = 1 << 20;
/// How long a stream read waits before the player looks at the clock again.
const STREAM_POLL: Duration = Duration::from_millis(200);
/// How long a request waits for its answer.
const ANSWER_TIME: Duration = Duration::from_secs(10);
/// A kept-alive connection idle for longer is made again: the server drops idle ones (10 s).
const IDLE: Duration = Duration::from_secs(5);
/// After the time limit, how long the players read on for the moves already acknowledged.
const GRACE: Duration = Duration::from_secs(5);
/// The wait before trying again after a connection failed.
const RETRY: Duration = Duration::from_millis(100);
/// A player thread's stack: it holds a board, a few buffers and JSON.
const STACK: usize = 256 * 1024;

/// The server's address, refused unless it is on this machine.
fn loopback(addr: &str) -> anyhow::Result<SocketAddr> {
    addr.to_socket_addrs()
        .with_context(|| format!("--addr {addr}"))?
        .find(|a| a.ip().is_loopback())
        .with_context(|| format!("--addr {addr}: not a loopback address (127.0.0.1, ::1)"))
}

/// Why a request got no answer, or what answer.
#[derive(Debug)]
enum Failure {
    /// The connection failed (refused, reset, closed, timed out).
    Connection(std::io::Error),
    /// An answer other than the one expected.
    Status(u16, String),
    /// Something else: a bad answer or line (its kind first), a file, a thread.
    Other(&'static str, String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Connection(e) => write!(f, "the connection failed: {e}"),
            Failure::Status(status, body) => write!(f, "status {status}: {body}"),
            Failure::Other(_, why) => f.write_str(why),
        }
    }
}

/// A kept-alive connection for requests with a whole answer.
struct Conn {
    addr: SocketAddr,
    open: Option<(TcpStream, HttpReader<TcpStream>, Instant)>,
}

impl Conn {
    fn new(addr: SocketAddr) -> Conn {
        Conn { addr, open: None }
    }

    fn connect(addr: SocketAddr, timeout: Duration) -> std::io::Result<TcpStream> {
        let stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(timeout))?;
        stream.set_write_timeout(Some(timeout))?;
        Ok(stream)
    }

    /// One request; the answer's status and body. A failed connection is dropped (the next
    /// request makes another).
    fn request(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> Result<(u16, Vec<u8>), Failure> {
        if self.open.as_ref().is_some_and(|(_, _, used)| used.elapsed() > IDLE) {
            self.open = None;
        }
        let result = self.try_request(method, path, token, body);
        match &result {
            Ok(_) => {
                if let Some((_, _, used)) = &mut self.open {
                    *used = Instant::now();
                }
            }
            Err(_) => self.open = None,
        }
        result.map_err(Failure::Connection)
    }

    fn try_request(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> std::io::Result<(u16, Vec<u8>)> {
        if self.open.is_none() {
            let stream = Conn::connect(self.addr, ANSWER_TIME)?;
            let reader = HttpReader::new(stream.try_clone()?);
            self.open = Some((stream, reader, Instant::now()));
        }
        let Some((stream, reader, _)) = &mut self.open else { unreachable!() };
        let body = body.unwrap_or("");
        let authorization = token.map(|t| format!("Authorization: Bearer {t}\r\n"));
        let length = (method == "POST").then(|| {
            format!("Content-Type: application/json\r\nContent-Length: {}\r\n", body.len())
        });
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: localhost\r\n{}{}\r\n{body}",
            authorization.unwrap_or_default(),
            length.unwrap_or_default()
        );
        stream.write_all(request.as_bytes())?;
        let head = reader.head()?;
        let body = reader.body(head, BODY_LIMIT)?;
        Ok((head.status, body))
    }
}

/// A request whose answer must have `want` as its status, read as JSON.
fn expect(
    conn: &mut Conn,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
    want: u16,
) -> Result<Value, Failure> {
    let (status, answer) = conn.request(method, path, token, body)?;
    let text = String::from_utf8_lossy(&answer);
    if status != want {
        return Err(Failure::Status(status, text.chars().take(200).collect()));
    }
    serde_json::from_str(&text)
        .map_err(|e| Failure::Other("bad answer", format!("not JSON ({e}): {text:.200}")))
}

/// A game's stream, open.
struct Stream {
    _socket: TcpStream,
    reader: HttpReader<TcpStream>,
    chunks: Chunked,
}

impl Stream {
    /// Opens game `id`'s stream after event `since`, as `token`'s seat when given.
    fn open(
        addr: SocketAddr,
        id: &str,
        since: u64,
        token: Option<&str>,
    ) -> Result<Stream, Failure> {
        let open = || -> std::io::Result<(TcpStream, HttpReader<TcpStream>, u16, Vec<u8>)> {
            let mut socket = Conn::connect(addr, ANSWER_TIME)?;
            let authorization = token.map(|t| format!("Authorization: Bearer {t}\r\n"));
            let request = format!(
                "GET /api/v1/games/{id}/stream?since={since} HTTP/1.1\r\nHost: localhost\r\n{}\r\n",
                authorization.unwrap_or_default()
            );
            socket.write_all(request.as_bytes())?;
            let mut reader = HttpReader::new(socket.try_clone()?);
            let head = reader.head()?;
            let body =
                if head.status == 200 { Vec::new() } else { reader.body(head, BODY_LIMIT)? };
            socket.set_read_timeout(Some(STREAM_POLL))?;
            Ok((socket, reader, head.status, body))
        };
        let (socket, reader, status, body) = open().map_err(Failure::Connection)?;
        if status != 200 {
            return Err(Failure::Status(
                status,
                String::from_utf8_lossy(&body).chars().take(200).collect(),
            ));
        }
        Ok(Stream { _socket: socket, reader, chunks: Chunked::default() })
    }

    /// The next line; `Ok(None)` at the stream's end; a timeout error when none came in time.
    fn line(&mut self) -> std::io::Result<Option<String>> {
        self.chunks.next_line(&mut self.reader, LINE_LIMIT)
    }
}

/// Whether an I/O error is a timeout (the kind differs between systems).
fn is_timeout(e: &std::io::Error) -> bool {
    matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut)
}

/// What a stream said of its numbering: each event's number must be the one after the last.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Numbering {
    /// The last number seen.
    last: u64,
    /// Events skipped: numbers never seen.
    lost: u64,
    /// Events seen again: numbers at or below the last.
    twice: u64,
}

impl Numbering {
    /// Takes event `version`; whether it is new (not seen before).
    fn see(&mut self, version: u64) -> bool {
        if version <= self.last {
            self.twice += 1;
            return false;
        }
        self.lost += version - self.last - 1;
        self.last = version;
        true
    }
}

#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "an index into the list, from a fraction of its length"
)]
fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// One line of percentiles in milliseconds.
fn percentiles(latencies: &mut [Duration]) -> String {
    latencies.sort_unstable();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    format!(
        "p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} measured)",
        ms(percentile(latencies, 0.5)),
        ms(percentile(latencies, 0.9)),
        ms(percentile(latencies, 0.99)),
        ms(latencies.last().copied().unwrap_or_default()),
        latencies.len()
    )
}

/// What the players saw; summed over them at the end.
#[derive(Debug, Default)]
struct Seen {
    games: u64,
    acked: u64,
    /// From a move's `POST` to the opponent's stream showing it.
    latencies: Vec<Duration>,
    /// The `POST`'s answer.
    answers: Vec<Duration>,
    lost: u64,
    twice: u64,
    /// Acknowledged moves the opponent's stream had not shown by the end.
    unseen: u64,
    /// Failures by kind: `connection`, `status 409`...
    errors: BTreeMap<String, u64>,
    first_error: Option<String>,
}

impl Seen {
    fn fail(&mut self, what: &str, failure: &Failure) {
        let kind = match failure {
            Failure::Connection(_) => "connection".to_owned(),
            Failure::Status(status, _) => format!("status {status}"),
            Failure::Other(kind, _) => (*kind).to_owned(),
        };
        *self.errors.entry(kind).or_default() += 1;
        self.first_error.get_or_insert_with(|| format!("{what}: {failure}"));
    }

    fn add(&mut self, other: Seen) {
        self.games += other.games;
        self.acked += other.acked;
        self.latencies.extend(other.latencies);
        self.answers.extend(other.answers);
        self.lost += other.lost;
        self.twice += other.twice;
        self.unseen += other.unseen;
        for (kind, n) in other.errors {
            *self.errors.entry(kind).or_default() += n;
        }
        if self.first_error.is_none() {
            self.first_error = other.first_error;
        }
    }
}

/// What the whole load shares.
struct Load {
    addr: SocketAddr,
    until: Instant,
    /// The wait before each move.
    think: Duration,
    moves_per_game: usize,
    acks: Option<Mutex<File>>,
}

/// One game, shared by its two players.
struct Match {
    id: String,
    /// The number of the move last posted, and when its `POST` was sent.
    sent: Mutex<(u64, Instant)>,
    /// The highest number of a move acknowledged.
    acked: AtomicU64,
    /// How many of the two players have stopped moving (the time is up): once both have, no
    /// move is in flight and each stream must show every acknowledged one.
    stopped: AtomicU64,
}

/// A side's name in the API.
fn side_name(side: Side) -> &'static str {
    match side {
        Side::Sheep => "sheep",
        Side::Tiger => "tigers",
    }
}

/// One player of one game, until the game ends or the time is up.
#[expect(clippy::too_many_lines, reason = "one player's loop, read from top to bottom")]
fn player(load: &Load, game: &Match, side: Side, token: &str, rng: &mut StdRng) -> Seen {
    let mut seen = Seen::default();
    let mut board = Game::new();
    let mut numbering = Numbering::default();
    let mut stream: Option<Stream> = None;
    let mut poster = Conn::new(load.addr);
    // The number of the last event when this player last acted: it acts once a turn.
    let mut acted_at: Option<u64> = None;
    // A `POST` failed without an answer: whether it was committed is not known.
    let mut unsure = false;
    let mut over = false;
    // The time is up and this player has said so to the other.
    let mut stopped = false;
    let wait = |seen: &mut Seen, what: &str, failure: &Failure| {
        seen.fail(what, failure);
        std::thread::sleep(RETRY);
    };
    loop {
        let now = Instant::now();
        let late = now >= load.until;
        if late && !stopped {
            stopped = true;
            game.stopped.fetch_add(1, Ordering::AcqRel);
        }
        let caught_up = game.stopped.load(Ordering::Acquire) == 2
            && numbering.last >= game.acked.load(Ordering::Acquire);
        if over || now >= load.until + GRACE || (late && caught_up) {
            break;
        }
        if stream.is_none() {
            match Stream::open(load.addr, &game.id, numbering.last, Some(token)) {
                Ok(s) => stream = Some(s),
                Err(failure) => {
                    wait(&mut seen, "opening a stream", &failure);
                    continue;
                }
            }
        }
        if unsure && !late {
            match expect(&mut poster, "GET", &format!("/api/v1/games/{}", game.id), None, None, 200)
            {
                Ok(view) => {
                    unsure = false;
                    let version = view["version"].as_u64().unwrap_or(0);
                    // Committed after all: the stream will show it. Else this turn is still to play.
                    if version <= numbering.last {
                        acted_at = None;
                    }
                }
                Err(failure) => {
                    wait(&mut seen, "reading the game after a failed move", &failure);
                    continue;
                }
            }
        }
        let my_turn = board.board().side_to_move() == side && board.outcome().is_none();
        // Not before the stream has shown the game's creation: the numbers start there.
        if my_turn && !late && numbering.last > 0 && acted_at != Some(numbering.last) {
            acted_at = Some(numbering.last);
            let path = format!("/api/v1/games/{}", game.id);
            if board.len() >= load.moves_per_game {
                if let Err(failure) =
                    expect(&mut poster, "POST", &format!("{path}/resign"), Some(token), None, 200)
                {
                    unsure = matches!(failure, Failure::Connection(_));
                    wait(&mut seen, "resigning", &failure);
                }
            } else {
                if !load.think.is_zero() {
                    std::thread::sleep(load.think);
                }
                let moves = board.legal_moves();
                let mv = moves[rng.random_range(0..moves.len())].to_string();
                let body = format!("{{\"move\":\"{mv}\"}}");
                let version = numbering.last + 1;
                let sent = Instant::now();
                *game.sent.lock().unwrap_or_else(std::sync::PoisonError::into_inner) =
                    (version, sent);
                match expect(
                    &mut poster,
                    "POST",
                    &format!("{path}/move"),
                    Some(token),
                    Some(&body),
                    200,
                ) {
                    Ok(view) => {
                        seen.answers.push(sent.elapsed());
                        let answered = view["version"].as_u64().unwrap_or(0);
                        let last =
                            view["moves"].as_array().and_then(|m| m.last()).and_then(Value::as_str);
                        // The answer is the game with this move last, whatever came after it
                        // (the end it made).
                        let at = if last == Some(mv.as_str()) { version } else { answered };
                        seen.acked += 1;
                        game.acked.fetch_max(at, Ordering::AcqRel);
                        if let Some(file) = &load.acks {
                            let line = format!("{} {at} {mv}\n", game.id);
                            let mut file =
                                file.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                            if let Err(e) =
                                file.write_all(line.as_bytes()).and_then(|()| file.flush())
                            {
                                seen.fail(
                                    "writing --acks",
                                    &Failure::Other("acks file", e.to_string()),
                                );
                            }
                        }
                    }
                    Err(failure) => {
                        unsure = matches!(failure, Failure::Connection(_));
                        if !unsure {
                            // Refused: look again, after the stream caught up.
                            acted_at = None;
                        }
                        wait(&mut seen, "moving", &failure);
                    }
                }
            }
        }
        let Some(open) = &mut stream else { continue };
        match open.line() {
            Ok(Some(line)) => {
                let Ok(event) = serde_json::from_str::<Value>(&line) else {
                    seen.fail(
                        "a stream's line",
                        &Failure::Other("bad event", format!("not JSON: {line:.200}")),
                    );
                    continue;
                };
                let Some(version) = event["version"].as_u64() else { continue };
                if !numbering.see(version) {
                    continue;
                }
                match event["type"].as_str() {
                    Some("move") => {
                        let text = event["move"].as_str().unwrap_or("");
                        match text.parse::<Move>() {
                            Ok(mv) if board.is_legal(mv) => board.play_unchecked(mv),
                            _ => {
                                seen.fail(
                                    "a stream's move",
                                    &Failure::Other(
                                        "bad event",
                                        format!("not legal here: {line:.200}"),
                                    ),
                                );
                                over = true;
                            }
                        }
                        if event["side"].as_str() != Some(side_name(side)) {
                            let (version_sent, sent_at) = *game
                                .sent
                                .lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner);
                            if version_sent == version {
                                seen.latencies.push(sent_at.elapsed());
                            }
                        }
                    }
                    Some("end") => over = true,
                    _ => {}
                }
            }
            Ok(None) => {
                // The server ends a stream only after the game's end.
                if !over {
                    seen.fail(
                        "a stream",
                        &Failure::Other("stream cut", "ended before the game's end".into()),
                    );
                    stream = None;
                }
            }
            Err(e) if is_timeout(&e) => {}
            Err(e) => {
                stream = None;
                wait(&mut seen, "reading a stream", &Failure::Connection(e));
            }
        }
    }
    seen.lost += numbering.lost;
    seen.twice += numbering.twice;
    if !over {
        seen.unseen += game.acked.load(Ordering::Acquire).saturating_sub(numbering.last);
    }
    seen
}

/// One of the `--games` places: a game after another until the time is up. The sheep's player
/// runs on this thread, the tigers' on one of its own.
fn place(load: &Load, index: u32, seed: u64) -> Seen {
    let mut all = Seen::default();
    let mut conn = Conn::new(load.addr);
    let mut round = 0u64;
    while Instant::now() < load.until {
        let created = expect(
            &mut conn,
            "POST",
            "/api/v1/games",
            None,
            Some(r#"{"sheep":"friend","tigers":"friend"}"#),
            201,
        );
        let view = match created {
            Ok(view) => view,
            Err(failure) => {
                all.fail("creating a game", &failure);
                std::thread::sleep(RETRY);
                continue;
            }
        };
        let token = |side: &str| view["seats"][side]["token"].as_str().unwrap_or("").to_owned();
        let (Some(id), sheep, tigers) = (view["id"].as_str(), token("sheep"), token("tigers"))
        else {
            all.fail("creating a game", &Failure::Other("bad answer", format!("no id: {view}")));
            continue;
        };
        all.games += 1;
        let game = Match {
            id: id.to_owned(),
            sent: Mutex::new((0, Instant::now())),
            acked: AtomicU64::new(0),
            stopped: AtomicU64::new(0),
        };
        let rng = |side: u64| {
            StdRng::seed_from_u64(seed ^ (u64::from(index) << 32) ^ (round << 1) ^ side)
        };
        let other = std::thread::scope(|scope| {
            let tigers = std::thread::Builder::new()
                .stack_size(STACK)
                .spawn_scoped(scope, || player(load, &game, Side::Tiger, &tigers, &mut rng(1)));
            let mine = player(load, &game, Side::Sheep, &sheep, &mut rng(0));
            let theirs = match tigers {
                Ok(handle) => handle.join().unwrap_or_default(),
                Err(e) => {
                    let mut failed = Seen::default();
                    failed.fail("starting a thread", &Failure::Other("thread", e.to_string()));
                    failed
                }
            };
            let mut both = mine;
            both.add(theirs);
            both
        });
        all.add(other);
        round += 1;
    }
    all
}

/// The server's resident memory in KiB, from `/proc/PID/status`.
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The soft limit on this process's open files, from `/proc/self/limits`.
fn open_files_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let addr = loopback(&args.addr)?;
    TcpStream::connect_timeout(&addr, Duration::from_secs(5)).with_context(|| {
        format!("cannot connect to {addr} (is tns-web running there? `tns-web --listen ADDR`)")
    })?;
    if let Some(file) = &args.verify {
        return verify(addr, file);
    }
    // Four connections a game (two streams, two players' moves), one more for its creation.
    let files = u64::from(args.games) * 5 + 64;
    if let Some(limit) = open_files_limit()
        && limit < files
    {
        bail!(
            "{} games need about {files} open files, above this shell's {limit}: `ulimit -n {files}`",
            args.games
        );
    }
    let acks = match &args.acks {
        Some(path) => Some(Mutex::new(
            File::options()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("--acks {}", path.display()))?,
        )),
        None => None,
    };
    let start = Instant::now();
    let load = Load {
        addr,
        until: start + Duration::from_secs(args.time_limit),
        think: Duration::from_millis(args.think),
        moves_per_game: usize::try_from(args.moves_per_game).unwrap_or(usize::MAX),
        acks,
    };
    let done = AtomicBool::new(false);
    let (seen, memory) = std::thread::scope(|scope| {
        let memory = args.server_pid.map(|pid| {
            let done = &done;
            scope.spawn(move || {
                let mut samples = Vec::new();
                while !done.load(Ordering::Relaxed) {
                    if let Some(kib) = rss_kib(pid) {
                        samples.push(kib);
                    }
                    std::thread::sleep(Duration::from_secs(1));
                }
                samples.extend(rss_kib(pid));
                samples
            })
        });
        let handles: Vec<_> = (0..args.games)
            .map(|index| {
                std::thread::Builder::new().stack_size(STACK).spawn_scoped(scope, {
                    let load = &load;
                    move || place(load, index, args.seed)
                })
            })
            .collect();
        let mut seen = Seen::default();
        for handle in handles {
            match handle {
                Ok(h) => seen.add(h.join().unwrap_or_default()),
                Err(e) => seen.fail("starting a thread", &Failure::Other("thread", e.to_string())),
            }
        }
        done.store(true, Ordering::Relaxed);
        let memory = memory.and_then(|h| h.join().ok()).unwrap_or_default();
        (seen, memory)
    });
    report(args, &mut { seen }, start.elapsed(), &memory)
}

fn report(args: &Args, seen: &mut Seen, elapsed: Duration, memory: &[u64]) -> anyhow::Result<()> {
    // Moves are made until the time limit; the catching up after it makes none.
    let moving = elapsed.min(Duration::from_secs(args.time_limit));
    #[expect(clippy::cast_precision_loss, reason = "move counts")]
    let rate = seen.acked as f64 / moving.as_secs_f64();
    say!(
        "{} games created for {} places in {:.1} s; {} moves acknowledged: {rate:.0} a second",
        seen.games,
        args.games,
        elapsed.as_secs_f64(),
        seen.acked,
    );
    if !seen.latencies.is_empty() {
        say!("a move to the opponent's stream: {}", percentiles(&mut seen.latencies));
    }
    if !seen.answers.is_empty() {
        say!("a move's answer: {}", percentiles(&mut seen.answers));
    }
    say!(
        "events: {} lost, {} twice, {} acknowledged moves not seen by the opponent by the end",
        seen.lost,
        seen.twice,
        seen.unseen
    );
    let errors: u64 = seen.errors.values().sum();
    if errors == 0 {
        say!("errors: none");
    } else {
        let kinds: Vec<String> = seen.errors.iter().map(|(k, n)| format!("{k}: {n}")).collect();
        say!(
            "errors: {errors} ({}); the first: {}",
            kinds.join(", "),
            seen.first_error.as_deref().unwrap_or("")
        );
    }
    if let Some(peak) = memory.iter().max() {
        // The curve in five points, so that a plateau shows.
        let at = |quarter: usize| memory[(memory.len() - 1) * quarter / 4] / 1024;
        say!(
            "server memory (VmRSS, sampled every second): start {} MiB, then {} / {} / {} MiB at \
             each quarter of the run, end {} MiB; peak {} MiB",
            at(0),
            at(1),
            at(2),
            at(3),
            at(4),
            peak / 1024
        );
    }
    let violations = seen.lost + seen.twice + seen.unseen;
    let tolerated =
        if args.restarts { seen.errors.get("connection").copied().unwrap_or(0) } else { 0 };
    if violations > 0 {
        bail!("{violations} events lost, seen twice or not seen");
    }
    if errors > tolerated {
        bail!("{} requests failed", errors - tolerated);
    }
    if seen.acked == 0 {
        bail!("no move was acknowledged within the time limit ({} s)", args.time_limit);
    }
    Ok(())
}

/// An acknowledged move, as the acks file has it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Ack {
    game: String,
    version: u64,
    mv: String,
}

/// The acks file's moves, by game.
fn read_acks(text: &str) -> anyhow::Result<BTreeMap<String, Vec<Ack>>> {
    let mut games: BTreeMap<String, Vec<Ack>> = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let (Some(game), Some(version), Some(mv), None) =
            (words.next(), words.next().and_then(|v| v.parse().ok()), words.next(), words.next())
        else {
            // The last line may be cut by a kill of the load itself.
            if n + 1 == text.lines().count() && !text.ends_with('\n') {
                break;
            }
            bail!("line {}: not `GAME VERSION MOVE`: {line:?}", n + 1);
        };
        games.entry(game.to_owned()).or_default().push(Ack {
            game: game.to_owned(),
            version,
            mv: mv.to_owned(),
        });
    }
    Ok(games)
}

/// The moves a game's events hold, by their numbers: every event up to `version` from its
/// stream.
fn moves_of(addr: SocketAddr, id: &str, version: u64) -> Result<HashMap<u64, String>, Failure> {
    let mut stream = Stream::open(addr, id, 0, None)?;
    let mut numbering = Numbering::default();
    let mut moves = HashMap::new();
    let deadline = Instant::now() + ANSWER_TIME;
    while numbering.last < version {
        match stream.line() {
            Ok(Some(line)) => {
                let event: Value = serde_json::from_str(&line)
                    .map_err(|_| Failure::Other("bad event", format!("not JSON: {line:.200}")))?;
                let Some(at) = event["version"].as_u64() else { continue };
                numbering.see(at);
                if let (Some("move"), Some(mv)) = (event["type"].as_str(), event["move"].as_str()) {
                    moves.insert(at, mv.to_owned());
                }
            }
            Ok(None) => break,
            Err(e) if is_timeout(&e) && Instant::now() < deadline => {}
            Err(e) => return Err(Failure::Connection(e)),
        }
    }
    if numbering.lost + numbering.twice > 0 {
        return Err(Failure::Other("bad stream", format!("the stream's numbers: {numbering:?}")));
    }
    Ok(moves)
}

/// `--verify FILE`: every acknowledged move is in its game, at its number.
fn verify(addr: SocketAddr, file: &std::path::Path) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("--verify {}", file.display()))?;
    let games = read_acks(&text).with_context(|| format!("--verify {}", file.display()))?;
    let mut conn = Conn::new(addr);
    let (mut checked, mut missing) = (0u64, 0u64);
    let mut first_missing = None;
    for (id, acks) in &games {
        let found = expect(&mut conn, "GET", &format!("/api/v1/games/{id}"), None, None, 200)
            .and_then(|view| {
                let version = view["version"].as_u64().unwrap_or(0);
                moves_of(addr, id, version)
            });
        let moves = match found {
            Ok(moves) => moves,
            Err(Failure::Status(404, _)) => HashMap::new(),
            Err(failure) => bail!("game {id}: {failure}"),
        };
        for ack in acks {
            checked += 1;
            if moves.get(&ack.version) != Some(&ack.mv) {
                missing += 1;
                first_missing.get_or_insert_with(|| {
                    format!(
                        "{} event {}: {} acknowledged, {} found",
                        ack.game,
                        ack.version,
                        ack.mv,
                        moves.get(&ack.version).map_or("nothing", String::as_str)
                    )
                });
            }
        }
    }
    say!("{checked} acknowledged moves of {} games checked: {missing} missing", games.len());
    if let Some(first) = first_missing {
        bail!("{missing} acknowledged moves missing; the first: {first}");
    }
    if checked == 0 {
        bail!("no move in {}", file.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_counts_the_lost_and_the_doubled() {
        let mut n = Numbering::default();
        for v in [1, 2, 3] {
            assert!(n.see(v));
        }
        assert_eq!(n, Numbering { last: 3, lost: 0, twice: 0 });
        assert!(!n.see(3));
        assert!(!n.see(1));
        assert!(n.see(6));
        assert!(n.see(7));
        assert_eq!(n, Numbering { last: 7, lost: 2, twice: 2 });
    }

    #[test]
    fn percentiles_of_a_sorted_list() {
        let list: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        assert_eq!(percentile(&list, 0.5), Duration::from_millis(51));
        assert_eq!(percentile(&list, 0.99), Duration::from_millis(99));
        assert_eq!(percentile(&list, 1.0), Duration::from_millis(100));
        assert_eq!(percentile(&list[..1], 0.99), Duration::from_millis(1));
        assert_eq!(percentile(&[], 0.5), Duration::ZERO);
        let mut shuffled = vec![Duration::from_millis(3), Duration::from_millis(1)];
        assert!(percentiles(&mut shuffled).starts_with("p50 3.00 ms"));
    }

    #[test]
    fn acks_by_game_and_a_cut_last_line() {
        let games = read_acks("a 2 c3\nb 2 c1\na 4 a1\na 5").unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games["a"].len(), 2);
        assert_eq!(games["a"][1], Ack { game: "a".into(), version: 4, mv: "a1".into() });
        assert!(read_acks("a 2 c3\nnonsense\n").is_err());
        assert!(read_acks("a x c3\n").is_err());
    }

    #[test]
    fn only_loopback() {
        assert!(loopback("127.0.0.1:1").is_ok());
        assert!(loopback("10.0.0.1:80").is_err());
    }
}
