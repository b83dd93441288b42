//! The whole game: the placement layers on top of the movement table. Building them, probing
//! any position, counting them (their verification is `verify.rs`'s).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tns_board::{Board, Move, Side, TOTAL_SHEEP};

use crate::build_lock::BuildLock;
use crate::placement::build::{Progress, build_layer, layer_work, movement_layer};
use crate::placement::file::{self as layer_file, LayerFile};
use crate::placement::layer::{Layer, LayerStats, dead_counts, empties};
use crate::value::{Value, Verdict, Wdl};
use crate::{Tablebase, TablebaseError};

/// The error for a position whose game is over: the tigers have made their kills.
fn game_over(board: Board) -> TablebaseError {
    TablebaseError::GameOver(format!("{board}: the tigers have made their {} kills", board.dead()))
}

/// The last placement layer: 19 sheep placed, one in hand.
pub(crate) const LAST_LAYER: u8 = TOTAL_SHEEP - 1;

/// Something that happened during [`Tablebase::build_placement`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlacementEvent {
    /// A layer was found already built (every block checked).
    Found {
        /// Sheep placed.
        placed: u8,
    },
    /// A layer was found in an earlier format ([`TablebaseError::OldFormat`]), and is built
    /// again.
    Outdated {
        /// Sheep placed.
        placed: u8,
    },
    /// A layer was found damaged (the error says where), and is built again.
    Damaged {
        /// Sheep placed.
        placed: u8,
        /// What is wrong with it.
        error: String,
    },
    /// A layer's build started.
    Started {
        /// Sheep placed.
        placed: u8,
        /// Slots its build goes through, both sides to move.
        work: u64,
    },
    /// Part of a layer is done.
    Progress {
        /// Sheep placed.
        placed: u8,
        /// Slots done.
        done: u64,
        /// Slots in all.
        work: u64,
    },
    /// A layer is built and saved.
    Finished {
        /// Sheep placed.
        placed: u8,
        /// How long it took, saving included.
        time: Duration,
        /// Its file.
        path: PathBuf,
        /// The file's size in bytes.
        bytes: u64,
    },
}

impl Tablebase {
    /// A layer found built at `path`, every block checked.
    fn found_layer(
        &self,
        path: &Path,
        placed: u8,
        on_event: &(dyn Fn(PlacementEvent) + Sync),
    ) -> Result<(), TablebaseError> {
        LayerFile::open(path, &self.indexer, self.kills, placed, self.cache.clone())?.check()?;
        on_event(PlacementEvent::Found { placed });
        Ok(())
    }

    /// Opens the placement layers found in `dir`. A build passes `building`: a layer of an
    /// earlier format, or a damaged one, is left closed for [`Tablebase::build_placement`] to
    /// make again, where loading refuses it.
    pub(crate) fn open_placement(
        &mut self,
        dir: &Path,
        building: bool,
    ) -> Result<(), TablebaseError> {
        self.placement = (0..=LAST_LAYER)
            .map(|placed| {
                let path = layer_file::layer_path(dir, self.kills, placed);
                match LayerFile::open(&path, &self.indexer, self.kills, placed, self.cache.clone())
                {
                    Ok(file) => Ok(Some(file)),
                    Err(e) if e.is_missing() => Ok(None),
                    Err(TablebaseError::OldFormat { .. }) if building => Ok(None),
                    Err(e) if building && e.is_damaged() => Ok(None),
                    Err(e) => Err(e),
                }
            })
            .collect::<Result<_, _>>()?;
        Ok(())
    }

    /// Solves the placement phase backwards from the movement table, one layer (sheep placed)
    /// at a time from 19 down to `from_placed`, saving each layer to `dir` as soon as it is
    /// done. Layers already in `dir` are kept, so a stopped build resumes with the layer it was
    /// in. `from_placed` 0 solves the whole game; a larger one builds the part of the table
    /// that holds the positions with at least that many sheep placed. Runs on the current
    /// rayon pool; `on_event` is called from its threads.
    ///
    /// ```
    /// use tns_board::Board;
    /// use tns_tablebase::{Tablebase, Wdl};
    ///
    /// let dir = std::env::temp_dir().join(format!("tns-doc-placement-{}", std::process::id()));
    /// // The variant won by one kill, its last two placement layers.
    /// let mut table = Tablebase::build(1, Some(&dir), |_| {})?;
    /// table.build_placement(&dir, 18, &|_| {})?;
    /// assert_eq!(table.placement_from(), Some(18));
    /// // One sheep in hand and the tigers can jump: the tigers win the one-kill game.
    /// let board: Board = "TS1ST/SSSSS/SSSSS/SSSSS/T1SST t 1".parse()?;
    /// assert_eq!(table.wdl(board)?, Wdl::Win);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`TablebaseError::Placed`] unless `from_placed` is 0 to 19; any error saving a layer, or
    /// reading one that is there but damaged.
    pub fn build_placement(
        &mut self,
        dir: &Path,
        from_placed: u8,
        on_event: &(dyn Fn(PlacementEvent) + Sync),
    ) -> Result<(), TablebaseError> {
        if from_placed > LAST_LAYER {
            return Err(TablebaseError::Placed(from_placed));
        }
        let (kills, classes) = (self.kills, self.indexer.classes());
        let _lock = BuildLock::take(dir)?;
        // The layer one more placed, when it was just built (else it is read from its file).
        let mut upper: Option<Layer> = None;
        for placed in (from_placed..=LAST_LAYER).rev() {
            let path = layer_file::layer_path(dir, kills, placed);
            match self.found_layer(&path, placed, on_event) {
                Ok(()) => {
                    upper = None;
                    continue;
                }
                Err(e) if e.is_missing() => {}
                Err(TablebaseError::OldFormat { .. }) => {
                    on_event(PlacementEvent::Outdated { placed });
                }
                Err(e) if e.is_damaged() => {
                    // Damaged: built again (its values follow from the layer above).
                    on_event(PlacementEvent::Damaged { placed, error: e.to_string() });
                }
                Err(e) => return Err(e),
            }
            let next = match upper.take() {
                Some(layer) => layer,
                None if placed == LAST_LAYER => movement_layer(&self.indexer, kills, &self.slices),
                None => {
                    let path = layer_file::layer_path(dir, kills, placed + 1);
                    layer_file::load(&path, &self.indexer, kills, placed + 1)?
                }
            };
            let start = Instant::now();
            let work = layer_work(&self.indexer, kills, placed);
            on_event(PlacementEvent::Started { placed, work });
            let report = |done| on_event(PlacementEvent::Progress { placed, done, work });
            let progress = Progress::new(work, &report);
            let layer = build_layer(&self.indexer, kills, placed, &next, &progress);
            drop(next);
            let bytes = layer_file::save(&path, &layer, kills, classes)?;
            on_event(PlacementEvent::Finished { placed, time: start.elapsed(), path, bytes });
            upper = Some(layer);
        }
        // Layers of an earlier format, or damaged, below `from_placed` stay closed; loading
        // names them.
        self.open_placement(dir, true)
    }

    /// The fewest sheep placed from which the placement layers are all there (19 down to it),
    /// so that [`wdl`](Tablebase::wdl) answers for every position with at least
    /// that many placed; `None` when no layer is.
    pub fn placement_from(&self) -> Option<u8> {
        let mut from = None;
        for placed in (0..=LAST_LAYER).rev() {
            if self.placement.get(usize::from(placed)).is_some_and(Option::is_some) {
                from = Some(placed);
            } else {
                break;
            }
        }
        from
    }

    /// Whether the whole game is solved: every placement layer is there.
    pub fn solves_whole_game(&self) -> bool {
        self.placement_from() == Some(0)
    }

    /// The value of a tigers-to-move position (or any with no sheep in hand).
    fn tiger_wdl(&self, board: Board) -> Result<Wdl, TablebaseError> {
        if board.in_hand() == 0 {
            return self.value(board).map(Value::wdl).ok_or_else(|| game_over(board));
        }
        let placed = TOTAL_SHEEP - board.in_hand();
        let layer = self
            .placement
            .get(usize::from(placed))
            .and_then(Option::as_ref)
            .ok_or(TablebaseError::NoLayer(placed))?;
        layer.get(board.dead(), self.indexer.index(board))
    }

    /// Win, draw or loss for the side to move of any position of the game the table holds:
    /// the movement phase, and the placement phase as far as its layers are built (see
    /// [`placement_from`](Tablebase::placement_from)). A sheep-to-move placement position is
    /// worked out from its placements, one ply on.
    ///
    /// # Errors
    /// [`TablebaseError::GameOver`] when the tigers have already made their kills,
    /// [`TablebaseError::NoLayer`] when the layer that holds the position is not built, and
    /// [`TablebaseError::Block`] or [`TablebaseError::File`] when a layer file is damaged or
    /// cannot be read: never a value read from damaged bytes.
    pub fn wdl(&self, board: Board) -> Result<Wdl, TablebaseError> {
        if board.dead() >= self.kills {
            return Err(game_over(board));
        }
        if board.side_to_move() == Side::Tiger || board.in_hand() == 0 {
            return self.tiger_wdl(board);
        }
        let mut best = Wdl::Loss;
        for to in board.empty() {
            let child = board.after_unchecked(Move::Place(to));
            best = best.max(self.tiger_wdl(child)?.before());
            if best == Wdl::Win {
                break;
            }
        }
        Ok(best)
    }

    /// What the table knows of `board` for its side to move: the exact value where the
    /// movement table holds it, else win, draw or loss from the placement layers.
    ///
    /// # Errors
    /// As [`wdl`](Tablebase::wdl).
    pub fn verdict(&self, board: Board) -> Result<Verdict, TablebaseError> {
        if board.in_hand() == 0 {
            return self.value(board).map(Verdict::from).ok_or_else(|| game_over(board));
        }
        self.wdl(board).map(Verdict::from)
    }

    /// The verdict of playing `m` in `board`, for the side that plays it.
    fn move_verdict(&self, board: Board, m: Move) -> Result<Verdict, TablebaseError> {
        let child = board.after_unchecked(m);
        if child.dead() >= self.kills {
            return Ok(Value::Win(1).into());
        }
        Ok(self.verdict(child)?.before())
    }

    /// Every legal move of `board` with its verdict for the side that plays it, best first.
    ///
    /// # Errors
    /// As [`wdl`](Tablebase::wdl), for the position or any of its children.
    pub fn verdicts(&self, board: Board) -> Result<Vec<(Move, Verdict)>, TablebaseError> {
        if board.dead() >= self.kills {
            return Err(game_over(board));
        }
        let mut out = board
            .legal_moves()
            .iter()
            .map(|&m| Ok((m, self.move_verdict(board, m)?)))
            .collect::<Result<Vec<_>, TablebaseError>>()?;
        out.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        Ok(out)
    }

    /// The number of slots of the table's part with `in_hand` sheep in hand and `dead` dead
    /// (the same for either side to move): the range of [`position_at`](Tablebase::position_at)'s
    /// `slot`. 0 for a part the game has no positions in (more dead than kills allow, or more
    /// sheep in hand and dead than twenty). Holds whether or not the part is built.
    pub fn slots(&self, in_hand: u8, dead: u8) -> u64 {
        if dead >= self.kills || u16::from(in_hand) + u16::from(dead) > u16::from(TOTAL_SHEEP) {
            return 0;
        }
        self.indexer.slice_len(1 + usize::from(in_hand) + usize::from(dead)) as u64
    }

    /// The position at `slot` of the part with `in_hand` sheep in hand, `dead` dead and `side`
    /// to move, or `None` when no position has that slot (an unused slot, the twin of a
    /// symmetric position, or `slot` out of range). Every symmetry class of the part is at
    /// exactly one slot, so a uniform slot that is not `None` is a uniform class: a way to
    /// sample the table evenly.
    ///
    /// ```
    /// use tns_board::Side;
    /// use tns_tablebase::Tablebase;
    ///
    /// let table = Tablebase::build(1, None, |_| {})?;
    /// let slots = table.slots(0, 0);
    /// let found = (0..slots).filter_map(|i| table.position_at(0, 0, Side::Tiger, i)).count();
    /// assert!(found > 0 && (found as u64) < slots);
    /// assert_eq!(table.position_at(0, 0, Side::Tiger, slots), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn position_at(&self, in_hand: u8, dead: u8, side: Side, slot: u64) -> Option<Board> {
        if slot >= self.slots(in_hand, dead) {
            return None;
        }
        let e = 1 + usize::from(in_hand) + usize::from(dead);
        let board = self.indexer.position_in_hand(usize::try_from(slot).ok()?, e, side, in_hand)?;
        // The indexer's positions have no sheep dead by construction of their counts; check.
        (board.dead() == dead).then_some(board)
    }

    /// Up to `count` positions of a placement layer with `dead` dead and `side` to move whose
    /// value for the side to move is `wdl`, in index order (the first of their symmetry
    /// classes): examples to look at.
    ///
    /// # Errors
    /// [`TablebaseError::Placed`] for a layer outside the placement (19 placed at most, and
    /// at least 1 with the tigers to move), [`TablebaseError::NoLayer`] when the layers that
    /// answer for it are not built.
    pub fn placement_examples(
        &self,
        placed: u8,
        dead: u8,
        side: Side,
        wdl: Wdl,
        count: usize,
    ) -> Result<Vec<Board>, TablebaseError> {
        if placed > LAST_LAYER || (side == Side::Tiger && placed == 0) {
            return Err(TablebaseError::Placed(placed));
        }
        if self.placement_from().is_none_or(|from| from > placed) {
            return Err(TablebaseError::NoLayer(placed));
        }
        if !dead_counts(self.kills, placed).contains(&dead) {
            return Ok(Vec::new());
        }
        let e = empties(placed, dead);
        let mut out = Vec::new();
        for index in 0..self.indexer.slice_len(e) {
            let Some(board) = self.indexer.position_in_hand(index, e, side, TOTAL_SHEEP - placed)
            else {
                continue;
            };
            if self.wdl(board)? == wdl {
                out.push(board);
                if out.len() >= count {
                    break;
                }
            }
        }
        Ok(out)
    }

    /// The counts stored with each placement layer that is there, from 19 placed down, sheep to
    /// move then tigers, by dead count.
    pub fn placement_stats(&self) -> Vec<LayerStats> {
        self.placement
            .iter()
            .rev()
            .flatten()
            .flat_map(|f| f.header.sheep_stats.iter().chain(&f.header.tiger_stats).copied())
            .collect()
    }
}
