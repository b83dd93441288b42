//! What a puzzle teaches, named where a rule can tell.

use std::fmt;
use std::str::FromStr;

use tns_board::{Board, Move, Side};
use tns_tablebase::Wdl;

/// A puzzle's theme. Every puzzle has its phase, its solver and what is kept; the rest are
/// named when the position shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// Sheep are still in hand.
    Placement,
    /// Every sheep is placed.
    Movement,
    /// The sheep solve it.
    Sheep,
    /// The tigers solve it.
    Tigers,
    /// The solutions keep a win.
    Win,
    /// The solutions keep a draw that other moves lose.
    Hold,
    /// The solution is a jump.
    Jump,
    /// A jump is there to take, and every jump gives the result up.
    NoJump,
    /// A sheep move: some other move leaves a sheep to a jump the solutions do not.
    Guard,
    /// A sheep move that leaves fewer tigers able to move: a tiger trapped.
    Trap,
    /// More than one move to find.
    Long,
}

/// Every theme, in the order the set's file writes them.
pub const THEMES: [Theme; 11] = [
    Theme::Placement,
    Theme::Movement,
    Theme::Sheep,
    Theme::Tigers,
    Theme::Win,
    Theme::Hold,
    Theme::Jump,
    Theme::NoJump,
    Theme::Guard,
    Theme::Trap,
    Theme::Long,
];

impl Theme {
    /// Its name in the file and on screen.
    pub const fn name(self) -> &'static str {
        match self {
            Theme::Placement => "placement",
            Theme::Movement => "movement",
            Theme::Sheep => "sheep",
            Theme::Tigers => "tigers",
            Theme::Win => "win",
            Theme::Hold => "hold",
            Theme::Jump => "jump",
            Theme::NoJump => "no-jump",
            Theme::Guard => "guard",
            Theme::Trap => "trap",
            Theme::Long => "long",
        }
    }

    /// What it means, for people.
    pub const fn about(self) -> &'static str {
        match self {
            Theme::Placement => "sheep are still in hand",
            Theme::Movement => "every sheep is placed",
            Theme::Sheep => "the sheep to move",
            Theme::Tigers => "the tigers to move",
            Theme::Win => "find the move that keeps the win",
            Theme::Hold => "find the move that keeps the draw",
            Theme::Jump => "the answer is a jump",
            Theme::NoJump => "a jump is there, and it loses",
            Theme::Guard => "other moves leave a sheep to a jump",
            Theme::Trap => "the answer traps a tiger",
            Theme::Long => "more than one move to find",
        }
    }

    /// The themes of a puzzle: `board`, its `solutions` (at least one, all legal) and the
    /// legal moves that drop the value (`others`), what is kept (`kept`), and whether a line
    /// follows.
    pub fn of(
        board: Board,
        solutions: &[Move],
        others: &[Move],
        kept: Wdl,
        long: bool,
    ) -> Vec<Theme> {
        let side = board.side_to_move();
        let mut themes = vec![
            if board.in_hand() > 0 { Theme::Placement } else { Theme::Movement },
            if side == Side::Sheep { Theme::Sheep } else { Theme::Tigers },
            if kept == Wdl::Win { Theme::Win } else { Theme::Hold },
        ];
        let is_jump = |m: &Move| matches!(m, Move::Jump { .. });
        if side == Side::Tiger {
            if solutions.iter().all(is_jump) {
                themes.push(Theme::Jump);
            } else if others.iter().any(is_jump) && !solutions.iter().any(is_jump) {
                themes.push(Theme::NoJump);
            }
        } else {
            let open = |m: &Move| !board.after_unchecked(*m).capturable_sheep().is_empty();
            if !solutions.iter().any(open) && others.iter().any(open) {
                themes.push(Theme::Guard);
            }
            let mobile = board.mobile_tigers().len();
            if solutions.iter().all(|m| board.after_unchecked(*m).mobile_tigers().len() < mobile) {
                themes.push(Theme::Trap);
            }
        }
        if long {
            themes.push(Theme::Long);
        }
        themes
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A theme name that is none of [`THEMES`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no theme is called {0:?}")]
pub struct ParseThemeError(pub String);

impl FromStr for Theme {
    type Err = ParseThemeError;

    fn from_str(s: &str) -> Result<Theme, ParseThemeError> {
        THEMES.into_iter().find(|t| t.name() == s).ok_or_else(|| ParseThemeError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_theme_reads_back_from_its_name() {
        for theme in THEMES {
            assert_eq!(theme.name().parse::<Theme>(), Ok(theme));
        }
        assert!("pin".parse::<Theme>().is_err());
    }

    #[test]
    fn a_jump_that_solves_is_named() {
        let board: Board = "T3T/5/2S2/2T2/T4 t 19".parse().unwrap();
        let jump = board.legal_moves().iter().copied().find(|m| matches!(m, Move::Jump { .. }));
        let jump = jump.expect("the tiger on c2 jumps c3");
        let others: Vec<Move> =
            board.legal_moves().iter().copied().filter(|&m| m != jump).collect();
        let themes = Theme::of(board, &[jump], &others, Wdl::Win, false);
        assert_eq!(themes, [Theme::Placement, Theme::Tigers, Theme::Win, Theme::Jump]);
        let themes = Theme::of(board, &others[..1], &[jump], Wdl::Draw, true);
        assert_eq!(
            themes,
            [Theme::Placement, Theme::Tigers, Theme::Hold, Theme::NoJump, Theme::Long]
        );
    }
}
