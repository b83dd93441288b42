//! The solved game as the network's teacher: exact values for the positions the trainer samples,
//! and the value of every move of a position, to judge the moves a player chooses.

use std::sync::Arc;

use tns_board::{Board, Move};
use tns_tablebase::{Tablebase, Wdl};

/// The tablebase, asked for exact values.
#[derive(Clone, Debug)]
pub struct Teacher {
    table: Arc<Tablebase>,
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
        Teacher { table }
    }

    /// The table.
    pub fn table(&self) -> &Tablebase {
        &self.table
    }

    /// The value of `board` for its side to move, `None` where the table does not hold it (a
    /// placement layer not built, or the game already won by kills).
    pub fn value(&self, board: Board) -> Option<Wdl> {
        self.table.probe_wdl(board)
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

    /// Whether a game stops here for the table's rules: enough sheep dead, or no move.
    pub fn is_over(&self, board: Board) -> bool {
        board.dead() >= self.table.kills() || !board.has_moves()
    }
}
