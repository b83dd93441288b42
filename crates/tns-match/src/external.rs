//! A player that is another program speaking the TSI protocol (docs/protocol.md): started on
//! the first game, asked for each move with `position` and `go`, and started afresh after it
//! crashes or answers late.

use std::fmt::Write as _;
use std::io::{BufReader, Write as _};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use tns_board::{Game, Move, Side};

use crate::player::{Budget, Player};
use crate::time_control::Clocks;

/// How long a program may take to start and answer `tsi` or `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a move may take with a depth limit only, before it counts as late.
pub const DEPTH_TIMEOUT: Duration = Duration::from_secs(60);

/// The time a move may take beyond its `movetime` (or beyond the clock, under a time control)
/// before it counts as late, unless the match sets another ([`ExternalPlayer::with_margin`]).
pub const LATE_MARGIN: Duration = Duration::from_millis(100);

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
        let mut output = output;
        std::thread::Builder::new()
            .name("engine output".into())
            .spawn(move || {
                // Bytes, read lossily: a line that is not UTF-8 is still a line, not the end.
                // At most 1 MiB of a line is kept: a program that writes without line ends
                // (`cat /dev/zero`) cannot grow the runner's memory; its line is read as empty
                // and answers nothing the runner waits for.
                let mut line = Vec::new();
                loop {
                    let text = match tns_file::read_line(&mut output, &mut line, tns_file::MAX_LINE)
                    {
                        tns_file::Line::End => break,
                        tns_file::Line::TooLong => String::new(),
                        tns_file::Line::Whole => {
                            let text = String::from_utf8_lossy(&line);
                            text.trim_end_matches(['\n', '\r']).to_string()
                        }
                    };
                    if tx.send(text).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| format!("cannot start a thread to read {program}: {e}"))?;
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

/// An external engine as a `cmd:` spec names it: the program and its arguments, and the
/// options to set on it (`option.Hash=64`), in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct External {
    /// The program, then its arguments.
    pub command: Vec<String>,
    /// `setoption` name and value pairs, sent after the handshake.
    pub options: Vec<(String, String)>,
}

/// A program speaking TSI, as a player.
#[derive(Debug)]
pub struct ExternalPlayer {
    external: External,
    budget: Budget,
    margin: Duration,
    process: Option<Process>,
    failure: Option<Failure>,
}

impl ExternalPlayer {
    /// A player that runs `external`'s command and asks it for moves within `budget` (its
    /// time as `go movetime`, else its depth as `go depth`; under a time control, the clocks).
    /// After the handshake it sets the spec's options, then its threads and table size as the
    /// `Threads` and `Hash` options where the program has them and the spec did not set them.
    pub fn new(external: External, budget: Budget) -> ExternalPlayer {
        ExternalPlayer { external, budget, margin: LATE_MARGIN, process: None, failure: None }
    }

    /// This player, allowed `margin` beyond a move's time before its answer counts as late.
    #[must_use]
    pub fn with_margin(mut self, margin: Duration) -> ExternalPlayer {
        self.margin = margin;
        self
    }

    /// The running program, started (with the handshake and the options) if need be.
    fn process(&mut self) -> Result<&mut Process, Failure> {
        if self.process.is_none() {
            let mut process = Process::start(&self.external.command)?;
            let never = AtomicBool::new(false);
            process.send("tsi")?;
            let lines = process
                .until("tsiok", HANDSHAKE_TIMEOUT, &never)
                .map_err(|e| format!("handshake: {e}"))?
                .unwrap_or_default();
            let has =
                |name: &str| lines.iter().any(|l| l.starts_with(&format!("option name {name} ")));
            let mut options = self.external.options.clone();
            let set = |options: &[(String, String)], name: &str| {
                options.iter().any(|(n, _)| n.eq_ignore_ascii_case(name))
            };
            if has("Threads") && !set(&options, "Threads") {
                options.push(("Threads".into(), self.budget.threads.to_string()));
            }
            if has("Hash") && !set(&options, "Hash") {
                options.push(("Hash".into(), self.budget.tt_mb.to_string()));
            }
            for (name, value) in &options {
                process.send(&format!("setoption name {name} value {value}"))?;
                process.send("isready")?;
                let answer = process
                    .until("readyok", HANDSHAKE_TIMEOUT, &never)
                    .map_err(|e| format!("setoption name {name} value {value}: {e}"))?
                    .unwrap_or_default();
                if let Some(error) = answer.iter().find(|l| l.starts_with("info string error")) {
                    return Err(format!(
                        "it refused setoption name {name} value {value}: {}",
                        error.trim_start_matches("info string error: ")
                    ));
                }
            }
            self.process = Some(process);
        }
        self.process.as_mut().ok_or_else(|| "not started".into())
    }

    /// The `go` line for the fixed limits, and how long to wait for the answer.
    fn go_command(&self) -> (String, Duration) {
        match (self.budget.time, self.budget.depth) {
            (Some(t), _) => {
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "a checked time of at most a day, in milliseconds, at least 1"
                )]
                let ms = (t * 1000.0).round().max(1.0) as u64;
                let time = Duration::from_millis(ms);
                let mut go = format!("go movetime {ms}");
                if let Some(d) = self.budget.depth {
                    let _ = write!(go, " depth {d}");
                }
                (go, time + self.margin)
            }
            (None, Some(d)) => (format!("go depth {d}"), DEPTH_TIMEOUT),
            (None, None) => ("go movetime 1000".into(), Duration::from_secs(1) + self.margin),
        }
    }

    /// The `go` line under a time control, and how long to wait: the side's time left and the
    /// margin.
    fn go_timed(&self, clocks: &Clocks, side: Side) -> (String, Duration) {
        let ms = |d: Duration| d.as_millis();
        let (s, t) = (&clocks.sheep, &clocks.tiger);
        let mut go = format!(
            "go stime {} ttime {} sinc {} tinc {}",
            ms(s.remaining),
            ms(t.remaining),
            ms(s.increment),
            ms(t.increment)
        );
        let own = clocks.of(side);
        if let Some(n) = own.moves_to_go {
            let _ = write!(go, " movestogo {n}");
        }
        if let Some(d) = self.budget.depth {
            let _ = write!(go, " depth {d}");
        }
        (go, own.remaining + self.margin)
    }

    fn ask(
        &mut self,
        game: &Game,
        go: &str,
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<Option<Move>, Failure> {
        let process = self.process()?;
        let mut position = format!("position fen {}", game.start());
        if !game.is_empty() {
            position.push_str(" moves");
            for m in game.moves() {
                let _ = write!(position, " {m}");
            }
        }
        process.send(&position)?;
        process.send(go)?;
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

    fn answer(&mut self, result: Result<Option<Move>, Failure>) -> Option<Move> {
        match result {
            Ok(m) => m,
            Err(e) => {
                // A crashed or late program is replaced for the next game.
                self.process = None;
                self.failure = Some(e);
                None
            }
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
        let (go, timeout) = self.go_command();
        let result = self.ask(game, &go, timeout, stop);
        self.answer(result)
    }

    fn choose_timed(&mut self, game: &Game, clocks: &Clocks, stop: &AtomicBool) -> Option<Move> {
        self.failure = None;
        let (go, timeout) = self.go_timed(clocks, game.board().side_to_move());
        let result = self.ask(game, &go, timeout, stop);
        self.answer(result)
    }

    fn prepare(&mut self) -> Result<(), String> {
        let started = self.process().map(|_| ());
        if started.is_err() {
            self.process = None;
        }
        started
    }

    fn failure(&mut self) -> Option<String> {
        self.failure.take()
    }
}
