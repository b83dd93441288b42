//! A small cache of decoded blocks, shared by a table's placement layers.

use std::sync::{Mutex, PoisonError};

use crate::TablebaseError;

/// Blocks the cache holds at most: 2,048 blocks of 32 KiB, 64 MiB.
const SLOTS: usize = 2048;

/// One slot: the key of the block it holds (`u64::MAX` for none) and its bytes.
#[derive(Debug)]
struct Slot {
    key: u64,
    bytes: Vec<u8>,
}

/// Decoded blocks, direct-mapped by a hash of (file, block): a probe locks one slot, so
/// threads probing different blocks do not wait for each other, and a block is decoded again
/// only when another took its slot.
#[derive(Debug)]
pub(crate) struct BlockCache {
    slots: Vec<Mutex<Slot>>,
}

impl BlockCache {
    /// An empty cache; its memory is taken as blocks are decoded.
    pub(crate) fn new() -> BlockCache {
        BlockCache {
            slots: (0..SLOTS)
                .map(|_| Mutex::new(Slot { key: u64::MAX, bytes: Vec::new() }))
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
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 53) as usize % SLOTS;
        // A poisoned lock only means another thread panicked while holding it: the slot is
        // refilled below unless it is whole.
        let mut slot = self.slots[slot].lock().unwrap_or_else(PoisonError::into_inner);
        if slot.key != key {
            slot.key = u64::MAX;
            slot.bytes = load()?;
            slot.key = key;
        }
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
        let failed = cache.byte(5, 1, 0, || Err(TablebaseError::NoLayer(5)));
        assert!(failed.is_err());
        // The failed load left nothing behind: the next read loads again.
        assert_eq!(cache.byte(5, 1, 0, load).unwrap(), Some(1));
        assert_eq!(loads.get(), 3);
    }
}
