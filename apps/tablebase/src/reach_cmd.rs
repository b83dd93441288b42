//! `reach`: the positions the game reaches ply by ply from the start, by value.

use tns_board::Board;
use tns_tablebase::Wdl;

use crate::cli::{Cli, load};

pub fn reach(cli: &Cli, plies: u32) -> Result<(), String> {
    let table = load(cli)?;
    let mut layer = std::collections::HashSet::from([Board::START]);
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
    for ply in 1..=plies {
        let (mut wdl, mut moves, mut losing) = ([0u64; 3], 0u64, 0u64);
        let mut next = std::collections::HashSet::new();
        for &board in &layer {
            let verdicts = table.verdicts(board).map_err(|e| format!("{board}: {e}"))?;
            let value = verdicts.first().map_or(Wdl::Loss, |v| v.1.wdl);
            wdl[value as usize] += 1;
            if value == Wdl::Draw {
                moves += verdicts.len() as u64;
                losing += verdicts.iter().filter(|v| v.1.wdl == Wdl::Loss).count() as u64;
            }
            for (m, _) in verdicts {
                let child = board.after_unchecked(m);
                if child.dead() < cli.kills {
                    next.insert(child.canonical().0);
                }
            }
        }
        say!(
            "{ply:>4} {:>10} {:>10} {:>10} {:>10} {moves:>16} {losing:>14}",
            layer.len(),
            wdl[2],
            wdl[1],
            wdl[0]
        );
        layer = next;
    }
    Ok(())
}
