//! Backward induction over the placement phase, one layer (sheep placed) at a time.
//!
//! Every sheep turn of the placement places a sheep, so no position can come back and each
//! layer depends only on the next. With `p` placed:
//!
//! 1. **Sheep to move** (`p` placed): each placement leads to the tigers to move with `p + 1`
//!    placed, the same tiger set. So the sheep layer of a tiger-set class is computed from the
//!    next tigers layer of the same class alone, the children's ranks being the position's own
//!    empty set less one point.
//! 2. **Tigers to move** (`p` placed, `p ≥ 1`): each step leads to the sheep to move with `p`
//!    placed and the same dead count, each jump to one more dead (or wins, at the last kill
//!    needed). The child's tiger set changes class, so a precomputed list per class gives, for
//!    every tiger move, the child's class and a symmetry to it; the child's empty set is moved
//!    by that symmetry and ranked among the child representative's free points.
//!
//! The tigers layer with 20 placed is the movement table's. Only the tigers-to-move layers are
//! kept; a sheep-to-move value is one ply of look-ups away.
//!
//! Every slot holds a value, also the slots of positions that a symmetric tiger set stores
//! under a smaller rank: they hold the same value as their twin, so a look-up may use any
//! symmetry that takes a tiger set to its representative. Counts include each class once.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use tns_board::{Bitboard, Side, Symmetry};

use crate::index::{FREE, Indexer, binomial, rank21};
use crate::movement::slice::Slice;
use crate::placement::layer::{Codes, Layer, LayerStats, dead_counts, empties};
use crate::value::{Value, Wdl, unpack, wdl_from_code};

const LOSS: u8 = Wdl::Loss as u8;
const WIN: u8 = Wdl::Win as u8;

/// The next subset of the same size in increasing order (Gosper's hack).
#[inline]
fn next_subset(set: u32) -> u32 {
    let low = set & set.wrapping_neg();
    let ripple = set.wrapping_add(low);
    (((ripple ^ set) >> 2) / low.max(1)) | ripple
}

/// Calls `f(rank, set)` for every `e`-subset of the 21 free points, in rank order.
#[inline]
fn for_each_subset(e: usize, mut f: impl FnMut(usize, u32)) {
    let mut set = (1u32 << e) - 1;
    for rank in 0..binomial(FREE, e) {
        f(rank, set);
        set = next_subset(set);
    }
}

/// One tiger move from a class representative: where it leads and how to rank the child.
#[derive(Clone, Copy, Debug)]
struct TigerMove {
    /// The points left and reached.
    from_to: u32,
    /// The point reached, which must be empty.
    to: u32,
    /// The sheep jumped, or 0 for a step.
    over: u32,
    /// The child tiger set's class.
    child: u16,
    /// A symmetry taking the child tiger set to its representative.
    sym: Symmetry,
}

/// Every tiger move of every class's representative, jumps first.
fn tiger_moves(indexer: &Indexer) -> Vec<Vec<TigerMove>> {
    (0..indexer.classes())
        .map(|c| {
            let rep = indexer.class(c).rep;
            let mut moves = Vec::new();
            let make = |from: usize, to: usize, over: u32| {
                let from_to = 1 << from | 1 << to;
                let (child, sym) = indexer.classify(rep ^ from_to);
                #[expect(clippy::cast_possible_truncation, reason = "a tiger class, under 1,651")]
                let child = child as u16;
                TigerMove { from_to, to: 1 << to, over, child, sym }
            };
            let tigers = Bitboard::from_bits_truncate(rep);
            for from in tigers {
                for to in from.jump_targets() {
                    if let Some(over) = from.jumped_over(to)
                        && !tigers.contains(over)
                        && !tigers.contains(to)
                    {
                        moves.push(make(from.index(), to.index(), over.bit()));
                    }
                }
            }
            for from in tigers {
                for to in from.neighbours() {
                    if !tigers.contains(to) {
                        moves.push(make(from.index(), to.index(), 0));
                    }
                }
            }
            moves
        })
        .collect()
}

/// Whether slot `rank` of class `c` (empty set `empty`) is the one its symmetry class is counted
/// at.
#[inline]
fn is_canonical(indexer: &Indexer, c: usize, rank: usize, empty: u32) -> bool {
    let class = indexer.class(c);
    class.stabiliser == 1 || class.canonical_rank(empty) == rank
}

/// The tigers-to-move layer with all twenty placed, from the movement table, with every slot
/// filled (the movement table leaves the twins of symmetric positions unused).
pub(crate) fn movement_layer(indexer: &Indexer, kills: u8, slices: &[Slice]) -> Layer {
    let placed = tns_board::TOTAL_SHEEP;
    let codes = dead_counts(kills, placed)
        .map(|dead| {
            let slice = &slices[usize::from(dead)];
            let values = slice.side(Side::Tiger);
            let e = empties(placed, dead);
            let per = binomial(FREE, e);
            let mut out = vec![0u8; values.len()];
            out.par_chunks_mut(per).enumerate().for_each(|(c, chunk)| {
                let class = indexer.class(c);
                for_each_subset(e, |rank, set| {
                    let at = if class.stabiliser == 1 {
                        rank
                    } else {
                        class.canonical_rank(class.deposit(set))
                    };
                    let value = unpack(values[c * per + at]).map_or(Wdl::Draw, Value::wdl);
                    chunk[rank] = value as u8;
                });
            });
            Codes::pack(&out)
        })
        .collect();
    Layer { placed, slices: codes, sheep_stats: Vec::new(), tiger_stats: Vec::new() }
}

/// Counts progress in positions and reports it now and then.
pub(crate) struct Progress<'a> {
    done: AtomicU64,
    step: u64,
    report: &'a (dyn Fn(u64) + Sync),
}

impl<'a> Progress<'a> {
    pub(crate) fn new(total: u64, report: &'a (dyn Fn(u64) + Sync)) -> Progress<'a> {
        Progress { done: AtomicU64::new(0), step: (total / 400).max(1), report }
    }

    fn add(&self, n: u64) {
        let before = self.done.fetch_add(n, Ordering::Relaxed);
        if before / self.step != (before + n) / self.step {
            (self.report)(before + n);
        }
    }
}

/// Sheep-to-move codes of layer `placed`, by dead count, and their counts, from the tigers
/// layer `placed + 1`.
fn sheep_layer(
    indexer: &Indexer,
    kills: u8,
    placed: u8,
    next: &Layer,
    progress: &Progress<'_>,
) -> (Vec<Vec<u8>>, Vec<LayerStats>) {
    dead_counts(kills, placed)
        .map(|dead| {
            let e = empties(placed, dead);
            let (per, per_next) = (binomial(FREE, e), binomial(FREE, e - 1));
            let next_codes = &next.slices[usize::from(dead)];
            let mut out = vec![0u8; indexer.classes() * per];
            let empty_stats = LayerStats::empty(placed, dead, Side::Sheep);
            let stats = out
                .par_chunks_mut(per)
                .enumerate()
                .map(|(c, chunk)| {
                    let base = c * per_next;
                    let mut stats = empty_stats;
                    for_each_subset(e, |rank, set| {
                        let mut best = LOSS;
                        let mut rest = set;
                        while rest != 0 {
                            let point = rest & rest.wrapping_neg();
                            rest ^= point;
                            best = best.max(WIN - next_codes.get(base + rank21(set ^ point)));
                            if best == WIN {
                                break;
                            }
                        }
                        chunk[rank] = best;
                        if is_canonical(indexer, c, rank, indexer.class(c).deposit(set)) {
                            stats.add(wdl_from_code(best));
                        }
                    });
                    progress.add(per as u64);
                    stats
                })
                .reduce(|| empty_stats, LayerStats::merge);
            (out, stats)
        })
        .unzip()
}

/// Tigers-to-move codes of layer `placed` (at least 1), by dead count, and their counts, from
/// the sheep layer of the same `placed`.
fn tiger_layer(
    indexer: &Indexer,
    kills: u8,
    placed: u8,
    moves: &[Vec<TigerMove>],
    sheep: &[Vec<u8>],
    progress: &Progress<'_>,
) -> (Vec<Codes>, Vec<LayerStats>) {
    dead_counts(kills, placed)
        .map(|dead| {
            let e = empties(placed, dead);
            let per = binomial(FREE, e);
            let step_codes: &[u8] = &sheep[usize::from(dead)];
            let last_kill = dead + 1 == kills;
            // No slice for one more dead when all placed sheep are dead: there is no jump then.
            let jump_codes: &[u8] = match sheep.get(usize::from(dead) + 1) {
                Some(codes) if !last_kill => codes,
                _ => &[],
            };
            let per_jump = binomial(FREE, e + 1);
            let mut out = vec![0u8; indexer.classes() * per];
            let empty_stats = LayerStats::empty(placed, dead, Side::Tiger);
            let stats = out
                .par_chunks_mut(per)
                .enumerate()
                .map(|(c, chunk)| {
                    let class = indexer.class(c);
                    let free = !class.rep & Bitboard::ALL.bits();
                    let mut stats = empty_stats;
                    for_each_subset(e, |rank, set| {
                        let empty = class.deposit(set);
                        let sheep_set = free & !empty;
                        let mut best = LOSS;
                        for m in &moves[c] {
                            if empty & m.to == 0 {
                                continue;
                            }
                            let (child_empty, codes, per_child) = if m.over == 0 {
                                (empty ^ m.from_to, step_codes, per)
                            } else if sheep_set & m.over == 0 {
                                continue;
                            } else if last_kill {
                                best = WIN;
                                break;
                            } else {
                                (empty ^ m.from_to ^ m.over, jump_codes, per_jump)
                            };
                            let child = indexer.class(usize::from(m.child));
                            let image =
                                m.sym.apply_bitboard(Bitboard::from_bits_truncate(child_empty));
                            let slot = usize::from(m.child) * per_child
                                + rank21(child.compress(image.bits()));
                            best = best.max(WIN - codes[slot]);
                            if best == WIN {
                                break;
                            }
                        }
                        chunk[rank] = best;
                        if is_canonical(indexer, c, rank, empty) {
                            stats.add(wdl_from_code(best));
                        }
                    });
                    progress.add(per as u64);
                    stats
                })
                .reduce(|| empty_stats, LayerStats::merge);
            (Codes::pack(&out), stats)
        })
        .unzip()
}

/// Positions (slots, twins included) a layer's build goes through: both sides to move.
pub(crate) fn layer_work(indexer: &Indexer, kills: u8, placed: u8) -> u64 {
    let sides = if placed == 0 { 1 } else { 2 };
    dead_counts(kills, placed)
        .map(|dead| sides * indexer.slice_len(empties(placed, dead)) as u64)
        .sum()
}

/// Solves layer `placed` (0 to 19) from the solved layer `placed + 1`.
pub(crate) fn build_layer(
    indexer: &Indexer,
    kills: u8,
    placed: u8,
    next: &Layer,
    progress: &Progress<'_>,
) -> Layer {
    let (sheep, sheep_stats) = sheep_layer(indexer, kills, placed, next, progress);
    let (slices, tiger_stats) = if placed == 0 {
        (Vec::new(), Vec::new())
    } else {
        let moves = tiger_moves(indexer);
        tiger_layer(indexer, kills, placed, &moves, &sheep, progress)
    };
    Layer { placed, slices, sheep_stats, tiger_stats }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_come_in_rank_order() {
        for e in [1, 2, 5, 20, 21] {
            let mut count = 0;
            for_each_subset(e, |rank, set| {
                assert_eq!(set.count_ones() as usize, e);
                assert_eq!(rank21(set), rank);
                count += 1;
            });
            assert_eq!(count, binomial(FREE, e));
        }
    }

    /// A tigers layer whose every value is `code`, with `placed` sheep placed.
    fn uniform_layer(indexer: &Indexer, kills: u8, placed: u8, code: u8) -> Layer {
        let slices = dead_counts(kills, placed)
            .map(|dead| Codes::pack(&vec![code; indexer.slice_len(empties(placed, dead))]))
            .collect();
        Layer { placed, slices, sheep_stats: Vec::new(), tiger_stats: Vec::new() }
    }

    #[test]
    fn the_first_layers_build_for_every_kill_count() {
        // Where fewer sheep are placed than the kills that win, some dead counts leave no sheep
        // on the board to jump; a build must not look for a slice beyond them.
        let indexer = Indexer::new();
        let noop = |_| {};
        for kills in 1..=5 {
            for placed in 0..=3 {
                let next = uniform_layer(&indexer, kills, placed + 1, Wdl::Draw as u8);
                let progress = Progress::new(1, &noop);
                let layer = build_layer(&indexer, kills, placed, &next, &progress);
                for s in &layer.sheep_stats {
                    // Against draws everywhere, every placement draws.
                    assert_eq!(s.draws, s.positions, "{kills} kills, {s:?}");
                }
                for s in &layer.tiger_stats {
                    assert_eq!(s.positions, s.wins + s.draws + s.losses);
                }
            }
        }
    }

    #[test]
    fn representatives_have_the_generated_moves() {
        let indexer = Indexer::new();
        let moves = tiger_moves(&indexer);
        for c in [0, 1, 700, indexer.classes() - 1] {
            let rep = indexer.class(c).rep;
            // With every free point empty, the board's own generator gives the steps.
            let board = tns_board::Board::from_parts(
                Bitboard::from_bits_truncate(rep),
                Bitboard::EMPTY,
                20,
                Side::Tiger,
            )
            .unwrap();
            let steps = moves[c].iter().filter(|m| m.over == 0).count();
            assert_eq!(steps, board.legal_moves().len());
            for m in &moves[c] {
                let (child, _) = indexer.classify(rep ^ m.from_to);
                assert_eq!(child, usize::from(m.child));
                let image = m.sym.apply_bitboard(Bitboard::from_bits_truncate(rep ^ m.from_to));
                assert_eq!(image.bits(), indexer.class(child).rep);
            }
        }
    }
}
