//! The principal variation: kept in each worker's triangular table, and completed from the
//! transposition table where a cutoff by the table cut it short.

use tns_board::{Board, KILLS_TO_WIN, Move};

use crate::Evaluator;
use crate::score::{MAX_PLY, Score};
use crate::worker::Worker;

impl<E: Evaluator> Worker<'_, '_, E> {
    pub(crate) fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = if ply + 1 < MAX_PLY { self.pv_len[ply + 1] } else { 0 };
        self.pv[ply][0] = Some(m);
        for i in 0..child_len.min(MAX_PLY - 1) {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = (child_len + 1).min(MAX_PLY);
    }

    /// Lengthens `pv` to `depth` moves with the transposition table's moves, where a cutoff by
    /// the table cut the line short (a search that repeats an earlier one finds most of its
    /// lines there).
    /// Stops at a position the table has no move for, or at one already on the line.
    pub(crate) fn extend_pv(&self, root: Board, pv: &mut Vec<Move>, depth: usize) {
        if !self.shared.use_tt {
            return;
        }
        let mut line = vec![root];
        let mut board = root;
        for &m in pv.iter() {
            board = board.after_unchecked(m);
            line.push(board);
        }
        while pv.len() < depth && board.dead() < KILLS_TO_WIN {
            let (canonical, sym) = board.canonical();
            let stored = self.shared.tt.probe(canonical.key()).and_then(|e| e.mv);
            let m = match stored.map(|m| sym.inverse().apply_move(m)) {
                Some(m) if board.check_move(m).is_ok() => m,
                // The transposition table keeps no depth-1 nodes: the last move is a one-ply
                // look's.
                _ if pv.len() + 1 == depth => match self.one_ply_best(board) {
                    Some(m) => m,
                    None => break,
                },
                _ => break,
            };
            board = board.after_unchecked(m);
            if line.contains(&board) {
                break;
            }
            pv.push(m);
            line.push(board);
        }
    }

    /// The move a one-ply search of `board` chooses (repetitions aside): the one whose
    /// position is worst for the opponent.
    fn one_ply_best(&self, board: Board) -> Option<Move> {
        let value = |child: Board| -> Score {
            if child.dead() >= KILLS_TO_WIN || !child.has_moves() {
                return Score::loss_in(0);
            }
            self.shared
                .evaluator
                .exact(child)
                .unwrap_or_else(|| Score::from_eval(self.shared.evaluator.evaluate(child)))
        };
        let moves = board.legal_moves();
        moves.iter().copied().min_by_key(|&m| value(board.after_unchecked(m)))
    }
}
