//! Legal moves, the board's symmetries and perft: `cargo run -p tns-board --example
//! symmetry_perft`.

use tns_board::{Board, Move, Point, Symmetry, perft};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let board = Board::START.after(Move::Place(Point::C3))?;
    println!("{board}: {} moves for the tigers", board.legal_moves().len());
    for m in board.legal_moves() {
        print!("{m} ");
    }
    println!();
    // Every symmetry of the position has as many moves and the same perft; all have one
    // canonical form.
    let (canonical, _) = board.canonical();
    for sym in Symmetry::ALL {
        let image = board.transformed(sym);
        assert_eq!(image.legal_moves().len(), board.legal_moves().len());
        assert_eq!(perft(image, 3), perft(board, 3));
        assert_eq!(image.canonical().0, canonical);
        println!("{sym:>14}: {image}");
    }
    for depth in 1..=4 {
        println!("perft {depth}: {}", perft(Board::START, depth));
    }
    Ok(())
}
