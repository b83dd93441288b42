//! The solved game as the network's teacher: exact values for the positions the trainer samples,
//! and the value of every move of a position, to judge the moves a player chooses.

use std::sync::{Arc, Mutex, PoisonError};

use anyhow::Context as _;
use tns_board::{Board, Move, MoveList};
use tns_tablebase::{Tablebase, TablebaseError, Wdl};

/// The tablebase, asked for exact values. A table that fails to answer (a damaged or unreadable
/// file) is not a position it does not hold: the first such error is kept, and
/// [`Teacher::check`] hands it on, so a run stops on it instead of training on less.
#[derive(Clone, Debug)]
pub struct Teacher {
    table: Arc<Tablebase>,
    // Shared as an `Arc`, so that every check hands on the same error, cause and all.
    fault: Arc<Mutex<Option<Arc<TablebaseError>>>>,
}

/// The training target of a value for the side to move: 1 a win, 0 a draw, -1 a loss (the
/// network's output runs through tanh over the same range).
pub fn target(wdl: Wdl) -> f32 {
    match wdl {
        Wdl::Win => 1.0,
        Wdl::Draw => 0.0,
        Wdl::Loss => -1.0,
    }
}

/// The target of a drawn position with a margin: `margin × (2k - 1)`, where `k` is the share of
/// the side to move's moves that keep the draw. A draw held by many moves is worth a little
/// more than one held by a single move, so a search steers towards positions it cannot easily
/// spoil and away from those where one slip loses. 0 with no margin, or no move.
pub fn draw_target(keeping: usize, moves: usize, margin: f32) -> f32 {
    if moves == 0 || margin == 0.0 {
        return 0.0;
    }
    #[expect(clippy::cast_precision_loss, reason = "move counts, at most 25")]
    let share = keeping as f32 / moves as f32;
    margin * (2.0 * share - 1.0)
}

/// The class of a network output, the nearest of the three targets.
pub fn class_of(output: f32) -> Wdl {
    if output > 0.5 {
        Wdl::Win
    } else if output < -0.5 {
        Wdl::Loss
    } else {
        Wdl::Draw
    }
}

impl Teacher {
    /// A teacher from a loaded table.
    pub fn new(table: Arc<Tablebase>) -> Teacher {
        Teacher { table, fault: Arc::default() }
    }

    /// The first error the table gave, if any.
    ///
    /// # Errors
    /// That error, naming the file.
    pub fn check(&self) -> anyhow::Result<()> {
        match self.fault.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
            Some(e) => Err(Arc::clone(e)).context("the tablebase failed"),
            None => Ok(()),
        }
    }

    /// The table, to be shared with a player that searches with it (`table=on`).
    pub fn shared_table(&self) -> &Arc<Tablebase> {
        &self.table
    }

    /// The table.
    pub fn table(&self) -> &Tablebase {
        &self.table
    }

    /// The value of `board` for its side to move, `None` where the table does not hold it (a
    /// placement layer not built, or the game already won by kills) or fails to answer (kept
    /// for [`Teacher::check`]).
    pub fn value(&self, board: Board) -> Option<Wdl> {
        match self.table.wdl(board) {
            Ok(wdl) => Some(wdl),
            Err(TablebaseError::NoLayer(_) | TablebaseError::GameOver(_)) => None,
            Err(e) => {
                self.keep_fault(e);
                None
            }
        }
    }

    /// [`Tablebase::keep_traps`]: of a drawn `board`'s drawing `moves`, those that leave the
    /// fewest safe replies; all of them where the table does not hold a position one move on,
    /// or fails (kept for [`Teacher::check`]).
    pub fn keep_traps(&self, board: Board, moves: &mut MoveList) {
        match self.table.keep_traps(board, moves) {
            Ok(()) | Err(TablebaseError::NoLayer(_) | TablebaseError::GameOver(_)) => {}
            Err(e) => self.keep_fault(e),
        }
    }

    /// Keeps the table's first error for [`Teacher::check`].
    fn keep_fault(&self, e: TablebaseError) {
        self.fault
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert_with(|| Arc::new(e));
    }

    /// The value of playing `m` in `board`, for the side that plays it: a win when it makes the
    /// last kill needed, else the value of the position it leads to, one ply back.
    pub fn move_value(&self, board: Board, m: Move) -> Option<Wdl> {
        let child = board.after_unchecked(m);
        if child.dead() >= self.table.kills() {
            return Some(Wdl::Win);
        }
        self.value(child).map(Wdl::before)
    }

    /// Every legal move of `board` with its value for the side that plays it, in the move
    /// generator's order; `None` unless the table holds every one.
    pub fn move_values(&self, board: Board) -> Option<Vec<(Move, Wdl)>> {
        board.legal_moves().iter().map(|&m| Some((m, self.move_value(board, m)?))).collect()
    }

    /// The training target of `board`, whose value is `value`: [`target`], and for a draw
    /// [`draw_target`] with `margin` (the moves looked up only then).
    pub fn target_with_margin(&self, board: Board, value: Wdl, margin: f32) -> f32 {
        if value != Wdl::Draw || margin == 0.0 {
            return target(value);
        }
        let Some(moves) = self.move_values(board) else { return 0.0 };
        let keeping = moves.iter().filter(|&&(_, v)| v == Wdl::Draw).count();
        draw_target(keeping, moves.len(), margin)
    }

    /// Whether a game stops here for the table's rules: enough sheep dead, or no move.
    pub fn is_over(&self, board: Board) -> bool {
        board.dead() >= self.table.kills() || !board.has_moves()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_held_by_more_moves_is_worth_more() {
        assert!(draw_target(3, 4, 0.3) > draw_target(1, 4, 0.3));
        assert!((draw_target(4, 4, 0.3) - 0.3).abs() < 1e-6);
        assert!((draw_target(1, 2, 0.3)).abs() < 1e-6);
        assert!((draw_target(0, 4, 0.3) + 0.3).abs() < 1e-6);
        assert!(draw_target(1, 4, 0.0).abs() < f32::EPSILON);
        assert!(draw_target(0, 0, 0.3).abs() < f32::EPSILON);
    }
}
