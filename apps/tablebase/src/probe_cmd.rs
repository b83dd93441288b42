//! `probe`: a position's verdict and each move's.

use anyhow::{Context as _, bail};
use tns_board::{Board, Side, TOTAL_SHEEP};
use tns_tablebase::{Tablebase, Verdict};

use crate::cli::{Cli, load};

pub fn describe(verdict: Verdict, side: Side) -> String {
    verdict.describe(side)
}

pub fn probe(cli: &Cli, position: &str) -> anyhow::Result<()> {
    let board: Board = position.parse().with_context(|| format!("bad position {position:?}"))?;
    if board.dead() >= cli.kills {
        bail!("the game is over: {} sheep are dead", board.dead());
    }
    let table = load(cli)?;
    let side = board.side_to_move();
    let verdict = match table.verdict(board) {
        Ok(verdict) => verdict,
        // Said better for the command line: how far the layers are built, and what to run.
        Err(tns_tablebase::TablebaseError::NoLayer(_)) => bail!(not_built(&table, board)),
        Err(e) => return Err(e.into()),
    };
    match verdict.value {
        Some(value) => {
            say!("{board}: {} ({value} for the side to move)", describe(verdict, side));
        }
        None => {
            say!("{board}: {} ({} for the side to move)", describe(verdict, side), verdict.wdl);
        }
    }
    let verdicts = table.verdicts(board)?;
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
