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

// Casts allowed in this file only:
// narrowing casts of values that fit by construction (point indices under 25, move counts, table indices, durations in milliseconds).
// unsigned values far below the signed type's limit.
// signed values that are never negative here.
#![allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap, clippy::cast_sign_loss)]

use std::sync::atomic::{AtomicU64, Ordering};

use tns_board::Move;

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
    pub score: i32,
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
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

fn pack(e: Entry, generation: u8) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    u64::from(e.score as u16)
        | u64::from(e.mv.map_or(0, Move::code)) << 16
        | u64::from(e.depth) << 32
        | bound << 40
        | u64::from(generation) << 48
}

fn unpack(data: u64) -> Option<(Entry, u8)> {
    let bound = match data >> 40 & 0xff {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    let entry = Entry {
        score: i32::from(data as u16 as i16),
        mv: Move::from_code((data >> 16) as u16),
        depth: (data >> 32) as u8,
        bound,
    };
    Some((entry, (data >> 48) as u8))
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one bucket; the bucket count is a power of two).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let wanted = (megabytes.max(1) << 20) / SLOT_BYTES / 2;
        let buckets =
            if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        let slots = (0..buckets.max(1) * 2).map(|_| Slot::default()).collect();
        TranspositionTable { slots, generation: AtomicU64::new(0) }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    /// Marks the start of a new search, so older entries give way first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

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
                return unpack(data).map(|(e, _)| e);
            }
        }
        None
    }

    /// Stores an entry for `key` under the replacement policy of the module docs.
    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        let generation = self.current_generation();
        let b = self.bucket(key);
        let first = &self.slots[b];
        let old_data = first.data.load(Ordering::Relaxed);
        let same_key = first.check.load(Ordering::Relaxed) ^ old_data == key;
        let replace_first = match unpack(old_data) {
            None => true,
            Some((old, old_gen)) => same_key || old_gen != generation || entry.depth >= old.depth,
        };
        let slot = if replace_first { first } else { &self.slots[b + 1] };
        let data = pack(entry, generation);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        assert!(tt.bytes() <= 1 << 20);
        let mv = "a5b4".parse().ok();
        let e = Entry { score: -29_990, depth: 7, bound: Bound::Lower, mv };
        tt.store(12345, e);
        assert_eq!(tt.probe(12345), Some(e));
        assert_eq!(tt.probe(54321), None);
        tt.clear();
        assert_eq!(tt.probe(12345), None);
    }

    #[test]
    fn deeper_entry_survives_in_first_slot() {
        let tt = TranspositionTable::new(1);
        let deep = Entry { score: 5, depth: 9, bound: Bound::Exact, mv: None };
        let shallow = Entry { score: 7, depth: 1, bound: Bound::Upper, mv: None };
        // Find a second key in the same bucket.
        let other = (1..1_000_000u64).find(|&k| tt.bucket(k) == tt.bucket(0) && k != 0).unwrap();
        tt.store(0, deep);
        tt.store(other, shallow);
        assert_eq!(tt.probe(0), Some(deep));
        assert_eq!(tt.probe(other), Some(shallow));
    }
}
