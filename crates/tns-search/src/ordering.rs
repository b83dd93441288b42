//! Move ordering: the transposition table's move, then kills, then killer moves, then the
//! history heuristic.

use tns_board::{Move, MoveList, Side};

use crate::Parts;
use crate::score::MAX_PLY;

const TT_MOVE: i32 = 1 << 30;
const JUMP: i32 = 1 << 29;
const KILLER: i32 = 1 << 28;

/// Per-thread ordering state: two killer moves per ply and a history table.
#[derive(Clone, Debug)]
pub(crate) struct MoveOrder {
    killers: [[Option<Move>; 2]; MAX_PLY],
    /// `history[side][from][to]`, `from` 25 standing for a placement.
    history: [[[i32; 25]; 26]; 2],
    parts: Parts,
}

impl MoveOrder {
    pub(crate) fn new(parts: Parts) -> MoveOrder {
        MoveOrder { killers: [[None; 2]; MAX_PLY], history: [[[0; 25]; 26]; 2], parts }
    }

    /// Forgets the killers and ages the history between searches.
    pub(crate) fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
        for v in self.history.iter_mut().flatten().flatten() {
            *v /= 8;
        }
    }

    fn history_slot(&mut self, side: Side, m: Move) -> &mut i32 {
        let from = m.from().map_or(25, tns_board::Point::index);
        &mut self.history[side as usize][from][m.to().index()]
    }

    /// Records a quiet move (not a jump) that caused a beta cutoff at `ply`, searched to `depth`.
    pub(crate) fn record_cutoff(&mut self, side: Side, m: Move, ply: usize, depth: u32) {
        let killers = &mut self.killers[ply];
        if self.parts.killers && killers[0] != Some(m) {
            killers[1] = killers[0];
            killers[0] = Some(m);
        }
        if !self.parts.history {
            return;
        }
        // The search's depth is at most MAX_DEPTH, so its square is far inside an i32.
        let bonus = i32::try_from(depth * depth).unwrap_or(i32::MAX);
        let slot = self.history_slot(side, m);
        *slot = (*slot + bonus).min(KILLER - 1);
    }

    /// Scores every move of `moves` into `scores`, higher first.
    pub(crate) fn score(
        &self,
        side: Side,
        moves: &MoveList,
        tt_move: Option<Move>,
        ply: usize,
        scores: &mut [i32; tns_board::MAX_MOVES],
    ) {
        let killers = self.killers[ply];
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = if Some(m) == tt_move {
                TT_MOVE
            } else if m.is_jump() && self.parts.jumps_first {
                JUMP
            } else if Some(m) == killers[0] {
                KILLER + 1
            } else if Some(m) == killers[1] {
                KILLER
            } else {
                let from = m.from().map_or(25, tns_board::Point::index);
                self.history[side as usize][from][m.to().index()]
            };
        }
    }
}

/// Moves the best-scored move at or after `i` to position `i` (selection sort, one step at a
/// time, so a cutoff early on saves sorting the rest).
#[inline]
pub(crate) fn pick_next(moves: &mut MoveList, scores: &mut [i32; tns_board::MAX_MOVES], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    if best != i {
        moves.swap(i, best);
        scores.swap(i, best);
    }
}
