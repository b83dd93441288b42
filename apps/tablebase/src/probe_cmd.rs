//! `probe`: a position's verdict and each move's.

use tns_board::{Board, Side, TOTAL_SHEEP};
use tns_tablebase::{Tablebase, Verdict};

use crate::cli::{Cli, load};

pub fn describe(verdict: Verdict, side: Side) -> String {
    verdict.describe(side)
}

pub fn probe(cli: &Cli, position: &str) -> Result<(), String> {
    let board: Board = position.parse().map_err(|e| format!("bad position {position:?}: {e}"))?;
    if board.dead() >= cli.kills {
        return Err(format!("the game is over: {} sheep are dead", board.dead()));
    }
    let table = load(cli)?;
    let side = board.side_to_move();
    let verdict = match table.verdict(board) {
        Ok(verdict) => verdict,
        Err(tns_tablebase::TablebaseError::NoLayer(_)) => {
            return Err(not_built(&table, board));
        }
        Err(e) => return Err(e.to_string()),
    };
    match verdict.value {
        Some(value) => {
            say!("{board}: {} ({value} for the side to move)", describe(verdict, side));
        }
        None => {
            say!("{board}: {} ({} for the side to move)", describe(verdict, side), verdict.wdl);
        }
    }
    let verdicts = table.verdicts(board).map_err(|e| e.to_string())?;
    for (m, v) in verdicts {
        // After the move the other side is to move: say it from the mover's side.
        say!("  {:6} {}", m.to_string(), describe(v, side));
    }
    Ok(())
}

/// Why the table cannot answer for a placement position: its layers are not built that far.
pub fn not_built(table: &Tablebase, board: Board) -> String {
    let placed = TOTAL_SHEEP - board.in_hand();
    match table.placement_from() {
        None => "positions with sheep in hand need the placement layers: run \
                     `tns-tablebase build --placement`"
            .into(),
        Some(from) => format!(
            "the placement layers are built from {from} placed; this position has {placed} \
                 (build further with `--from-placed {}`)",
            placed.min(from.saturating_sub(1))
        ),
    }
}
