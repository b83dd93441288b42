//! Time management: how much of a clock one move gets.

use std::time::Duration;

use crate::limits::Limits;

/// The clock of the side to move, as a controller gives it (TSI's `go stime ... ttime ...`,
/// UCI's `wtime`/`btime`): what is left, what each move adds, and how many moves remain until
/// the next time control, if the control has such a period.
///
/// [`Clock::limits`] turns it into a target time and a hard limit for one search.
///
/// ```
/// use std::time::Duration;
/// use tns_search::Clock;
///
/// let clock = Clock::new(Duration::from_secs(10)).with_increment(Duration::from_millis(100));
/// let limits = clock.limits();
/// let (target, hard) = (limits.target.unwrap(), limits.time.unwrap());
/// assert!(target < hard && hard < Duration::from_secs(4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves (of this side) until the clock is topped up, if the control has periods.
    pub moves_to_go: Option<u32>,
}

/// Time kept back on every move for what happens outside the search: the controller reading
/// the answer, the process being scheduled.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(10);

/// The number of moves a clock is shared over when the control says nothing of it: about the
/// moves a side still makes in a long game, so that the time left shrinks by a twenty-fifth a
/// move and never runs out.
const MOVES_LEFT: u32 = 25;

impl Clock {
    /// A clock with `remaining` left, no increment, and no period.
    pub const fn new(remaining: Duration) -> Clock {
        Clock { remaining, increment: Duration::ZERO, moves_to_go: None }
    }

    /// This clock with an increment.
    #[must_use]
    pub const fn with_increment(mut self, increment: Duration) -> Clock {
        self.increment = increment;
        self
    }

    /// This clock with `moves` moves until the next period (at least 1).
    #[must_use]
    pub const fn with_moves_to_go(mut self, moves: u32) -> Clock {
        self.moves_to_go = Some(if moves == 0 { 1 } else { moves });
        self
    }

    /// The limits of one search on this clock: a target of an even share of the time left
    /// plus most of the increment, and a hard limit of four targets, never more than two
    /// fifths of what is left (nine tenths on the last move of a period), both at least 1 ms.
    pub fn limits(&self) -> Limits {
        let usable = self.remaining.saturating_sub(MOVE_OVERHEAD);
        let moves = self.moves_to_go.unwrap_or(MOVES_LEFT).max(1);
        let share = usable / moves + self.increment * 3 / 4;
        let ceiling = if moves == 1 { usable * 9 / 10 } else { usable * 2 / 5 };
        let at_least = Duration::from_millis(1);
        let hard = (share * 4).min(ceiling).max(at_least);
        let target = share.min(hard).max(at_least);
        Limits::none().with_target(target).with_time(hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_clock_is_shared_and_never_overdrawn() {
        let limits = Clock::new(ms(10_000)).limits();
        // 9,990 ms usable over 25 moves.
        assert_eq!(limits.target, Some(ms(399) + Duration::from_micros(600)));
        assert_eq!(limits.time, Some(ms(1598) + Duration::from_micros(400)));
        // The increment adds three quarters of itself.
        let with_inc = Clock::new(ms(10_000)).with_increment(ms(100)).limits();
        assert_eq!(with_inc.target, Some(ms(474) + Duration::from_micros(600)));
        // The last move of a period may use most of what is left.
        let last = Clock::new(ms(1000)).with_moves_to_go(1).limits();
        assert_eq!(last.time, Some(ms(891)));
        // Nearly out of time: a millisecond, not zero and not more than there is.
        let out = Clock::new(ms(5)).with_increment(ms(0)).limits();
        assert_eq!((out.target, out.time), (Some(ms(1)), Some(ms(1))));
        // Whatever the clock, the hard limit keeps three fifths of the time left.
        for left in [20, 100, 1000, 60_000, 3_600_000] {
            for inc in [0, 10, 1000] {
                let l = Clock::new(ms(left)).with_increment(ms(inc)).limits();
                let (target, hard) = (l.target.unwrap(), l.time.unwrap());
                assert!(target <= hard, "{left} {inc}");
                assert!(hard <= (ms(left) * 2 / 5).max(ms(1)), "{left} {inc}: {hard:?}");
            }
        }
    }
}
