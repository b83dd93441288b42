//! Verifying the placement layers: every value recomputed from its moves with the board's own
//! move generator and the general index, not the build's code.

use rand::rngs::StdRng;
use rand::{RngExt as _, SeedableRng as _};
use rayon::prelude::*;
use tns_board::{Board, Move, Side, TOTAL_SHEEP};

use crate::index::{FREE, binomial};
use crate::placement::build::movement_layer;
use crate::placement::file as layer_file;
use crate::placement::layer::{Layer, LayerStats, dead_counts, empties};
use crate::value::{Wdl, wdl_from_code};
use crate::whole_game::LAST_LAYER;
use crate::{Tablebase, TablebaseError, VerifyError};

/// A recomputed slot that holds no position of its own (a non-canonical twin's): never
/// compared. Outside the win, draw and loss codes (0 to 2).
const NOT_CANONICAL: u8 = 3;

impl Tablebase {
    /// Checks every placement layer that is there, from 19 placed down to
    /// [`placement_from`](Tablebase::placement_from): its checksum, and every value against
    /// the values of its moves, recomputed with the board's own move generator and the
    /// general index (not the build's code): each sheep-to-move position's value from its
    /// placements, then each stored tigers-to-move value from its moves. The stored counts are
    /// checked too. `on_layer` is called as each layer is done.
    ///
    /// # Errors
    /// [`TablebaseError::NoLayer`] when no layer is built, a file error, the first position whose
    /// value disagrees ([`TablebaseError::Wrong`]), or counts that disagree.
    pub fn verify_placement(&self, on_layer: impl FnMut(u8)) -> Result<(), TablebaseError> {
        let from = self.placement_from().ok_or(TablebaseError::NoLayer(LAST_LAYER))?;
        self.verify_placement_layers(from..=LAST_LAYER, on_layer)
    }

    /// [`verify_placement`](Tablebase::verify_placement) for some of the layers, from the most
    /// placed down: each layer is checked against the stored values of the next (which its own
    /// check covers), so the whole game can be verified a few layers at a time.
    ///
    /// # Errors
    /// As [`verify_placement`](Tablebase::verify_placement); [`TablebaseError::NoLayer`] when
    /// a layer of the range, or the one after it, is not built.
    pub fn verify_placement_layers(
        &self,
        layers: std::ops::RangeInclusive<u8>,
        mut on_layer: impl FnMut(u8),
    ) -> Result<(), TablebaseError> {
        let (from, to) = (*layers.start(), (*layers.end()).min(LAST_LAYER));
        let file = |placed: u8| {
            self.placement
                .get(usize::from(placed))
                .and_then(Option::as_ref)
                .ok_or(TablebaseError::NoLayer(placed))
        };
        let mut next = if to == LAST_LAYER {
            movement_layer(&self.indexer, self.kills, &self.slices)
        } else {
            layer_file::load(file(to + 1)?.path(), &self.indexer, self.kills, to + 1)?
        };
        for placed in (from..=to).rev() {
            let file = file(placed)?;
            let layer = layer_file::load(file.path(), &self.indexer, self.kills, placed)?;
            self.verify_layer(&layer, &next)?;
            on_layer(placed);
            next = layer;
        }
        Ok(())
    }

    /// Checks `samples` positions of each built placement layer, tigers to move, chosen at
    /// random from `seed`: each stored value against the values of its moves, found by probing
    /// (a sheep-to-move child one ply further on). Not complete like
    /// [`verify_placement`](Tablebase::verify_placement), but it reaches every layer of a full
    /// table in minutes. Returns the number of positions checked.
    ///
    /// # Errors
    /// [`TablebaseError::NoLayer`] when no layer is built, and the first position whose value
    /// disagrees ([`TablebaseError::Wrong`]).
    pub fn verify_placement_sample(
        &self,
        samples: usize,
        seed: u64,
    ) -> Result<u64, TablebaseError> {
        let from = self.placement_from().ok_or(TablebaseError::NoLayer(LAST_LAYER))?;
        let mut rng = StdRng::seed_from_u64(seed);
        let mut next = move |n: usize| rng.random_range(0..n);
        let mut checked = 0;
        for placed in from.max(1)..=LAST_LAYER {
            let dead: Vec<u8> = dead_counts(self.kills, placed).collect();
            let mut found = 0;
            while found < samples {
                let d = dead[next(dead.len())];
                let e = empties(placed, d);
                let index = next(self.indexer.slice_len(e));
                let Some(board) =
                    self.indexer.position_in_hand(index, e, Side::Tiger, TOTAL_SHEEP - placed)
                else {
                    continue;
                };
                found += 1;
                let stored = self.wdl(board)?;
                let expected = board
                    .legal_moves()
                    .iter()
                    .map(|&m| {
                        let child = board.after_unchecked(m);
                        if child.dead() >= self.kills {
                            Ok(Wdl::Win)
                        } else {
                            self.wdl(child).map(Wdl::before)
                        }
                    })
                    .try_fold(Wdl::Loss, |best, v| v.map(|v| best.max(v)))?;
                if stored != expected {
                    return Err(VerifyError {
                        position: board.to_string(),
                        stored: stored.into(),
                        expected: expected.into(),
                    }
                    .into());
                }
            }
            checked += found as u64;
        }
        Ok(checked)
    }

    /// Recomputes one layer with the general code and compares.
    fn verify_layer(&self, layer: &Layer, next: &Layer) -> Result<(), TablebaseError> {
        let (kills, placed) = (self.kills, layer.placed);
        let in_hand = TOTAL_SHEEP - placed;
        // The tigers-to-move value of a child, from `next` (one more placed).
        let next_value = |child: Board| -> Wdl {
            let slice = &next.slices[usize::from(child.dead())];
            wdl_from_code(slice.get(self.indexer.index(child)))
        };
        let mut sheep_values = Vec::new();
        let mut sheep_stats = Vec::new();
        for dead in dead_counts(kills, placed) {
            let e = empties(placed, dead);
            let (values, stats) = self.recompute(e, Side::Sheep, in_hand, placed, dead, |board| {
                board
                    .empty()
                    .iter()
                    .map(|to| next_value(board.after_unchecked(Move::Place(to))).before())
                    .max()
                    .unwrap_or(Wdl::Loss)
            });
            sheep_values.push(values);
            sheep_stats.push(stats);
        }
        let mut tiger_stats = Vec::new();
        for dead in dead_counts(kills, placed).filter(|_| placed > 0) {
            let e = empties(placed, dead);
            let stored = &layer.slices[usize::from(dead)];
            let (values, stats) = self.recompute(e, Side::Tiger, in_hand, placed, dead, |board| {
                board
                    .legal_moves()
                    .iter()
                    .map(|&m| {
                        let child = board.after_unchecked(m);
                        if child.dead() >= kills {
                            return Wdl::Win;
                        }
                        let values: &[u8] = &sheep_values[usize::from(child.dead())];
                        wdl_from_code(values[self.indexer.index(child)]).before()
                    })
                    .max()
                    .unwrap_or(Wdl::Loss)
            });
            if let Some(i) = (0..values.len())
                .find(|&i| values[i] != NOT_CANONICAL && values[i] != stored.get(i))
            {
                let board = self
                    .indexer
                    .position_in_hand(i, e, Side::Tiger, in_hand)
                    .map_or_else(|| format!("slot {i}"), |b| b.to_string());
                return Err(VerifyError {
                    position: board,
                    stored: wdl_from_code(stored.get(i)).into(),
                    expected: wdl_from_code(values[i]).into(),
                }
                .into());
            }
            tiger_stats.push(stats);
        }
        for (stored, counted) in
            [(&layer.sheep_stats, &sheep_stats), (&layer.tiger_stats, &tiger_stats)]
        {
            if stored != counted {
                return Err(TablebaseError::Counts {
                    placed,
                    stored: format!("{stored:?}"),
                    counted: format!("{counted:?}"),
                });
            }
        }
        Ok(())
    }

    /// The value of every canonical position of one slice by `value_of` ([`NOT_CANONICAL`] at the slots
    /// of non-canonical twins), and their counts.
    fn recompute(
        &self,
        e: usize,
        side: Side,
        in_hand: u8,
        placed: u8,
        dead: u8,
        value_of: impl Fn(Board) -> Wdl + Sync,
    ) -> (Vec<u8>, LayerStats) {
        let per = binomial(FREE, e);
        let mut values = vec![NOT_CANONICAL; self.indexer.slice_len(e)];
        let empty = LayerStats::empty(placed, dead, side);
        let stats = values
            .par_chunks_mut(per)
            .enumerate()
            .map(|(c, chunk)| {
                let mut stats = empty;
                for (rank, slot) in chunk.iter_mut().enumerate() {
                    let index = c * per + rank;
                    if let Some(board) = self.indexer.position_in_hand(index, e, side, in_hand) {
                        let v = value_of(board);
                        *slot = v as u8;
                        stats.add(v);
                    }
                }
                stats
            })
            .reduce(|| empty, LayerStats::merge);
        (values, stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values that are wrong but stored whole (their blocks' checksums agree): what only
    /// verification can find.
    #[test]
    fn sampled_verification_catches_wrong_values() {
        let dir = std::env::temp_dir().join(format!("tns-wrong-{}", std::process::id()));
        let mut table = Tablebase::build(2, Some(&dir), |_| {}).unwrap();
        table.build_placement(&dir, 18, &|_| {}).unwrap();
        let path = layer_file::layer_path(&dir, 2, 18);
        let mut layer = layer_file::load(&path, &table.indexer, 2, 18).unwrap();
        // Every value of the last half of the first slice turned into a tigers' win (five
        // base-3 twos a byte).
        let bytes = &mut layer.slices[0].bytes;
        let half = bytes.len() / 2;
        for b in &mut bytes[half..] {
            *b = 242;
        }
        layer_file::save(&path, &layer, 2, table.indexer.classes()).unwrap();
        let wrong = Tablebase::load(2, &dir).unwrap();
        assert!(matches!(wrong.verify_placement_sample(5000, 7), Err(TablebaseError::Wrong(_))));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
