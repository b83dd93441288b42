//! A puzzle: a position, the moves that solve it, the value they keep, how hard it is.

use std::fmt;

use tns_board::{Board, Move};
use tns_tablebase::Verdict;

use crate::theme::Theme;

/// A position from a game where few moves keep the side to move's result, with every move that
/// does. Solving it means playing one of [`solutions`](Puzzle::solutions); a longer puzzle then
/// goes on along [`line`](Puzzle::line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position, its side to move the solver.
    pub position: Board,
    /// Every legal move that keeps [`value`](Puzzle::value), and no other: any other move
    /// gives it up.
    pub solutions: Vec<Move>,
    /// What the solutions keep, for the solver: a win (with its distance where the table holds
    /// one) or a draw.
    pub value: Verdict,
    /// How hard it is, on the scale of [`Rating`](crate::Rating) (1500 a middling puzzle).
    pub rating: u16,
    /// What it teaches, where it can be named.
    pub themes: Vec<Theme>,
    /// After the only solution, the rest of a longer puzzle: the opponent's best reply, then the
    /// solver's next move (again the only one that keeps the value), and so on; empty for a
    /// puzzle of one move.
    pub line: Vec<Move>,
}

impl Puzzle {
    /// How many moves the solver has to find: one, and one more for each pair of the line.
    pub fn moves_to_find(&self) -> usize {
        1 + self.line.len() / 2
    }

    /// The moves that solve step `step` (0 for the first move): the whole
    /// [`solutions`](Puzzle::solutions) at the first, the one move of the line after.
    pub fn solutions_at(&self, step: usize) -> &[Move] {
        if step == 0 {
            &self.solutions
        } else {
            self.line.get(2 * step - 1..2 * step).unwrap_or(&[])
        }
    }

    /// The opponent's reply after step `step` is solved, `None` after the last.
    pub fn reply_after(&self, step: usize) -> Option<Move> {
        self.line.get(2 * step).copied()
    }

    /// Whether `theme` is one of its themes.
    pub fn has(&self, theme: Theme) -> bool {
        self.themes.contains(&theme)
    }
}

impl fmt::Display for Puzzle {
    /// The puzzle as one line of the set's file (see [`crate::parse_line`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |moves: &[Move]| moves.iter().map(Move::to_string).collect::<Vec<_>>().join(" ");
        let themes = self.themes.iter().map(|t| t.name()).collect::<Vec<_>>().join(" ");
        write!(
            f,
            "{}\t{}\t{}\t{}\t{}\t{}",
            self.position,
            join(&self.solutions),
            self.value,
            self.rating,
            themes,
            join(&self.line)
        )
    }
}
