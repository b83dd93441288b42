//! A player that is another program speaking the TSI protocol (docs/protocol.md): started on
//! the first game, asked for each move with `position` and `go`, and started afresh after it
//! crashes or answers late.

use std::io::{BufReader, Write as _};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use tns_board::{Game, Move, Side};
use tns_search::{Limits, Report};

use crate::error::{ChooseError, ProgramError};
use crate::player::{Budget, Player};
use crate::protocol::{Command as Line, Go, Reply, TimeLeft};
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
        let _ = writeln!(self.input, "{}", Line::Quit);
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

impl Process {
    fn start(command: &[String]) -> Result<Process, ProgramError> {
        let (program, args) = command.split_first().ok_or(ProgramError::NoProgram)?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ProgramError::Start { program: program.clone(), source: Arc::new(e) })?;
        let input = child.stdin.take().ok_or(ProgramError::NoPipe("input"))?;
        let output = BufReader::new(child.stdout.take().ok_or(ProgramError::NoPipe("output"))?);
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
            .map_err(|e| ProgramError::ReaderThread {
                program: program.clone(),
                source: Arc::new(e),
            })?;
        Ok(Process { child, input, lines })
    }

    fn send(&mut self, line: &Line) -> Result<(), ProgramError> {
        writeln!(self.input, "{line}").and_then(|()| self.input.flush()).map_err(|_| self.gone())
    }

    /// Why the program stopped talking.
    fn gone(&mut self) -> ProgramError {
        match self.child.try_wait() {
            Ok(Some(status)) => ProgramError::Exited(status),
            _ => ProgramError::Closed,
        }
    }

    /// The lines up to and including the first that `is_end` takes (read as a [`Reply`]), within
    /// `timeout`; gives up early (with `Ok(None)`) when `stop` is raised. `what` names the end
    /// awaited, for the error.
    fn until(
        &mut self,
        what: &'static str,
        is_end: impl Fn(&Reply<'_>) -> bool,
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<Option<Vec<String>>, ProgramError> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            if stop.load(Ordering::Relaxed) {
                return Ok(None);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(ProgramError::Late { awaited: what, within: timeout });
            }
            match self.lines.recv_timeout(left.min(Duration::from_millis(20))) {
                Ok(line) => {
                    // A bestmove that does not read still ends the wait: the caller says why.
                    let done = Reply::parse(&line).map_or(true, |r| is_end(&r));
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
    /// The name it goes by in reports and records (`name=`), if given; else its spec's text.
    pub name: Option<String>,
}

/// A program speaking TSI, as a player.
#[derive(Debug)]
pub struct ExternalPlayer {
    external: External,
    budget: Budget,
    margin: Duration,
    process: Option<Process>,
}

impl ExternalPlayer {
    /// A player that runs `external`'s command and asks it for moves within `budget` (its
    /// time as `go movetime`, else its depth as `go depth`; under a time control, the clocks).
    /// After the handshake it sets the spec's options, then its threads and transposition table size as the
    /// `Threads` and `Hash` options where the program has them and the spec did not set them.
    pub fn new(external: External, budget: Budget) -> ExternalPlayer {
        ExternalPlayer { external, budget, margin: LATE_MARGIN, process: None }
    }

    /// This player, allowed `margin` beyond a move's time before its answer counts as late.
    #[must_use]
    pub fn with_margin(mut self, margin: Duration) -> ExternalPlayer {
        self.margin = margin;
        self
    }

    /// The running program, started (with the handshake and the options) if need be.
    fn process(&mut self) -> Result<&mut Process, ProgramError> {
        let process = match self.process.take() {
            Some(process) => process,
            None => self.start()?,
        };
        Ok(self.process.insert(process))
    }

    /// The program started, its handshake done and its options set.
    fn start(&self) -> Result<Process, ProgramError> {
        let mut process = Process::start(&self.external.command)?;
        let never = AtomicBool::new(false);
        process.send(&Line::Tsi)?;
        let lines = process
            .until("tsiok", |r| *r == Reply::TsiOk, HANDSHAKE_TIMEOUT, &never)
            .map_err(|e| ProgramError::Handshake(Box::new(e)))?
            .unwrap_or_default();
        let has = |name: &str| {
            lines.iter().any(|l| matches!(Reply::parse(l), Ok(Reply::Option(n)) if n == name))
        };
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
            let set = Line::SetOption { name: name.clone(), value: value.clone() };
            process.send(&set)?;
            process.send(&Line::IsReady)?;
            let answer = process
                .until("readyok", |r| *r == Reply::ReadyOk, HANDSHAKE_TIMEOUT, &never)
                .map_err(|e| ProgramError::SetOption {
                    option: set.to_string(),
                    source: Box::new(e),
                })?
                .unwrap_or_default();
            if let Some(error) = answer.iter().find_map(|l| match Reply::parse(l) {
                Ok(Reply::Error(why)) => Some(why.to_string()),
                _ => None,
            }) {
                return Err(ProgramError::RefusedOption { option: set.to_string(), why: error });
            }
        }
        Ok(process)
    }

    /// The `go` for the player's own limits, and how long to wait for the answer.
    fn go_command(&self) -> (Go, Duration) {
        self.go_within(self.budget.time, self.budget.depth)
    }

    /// The `go` for a time in seconds and a depth, and how long to wait for the answer.
    fn go_within(&self, time: Option<f64>, depth: Option<u32>) -> (Go, Duration) {
        let mut go = Go::default();
        go.limits.depth = depth;
        let wait = match (time, depth) {
            (Some(t), _) => {
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "a checked time of at most a day, in milliseconds, at least 1"
                )]
                let time = Duration::from_millis((t * 1000.0).round().max(1.0) as u64);
                go.limits.time = Some(time);
                time + self.margin
            }
            (None, Some(_)) => DEPTH_TIMEOUT,
            (None, None) => {
                go.limits.time = Some(Duration::from_secs(1));
                Duration::from_secs(1) + self.margin
            }
        };
        (go, wait)
    }

    /// The `go` under a time control, and how long to wait: the side's time left and the
    /// margin.
    fn go_timed(&self, clocks: &Clocks, side: Side) -> (Go, Duration) {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "a clock's milliseconds, far below 2^64"
        )]
        let ms = |d: Duration| Some(d.as_millis() as u64);
        let (s, t) = (&clocks.sheep, &clocks.tiger);
        let own = clocks.of(side);
        let mut go = Go {
            time_left: TimeLeft {
                stime: ms(s.remaining),
                ttime: ms(t.remaining),
                sinc: ms(s.increment),
                tinc: ms(t.increment),
                movestogo: own.moves_to_go,
            },
            ..Go::default()
        };
        go.limits.depth = self.budget.depth;
        (go, own.remaining + self.margin)
    }

    fn ask(
        &mut self,
        game: &Game,
        go: Go,
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<Option<Move>, ProgramError> {
        let process = self.process()?;
        process.send(&Line::Position { start: game.start(), moves: game.moves().to_vec() })?;
        process.send(&Line::Go(Box::new(go)))?;
        let is_best = |r: &Reply<'_>| matches!(r, Reply::BestMove(_));
        let Some(lines) = process.until("bestmove", is_best, timeout, stop)? else {
            // Stopped from outside: the answer no longer matters.
            let _ = process.send(&Line::Stop);
            return Ok(None);
        };
        if let Some(error) = lines.iter().find_map(|l| match Reply::parse(l) {
            Ok(Reply::Error(why)) => Some(why.to_string()),
            _ => None,
        }) {
            return Err(ProgramError::RefusedPosition { why: error });
        }
        match lines.last().map(|l| Reply::parse(l)) {
            Some(Ok(Reply::BestMove(Some(m)))) => Ok(Some(m)),
            Some(Ok(Reply::BestMove(None))) => Err(ProgramError::NoMoveInPlay),
            Some(Err(e)) => Err(ProgramError::Unreadable(e)),
            _ => Err(ProgramError::NoBestMove),
        }
    }

    fn answer(&mut self, result: Result<Option<Move>, ProgramError>) -> Result<Move, ChooseError> {
        match result {
            Ok(m) => m.ok_or(ChooseError::Stopped),
            Err(e) => {
                // A crashed or late program is replaced for the next game.
                self.process = None;
                Err(ChooseError::Program(e))
            }
        }
    }
}

impl Player for ExternalPlayer {
    fn new_game(&mut self, _seed: u64) {
        let result = self.process().and_then(|p| {
            p.send(&Line::NewGame)?;
            p.send(&Line::IsReady)?;
            p.until("readyok", |r| *r == Reply::ReadyOk, HANDSHAKE_TIMEOUT, &AtomicBool::new(false))
                .map(|_| ())
        });
        if result.is_err() {
            // The first move tries a fresh process and says what goes wrong then.
            self.process = None;
        }
    }

    fn choose(&mut self, game: &Game, stop: &AtomicBool) -> Result<Move, ChooseError> {
        let (go, timeout) = self.go_command();
        let result = self.ask(game, go, timeout, stop);
        self.answer(result)
    }

    fn choose_timed(
        &mut self,
        game: &Game,
        clocks: &Clocks,
        stop: &AtomicBool,
    ) -> Result<Move, ChooseError> {
        let (go, timeout) = self.go_timed(clocks, game.board().side_to_move());
        let result = self.ask(game, go, timeout, stop);
        self.answer(result)
    }

    fn choose_watched(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        _watch: &mut dyn FnMut(&Report),
    ) -> Result<Move, ChooseError> {
        let time = limits.time.map(|t| t.as_secs_f64());
        let (go, timeout) = self.go_within(time, limits.depth);
        let result = self.ask(game, go, timeout, stop);
        self.answer(result)
    }

    fn prepare(&mut self) -> Result<(), ProgramError> {
        let started = self.process().map(|_| ());
        if started.is_err() {
            self.process = None;
        }
        started
    }
}
