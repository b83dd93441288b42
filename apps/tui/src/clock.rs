//! The game's clocks (`--clock 5+3`): minutes for each side and an increment in seconds, as
//! lichess writes them. A side's clock runs while it is to move, person or computer; a
//! computer's thinking time comes off its clock; a fallen flag loses the game.

use std::time::{Duration, Instant};

use tns_board::Side;
use tns_match::{Clocks, TimeControl};
use tns_search::Limits;

/// Parses `MINUTES+SECONDS` (`5+3`, `0+1`, `1.5+0`) or `MINUTES` (`10`): each side's time in
/// minutes and the increment each move adds, in seconds, as every program here reads a time
/// control ([`TimeControl`]'s text, with its ranges); the game's clocks have no periods and
/// give at least a second.
///
/// # Errors
/// What is wrong with the text: not two numbers, a negative or too large one, or no time at
/// all (`0+0`).
pub fn parse_clock(text: &str) -> anyhow::Result<TimeControl> {
    let control: TimeControl = text.parse()?;
    let bad = |why: &str| anyhow::anyhow!("{text:?}: {why}; write MINUTES+SECONDS (5+3, 0+1, 10)");
    if control.moves.is_some() {
        return Err(bad("the game's clocks have no periods of moves"));
    }
    if control.base + control.increment < Duration::from_secs(1) {
        return Err(bad("a clock needs at least a second, in minutes or increment"));
    }
    Ok(control)
}

/// `5+3`: a time control as `--clock` takes it (minutes, then seconds).
pub fn clock_text(control: TimeControl) -> String {
    control.to_string()
}

/// Both sides' clocks during a game, and when the one running started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    /// The time control the game is played at.
    pub control: TimeControl,
    clocks: Clocks,
    /// The side whose clock runs and since when; `None` once the game is over.
    running: Option<(Side, Instant)>,
}

impl GameClock {
    /// Both clocks full, `to_move`'s running from `now`. Each side starts with its minutes and
    /// one increment (as a Fischer clock gives the increment for the first move too), so that
    /// `0+1` is playable.
    pub fn new(control: TimeControl, to_move: Side, now: Instant) -> GameClock {
        let mut clocks = Clocks::new(control);
        clocks.sheep.remaining += control.increment;
        clocks.tiger.remaining += control.increment;
        GameClock { control, clocks, running: Some((to_move, now)) }
    }

    /// The same clocks with this much left for each side (a resumed game's).
    #[must_use]
    pub fn with_left(mut self, sheep: Duration, tiger: Duration) -> GameClock {
        self.clocks.sheep.remaining = sheep;
        self.clocks.tiger.remaining = tiger;
        self
    }

    /// What `side` has left at `now`, counting the running clock down.
    pub fn remaining(&self, side: Side, now: Instant) -> Duration {
        let left = self.clocks.of(side).remaining;
        match self.running {
            Some((running, since)) if running == side => {
                left.saturating_sub(now.saturating_duration_since(since))
            }
            _ => left,
        }
    }

    /// The side whose clock runs, if one does.
    pub fn running(&self) -> Option<Side> {
        self.running.map(|(side, _)| side)
    }

    /// The side whose flag has fallen at `now`: the running clock is at zero.
    pub fn flag(&self, now: Instant) -> Option<Side> {
        let (side, _) = self.running?;
        self.remaining(side, now).is_zero().then_some(side)
    }

    /// A move by `side` at `now`: its time comes off its clock and the increment goes on, and
    /// the other side's clock starts. `Err` with the side if the move came after its flag fell.
    ///
    /// # Errors
    /// The side whose flag fell before the move.
    pub fn punch(&mut self, side: Side, now: Instant) -> Result<(), Side> {
        let used = match self.running {
            Some((running, since)) if running == side => now.saturating_duration_since(since),
            _ => Duration::ZERO,
        };
        self.clocks.spend(side, used, self.control, Duration::ZERO).map_err(|_| side)?;
        self.running = Some((side.other(), now));
        Ok(())
    }

    /// Moves taken back, by the sides that made them: each loses the increment it earned (the
    /// time spent thinking stays spent), so a take-back never adds time.
    pub fn take_back(&mut self, movers: impl Iterator<Item = Side>) {
        for side in movers {
            let clock = match side {
                Side::Sheep => &mut self.clocks.sheep,
                Side::Tiger => &mut self.clocks.tiger,
            };
            clock.remaining = clock.remaining.saturating_sub(self.control.increment);
        }
    }

    /// Starts `side`'s clock at `now` (after a take-back, say: the time already used stays
    /// used), or stops both with `None` (the game is over).
    pub fn restart(&mut self, side: Option<Side>, now: Instant) {
        if let Some((running, since)) = self.running {
            let used = now.saturating_duration_since(since);
            let clock = match running {
                Side::Sheep => &mut self.clocks.sheep,
                Side::Tiger => &mut self.clocks.tiger,
            };
            clock.remaining = clock.remaining.saturating_sub(used);
        }
        self.running = side.map(|s| (s, now));
    }

    /// How long a computer playing `side` may think at `now`: a share of what its clock has
    /// left, as an engine under a clock spends it.
    pub fn limits(&self, side: Side, now: Instant) -> Limits {
        let mut clock = *self.clocks.of(side);
        clock.remaining = self.remaining(side, now);
        clock.limits()
    }
}

/// `4:59`, `0:09.3` under ten seconds, `1:02:03` from an hour: a clock's time as players read it.
pub fn clock_face(left: Duration) -> String {
    let tenths = left.as_millis() / 100;
    let secs = tenths / 10;
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else if secs < 10 {
        format!("{m}:{s:02}.{}", tenths % 10)
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn clocks_parse_as_minutes_and_seconds() {
        let tc = parse_clock("5+3").unwrap();
        assert_eq!((tc.base, tc.increment), (Duration::from_secs(300), Duration::from_secs(3)));
        assert_eq!(clock_text(tc), "5+3");
        let tc = parse_clock("0+1").unwrap();
        assert_eq!((tc.base, tc.increment), (Duration::ZERO, Duration::from_secs(1)));
        assert_eq!(parse_clock("10").unwrap().base, Duration::from_secs(600));
        assert_eq!(parse_clock("1.5+0.5").unwrap().base, Duration::from_secs(90));
        for bad in ["", "0+0", "-1+3", "5+-3", "x+3", "5+x", "NaN", "inf+1", "601+0", "5+3601"] {
            let err = parse_clock(bad).unwrap_err().to_string();
            assert!(err.contains("MINUTES+SECONDS"), "{bad}: {err}");
        }
        assert!(parse_clock("0+0").unwrap_err().to_string().contains("needs some time"));
    }

    #[test]
    fn a_clock_runs_for_the_side_to_move_and_gains_its_increment() {
        let t0 = Instant::now();
        let tc = parse_clock("0.1+1").unwrap(); // 6 s, and 1 s a move
        let mut clock = GameClock::new(tc, Side::Sheep, t0);
        // Each starts with 6 s and one increment.
        assert_eq!(clock.remaining(Side::Sheep, t0), ms(7000));
        assert_eq!(clock.remaining(Side::Sheep, t0 + ms(2500)), ms(4500));
        assert_eq!(clock.remaining(Side::Tiger, t0 + ms(2500)), ms(7000), "not running");
        assert_eq!(clock.punch(Side::Sheep, t0 + ms(2500)), Ok(()));
        assert_eq!(clock.remaining(Side::Sheep, t0 + ms(9000)), ms(5500), "stopped, +1 s");
        assert_eq!(clock.running(), Some(Side::Tiger));
        assert_eq!(clock.remaining(Side::Tiger, t0 + ms(3500)), ms(6000));
        assert_eq!(clock.flag(t0 + ms(3500)), None);
        // The tigers let 7 s pass: their flag falls, and a move after it is refused.
        assert_eq!(clock.flag(t0 + ms(9600)), Some(Side::Tiger));
        assert_eq!(clock.punch(Side::Tiger, t0 + ms(9600)), Err(Side::Tiger));
    }

    #[test]
    fn a_restart_keeps_the_time_used_and_a_stop_freezes_both() {
        let t0 = Instant::now();
        let mut clock = GameClock::new(parse_clock("1+0").unwrap(), Side::Sheep, t0);
        clock.restart(Some(Side::Sheep), t0 + ms(10_000));
        assert_eq!(clock.remaining(Side::Sheep, t0 + ms(10_000)), ms(50_000));
        clock.restart(None, t0 + ms(20_000));
        assert_eq!(clock.running(), None);
        assert_eq!(clock.remaining(Side::Sheep, t0 + ms(90_000)), ms(40_000));
        assert_eq!(clock.flag(t0 + ms(90_000)), None);
    }

    #[test]
    fn a_computers_share_is_less_than_its_time_left() {
        let t0 = Instant::now();
        let clock = GameClock::new(parse_clock("0+1").unwrap(), Side::Sheep, t0);
        let limits = clock.limits(Side::Sheep, t0 + ms(200));
        let time = limits.time.expect("a time limit");
        assert!(time > Duration::ZERO && time < ms(800), "{time:?}");
    }

    #[test]
    fn clock_faces() {
        assert_eq!(clock_face(ms(299_999)), "4:59");
        assert_eq!(clock_face(ms(9_340)), "0:09.3");
        assert_eq!(clock_face(Duration::ZERO), "0:00.0");
        assert_eq!(clock_face(ms(3_723_000)), "1:02:03");
    }
}
