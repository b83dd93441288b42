//! `examples`: positions of a placement layer with a given value for the side to move.

use tns_board::Side;
use tns_tablebase::Wdl;

use crate::cli::{Cli, load};

pub fn examples(
    cli: &Cli,
    placed: u8,
    dead: u8,
    side: Side,
    result: Wdl,
    count: usize,
) -> anyhow::Result<()> {
    let table = load(cli)?;
    let found = table.placement_examples(placed, dead, side, result, count)?;
    if found.is_empty() {
        say!("none");
    }
    for board in found {
        say!("{board}");
    }
    Ok(())
}
