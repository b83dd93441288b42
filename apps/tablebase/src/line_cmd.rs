//! `line`: a perfect line from a position, as the perfect player plays it.

use anyhow::{Context as _, bail};
use tns_board::Board;

use crate::cli::{Cli, load};
use crate::probe_cmd::describe;

pub fn line(cli: &Cli, position: &str, depth: u32, plies: usize) -> anyhow::Result<()> {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use tns_match::{Budget, PlayerSpec};
    use tns_search::Limits;

    let board: Board = position.parse().with_context(|| format!("bad position {position:?}"))?;
    if cli.kills != tns_board::KILLS_TO_WIN {
        bail!("the perfect player plays the real game: leave out --kills");
    }
    let table = Arc::new(load(cli)?);
    let defaults = Budget { time: None, depth: None, threads: 1, tt_mb: 16 };
    let mut search = PlayerSpec::perfect()
        .searcher(defaults, Some(&table))?
        .context("the perfect player searches")?;
    let mut game = tns_board::Game::from_position(board);
    say!("{:>4} {:<28} {:>6} {:>5}  {:<6} verdict", "ply", "position", "moves", "keep", "move");
    while game.outcome().is_none() && game.len() < plies {
        let board = game.board();
        let side = board.side_to_move();
        let verdicts = table.verdicts(board).with_context(|| board.to_string())?;
        let best = verdicts.first().map(|v| v.1).context("no legal move")?;
        let keep = verdicts.iter().filter(|v| v.1.wdl == best.wdl).count();
        let stop = AtomicBool::new(false);
        let m = search
            .search(board, game.previous(), Limits::depth(depth), &stop, |_| {})?
            .best_move
            .context("no legal move")?;
        say!(
            "{:>4} {:<28} {:>6} {:>5}  {:<6} {}",
            game.len() + 1,
            board.to_string(),
            verdicts.len(),
            keep,
            m.to_string(),
            describe(best, side)
        );
        game.play(m)?;
    }
    if let Some(outcome) = game.outcome() {
        say!("{outcome}");
    }
    Ok(())
}
