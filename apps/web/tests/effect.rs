//! The API marks moves by the same rule as the game (`tns_tablebase::MoveEffect`): in a lost
//! position the longest defence keeps the result and nothing is thrown away that was not held.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tns_board::{Board, Game};
use tns_web::{Analyst, SearchBudget, Source};

#[test]
#[ignore = "needs the built tablebase (TNS_TABLEBASE_DIR)"]
fn a_lost_positions_moves_keep_or_lose_sooner_and_none_is_thrown_away() {
    let dir = std::env::var_os("TNS_TABLEBASE_DIR").expect("TNS_TABLEBASE_DIR names the table");
    let table = Arc::new(tns_tablebase::Tablebase::load(5, Path::new(&dir)).unwrap());
    let analyst = Analyst {
        table: Some(Arc::clone(&table)),
        budget: SearchBudget { position: Duration::from_millis(20), per_move: Duration::ZERO },
    };
    let board: Board = "SSSSS/S1TTS/STS2/S1S1S/TSSSS s 0".parse().unwrap();
    let answer = analyst.position(&Game::from_position(board), &AtomicBool::new(false)).unwrap();
    assert_eq!(answer.source, Source::Table);
    let best = &answer.moves[0];
    assert_eq!((best.mv.as_str(), best.verdict.plies), ("c3d2", Some(20)));
    assert_eq!(best.effect, Some("keeps"));
    for m in &answer.moves[1..] {
        let expected = if m.verdict.plies == Some(20) { "keeps" } else { "loses_sooner" };
        assert_eq!(m.effect, Some(expected), "{}: {:?}", m.mv, m.verdict);
    }
    // A won position's moves: a slower win keeps, a draw gives up the win, a loss loses.
    let board: Board = "SSSSS/S1TTS/STS2/S1S1S/TSSSS t 0".parse().unwrap();
    let answer = analyst.position(&Game::from_position(board), &AtomicBool::new(false)).unwrap();
    for m in &answer.moves {
        let expected = match m.verdict.result {
            "win" => "keeps",
            "draw" => "gives_up_win",
            _ => "loses",
        };
        assert_eq!(m.effect, Some(expected), "{}: {:?}", m.mv, m.verdict);
    }
}
