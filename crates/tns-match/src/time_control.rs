//! Time controls for matches: each side's clock, as cutechess and fastchess play them.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use tns_board::Side;
use tns_search::Clock;

/// A time control: each side starts with `base`, gains `increment` after each of its moves,
/// and, with `moves`, gains `base` again after every `moves` of its moves.
///
/// Written `BASE+INC` in seconds (`10+0.1`, `60`), or `MOVES/BASE+INC` (`40/60+0.5`), as
/// cutechess's `tc=` and PGN's `TimeControl` tag write it.
///
/// ```
/// use std::time::Duration;
/// use tns_match::TimeControl;
///
/// let tc: TimeControl = "10+0.1".parse()?;
/// assert_eq!((tc.base, tc.increment, tc.moves), (Duration::from_secs(10), Duration::from_millis(100), None));
/// assert_eq!(tc.to_string(), "10+0.1");
/// # Ok::<(), tns_match::TimeControlError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time each side starts with (and gains again each period).
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves in a period, if the control has periods.
    pub moves: Option<u32>,
}

/// Why a time control does not parse.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad time control {given:?}: expected BASE+INC in seconds (10+0.1), BASE (60), or \
     MOVES/BASE+INC (40/60+0.5), with BASE above 0 and at most a day"
)]
pub struct TimeControlError {
    /// The text given (its first 40 characters).
    pub given: String,
}

fn seconds(text: &str, allow_zero: bool) -> Option<Duration> {
    let t: f64 = text.parse().ok()?;
    let ok = t.is_finite() && t <= 86_400.0 && (t > 0.0 || allow_zero && t == 0.0);
    ok.then(|| Duration::from_secs_f64(t))
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let bad = || TimeControlError { given: s.chars().take(40).collect() };
        let (moves, rest) = match s.split_once('/') {
            Some((moves, rest)) => {
                let n: u32 =
                    moves.parse().ok().filter(|n| (1..=1000).contains(n)).ok_or_else(bad)?;
                (Some(n), rest)
            }
            None => (None, s),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((base, inc)) => (seconds(base, false), seconds(inc, true)),
            None => (seconds(rest, false), Some(Duration::ZERO)),
        };
        Ok(TimeControl {
            base: base.ok_or_else(bad)?,
            increment: increment.ok_or_else(bad)?,
            moves,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", self.base.as_secs_f64())?;
        if !self.increment.is_zero() {
            write!(f, "+{}", self.increment.as_secs_f64())?;
        }
        Ok(())
    }
}

/// Both sides' clocks during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// The sheep's clock.
    pub sheep: Clock,
    /// The tigers' clock.
    pub tiger: Clock,
}

impl Clocks {
    /// Both clocks at the start of a game under `tc`.
    pub fn new(tc: TimeControl) -> Clocks {
        let mut clock = Clock::new(tc.base).with_increment(tc.increment);
        if let Some(moves) = tc.moves {
            clock = clock.with_moves_to_go(moves);
        }
        Clocks { sheep: clock, tiger: clock }
    }

    /// The clock of `side`.
    pub fn of(&self, side: Side) -> &Clock {
        match side {
            Side::Sheep => &self.sheep,
            Side::Tiger => &self.tiger,
        }
    }

    /// Counts a move of `side` that took `used`: its time comes off the clock, the increment
    /// goes on (and the base again at the end of a period). `Err` when the flag fell: the move
    /// took more than the time left and `margin` besides.
    ///
    /// # Errors
    /// The time the move took beyond what was left, when that is more than `margin`.
    pub fn spend(
        &mut self,
        side: Side,
        used: Duration,
        tc: TimeControl,
        margin: Duration,
    ) -> Result<(), Duration> {
        let clock = match side {
            Side::Sheep => &mut self.sheep,
            Side::Tiger => &mut self.tiger,
        };
        if used > clock.remaining + margin {
            return Err(used.saturating_sub(clock.remaining));
        }
        clock.remaining = clock.remaining.saturating_sub(used) + tc.increment;
        if let (Some(period), Some(left)) = (tc.moves, clock.moves_to_go) {
            if left <= 1 {
                clock.remaining += tc.base;
                clock.moves_to_go = Some(period);
            } else {
                clock.moves_to_go = Some(left - 1);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn time_controls_parse_and_print() {
        let tc: TimeControl = "40/60+0.5".parse().unwrap();
        assert_eq!((tc.moves, tc.base, tc.increment), (Some(40), ms(60_000), ms(500)));
        assert_eq!(tc.to_string(), "40/60+0.5");
        assert_eq!("60".parse::<TimeControl>().unwrap().to_string(), "60");
        assert_eq!("0.5+0".parse::<TimeControl>().unwrap().to_string(), "0.5");
        for bad in ["", "0+1", "-1+1", "10+-1", "x", "10+", "0/10", "10+0.1+3", "NaN", "1e9"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_clock_runs_down_gains_its_increment_and_its_flag_falls() {
        let tc: TimeControl = "1+0.1".parse().unwrap();
        let mut clocks = Clocks::new(tc);
        clocks.spend(Side::Sheep, ms(300), tc, ms(0)).unwrap();
        assert_eq!(clocks.sheep.remaining, ms(800));
        assert_eq!(clocks.tiger.remaining, ms(1000));
        // Within the margin: the move stands, the clock stays at zero plus the increment.
        clocks.spend(Side::Sheep, ms(820), tc, ms(50)).unwrap();
        assert_eq!(clocks.sheep.remaining, ms(100));
        // Beyond it: the flag falls, by how much is said.
        assert_eq!(clocks.spend(Side::Sheep, ms(200), tc, ms(50)), Err(ms(100)));
        // Periods: the base comes back after the period's moves.
        let tc: TimeControl = "2/1".parse().unwrap();
        let mut clocks = Clocks::new(tc);
        clocks.spend(Side::Tiger, ms(400), tc, ms(0)).unwrap();
        assert_eq!(clocks.tiger.moves_to_go, Some(1));
        clocks.spend(Side::Tiger, ms(400), tc, ms(0)).unwrap();
        assert_eq!((clocks.tiger.remaining, clocks.tiger.moves_to_go), (ms(1200), Some(2)));
    }
}
