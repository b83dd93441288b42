//! `stats`: the table's counts, slice by slice and layer by layer.

use tns_board::Side;
use tns_tablebase::LayerStats;

use crate::cli::{Cli, load};

pub fn stats(cli: &Cli) -> anyhow::Result<()> {
    let table = load(cli)?;
    say!(
        "{:>4} {:>6} {:>12} {:>12} {:>12} {:>12} {:>8}",
        "dead",
        "to move",
        "positions",
        "wins",
        "draws",
        "losses",
        "longest"
    );
    let mut total = 0;
    for s in table.stats() {
        let side = match s.side {
            Side::Sheep => "sheep",
            Side::Tiger => "tigers",
        };
        say!(
            "{:>4} {:>7} {:>12} {:>12} {:>12} {:>12} {:>8}",
            s.dead,
            side,
            s.positions,
            s.wins,
            s.draws,
            s.losses,
            s.longest_win
        );
        total += s.positions;
    }
    say!("total positions {total}");
    let layers = table.placement_stats();
    if !layers.is_empty() {
        say!();
        print_layers(&layers);
    }
    Ok(())
}

pub fn print_layers(layers: &[LayerStats]) {
    say!(
        "{:>6} {:>4} {:>7} {:>14} {:>14} {:>14} {:>14}",
        "placed",
        "dead",
        "to move",
        "positions",
        "wins",
        "draws",
        "losses"
    );
    let mut total = [0u64; 4];
    for s in layers {
        let side = match s.side {
            Side::Sheep => "sheep",
            Side::Tiger => "tigers",
        };
        say!(
            "{:>6} {:>4} {:>7} {:>14} {:>14} {:>14} {:>14}",
            s.placed,
            s.dead,
            side,
            s.positions,
            s.wins,
            s.draws,
            s.losses
        );
        for (t, n) in total.iter_mut().zip([s.positions, s.wins, s.draws, s.losses]) {
            *t += n;
        }
    }
    say!(
        "{:>6} {:>4} {:>7} {:>14} {:>14} {:>14} {:>14}",
        "all",
        "",
        "both",
        total[0],
        total[1],
        total[2],
        total[3]
    );
}
