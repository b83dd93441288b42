//! The search's scores: evaluations and wins or losses that encode their distance.
//!
//! A [`Score`] is from the side to move's point of view. A win `n` plies from the root of the
//! search is [`Score::win_in`]`(n)`, a loss [`Score::loss_in`]`(n)`; everything else is an
//! evaluation ([`Eval`]), clamped within [`Eval::LIMIT`]. So the engine prefers the fastest win
//! and the slowest loss, and one `Ord` compares them all.
//!
//! A score is its own type, not an `i32`, because three scales used to share one: the search's
//! (this one), the evaluator's ([`Eval`], whose unit is each evaluator's own) and the one
//! people are shown ([`Expected`](crate::Expected), ten-thousandths of a certain win). Each
//! crossing from one to another is now a named conversion ([`Score::from_eval`],
//! [`Score::as_eval`], [`Score::shown`](crate::Score::shown)), so none happens by accident.

use std::ops::Neg;

use tns_board::Side;

use crate::eval::Eval;

/// The score of a win at the root (never reached: a win is at least one ply away).
const WIN: i32 = 30_000;
/// Scores at or beyond this magnitude are wins or losses: up to 5,000 plies away, far more
/// than the search reaches, so a tablebase's long wins still count as wins.
const WIN_THRESHOLD: i32 = WIN - MOST_PLIES;
/// The farthest distance a score holds; farther wins count as this far.
const MOST_PLIES: i32 = 5_000;
/// The deepest ply the search can reach.
pub const MAX_PLY: usize = 128;

/// A search's score from the side to move's view: an evaluation, a draw, or a forced win or
/// loss with its distance in plies.
///
/// It is an `i32` underneath and `repr(transparent)`: the search's inner loop compares,
/// negates and stores these as it did the bare numbers, at the same cost (`tns-bench search`
/// measured the change: the same node counts at the same speed, docs/results.md). Only the
/// transposition table sees the number (it packs it into 16 bits).
///
/// ```
/// use tns_search::{Eval, Score};
///
/// let win = Score::win_in(7);
/// assert!(win.is_decisive() && win > Score::from_eval(Eval::LIMIT));
/// assert_eq!(win.plies_to_end(), Some(7));
/// assert_eq!(-win, Score::loss_in(7));
/// assert!(Score::win_in(3) > Score::win_in(7), "the faster win is the better");
/// assert_eq!(Score::from_eval(Eval::new(250)).plies_to_end(), None);
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(i32);

impl Score {
    /// A draw (a repetition, or a drawn position the evaluator knows exactly).
    pub const DRAW: Score = Score(0);
    /// Beyond every score, for the search window: no score reaches it.
    pub const INFINITY: Score = Score(32_000);

    /// The score of a win `ply` plies from the root (a ply beyond 5,000, which no search
    /// reaches, counts as 5,000, so the score is still a win).
    pub const fn win_in(ply: usize) -> Score {
        Score(WIN - plies(ply))
    }

    /// The score of a loss `ply` plies from the root (beyond 5,000 as [`Score::win_in`]).
    pub const fn loss_in(ply: usize) -> Score {
        Score(-WIN + plies(ply))
    }

    /// An evaluation as a score, clamped to `±`[`Eval::LIMIT`] so that no evaluation, whatever
    /// an evaluator returns, reads as a forced result.
    pub const fn from_eval(eval: Eval) -> Score {
        let e = eval.get();
        let limit = Eval::LIMIT.get();
        Score(if e > limit {
            limit
        } else if e < -limit {
            -limit
        } else {
            e
        })
    }

    /// The score on the evaluator's scale: an evaluation as it was (the search's values that
    /// are not forced results are its evaluations, negated from ply to ply), a forced result as
    /// the number it is encoded as, past every evaluation. What an evaluator reads its chances
    /// from ([`Evaluator::chances`](crate::Evaluator::chances)) and what a
    /// [`WdlModel`](crate::WdlModel) fitted on searches' root scores is fitted on.
    pub const fn as_eval(self) -> Eval {
        Eval::new(self.0)
    }

    /// Whether the score is a forced win or loss.
    pub const fn is_decisive(self) -> bool {
        self.0.abs() >= WIN_THRESHOLD
    }

    /// For a forced win or loss, the number of plies to the end; `None` for other scores.
    #[expect(clippy::cast_sign_loss, reason = "at most 5,000 for a decisive score")]
    pub const fn plies_to_end(self) -> Option<u32> {
        if self.is_decisive() { Some((WIN - self.0.abs()) as u32) } else { None }
    }

    /// The least score above this one: the top of a null window (principal variation search
    /// asks whether a move beats `alpha` with the window `(alpha, alpha.next())`).
    pub(crate) const fn next(self) -> Score {
        Score(self.0 + 1)
    }

    /// The number underneath, for the transposition table's packing.
    pub(crate) const fn get(self) -> i32 {
        self.0
    }

    /// The score whose number is `raw`, as the transposition table unpacks it.
    pub(crate) const fn from_raw(raw: i32) -> Score {
        Score(raw)
    }

    /// This score, relative to the root, as one relative to the node at `ply`, for storing in
    /// the transposition table (wins count from the node, so they stay true wherever it
    /// recurs).
    pub(crate) const fn to_node(self, ply: usize) -> Score {
        if self.0 >= WIN_THRESHOLD {
            Score(self.0 + plies(ply))
        } else if self.0 <= -WIN_THRESHOLD {
            Score(self.0 - plies(ply))
        } else {
            self
        }
    }

    /// The inverse of [`Score::to_node`]: a score stored relative to the node at `ply` as one
    /// relative to the root.
    pub(crate) const fn to_root(self, ply: usize) -> Score {
        if self.0 >= WIN_THRESHOLD {
            Score(self.0 - plies(ply))
        } else if self.0 <= -WIN_THRESHOLD {
            Score(self.0 + plies(ply))
        } else {
            self
        }
    }

    /// The score as a developer reads it, given the side to move: a forced result in the
    /// tablebase's words, `"Tigers win in 7"` (plies), else the evaluation from the tigers'
    /// view over 100 (sheep, for the [`Heuristic`](crate::Heuristic); a hundred of another
    /// evaluator's units), such as `"+1.25"`. The benches print this, to compare searches in
    /// the evaluator's own units; people are shown [`Score::shown`] instead, one unit whatever
    /// the evaluator.
    ///
    /// ```
    /// use tns_board::Side;
    /// use tns_search::{Eval, Score};
    ///
    /// assert_eq!(Score::win_in(7).describe(Side::Tiger), "Tigers win in 7");
    /// assert_eq!(Score::win_in(3).describe(Side::Sheep), "Sheep win in 3");
    /// assert_eq!((-Score::win_in(4)).describe(Side::Sheep), "Tigers win in 4");
    /// assert_eq!(Score::from_eval(Eval::new(-150)).describe(Side::Tiger), "-1.50");
    /// ```
    pub fn describe(self, side_to_move: Side) -> String {
        let tiger_view = self.0 * side_to_move.sign();
        match self.plies_to_end() {
            Some(n) => {
                let winner = if tiger_view > 0 { Side::Tiger } else { Side::Sheep };
                format!("{} win in {n}", winner.plural())
            }
            None => format!("{:+.2}", f64::from(tiger_view) / 100.0),
        }
    }
}

impl Neg for Score {
    type Output = Score;

    /// The same score from the other side's view: a win becomes a loss at the same distance.
    #[inline]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

/// `ply` as a score's distance, at most [`MOST_PLIES`].
#[expect(clippy::cast_possible_truncation, clippy::cast_possible_wrap, reason = "at most 5,000")]
const fn plies(ply: usize) -> i32 {
    const MOST: usize = MOST_PLIES as usize;
    (if ply < MOST { ply } else { MOST }) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Any score the search can hold: evaluations, forced results at any distance, and the
    /// numbers between (never produced, but the invariants hold for them too).
    fn any_score() -> impl Strategy<Value = Score> {
        (-WIN..=WIN).prop_map(Score)
    }

    proptest! {
        #[test]
        fn a_forced_result_gives_back_its_distance(ply in 0usize..=5_000) {
            let n = u32::try_from(ply).unwrap();
            prop_assert_eq!(Score::win_in(ply).plies_to_end(), Some(n));
            prop_assert_eq!(Score::loss_in(ply).plies_to_end(), Some(n));
            prop_assert!(Score::win_in(ply) > Score::from_eval(Eval::LIMIT));
            prop_assert!(Score::loss_in(ply) < Score::from_eval(-Eval::LIMIT));
        }

        #[test]
        fn farther_than_the_farthest_is_still_forced(ply in 5_000usize..1_000_000) {
            prop_assert_eq!(Score::win_in(ply), Score::win_in(5_000));
            prop_assert!(Score::win_in(ply).is_decisive() && Score::loss_in(ply).is_decisive());
        }

        #[test]
        fn negation_swaps_wins_and_losses(ply in 0usize..=5_000, score in any_score()) {
            prop_assert_eq!(-Score::win_in(ply), Score::loss_in(ply));
            prop_assert_eq!(-Score::loss_in(ply), Score::win_in(ply));
            prop_assert_eq!(-(-score), score);
            prop_assert_eq!((-score).is_decisive(), score.is_decisive());
            prop_assert_eq!((-score).plies_to_end(), score.plies_to_end());
            prop_assert_eq!(-score < Score::DRAW, score > Score::DRAW);
        }

        #[test]
        fn decisive_exactly_beyond_the_threshold(score in any_score()) {
            prop_assert_eq!(score.is_decisive(), score.get().abs() >= WIN_THRESHOLD);
            prop_assert_eq!(score.plies_to_end().is_some(), score.is_decisive());
            prop_assert!(-Score::INFINITY < score && score < Score::INFINITY);
        }

        #[test]
        fn evaluations_are_never_forced(raw in any::<i32>()) {
            let score = Score::from_eval(Eval::new(raw));
            prop_assert!(!score.is_decisive());
            prop_assert_eq!(score.as_eval(), Eval::new(raw.clamp(-20_000, 20_000)));
        }

        #[test]
        fn the_table_keeps_distances_from_the_node(score in any_score(), ply in 0usize..128) {
            prop_assert_eq!(score.to_node(ply).to_root(ply), score);
        }
    }

    #[test]
    fn the_numbers_are_those_of_before() {
        // The transposition table and the benches' outputs hold these numbers.
        assert_eq!(Score::win_in(7).get(), 29_993);
        assert_eq!(Score::loss_in(2).get(), -29_998);
        assert_eq!(Score::win_in(1).to_node(3).get(), 30_002);
        assert_eq!(Score::from_eval(Eval::new(-150)).get(), -150);
    }
}
