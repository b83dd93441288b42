//! The shipped network's reading of the start, a draw, from depth to depth: the number a player
//! sees while the computer thinks at the first move.

use tns_board::Board;
use tns_match::{Budget, PlayerSpec};
use tns_search::Limits;

/// At the start, from depth 4 to 12, the strongest player's chances call a draw the likeliest
/// result, and the expected result stays within 5% of a certain win of zero. Its sign is not
/// held: a drawn position reads a few permille better for the side to move at the horizon, as
/// the positions with its reading do in the table, so the sign follows the horizon's parity at
/// a size no player can see in the shown chances.
#[test]
#[ignore = "searches to depth 12 with the network: run in release (CI runs it)"]
fn the_start_reads_as_a_draw_at_every_depth() {
    let spec = PlayerSpec::strongest();
    let budget = Budget { time: None, depth: None, threads: 1, tt_mb: 16 };
    let mut search = spec.searcher(budget, None).unwrap().expect("the network searches");
    for depth in 4..=12 {
        search.clear();
        let result = search.go(Board::START, Limits::depth(depth)).unwrap();
        let chances = result.chances;
        assert!(
            chances.draw > chances.win && chances.draw > chances.loss,
            "depth {depth}: {chances:?}"
        );
        let score = result.score.as_eval().get();
        assert!(score.abs() <= 500, "depth {depth}: expected {score} of 10,000");
    }
}
