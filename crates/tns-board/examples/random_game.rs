//! A game of random moves, written as a record and read back: `cargo run -p tns-board --example
//! random_game`. A consumer's first program, with the library's own types for every fixed value.

use tns_board::{Game, GameRecord, Move, RecordResult, Side};

/// A small deterministic generator, so the example prints the same game every time.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut game = Game::new();
    let mut seed = 2026;
    while game.outcome().is_none() && game.len() < 200 {
        let moves: Vec<Move> = game.legal_moves().into_iter().collect();
        let pick = usize::try_from(next(&mut seed) % moves.len() as u64)?;
        game.play(moves[pick])?;
    }
    let mut record = GameRecord::from_game(&game, "random", "random");
    if game.outcome().is_none() {
        record.result = RecordResult::Draw;
    }
    let text = record.to_string();
    println!("{text}");
    let back: GameRecord = text.parse()?;
    assert_eq!(back, record);
    assert_eq!(back.replay()?.board(), game.board());
    for side in Side::ALL {
        let moved = game.positions().iter().filter(|b| b.side_to_move() == side).count();
        println!("{side}: {moved} positions to move in");
    }
    Ok(())
}
