//! Tests on the real game's table (5 kills). Building it takes about a minute, so these
//! are ignored by default; CI builds the table into `tablebase/` and runs them. The directory
//! can be changed with `TNS_TABLEBASE_DIR`.

mod common;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use common::burnside;
use tns_board::{Game, KILLS_TO_WIN, Side};
use tns_search::{Heuristic, Limits, Search, SearchConfig};
use tns_tablebase::{Tablebase, Value, WithTablebase};

fn table() -> &'static Arc<Tablebase> {
    common::real_table()
}

#[test]
#[ignore = "needs the built tablebase; CI builds it"]
fn counts_the_published_number_of_positions() {
    let stats = table().stats();
    let total: u64 = stats.iter().map(|s| s.positions).sum();
    assert_eq!(total, 88_260_972);
    for s in stats {
        assert_eq!(s.positions, burnside(usize::from(s.dead) + 1), "{s:?}");
    }
}

#[test]
#[ignore = "needs the built tablebase; CI builds it"]
fn every_value_agrees_with_its_moves() {
    table().verify().unwrap();
}

/// Plays heuristic against perfect from a seeded random opening of 30 to 39 plies, checking at every
/// move of the perfect side that a won position stays won, a drawn one never becomes lost, and
/// that a game the perfect side reaches with a win ends in its win.
fn play(perfect_side: Side, seed: u64) -> bool {
    let config = SearchConfig::default().with_tt_mb(4);
    let evaluator = WithTablebase::new(Heuristic::default(), Arc::clone(table())).unwrap();
    let mut perfect = Search::new(evaluator, config).unwrap();
    let mut heuristic = Search::new(Heuristic::default(), config).unwrap();
    let stop = AtomicBool::new(false);
    let mut game = Game::new();
    let mut state = seed;
    // Random placement for most of the opening, so the movement phase starts unbalanced and
    // often decided: that is where a slip would show.
    for _ in 0..30 + seed % 10 {
        state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let moves = game.legal_moves();
        if moves.is_empty() {
            // Random play ended the game already: nothing to check.
            return false;
        }
        game.play(moves[(state >> 33) as usize % moves.len()]).unwrap();
    }
    let mut reached_win = false;
    while game.outcome().is_none() && game.len() < 400 {
        let board = game.board();
        let limits = Limits::depth(4);
        let m = if board.side_to_move() == perfect_side {
            let before = table().value(board);
            let m = perfect
                .search(board, game.previous(), limits, &stop, |_| {})
                .unwrap()
                .best_move
                .unwrap();
            let child = board.after_unchecked(m);
            let after = if child.dead() >= KILLS_TO_WIN {
                Some(Value::Loss(0))
            } else {
                table().value(child)
            };
            match before {
                Some(Value::Win(n)) => {
                    reached_win = true;
                    assert!(
                        matches!(after, Some(Value::Loss(k)) if k < n),
                        "{board}: won in {n}, but {m} leads to {after:?}"
                    );
                }
                Some(Value::Draw) => {
                    assert!(!matches!(after, Some(Value::Win(_))), "{board}: drawn, {m} loses");
                }
                _ => {}
            }
            m
        } else {
            heuristic
                .search(board, game.previous(), limits, &stop, |_| {})
                .unwrap()
                .best_move
                .unwrap()
        };
        game.play(m).unwrap();
    }
    if reached_win {
        let outcome = game.outcome().expect("a won game ends");
        assert_eq!(outcome.winner, Some(perfect_side), "{outcome}");
    }
    reached_win
}

#[test]
#[ignore = "needs the built tablebase; CI builds it"]
fn the_perfect_player_never_lets_a_win_slip() {
    let mut won = 0;
    for seed in 0..12 {
        won += u32::from(play(Side::Tiger, seed)) + u32::from(play(Side::Sheep, seed));
    }
    // The check above bites only in won positions: make sure enough games reached one.
    assert!(won >= 3, "only {won} games reached a won position");
}
