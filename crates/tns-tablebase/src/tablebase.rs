//! The tablebase: every slice of a game, built or loaded, and what can be asked of it.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use tns_board::{Board, Move, MoveList, Side};

use crate::build_lock::BuildLock;
use crate::cache::BlockCache;
use crate::index::Indexer;
use crate::movement::build::{SliceProgress, build_slice};
use crate::movement::file as slice_file;
use crate::movement::slice::Slice;
use crate::placement::file::LayerFile;
use crate::value::{UNUSED, Value, unpack};
use crate::{TablebaseError, VerifyError};

/// Something that happened during [`Tablebase::build`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildEvent {
    /// A slice was found already built in the directory and loaded (every block checked).
    Loaded {
        /// Its dead sheep.
        dead: u8,
    },
    /// A slice was found in an earlier format ([`TablebaseError::OldFormat`]), and is built
    /// again.
    Outdated {
        /// Its dead sheep.
        dead: u8,
    },
    /// A slice was found damaged (a block or its header fails its check), and is built again.
    Damaged {
        /// Its dead sheep.
        dead: u8,
    },
    /// A slice's build started; it has this many slots per side.
    Started {
        /// Its dead sheep.
        dead: u8,
        /// Slots per side to move.
        slots: usize,
    },
    /// A step of a slice's build finished.
    Progress {
        /// Its dead sheep.
        dead: u8,
        /// The step.
        step: SliceProgress,
    },
    /// A slice is built (and saved, when building into a directory).
    Finished {
        /// Its dead sheep.
        dead: u8,
        /// How long it took.
        time: Duration,
    },
}

/// Counts over one slice and side to move, each symmetry class counted once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceStats {
    /// Dead sheep.
    pub dead: u8,
    /// The side to move.
    pub side: Side,
    /// Positions.
    pub positions: u64,
    /// Positions the side to move wins.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions the side to move loses.
    pub losses: u64,
    /// The longest win, in plies.
    pub longest_win: u16,
}

/// The solved movement phase of a game won by a given number of kills: the exact value and
/// distance of every position with no sheep in hand.
///
/// ```
/// use tns_board::Board;
/// use tns_tablebase::{Tablebase, Value};
///
/// // The variant won by one kill solves in well under a second.
/// let table = Tablebase::build(1, None, |_| {})?;
/// // The tigers to move can jump a sheep: one ply to win.
/// let board: Board = "TS1ST/SSSSS/SSSSS/SSSSS/TSSST t 0".parse()?;
/// assert_eq!(table.value(board), Some(Value::Win(1)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Tablebase {
    pub(crate) indexer: Indexer,
    pub(crate) kills: u8,
    /// By dead sheep.
    pub(crate) slices: Vec<Slice>,
    /// The placement layers found, by sheep placed (0 to 19).
    pub(crate) placement: Vec<Option<LayerFile>>,
    /// Decoded blocks of the placement layers.
    pub(crate) cache: Arc<BlockCache>,
}

pub(crate) fn check_kills(kills: u8) -> Result<(), TablebaseError> {
    if (1..=tns_board::KILLS_TO_WIN).contains(&kills) {
        Ok(())
    } else {
        Err(TablebaseError::Kills(kills))
    }
}

impl Tablebase {
    /// The slices of the movement table for a game won by `kills` kills, in the order
    /// [`Tablebase::build`] builds them (most dead first), with their slots per side: what a
    /// progress display needs to weigh each slice.
    ///
    /// # Errors
    /// [`TablebaseError::Kills`] unless `kills` is 1 to 5.
    pub fn slice_slots(kills: u8) -> Result<Vec<(u8, usize)>, TablebaseError> {
        check_kills(kills)?;
        let indexer = Indexer::new();
        Ok((0..kills).rev().map(|dead| (dead, indexer.slice_len(usize::from(dead) + 1))).collect())
    }

    /// Builds the table for a game won by `kills` kills, slice by slice from the most dead
    /// sheep down, on the current rayon pool. With a directory, each finished slice is saved
    /// there and slices already there are loaded instead of built, so a stopped build resumes
    /// at the slice it was in.
    ///
    /// # Errors
    /// [`TablebaseError::Kills`] unless `kills` is 1 to 5; any error saving a slice, or loading
    /// one that is there but damaged.
    pub fn build(
        kills: u8,
        dir: Option<&Path>,
        mut on_event: impl FnMut(BuildEvent),
    ) -> Result<Tablebase, TablebaseError> {
        check_kills(kills)?;
        let _lock = dir.map(BuildLock::take).transpose()?;
        let indexer = Indexer::new();
        let mut slices: Vec<Slice> = Vec::new();
        for dead in (0..kills).rev() {
            let slots = indexer.slice_len(usize::from(dead) + 1);
            if let Some(dir) = dir {
                let path = slice_file::slice_path(dir, kills, dead);
                match slice_file::load(&path, kills, dead, indexer.classes(), slots) {
                    Ok(slice) => {
                        on_event(BuildEvent::Loaded { dead });
                        slices.push(slice);
                        continue;
                    }
                    Err(e) if e.is_missing() => {}
                    Err(e) if e.is_damaged() => on_event(BuildEvent::Damaged { dead }),
                    Err(TablebaseError::OldFormat { .. }) => {
                        on_event(BuildEvent::Outdated { dead });
                    }
                    Err(e) => return Err(e),
                }
            }
            on_event(BuildEvent::Started { dead, slots });
            let start = Instant::now();
            let slice = build_slice(&indexer, kills, dead, slices.last(), &mut |step| {
                on_event(BuildEvent::Progress { dead, step });
            });
            if let Some(dir) = dir {
                slice_file::save(
                    &slice_file::slice_path(dir, kills, dead),
                    &slice,
                    indexer.classes(),
                )?;
            }
            on_event(BuildEvent::Finished { dead, time: start.elapsed() });
            slices.push(slice);
        }
        slices.reverse();
        let mut table = Tablebase::new(indexer, kills, slices);
        if let Some(dir) = dir {
            table.open_placement(dir, true)?;
        }
        Ok(table)
    }

    /// Loads a table built into `dir` for a game won by `kills` kills: the movement slices, and
    /// the placement layers that are there (opened, to be read where a probe needs them).
    ///
    /// # Errors
    /// [`TablebaseError::File`] that [`is_missing`](TablebaseError::is_missing) when a movement slice was never built, and a specific error
    /// for a file that is truncated, foreign, of another version or corrupted (a placement
    /// layer's checksum is checked by [`verify_placement`](Tablebase::verify_placement), which
    /// reads it whole).
    pub fn load(kills: u8, dir: &Path) -> Result<Tablebase, TablebaseError> {
        check_kills(kills)?;
        let indexer = Indexer::new();
        let slices = (0..kills)
            .map(|dead| {
                let slots = indexer.slice_len(usize::from(dead) + 1);
                slice_file::load(
                    &slice_file::slice_path(dir, kills, dead),
                    kills,
                    dead,
                    indexer.classes(),
                    slots,
                )
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut table = Tablebase::new(indexer, kills, slices);
        table.open_placement(dir, false)?;
        Ok(table)
    }

    /// A table of the movement phase's first slices only, from the bytes of their files (as
    /// [`Tablebase::build`] writes them into a folder): `slices[d]` is the slice of `d` dead
    /// sheep, from 0 up, and fewer than `kills` may be given. The positions with as many dead
    /// as slices are given, or more, are not held ([`Tablebase::value`] answers `None`), nor is
    /// any placement. Every block is checked, on the calling thread (no thread is started). A
    /// program can build such a table into itself: the first two slices of the real game are
    /// small (docs/results.md) and hold every movement position where the tigers have killed at most once.
    ///
    /// # Errors
    /// [`TablebaseError::Kills`] unless `kills` is 1 to 5, [`TablebaseError::Slices`] for more
    /// slices than `kills`, and the error of a slice whose bytes are not that slice's file
    /// (named as in a folder called `(bytes)`).
    pub fn from_slice_bytes(kills: u8, slices: &[&[u8]]) -> Result<Tablebase, TablebaseError> {
        check_kills(kills)?;
        if slices.len() > usize::from(kills) {
            return Err(TablebaseError::Slices { given: slices.len(), kills });
        }
        let indexer = Indexer::new();
        let slices = (0..kills)
            .zip(slices)
            .map(|(dead, bytes)| {
                let slots = indexer.slice_len(usize::from(dead) + 1);
                slice_file::decode(bytes, (kills, dead), indexer.classes(), slots, false)
                    .map_err(|e| e.at(&slice_file::slice_path(Path::new("(bytes)"), kills, dead)))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Tablebase::new(indexer, kills, slices))
    }

    /// Whether the table holds every slice of the movement phase (one built or loaded from a
    /// folder does; one made by [`Tablebase::from_slice_bytes`] may not).
    pub fn holds_whole_movement(&self) -> bool {
        self.slices.len() == usize::from(self.kills)
    }

    fn new(indexer: Indexer, kills: u8, slices: Vec<Slice>) -> Tablebase {
        Tablebase {
            indexer,
            kills,
            slices,
            placement: Vec::new(),
            cache: Arc::new(BlockCache::new()),
        }
    }

    /// The kills that win the game this table solves.
    pub fn kills(&self) -> u8 {
        self.kills
    }

    /// The exact value of `board` for its side to move, from the movement phase, or `None` when
    /// the movement phase does not hold it (sheep still in hand, or the game already won by
    /// kills). The movement phase is in memory and checked when loaded, so this lookup cannot
    /// fail: it is the one the search makes at every node. For any position of the game, with
    /// the placement layers read from disk, ask [`verdict`](Tablebase::verdict) or
    /// [`wdl`](Tablebase::wdl), which return the table's errors.
    #[inline]
    pub fn value(&self, board: Board) -> Option<Value> {
        self.slices.get(usize::from(board.dead()))?.get(&self.indexer, board)
    }

    /// The value of playing `m` in `board`, for the side that plays it.
    fn move_value(&self, board: Board, m: Move) -> Option<Value> {
        let child = board.after_unchecked(m);
        if child.dead() >= self.kills {
            return Some(Value::Win(1));
        }
        Some(self.value(child)?.before())
    }

    /// Every legal move of `board` with its value for the side that plays it, best first;
    /// `None` when the table does not hold the position.
    pub fn moves(&self, board: Board) -> Option<Vec<(Move, Value)>> {
        self.value(board)?;
        let mut out = board
            .legal_moves()
            .iter()
            .map(|&m| Some((m, self.move_value(board, m)?)))
            .collect::<Option<Vec<_>>>()?;
        // Best first; equal values keep the move generator's order.
        out.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        Some(out)
    }

    /// A best move of `board` and its value: the fastest win, else a draw, else the slowest
    /// loss. `None` when the table does not hold the position or it has no move.
    pub fn best_move(&self, board: Board) -> Option<(Move, Value)> {
        self.moves(board)?.first().copied()
    }

    /// Positions, wins, draws, losses and the longest win for each dead count and side to move,
    /// most dead first.
    pub fn stats(&self) -> Vec<SliceStats> {
        let mut out = Vec::new();
        for slice in self.slices.iter().rev() {
            for side in [Side::Sheep, Side::Tiger] {
                let empty = SliceStats {
                    dead: slice.dead,
                    side,
                    positions: 0,
                    wins: 0,
                    draws: 0,
                    losses: 0,
                    longest_win: 0,
                };
                let stats = slice
                    .side(side)
                    .par_iter()
                    .fold(
                        || empty,
                        |mut s, &p| {
                            match unpack(p) {
                                None => {}
                                Some(Value::Win(n)) => {
                                    s.wins += 1;
                                    s.longest_win = s.longest_win.max(n);
                                }
                                Some(Value::Draw) => s.draws += 1,
                                Some(Value::Loss(_)) => s.losses += 1,
                            }
                            s
                        },
                    )
                    .reduce(
                        || empty,
                        |a, b| SliceStats {
                            wins: a.wins + b.wins,
                            draws: a.draws + b.draws,
                            losses: a.losses + b.losses,
                            longest_win: a.longest_win.max(b.longest_win),
                            ..a
                        },
                    );
                out.push(SliceStats {
                    positions: stats.wins + stats.draws + stats.losses,
                    ..stats
                });
            }
        }
        out
    }

    /// Checks every stored value against its moves: a win in `n` must have a move to a loss in
    /// `n - 1` and none faster, a loss in `n` only moves to wins, the slowest in `n - 1`, and a
    /// draw no winning move and some drawing one. This holds for the true values only, so a
    /// table that passes is right. In a table of the first slices only
    /// ([`Tablebase::from_slice_bytes`]), a position with a kill into a slice it does not hold
    /// cannot be checked, and is not.
    ///
    /// # Errors
    /// The first position found whose stored value disagrees.
    pub fn verify(&self) -> Result<(), VerifyError> {
        for slice in &self.slices {
            for side in [Side::Sheep, Side::Tiger] {
                slice.side(side).par_iter().enumerate().try_for_each(|(index, &packed)| {
                    if packed == UNUSED {
                        return Ok(());
                    }
                    let board =
                        self.indexer.position(index, slice.empties(), side).ok_or_else(|| {
                            VerifyError {
                                position: format!("slot {index} of slice {}", slice.dead),
                                stored: unpack(packed).unwrap_or(Value::Draw).into(),
                                expected: Value::Draw.into(),
                            }
                        })?;
                    self.verify_position(board, unpack(packed).unwrap_or(Value::Draw))
                })?;
            }
        }
        Ok(())
    }

    fn verify_position(&self, board: Board, stored: Value) -> Result<(), VerifyError> {
        let mut moves = MoveList::new();
        board.generate_moves(&mut moves);
        let mut best: Option<Value> = None;
        for &m in &moves {
            let dead = board.after_unchecked(m).dead();
            if dead < self.kills && usize::from(dead) >= self.slices.len() {
                return Ok(());
            }
            let v = self.move_value(board, m).unwrap_or(Value::Draw);
            if best.is_none_or(|b| v > b) {
                best = Some(v);
            }
        }
        let expected = best.unwrap_or(Value::Loss(0));
        if expected == stored {
            Ok(())
        } else {
            Err(VerifyError {
                position: board.to_string(),
                stored: stored.into(),
                expected: expected.into(),
            })
        }
    }
}
