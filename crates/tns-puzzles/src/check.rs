//! A puzzle checked against the solved game: its answers are exactly the moves that keep its
//! value.

use tns_board::{Board, Move};
use tns_tablebase::{Tablebase, TablebaseError, Verdict, Wdl};

use crate::puzzle::Puzzle;

/// Why a puzzle is not what it says.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    /// The table cannot answer for a position of the puzzle (a layer not built, a damaged file).
    #[error("the table cannot judge the puzzle")]
    Table(#[source] TablebaseError),
    /// The position's value is not the one written.
    #[error("the position is a {found} for the solver, not a {written}")]
    Value {
        /// The table's verdict.
        found: Verdict,
        /// The puzzle's.
        written: Verdict,
    },
    /// The written solutions are not the moves that keep the value.
    #[error("step {step}: the moves that keep the value are {keep:?}, the puzzle says {written:?}")]
    Solutions {
        /// The move to find, from 0.
        step: usize,
        /// The moves that keep it, by the table.
        keep: Vec<String>,
        /// The puzzle's.
        written: Vec<String>,
    },
    /// Every legal move keeps the value: nothing to find.
    #[error("step {0}: every move keeps the value")]
    NothingDrops(usize),
    /// A reply in the line is not one of the opponent's best.
    #[error("step {step}: the reply {reply} is not one of the opponent's best")]
    Reply {
        /// The step it answers, from 0.
        step: usize,
        /// The reply.
        reply: Move,
    },
}

/// The moves of `board` that keep its value for the side to move, the legal moves' count, and
/// that value.
///
/// # Errors
/// The table's, when it cannot answer for the position or one of its children.
pub fn keepers(
    table: &Tablebase,
    board: Board,
) -> Result<(Vec<Move>, usize, Verdict), TablebaseError> {
    let verdicts = table.verdicts(board)?;
    let best = verdicts.first().map_or(Wdl::Loss.into(), |&(_, v)| v);
    let keep: Vec<Move> =
        verdicts.iter().filter(|(_, v)| v.wdl == best.wdl).map(|&(m, _)| m).collect();
    Ok((keep, verdicts.len(), table.verdict(board)?))
}

/// Checks `puzzle` against `table`: the value is the table's, the solutions of each step are
/// exactly the moves that keep it, some legal move drops it, and each reply of the line is one
/// of the opponent's best.
///
/// # Errors
/// The first thing found wrong; [`CheckError::Table`] where the table cannot answer.
pub fn check(puzzle: &Puzzle, table: &Tablebase) -> Result<(), CheckError> {
    let mut board = puzzle.position;
    for step in 0..puzzle.moves_to_find() {
        let (keep, legal, verdict) = keepers(table, board).map_err(CheckError::Table)?;
        if step == 0 && (verdict != puzzle.value || verdict.wdl == Wdl::Loss) {
            return Err(CheckError::Value { found: verdict, written: puzzle.value });
        }
        let written = puzzle.solutions_at(step);
        let mut sorted_keep = keep.clone();
        let mut sorted_written = written.to_vec();
        let key = |m: &Move| m.to_string();
        sorted_keep.sort_by_key(key);
        sorted_written.sort_by_key(key);
        if sorted_keep != sorted_written || verdict.wdl != puzzle.value.wdl {
            return Err(CheckError::Solutions {
                step,
                keep: sorted_keep.iter().map(Move::to_string).collect(),
                written: sorted_written.iter().map(Move::to_string).collect(),
            });
        }
        if keep.len() == legal {
            return Err(CheckError::NothingDrops(step));
        }
        let Some(reply) = puzzle.reply_after(step) else { break };
        board = board.after_unchecked(written[0]);
        let (best, _, _) = keepers(table, board).map_err(CheckError::Table)?;
        if !best.contains(&reply) {
            return Err(CheckError::Reply { step, reply });
        }
        board = board.after_unchecked(reply);
    }
    Ok(())
}
