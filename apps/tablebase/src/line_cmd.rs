//! `line`: a perfect line from a position, as the perfect player plays it.

use tns_board::Board;

use crate::cli::{Cli, load};
use crate::probe_cmd::describe;

pub fn line(cli: &Cli, position: &str, depth: u32, plies: usize) -> Result<(), String> {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use tns_match::{Budget, PlayerSpec};
    use tns_search::Limits;

    let board: Board = position.parse().map_err(|e| format!("bad position {position:?}: {e}"))?;
    if cli.kills != tns_board::KILLS_TO_WIN {
        return Err("the perfect player plays the real game: leave out --kills".into());
    }
    let table = Arc::new(load(cli)?);
    let defaults = Budget { time: None, depth: None, threads: 1, tt_mb: 16 };
    let mut search = PlayerSpec::perfect()
        .searcher(defaults, Some(&table))
        .map_err(|e| e.to_string())?
        .ok_or("the perfect player searches")?;
    let mut game = tns_board::Game::from_position(board);
    say!("{:>4} {:<28} {:>6} {:>5}  {:<6} verdict", "ply", "position", "moves", "keep", "move");
    while game.outcome().is_none() && game.len() < plies {
        let board = game.board();
        let side = board.side_to_move();
        let verdicts = table.verdicts(board).map_err(|e| format!("{board}: {e}"))?;
        let best = verdicts.first().map(|v| v.1).ok_or("no legal move")?;
        let keep = verdicts.iter().filter(|v| v.1.wdl == best.wdl).count();
        let stop = AtomicBool::new(false);
        let m = search
            .search(board, game.previous(), Limits::depth(depth), &stop, |_| {})
            .map_err(|e| e.to_string())?
            .best_move
            .ok_or("no legal move")?;
        say!(
            "{:>4} {:<28} {:>6} {:>5}  {:<6} {}",
            game.len() + 1,
            board.to_string(),
            verdicts.len(),
            keep,
            m.to_string(),
            describe(best, side)
        );
        game.play(m).map_err(|e| e.to_string())?;
    }
    if let Some(outcome) = game.outcome() {
        say!("{outcome}");
    }
    Ok(())
}
