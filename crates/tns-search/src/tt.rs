//! The transposition table, shared by all search threads and by symmetric positions.
//!
//! Entries are keyed by the canonical image of a position (see `Board::canonical`), so the 8
//! symmetric forms of a position share one entry; the stored move is in the canonical frame and
//! is mapped back by the inverse symmetry on probing.
//!
//! Each slot is two `AtomicU64`s: the data word, and the key combined with the data by
//! exclusive or. A reader accepts an entry only if undoing that gives back its key, so a slot torn by two threads writing at
//! once reads as a miss rather than as a wrong entry ("lockless hashing"). No locks, no `unsafe`.
//!
//! Replacement: slots come in buckets of two. The first keeps the deepest result (it is replaced
//! by a search at least as deep, by any search of the same position, or when it is from an
//! earlier search); the second always takes the newest result that the first did not.
//!
//! Clearing is lazy: each entry carries the table's epoch, bumped by [`TranspositionTable::clear`],
//! and an entry of another epoch reads as an empty slot in every respect, so clearing even the
//! largest table takes no time. Only every 255th clear writes the slots (the epoch wraps).

use std::sync::atomic::{AtomicU64, Ordering};

use tns_board::Move;

use crate::error::SearchError;
use crate::limits::MAX_TT_MB;
use crate::score::Score;

/// What a stored score means.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// At least this (the search failed high).
    Lower,
    /// At most this (the search failed low).
    Upper,
}

/// One probed entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The score, relative to the stored node.
    pub score: Score,
    /// The remaining depth it was searched to.
    pub depth: u8,
    /// What the score means.
    pub bound: Bound,
    /// The best move found, in the canonical frame.
    pub mv: Option<Move>,
}

#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A fixed-size, thread-safe table of search results.
#[derive(Debug)]
pub struct TranspositionTable {
    slots: Box<[Slot]>,
    generation: AtomicU64,
    /// From 1 to 255: entries of another epoch were cleared.
    epoch: AtomicU64,
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "a score, within ±INFINITY (32,000), is kept as its 16 bits and read back as an i16"
)]
fn pack(e: Entry, generation: u8, epoch: u8) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    u64::from(e.score.get() as u16)
        | u64::from(e.mv.map_or(0, Move::code)) << 16
        | u64::from(e.depth) << 32
        | bound << 40
        | u64::from(generation) << 48
        | u64::from(epoch) << 56
}

/// The entry in `data` and its generation, unless the slot is empty or of an earlier epoch.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    reason = "each cast takes one field's bits out of the packed word, as `pack` put them in"
)]
fn unpack(data: u64, epoch: u8) -> Option<(Entry, u8)> {
    if (data >> 56) as u8 != epoch {
        return None;
    }
    let bound = match data >> 40 & 0xff {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    let entry = Entry {
        score: Score::from_raw(i32::from(data as u16 as i16)),
        mv: Move::from_code((data >> 16) as u16),
        depth: (data >> 32) as u8,
        bound,
    };
    Some((entry, (data >> 48) as u8))
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at most that; the bucket count is a power of two).
    ///
    /// # Errors
    /// [`SearchError::TableSize`] for a size outside 1 to [`MAX_TT_MB`];
    /// [`SearchError::Memory`] when the memory cannot be had.
    pub fn new(megabytes: usize) -> Result<TranspositionTable, SearchError> {
        if !(1..=MAX_TT_MB).contains(&megabytes) {
            return Err(SearchError::TableSize { given: megabytes });
        }
        let wanted = (megabytes << 20) / SLOT_BYTES / 2;
        let buckets =
            if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        let len = buckets.max(1) * 2;
        let mut slots = Vec::new();
        slots.try_reserve_exact(len).map_err(|_| SearchError::Memory { mib: megabytes })?;
        slots.resize_with(len, Slot::default);
        Ok(TranspositionTable {
            slots: slots.into_boxed_slice(),
            generation: AtomicU64::new(0),
            epoch: AtomicU64::new(1),
        })
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES
    }

    /// Empties the table: at once, by starting a new epoch (see the module docs).
    pub fn clear(&self) {
        let epoch = self.current_epoch();
        if epoch == u8::MAX {
            for s in &self.slots {
                s.check.store(0, Ordering::Relaxed);
                s.data.store(0, Ordering::Relaxed);
            }
            self.epoch.store(1, Ordering::Relaxed);
        } else {
            self.epoch.store(u64::from(epoch) + 1, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    #[expect(clippy::cast_possible_truncation, reason = "the epoch is kept from 1 to 255")]
    fn current_epoch(&self) -> u8 {
        self.epoch.load(Ordering::Relaxed) as u8
    }

    /// How full the table is, in thousandths: the share of its first 1,000 slots that hold an
    /// entry of the current search (UCI's `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let (generation, epoch) = (self.current_generation(), self.current_epoch());
        let sample = &self.slots[..self.slots.len().min(1000)];
        let full = sample
            .iter()
            .filter(|s| {
                unpack(s.data.load(Ordering::Relaxed), epoch).is_some_and(|(_, g)| g == generation)
            })
            .count();
        u32::try_from(full * 1000 / sample.len()).unwrap_or(1000)
    }

    /// Marks the start of a new search, so older entries give way first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[expect(
        clippy::cast_possible_truncation,
        reason = "the generation's low 8 bits, which wrap by design (an entry's age is a difference)"
    )]
    fn current_generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed) as u8
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // Fibonacci hashing spreads the structured board keys over the table.
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let buckets = self.slots.len() / 2;
        ((h >> 32) as usize & (buckets - 1)) * 2
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for slot in &self.slots[b..b + 2] {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == key {
                return unpack(data, self.current_epoch()).map(|(e, _)| e);
            }
        }
        None
    }

    /// Stores an entry for `key` under the replacement policy of the module docs.
    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        let (generation, epoch) = (self.current_generation(), self.current_epoch());
        let b = self.bucket(key);
        let first = &self.slots[b];
        let old_data = first.data.load(Ordering::Relaxed);
        let same_key = first.check.load(Ordering::Relaxed) ^ old_data == key;
        let replace_first = match unpack(old_data, epoch) {
            None => true,
            Some((old, old_gen)) => same_key || old_gen != generation || entry.depth >= old.depth,
        };
        let slot = if replace_first { first } else { &self.slots[b + 1] };
        let data = pack(entry, generation, epoch);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1).unwrap();
        assert!(tt.bytes() <= 1 << 20);
        let mv = "a5b4".parse().ok();
        let e = Entry { score: Score::loss_in(10), depth: 7, bound: Bound::Lower, mv };
        tt.store(12345, e);
        assert_eq!(tt.probe(12345), Some(e));
        assert_eq!(tt.probe(54321), None);
        tt.clear();
        assert_eq!(tt.probe(12345), None);
    }

    /// A deep exact entry and a shallow bound, to see which of them a slot keeps.
    fn deep_and_shallow() -> (Entry, Entry) {
        let entry = |score, depth, bound| Entry {
            score: Score::from_eval(crate::Eval::new(score)),
            depth,
            bound,
            mv: None,
        };
        (entry(5, 9, Bound::Exact), entry(7, 1, Bound::Upper))
    }

    #[test]
    fn a_cleared_table_is_an_empty_one_even_when_the_epoch_wraps() {
        let tt = TranspositionTable::new(1).unwrap();
        let (deep, shallow) = deep_and_shallow();
        let other = (1..1_000_000u64).find(|&k| tt.bucket(k) == tt.bucket(0) && k != 0).unwrap();
        for clears in 0..600 {
            tt.store(0, deep);
            tt.new_search();
            assert_eq!(tt.probe(0), Some(deep), "after {clears} clears");
            tt.clear();
            assert_eq!(tt.probe(0), None, "after {} clears", clears + 1);
            assert_eq!(tt.hashfull(), 0);
            // An empty first slot takes a shallow entry, as in a new table.
            tt.store(other, shallow);
            assert_eq!(tt.slots[tt.bucket(0)].data.load(Ordering::Relaxed) >> 32 & 0xff, 1);
            tt.clear();
        }
    }

    #[test]
    fn sizes_outside_the_bounds_are_refused() {
        assert!(matches!(TranspositionTable::new(0), Err(SearchError::TableSize { given: 0 })));
        assert!(matches!(
            TranspositionTable::new(MAX_TT_MB + 1),
            Err(SearchError::TableSize { .. })
        ));
        assert!(matches!(
            TranspositionTable::new(99_999_999),
            Err(SearchError::TableSize { given: 99_999_999 })
        ));
    }

    #[test]
    fn deeper_entry_survives_in_first_slot() {
        let tt = TranspositionTable::new(1).unwrap();
        let (deep, shallow) = deep_and_shallow();
        // Find a second key in the same bucket.
        let other = (1..1_000_000u64).find(|&k| tt.bucket(k) == tt.bucket(0) && k != 0).unwrap();
        tt.store(0, deep);
        tt.store(other, shallow);
        assert_eq!(tt.probe(0), Some(deep));
        assert_eq!(tt.probe(other), Some(shallow));
    }
}
