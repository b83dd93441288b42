//! The clocks in the game: started with `--clock` or a new game's choice, punched after every
//! move, a computer's thinking time taken from them, a fallen flag ending the game.

use std::time::{Duration, Instant};

use tns_board::{Outcome, Side};
use tns_match::TimeControl;
use tns_search::Limits;

use crate::App;
use crate::clock::GameClock;
use crate::players::seat_index;

/// Under this, a clock is shown in tenths of a second, and in its warning style.
const LOW: Duration = Duration::from_secs(10);

/// One side's clock as the status panel shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockFace {
    /// Whose clock.
    pub side: Side,
    /// Time left.
    pub left: Duration,
    /// Whether it is running (its side is to move).
    pub running: bool,
    /// Whether it is under ten seconds.
    pub low: bool,
}

impl App {
    /// Plays the game on under clocks from now: both full, the side to move's running.
    pub fn set_clock(&mut self, control: TimeControl) {
        let to_move = self.board().side_to_move();
        self.clock = Some(GameClock::new(control, to_move, Instant::now()));
        self.stop_clock_if_over();
    }

    /// Plays the game on under clocks with this much left for each side (a resumed game's).
    pub fn set_clock_left(&mut self, control: TimeControl, sheep: Duration, tiger: Duration) {
        let to_move = self.board().side_to_move();
        self.clock = Some(GameClock::new(control, to_move, Instant::now()).with_left(sheep, tiger));
        self.stop_clock_if_over();
    }

    /// Both clocks now, the sheep's first; `None` without clocks.
    pub fn clock_faces(&self) -> Option<[ClockFace; 2]> {
        let clock = self.clock.as_ref()?;
        let now = Instant::now();
        Some(Side::ALL.map(|side| {
            let left = clock.remaining(side, now);
            ClockFace { side, left, running: clock.running() == Some(side), low: left < LOW }
        }))
    }

    /// Ends the game on time if the running clock is out; stops both once the game is over.
    pub(crate) fn check_flag(&mut self, now: Instant) {
        let Some(clock) = &self.clock else { return };
        if self.outcome().is_none()
            && let Some(side) = clock.flag(now)
        {
            self.end_by_players(Outcome::lost_on_time(side));
        }
        self.stop_clock_if_over();
    }

    /// After a move reached the game: the mover's clock is punched. A move made after its
    /// flag fell is taken back, and the game is lost on time.
    pub(crate) fn punch_clock(&mut self) {
        let len = self.game.len();
        let Some(clock) = &mut self.clock else { return };
        let Some(mover) = len.checked_sub(1).map(|i| self.game.positions()[i].side_to_move())
        else {
            return;
        };
        if clock.punch(mover, Instant::now()).is_err() {
            self.game.truncate(len - 1);
            self.end_by_players(Outcome::lost_on_time(mover));
        }
        self.stop_clock_if_over();
    }

    /// After a take-back or a redo: the side to move's clock runs (the time used stays used).
    pub(crate) fn restart_clock(&mut self) {
        let running = self.outcome().is_none().then(|| self.board().side_to_move());
        if let Some(clock) = &mut self.clock {
            clock.restart(running, Instant::now());
        }
    }

    fn stop_clock_if_over(&mut self) {
        if self.outcome().is_some()
            && let Some(clock) = &mut self.clock
            && clock.running().is_some()
        {
            clock.restart(None, Instant::now());
        }
    }

    /// How long the computer playing `side` may think now: its seat's limits, or under clocks
    /// a share of what its clock has left (and its own depth, if its spec sets one).
    pub(crate) fn move_limits(&self, side: Side) -> Limits {
        let seat = self.seats[seat_index(side)].limits();
        match &self.clock {
            Some(clock) => {
                let mut limits = clock.limits(side, Instant::now());
                limits.depth = seat.depth;
                limits
            }
            None => seat.clone(),
        }
    }
}
