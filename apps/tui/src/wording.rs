//! Scores for people: in dead sheep, or a forced result in plies, and where a score puts the bar.

use tns_board::Side;
use tns_search::{Chances, plies_to_end};

/// What one dead sheep is worth in the evaluation's units (hundredths of a sheep, with a dead
/// sheep weighed at 4.00 by the heuristic): scores are shown in dead sheep.
pub const DEAD_SHEEP: i32 = 400;

/// A search score for people, from the side ahead: "Tigers +0.70 (dead sheep)", "Even", or
/// for a forced result "Sheep win in 7 plies" (the same words as the table's verdict).
pub fn score_text(score: i32, side_to_move: Side) -> String {
    if let Some(n) = plies_to_end(score) {
        // The library's words, with the unit: "Tigers win in 7" and " plies".
        let words = tns_search::describe(score, side_to_move);
        return format!("{words} {}", if n == 1 { "ply" } else { "plies" });
    }
    let tigers = score * side_to_move.sign();
    let value = f64::from(tigers.abs()) / f64::from(DEAD_SHEEP);
    if value < 0.005 {
        return "Even".into();
    }
    let ahead = if tigers > 0 { Side::Tiger } else { Side::Sheep };
    format!("{} +{value:.2} (dead sheep)", ahead.plural())
}

/// A search's result for people: a forced result as [`score_text`] says it ("Sheep win in 7
/// plies"), else the chances of each result the player reads in its score, from the sheep's end
/// to the tigers' ("Sheep 2% · Draw 78% · Tigers 20%").
pub fn result_text(score: i32, chances: Chances, side_to_move: Side) -> String {
    if plies_to_end(score).is_some() {
        score_text(score, side_to_move)
    } else {
        chances.describe(side_to_move)
    }
}

/// "1 ply", "7 plies".
pub(crate) fn plies(n: i32) -> String {
    if n == 1 { "1 ply".into() } else { format!("{n} plies") }
}

/// Where a score puts the game on a bar from the sheep's side (0) to the tigers' (`width`),
/// even in the middle, full at two dead sheep either way or a forced result.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "clamped to 0..=width, a u16, on the same line"
)]
pub fn bar_position(score: i32, side_to_move: Side, width: u16) -> u16 {
    let tigers = (score * side_to_move.sign()).clamp(-2 * DEAD_SHEEP, 2 * DEAD_SHEEP);
    let half = i32::from(width) / 2;
    (half + tigers * half / (2 * DEAD_SHEEP)).clamp(0, i32::from(width)) as u16
}
