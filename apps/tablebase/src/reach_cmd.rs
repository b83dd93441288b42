//! `reach`: the positions the game reaches ply by ply from the start, by value.

use tns_board::Board;

use crate::cli::{Cli, load};

pub fn reach(cli: &Cli, plies: u32) -> anyhow::Result<()> {
    let table = load(cli)?;
    say!(
        "{:>4} {:>10} {:>10} {:>10} {:>10} {:>16} {:>14}",
        "ply",
        "positions",
        "wins",
        "draws",
        "losses",
        "moves from draws",
        "of them losing"
    );
    table.reach(Board::START, plies, |p| {
        say!(
            "{:>4} {:>10} {:>10} {:>10} {:>10} {:>16} {:>14}",
            p.ply,
            p.positions,
            p.wins,
            p.draws,
            p.losses,
            p.moves_from_draws,
            p.losing_moves_from_draws
        );
    })?;
    Ok(())
}
