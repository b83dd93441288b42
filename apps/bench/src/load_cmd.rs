//! `tns-bench load`: a bounded load test of `tns-web` on this machine. Connections kept alive,
//! each asking `position` for random reachable positions, until a fixed count of requests or a
//! time limit; then the rate, the errors and the latency percentiles.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use rand::rngs::StdRng;
use rand::{RngExt as _, SeedableRng as _};
use tns_board::Game;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The server, on this machine only: `127.0.0.1:PORT`, `localhost:PORT` or `[::1]:PORT`.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Connections at once, each on its own thread.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=512))]
    connections: u32,
    /// Requests in all.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    requests: u64,
    /// Seconds at most, whatever the count.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    time_limit: u64,
    /// Distinct positions to ask for (random games from the start, random lengths).
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    positions: u32,
    /// The seed of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The server's address, refused unless it is on this machine: a load test sends traffic only
/// to loopback.
fn loopback(addr: &str) -> anyhow::Result<SocketAddr> {
    let found = addr
        .to_socket_addrs()
        .with_context(|| format!("--addr {addr}"))?
        .find(|a| a.ip().is_loopback())
        .with_context(|| format!("--addr {addr}: not a loopback address (127.0.0.1, ::1)"))?;
    Ok(found)
}

/// Percent-escapes a position for a query.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => out.push(char::from(b)),
            b' ' => out.push('+'),
            _ => {
                const HEX: &[u8; 16] = b"0123456789ABCDEF";
                out.push('%');
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 15)]));
            }
        }
    }
    out
}

/// The request paths: positions reached by random play from the start.
fn paths(count: u32, seed: u64) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut next = move |n: usize| rng.random_range(0..n);
    (0..count)
        .map(|_| {
            let mut game = Game::new();
            let plies = next(60);
            while game.len() < plies && game.outcome().is_none() {
                let moves = game.legal_moves();
                game.play_unchecked(moves[next(moves.len())]);
            }
            format!("/api/v1/position?pos={}", escape(&game.board().to_string()))
        })
        .collect()
}

/// What one connection saw: each request's latency, and the errors.
#[derive(Default)]
struct Seen {
    latencies: Vec<Duration>,
    errors: u64,
    first_error: Option<String>,
    /// Requests under way when the time limit came.
    cut_off: u64,
}

/// One request on a kept-alive connection: `Ok` with the status, or why the connection failed.
fn request(
    stream: &mut TcpStream,
    reader: &mut BufReader<TcpStream>,
    path: &str,
) -> std::io::Result<u16> {
    write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n")?;
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status: u16 = line.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut length = 0usize;
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(status)
}

fn connection(
    addr: SocketAddr,
    paths: &[String],
    next: &AtomicUsize,
    limit: u64,
    until: Instant,
) -> Seen {
    let mut seen = Seen::default();
    let fail = |seen: &mut Seen, why: String| {
        seen.errors += 1;
        seen.first_error.get_or_insert(why);
    };
    // Nothing waits past the time limit: not the connection, not a request in flight.
    let left = || until.saturating_duration_since(Instant::now());
    let Some(mut stream) =
        (!left().is_zero()).then(|| TcpStream::connect_timeout(&addr, left())).and_then(Result::ok)
    else {
        fail(&mut seen, format!("cannot connect to {addr}"));
        return seen;
    };
    let _ = stream.set_nodelay(true);
    let Ok(clone) = stream.try_clone() else { return seen };
    let mut reader = BufReader::new(clone);
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i as u64 >= limit || left().is_zero() {
            return seen;
        }
        // The socket's timeouts hold for the clone the reader reads from too.
        if stream
            .set_read_timeout(Some(left()))
            .and(stream.set_write_timeout(Some(left())))
            .is_err()
        {
            return seen;
        }
        let start = Instant::now();
        match request(&mut stream, &mut reader, &paths[i % paths.len()]) {
            Ok(200) => seen.latencies.push(start.elapsed()),
            Ok(status) => {
                fail(&mut seen, format!("status {status} for {}", paths[i % paths.len()]));
            }
            // Cut off by the time limit: unfinished, not failed.
            Err(e) if left().is_zero() && is_timeout(&e) => {
                seen.cut_off += 1;
                return seen;
            }
            Err(e) => {
                fail(&mut seen, format!("the connection failed: {e}"));
                return seen;
            }
        }
    }
}

/// Whether an I/O error is a timeout (the kind differs between systems).
fn is_timeout(e: &std::io::Error) -> bool {
    matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut)
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

pub fn run(args: &Args) -> anyhow::Result<()> {
    let addr = loopback(&args.addr)?;
    // A server that is not there is one error, said before any load is made.
    TcpStream::connect_timeout(&addr, Duration::from_secs(5)).with_context(|| {
        format!("cannot connect to {addr} (is tns-web running there? `tns-web --listen ADDR`)")
    })?;
    let paths = paths(args.positions, args.seed);
    let next = AtomicUsize::new(0);
    let start = Instant::now();
    let until = start + Duration::from_secs(args.time_limit);
    // No more connections than requests: each would otherwise connect for nothing.
    let connections = u64::from(args.connections).min(args.requests);
    let seen: Vec<Seen> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..connections)
            .map(|_| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, || connection(addr, &paths, &next, args.requests, until))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h.join().unwrap_or_default(),
                Err(e) => Seen {
                    errors: 1,
                    first_error: Some(format!("cannot start a thread: {e}")),
                    ..Seen::default()
                },
            })
            .collect()
    });
    let elapsed = start.elapsed();
    let mut latencies: Vec<Duration> =
        seen.iter().flat_map(|s| s.latencies.iter().copied()).collect();
    latencies.sort_unstable();
    let errors: u64 = seen.iter().map(|s| s.errors).sum();
    let ok = latencies.len();
    #[expect(clippy::cast_precision_loss, reason = "request counts")]
    let rate = ok as f64 / elapsed.as_secs_f64();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    say!(
        "{ok} requests answered 200 in {:.2} s by {connections} connections: {rate:.0} a second",
        elapsed.as_secs_f64(),
    );
    let cut_off: u64 = seen.iter().map(|s| s.cut_off).sum();
    if cut_off > 0 {
        say!("{cut_off} requests under way at the time limit, not counted");
    }
    // No answers, no latencies: zeros would read as a measure.
    if ok > 0 {
        say!(
            "latency: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms(percentile(&latencies, 0.5)),
            ms(percentile(&latencies, 0.9)),
            ms(percentile(&latencies, 0.99)),
            ms(latencies.last().copied().unwrap_or_default())
        );
    }
    if errors > 0 {
        let first = seen.iter().find_map(|s| s.first_error.clone()).unwrap_or_default();
        bail!("{errors} requests failed; the first: {first}");
    }
    if ok == 0 {
        bail!("no request was answered within the time limit ({} s)", args.time_limit);
    }
    Ok(())
}
