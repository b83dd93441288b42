//! What a game keeps beside its moves: an ending the players chose, what the computer's
//! searches found, the moves to redo, and the review of the game.

use tns_board::{Move, Outcome};
use tns_puzzles::Review;

use crate::players::TurnInfo;

/// What the game keeps beside its moves.
#[derive(Debug, Default)]
pub(crate) struct Notes {
    /// How the players ended the game, if they did (a resignation, an agreed draw): the rules'
    /// own endings come from the game itself.
    pub(crate) ended: Option<Outcome>,
    /// What the computer's searches found, by the ply of the move they chose: kept when moves
    /// are taken back, so a redo shows them again, and shown only while that move stands.
    pub(crate) turns: std::collections::BTreeMap<usize, TurnInfo>,
    /// Moves taken back, for `r` to play again: the next one last.
    pub(crate) redo: Vec<Move>,
    /// The review of the game (`g`), while the game has the moves it was made of.
    pub(crate) game_review: Option<GameReview>,
}

/// A review, and the moves it is of: it is shown only while the game still has those moves.
#[derive(Clone, Debug)]
pub struct GameReview {
    /// The judgement of each move.
    pub(crate) review: Review,
    /// The moves it judged.
    pub(crate) moves: Vec<Move>,
}
