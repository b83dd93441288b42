//! A player that is another program speaking the TSI protocol (docs/protocol.md): started on
//! the first game, asked for each move with `position` and `go`, and started afresh after it
//! crashes or answers late.

// Casts allowed in this file only:
// narrowing casts of values that fit by construction (point indices under 25, move counts, table indices, durations in milliseconds).
// signed values that are never negative here.
#![allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use std::fmt::Write as _;
use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use tns_board::{Game, Move};

use crate::player::{Budget, Player};

/// How long a program may take to start and answer `tsi` or `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a move may take with a depth limit only, before it counts as late.
pub const DEPTH_TIMEOUT: Duration = Duration::from_secs(60);

/// The time a move may take beyond its `movetime` before it counts as late: half the
/// movetime, and at least this.
pub const LATE_MARGIN: Duration = Duration::from_millis(250);

/// A running program and its output, read on a thread of its own so reads can time out.
#[derive(Debug)]
struct Process {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        // Give it a moment to leave on its own, then make sure.
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What went wrong talking to the program.
type Failure = String;

impl Process {
    fn start(command: &[String]) -> Result<Process, Failure> {
        let (program, args) = command.split_first().ok_or("no program given")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        let input = child.stdin.take().ok_or("no input pipe")?;
        let output = BufReader::new(child.stdout.take().ok_or("no output pipe")?);
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in output.lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process { child, input, lines })
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.input, "{line}").and_then(|()| self.input.flush()).map_err(|_| self.gone())
    }

    /// Why the program stopped talking.
    fn gone(&mut self) -> Failure {
        match self.child.try_wait() {
            Ok(Some(status)) => format!("the engine exited ({status})"),
            _ => "the engine closed its output".into(),
        }
    }

    /// The lines up to and including the first starting with `prefix`, within `timeout`;
    /// gives up early (with `Ok(None)`) when `stop` is raised.
    fn until(
        &mut self,
        prefix: &str,
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<Option<Vec<String>>, Failure> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            if stop.load(Ordering::Relaxed) {
                return Ok(None);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(format!("no {prefix:?} within {:.2} s (late)", timeout.as_secs_f64()));
            }
            match self.lines.recv_timeout(left.min(Duration::from_millis(20))) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return Ok(Some(seen));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    // Let the process finish exiting, so its status can be told.
                    std::thread::sleep(Duration::from_millis(20));
                    return Err(self.gone());
                }
            }
        }
    }
}

/// A program speaking TSI, as a player.
#[derive(Debug)]
pub struct ExternalPlayer {
    command: Vec<String>,
    budget: Budget,
    process: Option<Process>,
    failure: Option<Failure>,
}

impl ExternalPlayer {
    /// A player that runs `command` (the program, then its arguments) and asks it for moves
    /// within `budget` (its time as `go movetime`, else its depth as `go depth`; its threads
    /// and table size as the `Threads` and `Hash` options, where the program has them).
    pub fn new(command: Vec<String>, budget: Budget) -> ExternalPlayer {
        ExternalPlayer { command, budget, process: None, failure: None }
    }

    /// The running program, started (with the handshake) if need be.
    fn process(&mut self) -> Result<&mut Process, Failure> {
        if self.process.is_none() {
            let mut process = Process::start(&self.command)?;
            let never = AtomicBool::new(false);
            process.send("tsi")?;
            let lines = process
                .until("tsiok", HANDSHAKE_TIMEOUT, &never)
                .map_err(|e| format!("handshake: {e}"))?
                .unwrap_or_default();
            let has =
                |name: &str| lines.iter().any(|l| l.starts_with(&format!("option name {name} ")));
            if has("Threads") {
                process.send(&format!("setoption name Threads value {}", self.budget.threads))?;
            }
            if has("Hash") {
                process.send(&format!("setoption name Hash value {}", self.budget.tt_mb))?;
            }
            self.process = Some(process);
        }
        self.process.as_mut().ok_or_else(|| "not started".into())
    }

    fn go_command(&self) -> (String, Duration) {
        match (self.budget.time, self.budget.depth) {
            (Some(t), _) => {
                let ms = (t * 1000.0).round().max(1.0) as u64;
                let time = Duration::from_millis(ms);
                let mut go = format!("go movetime {ms}");
                if let Some(d) = self.budget.depth {
                    let _ = write!(go, " depth {d}");
                }
                (go, time + (time / 2).max(LATE_MARGIN))
            }
            (None, Some(d)) => (format!("go depth {d}"), DEPTH_TIMEOUT),
            (None, None) => ("go movetime 1000".into(), Duration::from_secs(2)),
        }
    }

    fn ask(&mut self, game: &Game, stop: &AtomicBool) -> Result<Option<Move>, Failure> {
        let (go, timeout) = self.go_command();
        let process = self.process()?;
        let mut position = format!("position fen {}", game.start());
        if !game.is_empty() {
            position.push_str(" moves");
            for m in game.moves() {
                let _ = write!(position, " {m}");
            }
        }
        process.send(&position)?;
        process.send(&go)?;
        let Some(lines) = process.until("bestmove", timeout, stop)? else {
            // Stopped from outside: the answer no longer matters.
            let _ = process.send("stop");
            return Ok(None);
        };
        let answer = lines.last().map(String::as_str).unwrap_or_default();
        let text = answer.split_whitespace().nth(1).unwrap_or("");
        if let Some(error) = lines.iter().find(|l| l.starts_with("info string error")) {
            return Err(format!("it refused the position: {error}"));
        }
        match text {
            "none" => Err("it answered bestmove none in a game that goes on".into()),
            _ => text.parse().map(Some).map_err(|e| format!("unreadable move {text:?}: {e}")),
        }
    }
}

impl Player for ExternalPlayer {
    fn new_game(&mut self, _seed: u64) {
        let result = self.process().and_then(|p| {
            p.send("newgame")?;
            p.send("isready")?;
            p.until("readyok", HANDSHAKE_TIMEOUT, &AtomicBool::new(false)).map(|_| ())
        });
        if let Err(e) = result {
            // The first move will try a fresh process and say what went wrong.
            self.failure = Some(e);
            self.process = None;
        }
    }

    fn choose(&mut self, game: &Game, stop: &AtomicBool) -> Option<Move> {
        self.failure = None;
        match self.ask(game, stop) {
            Ok(m) => m,
            Err(e) => {
                // A crashed or late program is replaced for the next game.
                self.process = None;
                self.failure = Some(e);
                None
            }
        }
    }

    fn failure(&mut self) -> Option<String> {
        self.failure.take()
    }
}
