//! How a mode of the program is left: the game and the puzzles say it, the program's loop acts
//! on it.

use tns_board::{Board, Side};
use tns_match::TimeControl;

/// How a mode is left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leave {
    /// The program ends.
    Quit,
    /// The game gives way to the puzzles (`p` on the start screen).
    Puzzles,
    /// The puzzles give way to a game from this position (`g`).
    Game(Board),
    /// The start screen gives way to an online game made on the server, this seat on `side`
    /// against a friend with the link.
    Online {
        /// The side played here.
        side: Side,
        /// Its clock, if any.
        clock: Option<TimeControl>,
    },
}
