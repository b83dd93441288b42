//! What a move does to the result its side could reach: the one rule every front end marks
//! moves by.

use crate::{Value, Verdict, Wdl};

/// What a move does to the result of the position it is played from, judged against the best
/// move there ([`Tablebase::verdicts`](crate::Tablebase::verdicts) lists it first).
///
/// Nothing is thrown away that was not held: in a lost position every move loses, and the best
/// are those that lose slowest (the longest defence), not a move that "throws the result away".
///
/// ```
/// use tns_tablebase::{MoveEffect, Value, Verdict, Wdl};
///
/// let best = Verdict::from(Value::Loss(20));
/// assert_eq!(MoveEffect::of(best, Verdict::from(Value::Loss(20))), MoveEffect::Keeps);
/// assert_eq!(MoveEffect::of(best, Verdict::from(Value::Loss(6))), MoveEffect::LosesSooner);
/// let won = Verdict::from(Value::Win(9));
/// assert_eq!(MoveEffect::of(won, Verdict::from(Value::Win(15))), MoveEffect::Keeps);
/// assert_eq!(MoveEffect::of(won, Verdict::from(Wdl::Draw)), MoveEffect::GivesUpWin);
/// assert_eq!(MoveEffect::of(won, Verdict::from(Value::Loss(3))), MoveEffect::Loses);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MoveEffect {
    /// Keeps the position's result: a win (fast or slow) or a draw held, or, in a lost
    /// position, a loss as slow as the best defence's (or of unknown distance, as in the
    /// placement phase, where every losing move is alike).
    Keeps,
    /// The position is lost whatever is played, and this move loses sooner than the best
    /// defence.
    LosesSooner,
    /// Gives up a win for a draw.
    GivesUpWin,
    /// Turns a win or a draw into a loss.
    Loses,
}

impl MoveEffect {
    /// The effect of a move whose verdict is `played`, in a position whose best move's verdict
    /// is `best` (both for the side that moves).
    pub fn of(best: Verdict, played: Verdict) -> MoveEffect {
        match (best.wdl, played.wdl) {
            (Wdl::Loss, _) => match (best.value, played.value) {
                (Some(Value::Loss(longest)), Some(Value::Loss(n))) if n < longest => {
                    MoveEffect::LosesSooner
                }
                _ => MoveEffect::Keeps,
            },
            (held, now) if held == now => MoveEffect::Keeps,
            (Wdl::Win, Wdl::Draw) => MoveEffect::GivesUpWin,
            _ => MoveEffect::Loses,
        }
    }

    /// Each move of `verdicts` (best first, as [`Tablebase::verdicts`](crate::Tablebase::verdicts)
    /// gives them) with its effect.
    pub fn of_each<M: Copy>(
        verdicts: &[(M, Verdict)],
    ) -> impl Iterator<Item = (M, Verdict, MoveEffect)> + '_ {
        let best = verdicts.first().map(|&(_, v)| v);
        verdicts
            .iter()
            .map(move |&(m, v)| (m, v, best.map_or(MoveEffect::Keeps, |b| MoveEffect::of(b, v))))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn verdict() -> impl Strategy<Value = Verdict> {
        prop_oneof![
            (1u16..200).prop_map(|n| Verdict::from(Value::Win(n))),
            (0u16..200).prop_map(|n| Verdict::from(Value::Loss(n))),
            Just(Verdict::from(Wdl::Draw)),
            Just(Verdict::from(Wdl::Win)),
            Just(Verdict::from(Wdl::Loss)),
        ]
    }

    proptest! {
        /// The best move always keeps; a move is said to lose or give up only what its
        /// position held; a move that loses sooner does so only in a lost position, and only
        /// where both distances are known and its is shorter.
        #[test]
        fn the_rule_holds(a in verdict(), b in verdict()) {
            let (best, played) = if a >= b { (a, b) } else { (b, a) };
            prop_assert_eq!(MoveEffect::of(best, best), MoveEffect::Keeps);
            match MoveEffect::of(best, played) {
                MoveEffect::Keeps => prop_assert_eq!(best.wdl, played.wdl),
                MoveEffect::LosesSooner => {
                    prop_assert_eq!((best.wdl, played.wdl), (Wdl::Loss, Wdl::Loss));
                    prop_assert!(played < best);
                }
                MoveEffect::GivesUpWin => {
                    prop_assert_eq!((best.wdl, played.wdl), (Wdl::Win, Wdl::Draw));
                }
                MoveEffect::Loses => {
                    prop_assert!(best.wdl != Wdl::Loss && played.wdl == Wdl::Loss);
                }
            }
        }
    }
}
