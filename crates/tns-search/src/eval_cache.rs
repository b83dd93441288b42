//! One thread's table of the evaluations it has made, for evaluators that cost more than a
//! look-up.

use tns_board::Board;

use crate::error::SearchError;
use crate::eval::Eval;

/// Entries of a thread's table when the evaluator is worth caching: 2^17, 16 bytes each, 2 MiB
/// a thread (docs/search.md: 2^13 to 2^17 entries were as fast as each other to depth 9, the
/// largest the fastest to depth 11).
const ENTRY_BITS: u32 = 17;

/// A key no position has ([`Board::key`] leaves the high bits of both words clear), marking
/// an empty slot.
const EMPTY: u64 = u64::MAX;

/// The scores an evaluator gave, by position: direct-mapped, one position a slot, the newest
/// kept. A slot holds the whole key, so a hit is always the position asked for and the score
/// is the evaluator's own: a search with the table makes the same moves, scores and node
/// counts as one without, only sooner.
///
/// Each thread has its own (no locks, no atomics), kept across searches: an evaluation
/// depends on the board alone ([`Evaluator::worth_caching`](crate::Evaluator::worth_caching)).
#[derive(Debug)]
pub(crate) struct EvalCache {
    /// `(key, score)`, or empty: no table, every evaluation made afresh.
    slots: Vec<(u64, Eval)>,
}

impl EvalCache {
    /// No table: every evaluation is made afresh.
    pub(crate) fn off() -> EvalCache {
        EvalCache { slots: Vec::new() }
    }

    /// A table of 2^[`ENTRY_BITS`] empty slots.
    ///
    /// # Errors
    /// [`SearchError::EvalCacheMemory`] when the memory cannot be had.
    pub(crate) fn new() -> Result<EvalCache, SearchError> {
        let entries = 1usize << ENTRY_BITS;
        let mut slots = Vec::new();
        slots.try_reserve_exact(entries).map_err(|_| SearchError::EvalCacheMemory {
            bytes: entries * size_of::<(u64, Eval)>(),
        })?;
        slots.resize(entries, (EMPTY, Eval::default()));
        Ok(EvalCache { slots })
    }

    /// Empties every slot.
    pub(crate) fn clear(&mut self) {
        self.slots.fill((EMPTY, Eval::default()));
    }

    /// The score of `board`: the table's, or `evaluate`'s, kept for the next time.
    #[inline]
    pub(crate) fn get_or(&mut self, board: Board, evaluate: impl FnOnce(Board) -> Eval) -> Eval {
        if self.slots.is_empty() {
            return evaluate(board);
        }
        let key = board.key();
        // Fibonacci hashing: the high bits of the product mix every bit of the key.
        let slot = &mut self.slots
            [(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - ENTRY_BITS)) as usize];
        if slot.0 == key {
            return slot.1;
        }
        let score = evaluate(board);
        *slot = (key, score);
        score
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    /// `count` different positions, each up to 39 random moves on from the start.
    fn positions(count: usize) -> Vec<Board> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        while out.len() < count {
            let mut board = Board::START;
            for _ in 0..(state % 40) {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                #[expect(clippy::cast_possible_truncation, reason = "an index into a short list")]
                let pick = (state % moves.len() as u64) as usize;
                board = board.after_unchecked(moves[pick]);
            }
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            if seen.insert(board) {
                out.push(board);
            }
        }
        out
    }

    /// A score that differs from position to position.
    fn score(board: Board) -> Eval {
        Eval::new((board.key().wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 54) as i32 - 512)
    }

    #[test]
    fn gives_the_evaluators_score_and_evaluates_a_kept_position_once() {
        let mut cache = EvalCache::new().unwrap();
        let boards = positions(3000);
        let calls = Cell::new(0);
        let evaluate = |b: Board| {
            calls.set(calls.get() + 1);
            score(b)
        };
        for &b in &boards {
            assert_eq!(cache.get_or(b, evaluate), score(b));
        }
        assert_eq!(calls.get(), boards.len());
        // Asked again, each is the evaluator's score, from the table where its slot still holds
        // it (3,000 positions in 131,072 slots: most do), evaluated again where a later position
        // took the slot.
        for &b in &boards {
            assert_eq!(cache.get_or(b, evaluate), score(b));
        }
        let again = calls.get() - boards.len();
        assert!(again < boards.len() / 10, "{again} of {} evaluated again", boards.len());
        // Asked a third time, exactly those evaluated the second time are (their slots have
        // settled on them).
        for &b in &boards {
            assert_eq!(cache.get_or(b, evaluate), score(b));
        }
        assert_eq!(calls.get() - boards.len() - again, again);
        cache.clear();
        let before = calls.get();
        assert_eq!(cache.get_or(boards[0], evaluate), score(boards[0]));
        assert_eq!(calls.get(), before + 1);
    }

    #[test]
    fn a_table_that_is_off_evaluates_every_time() {
        let mut cache = EvalCache::off();
        let b = positions(1)[0];
        let calls = Cell::new(0);
        for _ in 0..3 {
            let s = cache.get_or(b, |b| {
                calls.set(calls.get() + 1);
                score(b)
            });
            assert_eq!(s, score(b));
        }
        assert_eq!(calls.get(), 3);
    }

    #[test]
    fn the_empty_mark_is_no_position() {
        assert!(Board::from_key(EMPTY).is_err());
    }
}
