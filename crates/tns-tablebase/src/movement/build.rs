//! Retrograde analysis of one slice (one number of dead sheep), both sides to move.
//!
//! 1. Every position is looked at once. A side with no move has lost in 0. A tiger jump leaves
//!    the slice: it wins at once when it is the last kill needed, and otherwise its value comes
//!    from the finished slice with one more dead sheep. Each position gets a counter of its moves
//!    inside the slice that are not yet known to lose.
//! 2. Then by distance, 0, 1, 2, ...: every position decided at that distance is unmoved (its
//!    predecessors are the positions one step back, the other side to move). A lost position
//!    makes each predecessor a win one ply longer; a won position takes one off each
//!    predecessor's counter, and a predecessor whose counter reaches zero has only losing moves:
//!    it loses, one ply after its slowest loss.
//! 3. Whatever is still undecided when no distance has positions left is a draw.
//!
//! Positions are stored once per symmetry class, so counters are kept in units that balance
//! across classes of different sizes: a position's counter starts at its moves times its class
//! size, and each unmove from a won position takes off that position's class size. Counting
//! the move-pairs between two classes from either end gives the same total, so a counter reaches
//! zero exactly when every move of its position has been seen to lose.

use std::sync::atomic::{AtomicU16, Ordering};

use rayon::prelude::*;
use tns_board::{Bitboard, Board, MoveList, Side};

use crate::index::Indexer;
use crate::movement::slice::Slice;
use crate::value::{MAX_DISTANCE, Packed, UNDECIDED, UNUSED, Value, distance, pack_loss, pack_win};

/// A counter that can never reach zero: the position can draw by a kill into a drawn position.
const NEVER_LOSES: u16 = u16::MAX;

/// Where a build of one slice has got to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceProgress {
    /// The first pass over the positions is done.
    Initialised,
    /// Every position decided at this distance has been unmoved.
    Distance(u16),
}

/// The state of one side's positions during the build.
struct SideState {
    values: Vec<AtomicU16>,
    counters: Vec<AtomicU16>,
}

impl SideState {
    fn new(len: usize) -> SideState {
        SideState {
            values: (0..len).map(|_| AtomicU16::new(UNDECIDED)).collect(),
            counters: (0..len).map(|_| AtomicU16::new(0)).collect(),
        }
    }
}

struct Builder<'a> {
    indexer: &'a Indexer,
    kills: u8,
    dead: u8,
    empties: usize,
    next: Option<&'a Slice>,
    sides: [SideState; 2],
    /// The longest distance given to any position so far.
    longest: AtomicU16,
}

/// The value, for the tigers who just jumped, of a kill from `board`.
fn kill_value(b: &Builder<'_>, child: Board) -> Value {
    match b.next {
        // The last kill needed: the sheep have lost.
        None => Value::Loss(0).before(),
        Some(next) => next.get(b.indexer, child).unwrap_or(Value::Draw).before(),
    }
}

impl Builder<'_> {
    fn side(&self, side: Side) -> &SideState {
        &self.sides[side as usize]
    }

    fn set(&self, side: Side, index: usize, packed: Packed) {
        self.side(side).values[index].store(packed, Ordering::Relaxed);
        self.longest.fetch_max(distance(packed), Ordering::Relaxed);
    }

    /// The first pass: terminal positions, kills, and move counters.
    fn initialise(&self, side: Side, index: usize) {
        let Some(board) = self.indexer.position(index, self.empties, side) else {
            self.side(side).values[index].store(UNUSED, Ordering::Relaxed);
            return;
        };
        let mut moves = MoveList::new();
        board.generate_moves(&mut moves);
        #[expect(clippy::cast_possible_truncation, reason = "a stabiliser's order, 1 to 8")]
        let class_size = 8 / Indexer::stabiliser(board) as u16;
        let mut steps = 0u16;
        let mut best_kill: Option<Value> = None;
        for &m in &moves {
            if m.is_jump() {
                let v = kill_value(self, board.after_unchecked(m));
                if best_kill.is_none_or(|b| v > b) {
                    best_kill = Some(v);
                }
            } else {
                steps += 1;
            }
        }
        let counter = match best_kill {
            Some(Value::Win(n)) => {
                self.set(side, index, pack_win(n));
                steps * class_size
            }
            Some(Value::Draw) => NEVER_LOSES,
            Some(Value::Loss(n)) if steps == 0 => {
                self.set(side, index, pack_loss(n));
                0
            }
            None if steps == 0 => {
                self.set(side, index, pack_loss(0));
                0
            }
            _ => steps * class_size,
        };
        self.side(side).counters[index].store(counter, Ordering::Relaxed);
    }

    /// Unmoves every position of `side` decided at distance `n`.
    fn retreat(&self, side: Side, index: usize, n: u16) {
        let packed = self.side(side).values[index].load(Ordering::Relaxed);
        if packed == UNDECIDED || packed == UNUSED || distance(packed) != n {
            return;
        }
        let Some(board) = self.indexer.position(index, self.empties, side) else { return };
        let lost = packed.is_multiple_of(2);
        #[expect(clippy::cast_possible_truncation, reason = "a stabiliser's order, 1 to 8")]
        let class_size = 8 / Indexer::stabiliser(board) as u16;
        let mover = side.other();
        let (tigers, sheep) = (board.tigers().bits(), board.sheep().bits());
        let empty = board.empty().bits();
        let pieces = match mover {
            Side::Tiger => tigers,
            Side::Sheep => sheep,
        };
        for to in Bitboard::from_bits_truncate(pieces) {
            let back = to.neighbours().bits() & empty;
            for from in Bitboard::from_bits_truncate(back) {
                let swap = 1 << to.index() | 1 << from.index();
                let (t, s) = match mover {
                    Side::Tiger => (tigers ^ swap, sheep),
                    Side::Sheep => (tigers, sheep ^ swap),
                };
                let Ok(before) = Board::from_parts(
                    Bitboard::from_bits_truncate(t),
                    Bitboard::from_bits_truncate(s),
                    0,
                    mover,
                ) else {
                    continue;
                };
                let q = self.indexer.index(before);
                if lost {
                    self.offer_win(mover, q, n + 1);
                } else {
                    let old = self.side(mover).counters[q].fetch_sub(class_size, Ordering::Relaxed);
                    if old == class_size {
                        self.conclude_loss(mover, q, before, n + 1);
                    }
                }
            }
        }
    }

    /// A predecessor that can move into a lost position wins, if not faster already.
    fn offer_win(&self, side: Side, index: usize, n: u16) {
        let new = pack_win(n.min(MAX_DISTANCE));
        let slot = &self.side(side).values[index];
        let mut current = slot.load(Ordering::Relaxed);
        loop {
            let improves = current == UNDECIDED || (current % 2 == 1 && current > new);
            if !improves {
                return;
            }
            match slot.compare_exchange_weak(current, new, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => {
                    self.longest.fetch_max(n, Ordering::Relaxed);
                    return;
                }
                Err(actual) => current = actual,
            }
        }
    }

    /// Every move of `board` inside the slice loses, the slowest in `n - 1` plies: it loses
    /// in `n`, or later if a losing kill takes longer.
    fn conclude_loss(&self, side: Side, index: usize, board: Board, n: u16) {
        let mut longest = n;
        if side == Side::Tiger {
            let mut moves = MoveList::new();
            board.generate_moves(&mut moves);
            for &m in moves.iter().filter(|m| m.is_jump()) {
                if let Value::Loss(k) = kill_value(self, board.after_unchecked(m)) {
                    longest = longest.max(k);
                }
            }
        }
        let slot = &self.side(side).values[index];
        let new = pack_loss(longest.min(MAX_DISTANCE));
        if slot.compare_exchange(UNDECIDED, new, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
            self.longest.fetch_max(longest, Ordering::Relaxed);
        }
    }
}

/// Solves the slice with `dead` dead sheep for a game won by `kills` kills. `next` is the solved
/// slice with one more dead sheep (`None` when `dead + 1 == kills`). Runs on the current rayon
/// pool; `progress` is called after each stage.
pub(crate) fn build_slice(
    indexer: &Indexer,
    kills: u8,
    dead: u8,
    next: Option<&Slice>,
    progress: &mut dyn FnMut(SliceProgress),
) -> Slice {
    let empties = usize::from(dead) + 1;
    let len = indexer.slice_len(empties);
    let builder = Builder {
        indexer,
        kills,
        dead,
        empties,
        next,
        sides: [SideState::new(len), SideState::new(len)],
        longest: AtomicU16::new(0),
    };
    for side in [Side::Sheep, Side::Tiger] {
        (0..len).into_par_iter().with_min_len(1024).for_each(|i| builder.initialise(side, i));
    }
    progress(SliceProgress::Initialised);
    let mut n = 0u16;
    while n <= builder.longest.load(Ordering::Relaxed) && n < MAX_DISTANCE {
        for side in [Side::Sheep, Side::Tiger] {
            (0..len).into_par_iter().with_min_len(1024).for_each(|i| builder.retreat(side, i, n));
        }
        progress(SliceProgress::Distance(n));
        n += 1;
    }
    let [sheep, tiger] = builder
        .sides
        .map(|s| s.values.into_iter().map(AtomicU16::into_inner).collect::<Vec<Packed>>());
    Slice { kills: builder.kills, dead: builder.dead, values: [sheep, tiger] }
}
