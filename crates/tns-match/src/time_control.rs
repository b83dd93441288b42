//! Time controls: each side's clock, in matches as cutechess and fastchess play them and in
//! the game; one way of writing them for every program.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use tns_board::Side;
use tns_search::Clock;

/// A time control: each side starts with `base`, gains `increment` after each of its moves,
/// and, with `moves`, gains `base` again after every `moves` of its moves.
///
/// Written `BASE+INC` as people and lichess write it: the base in minutes, the increment in
/// seconds (`5+3`, `0+1`, `10`); a base in seconds carries an `s` (`10s+0.1`, for engine
/// matches); `MOVES/BASE+INC` adds periods (`40/5+3`). Every program here reads it so
/// (`--clock`, `--tc`), and `Display` writes it back so. A game record's `TimeControl` tag is
/// PGN's form, in seconds ([`TimeControl::pgn`]).
///
/// ```
/// use std::time::Duration;
/// use tns_match::TimeControl;
///
/// let tc: TimeControl = "5+3".parse()?;
/// assert_eq!((tc.base, tc.increment, tc.moves), (Duration::from_secs(300), Duration::from_secs(3), None));
/// assert_eq!(tc.to_string(), "5+3");
/// assert_eq!(tc.pgn(), "300+3");
/// let quick: TimeControl = "10s+0.1".parse()?;
/// assert_eq!((quick.base, quick.increment), (Duration::from_secs(10), Duration::from_millis(100)));
/// assert_eq!(quick.to_string(), "10s+0.1");
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

/// The longest base a time control takes: ten hours.
pub const MAX_BASE: Duration = Duration::from_secs(10 * 3600);

/// The longest increment a time control takes: an hour.
pub const MAX_INCREMENT: Duration = Duration::from_secs(3600);

/// Why a time control does not parse.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad time control {given:?}: {why}; write MINUTES+SECONDS, the minutes each side has and \
     the seconds each move adds (5+3, 0+1, 10), a base in seconds with an s (10s+0.1), or \
     MOVES/BASE+INC (40/5+3)"
)]
pub struct TimeControlError {
    /// The text given (its first 40 characters).
    pub given: String,
    /// What is wrong with it.
    pub why: String,
}

/// A number of `unit`s (60 s for minutes) as a time, rounded to the millisecond, within `max`.
fn time(text: &str, unit: f64, max: Duration, what: &str) -> Result<Duration, String> {
    let n: f64 = text.trim().parse().map_err(|_| format!("{what}: not a number"))?;
    if !n.is_finite() {
        return Err(format!("{what}: not a number"));
    }
    if n < 0.0 {
        return Err(format!("{what}: must be 0 or more"));
    }
    if n * unit > max.as_secs_f64() {
        return Err(format!("{what}: at most {}", max.as_secs_f64() / unit));
    }
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "checked: 0 to ten hours, in milliseconds"
    )]
    Ok(Duration::from_millis((n * unit * 1000.0).round() as u64))
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let bad = |why: String| TimeControlError { given: s.chars().take(40).collect(), why };
        let text = s.trim();
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => {
                let n = moves.trim().parse().ok().filter(|n| (1..=1000).contains(n));
                let n: u32 =
                    n.ok_or_else(|| bad("the moves: a whole number from 1 to 1000".into()))?;
                (Some(n), rest)
            }
            None => (None, text),
        };
        let (base, increment) = rest.split_once('+').unwrap_or((rest, "0"));
        let base = match base.trim().strip_suffix('s') {
            Some(seconds) => time(seconds, 1.0, MAX_BASE, "the base's seconds"),
            None => time(base, 60.0, MAX_BASE, "the minutes"),
        };
        let increment = time(increment, 1.0, MAX_INCREMENT, "the increment");
        let tc =
            TimeControl { base: base.map_err(bad)?, increment: increment.map_err(bad)?, moves };
        if tc.base.is_zero() && tc.increment.is_zero() {
            return Err(bad("a clock needs some time".into()));
        }
        Ok(tc)
    }
}

impl fmt::Display for TimeControl {
    /// `[MOVES/]BASE+INC`: the base in minutes where it is a whole tenth of a minute, else in
    /// seconds with an `s`, so that the text reads back to the same control.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        let ms = self.base.as_millis();
        #[expect(clippy::cast_precision_loss, reason = "at most ten hours, in milliseconds")]
        if ms.is_multiple_of(6000) {
            write!(f, "{}", ms as f64 / 60_000.0)?;
        } else {
            write!(f, "{}s", self.base.as_secs_f64())?;
        }
        write!(f, "+{}", self.increment.as_secs_f64())
    }
}

impl TimeControl {
    /// The control as a game record's `TimeControl` tag writes it, PGN's form: the base in
    /// seconds, `+INC` when there is one (`300+3`, `0.3`, `40/60+0.5`). Records keep the form
    /// they always had, so old and new ones read alike.
    pub fn pgn(&self) -> String {
        let moves = self.moves.map(|moves| format!("{moves}/")).unwrap_or_default();
        let increment = if self.increment.is_zero() {
            String::new()
        } else {
            format!("+{}", self.increment.as_secs_f64())
        };
        format!("{moves}{}{increment}", self.base.as_secs_f64())
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
        assert_eq!((tc.moves, tc.base, tc.increment), (Some(40), ms(3_600_000), ms(500)));
        assert_eq!(tc.to_string(), "40/60+0.5");
        assert_eq!(tc.pgn(), "40/3600+0.5");
        let tc: TimeControl = "40/60s+0.5".parse().unwrap();
        assert_eq!((tc.to_string(), tc.pgn()), ("40/1+0.5".into(), "40/60+0.5".into()));
        assert_eq!("60".parse::<TimeControl>().unwrap().to_string(), "60+0");
        assert_eq!("0.5s+0".parse::<TimeControl>().unwrap().to_string(), "0.5s+0");
        assert_eq!("0.5s".parse::<TimeControl>().unwrap().pgn(), "0.5");
        assert_eq!("0.1+1".parse::<TimeControl>().unwrap().base, ms(6000));
        assert_eq!("0+1".parse::<TimeControl>().unwrap().to_string(), "0+1");
        assert_eq!(" 1.5 + 2 ".parse::<TimeControl>().unwrap().to_string(), "1.5+2");
        // Every text it writes reads back to the same control.
        for text in ["5+3", "10s+0.1", "7s+0", "0.3s+0", "40/2+1", "600+3600", "0.1+0.001"] {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(tc.to_string().parse::<TimeControl>().unwrap(), tc, "{text}");
        }
        for bad in [
            "", "0+0", "-1+1", "10+-1", "x", "10+", "0/10", "10+0.1+3", "NaN", "1e9", "601+0",
            "5+3601", "inf+1", "5s+x", "s+1",
        ] {
            let err = bad.parse::<TimeControl>().unwrap_err().to_string();
            assert!(err.contains("MINUTES+SECONDS"), "{bad}: {err}");
        }
        let err = |s: &str| s.parse::<TimeControl>().unwrap_err().why;
        assert_eq!(err("0+0"), "a clock needs some time");
        assert_eq!(err("601"), "the minutes: at most 600");
        assert_eq!(err("36001s"), "the base's seconds: at most 36000");
        assert_eq!(err("5+x"), "the increment: not a number");
    }

    #[test]
    fn a_clock_runs_down_gains_its_increment_and_its_flag_falls() {
        let tc: TimeControl = "1s+0.1".parse().unwrap();
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
        let tc: TimeControl = "2/1s".parse().unwrap();
        let mut clocks = Clocks::new(tc);
        clocks.spend(Side::Tiger, ms(400), tc, ms(0)).unwrap();
        assert_eq!(clocks.tiger.moves_to_go, Some(1));
        clocks.spend(Side::Tiger, ms(400), tc, ms(0)).unwrap();
        assert_eq!((clocks.tiger.remaining, clocks.tiger.moves_to_go), (ms(1200), Some(2)));
    }
}
