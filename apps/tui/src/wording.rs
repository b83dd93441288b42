//! Search results for people: a forced result in plies, else the chances of each result, and
//! where the chances put the bar.

use tns_board::Side;
use tns_search::{Chances, Score};

/// A search's result for people: a forced result as the table's verdicts say it ("Sheep win
/// in 7 plies"), else the chances of each result the player reads in its score, from the
/// sheep's end to the tigers' ("Sheep 2% · Draw 78% · Tigers 20%").
pub fn result_text(score: Score, chances: Chances, side_to_move: Side) -> String {
    match score.plies_to_end() {
        // The library's words, with the unit: "Tigers win in 7" and " plies".
        Some(n) => {
            let words = score.describe(side_to_move);
            format!("{words} {}", if n == 1 { "ply" } else { "plies" })
        }
        None => chances.describe(side_to_move),
    }
}

/// "1 ply", "7 plies".
pub(crate) fn plies(n: i32) -> String {
    if n == 1 { "1 ply".into() } else { format!("{n} plies") }
}

/// Where chances put the game on a bar from the sheep's end (0) to the tigers' (`width`): by
/// the tigers' expected result, even in the middle, at an end for a certain win.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "clamped to 0..=width, a u16, on the same line"
)]
pub fn bar_position(chances: Chances, side_to_move: Side, width: u16) -> u16 {
    let tigers = chances.expected() * side_to_move.sign();
    let half = i32::from(width) / 2;
    (half + tigers * half / 1000).clamp(0, i32::from(width)) as u16
}
