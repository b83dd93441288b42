//! Perft: counting the leaves of the legal-move tree, to check move generation.

use crate::{Board, Move, MoveList};

/// The number of move sequences of exactly `depth` plies from `board` (the leaves of the
/// legal-move tree at that depth). A position where the game is over (five dead, or no legal
/// move) has no children; repetition is ignored. `perft(b, 0)` is 1.
///
/// ```
/// use tns_board::{Board, perft};
///
/// assert_eq!(perft(Board::START, 1), 21);
/// assert_eq!(perft(Board::START, 3), 5052);
/// ```
pub fn perft(board: Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        // The last ply is counted from the masks, without making the moves.
        1 => u64::from(board.count_moves()),
        _ => {
            let mut moves = MoveList::new();
            board.generate_moves(&mut moves);
            moves.iter().map(|&m| perft(board.after_unchecked(m), depth - 1)).sum()
        }
    }
}

/// Perft split by the first move: each legal move with the leaf count below it. The counts sum
/// to [`perft`]`(board, depth)` for `depth >= 1`.
pub fn perft_divide(board: Board, depth: u32) -> Vec<(Move, u64)> {
    let sub = depth.saturating_sub(1);
    board.legal_moves().iter().map(|&m| (m, perft(board.after_unchecked(m), sub))).collect()
}
