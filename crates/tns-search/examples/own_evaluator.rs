//! A search with a home-made evaluator: `cargo run -p tns-search --example own_evaluator`.
//! The evaluator counts dead sheep and the tigers' moves; the search is the library's.

use tns_board::{Board, Side};
use tns_search::{Eval, Evaluator, Limits, Search, SearchConfig};

/// Dead sheep weigh 4 sheep each, every tiger move a tenth, from the side to move's view: its
/// [`Eval`]'s unit is hundredths of a sheep, as the heuristic's.
#[derive(Debug)]
struct Simple;

impl Evaluator for Simple {
    fn evaluate(&self, board: Board) -> Eval {
        let dead = i32::from(board.dead()) * 400;
        let tigers =
            if board.side_to_move() == Side::Tiger { board } else { board.with_side_flipped() };
        let mobility = i32::try_from(tigers.legal_moves().len()).unwrap_or(0) * 10;
        Eval::new((dead + mobility) * board.side_to_move().sign())
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut search = Search::new(Simple, SearchConfig::default().with_tt_mb(8))?;
    let board: Board = "T3T/1S3/2S2/5/T3T t 18".parse()?;
    let result = search.go(board, Limits::depth(6))?;
    let best = result.best_move.ok_or("the game is over")?;
    println!(
        "{board}: {best} ({}), depth {}",
        result.score.describe(board.side_to_move()),
        result.depth
    );
    println!("line: {}", result.pv.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "));
    Ok(())
}
