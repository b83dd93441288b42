//! A small cache of decoded blocks, shared by a table's placement layers.

use std::sync::{Mutex, PoisonError};

use crate::TablebaseError;

/// Blocks the cache holds at most: 1,024 blocks of 64 KiB, 64 MiB.
const SLOTS: usize = 1024;
/// Blocks a set holds: a block may go in any of its set's ways, so a few blocks that hash
/// alike do not keep evicting each other.
const WAYS: usize = 4;
const SETS: usize = SLOTS / WAYS;

/// One slot: the key of the block it holds (`u64::MAX` for none), when it was last used, and
/// its bytes.
#[derive(Debug)]
struct Slot {
    key: u64,
    used: u64,
    bytes: Vec<u8>,
}

/// One set of slots and its clock.
#[derive(Debug)]
struct Set {
    slots: [Slot; WAYS],
    clock: u64,
}

/// Decoded blocks, set-associative by a hash of (file, block), the least recently used of a
/// set replaced first: a probe locks one set, so threads probing different blocks rarely wait
/// for each other, and a block is decoded again only when newer ones pushed it out.
#[derive(Debug)]
pub(crate) struct BlockCache {
    sets: Vec<Mutex<Set>>,
}

impl BlockCache {
    /// An empty cache; its memory is taken as blocks are decoded.
    pub(crate) fn new() -> BlockCache {
        let empty = || Slot { key: u64::MAX, used: 0, bytes: Vec::new() };
        BlockCache {
            sets: (0..SETS)
                .map(|_| Mutex::new(Set { slots: std::array::from_fn(|_| empty()), clock: 0 }))
                .collect(),
        }
    }

    /// Byte `at` of block `block` of file `file`, decoding the block with `load` when it is
    /// not cached; `None` for a byte past the block's end.
    ///
    /// # Errors
    /// `load`'s error, and then nothing is cached.
    #[inline]
    pub(crate) fn byte(
        &self,
        file: u8,
        block: usize,
        at: usize,
        load: impl FnOnce() -> Result<Vec<u8>, TablebaseError>,
    ) -> Result<Option<u8>, TablebaseError> {
        let key = (u64::from(file) << 48) | block as u64;
        let set = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize % SETS;
        // A poisoned lock only means another thread panicked while holding it: a slot it was
        // filling has no key, so nothing half-made is ever read.
        let mut set = self.sets[set].lock().unwrap_or_else(PoisonError::into_inner);
        set.clock += 1;
        let now = set.clock;
        let way = if let Some(way) = set.slots.iter().position(|s| s.key == key) {
            way
        } else {
            let way = (0..WAYS).min_by_key(|&w| set.slots[w].used).unwrap_or(0);
            let slot = &mut set.slots[way];
            slot.key = u64::MAX;
            slot.bytes = load()?;
            slot.key = key;
            way
        };
        let slot = &mut set.slots[way];
        slot.used = now;
        Ok(slot.bytes.get(at).copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_once_and_reloads_after_an_error() {
        let cache = BlockCache::new();
        let loads = std::cell::Cell::new(0);
        let load = || {
            loads.set(loads.get() + 1);
            Ok(vec![1, 2, 3])
        };
        assert_eq!(cache.byte(3, 7, 1, load).unwrap(), Some(2));
        assert_eq!(cache.byte(3, 7, 2, load).unwrap(), Some(3));
        assert_eq!(cache.byte(3, 7, 3, load).unwrap(), None);
        assert_eq!(loads.get(), 1);
        // Another file's block 7 is another block.
        assert_eq!(cache.byte(4, 7, 0, load).unwrap(), Some(1));
        assert_eq!(loads.get(), 2);
        // Blocks past what one set holds push out the least recently used first.
        for block in 0..SLOTS * 2 {
            cache.byte(9, block, 0, load).unwrap();
        }
        let before = loads.get();
        cache.byte(9, SLOTS * 2 - 1, 0, load).unwrap();
        assert_eq!(loads.get(), before, "the newest block is still there");
        cache.byte(3, 7, 0, load).unwrap();
        assert_eq!(loads.get(), before + 1, "the oldest was pushed out");
        let failed = cache.byte(5, 1, 0, || Err(TablebaseError::NoLayer(5)));
        assert!(failed.is_err());
        // The failed load left nothing behind: the next read loads again.
        let before = loads.get();
        assert_eq!(cache.byte(5, 1, 0, load).unwrap(), Some(1));
        assert_eq!(loads.get(), before + 1);
    }
}
