//! A whole game: start position, history, outcome, undo.

use crate::error::PlayError;
use crate::repetition::{REPETITION_DRAW, repetitions};
use crate::{Board, Move, MoveList, Outcome};

/// A game in progress: where it started, every move and position since, and how it ended.
///
/// ```
/// use tns_board::{EndReason, Game, Side};
///
/// let mut game = Game::new();
/// for m in ["c3", "a5b4", "b5", "b4a5"] {
///     game.play(m.parse()?)?;
/// }
/// assert_eq!(game.len(), 4);
/// assert_eq!(game.board().in_hand(), 18);
/// assert_eq!(game.undo().map(|m| m.to_string()), Some("b4a5".to_string()));
/// assert_eq!(game.board().side_to_move(), Side::Tiger);
/// assert_eq!(game.outcome(), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// `boards[0]` is the start; `boards[i + 1]` follows `moves[i]`.
    boards: Vec<Board>,
    moves: Vec<Move>,
}

impl Game {
    /// A game from the standard start.
    pub fn new() -> Game {
        Game::from_position(Board::START)
    }

    /// A game from any position.
    pub fn from_position(start: Board) -> Game {
        Game { boards: vec![start], moves: Vec::new() }
    }

    /// The position the game started from.
    pub fn start(&self) -> Board {
        self.boards[0]
    }

    /// The current position.
    pub fn board(&self) -> Board {
        *self.boards.last().unwrap_or(&Board::START)
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game, the start first and the current one last.
    pub fn positions(&self) -> &[Board] {
        &self.boards
    }

    /// The positions before the current one, oldest first (what a search needs to see
    /// repetitions).
    pub fn previous(&self) -> &[Board] {
        &self.boards[..self.boards.len() - 1]
    }

    /// The number of moves played.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move has been played.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The legal moves in the current position (none once the game is over).
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome().is_some() { MoveList::new() } else { self.board().legal_moves() }
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        let board = self.board();
        Outcome::of_board(board).or_else(|| {
            (repetitions(self.previous(), &board) >= REPETITION_DRAW)
                .then_some(Outcome::DRAW_BY_REPETITION)
        })
    }

    /// Plays a move.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] once the game has ended, [`PlayError::Illegal`] for an illegal
    /// move; the game is unchanged either way.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        if let Some(outcome) = self.outcome() {
            return Err(PlayError::GameOver(outcome));
        }
        let next = self.board().after(m)?;
        self.boards.push(next);
        self.moves.push(m);
        Ok(())
    }

    /// Whether `m` can be played now: legal in the position, and the game not over (a
    /// repetition ends it too).
    pub fn is_legal(&self, m: Move) -> bool {
        self.outcome().is_none() && self.board().is_legal(m)
    }

    /// Plays a move without checking it, for moves that came from [`Game::legal_moves`]. An
    /// illegal move gives a position the rules cannot reach; it never panics.
    pub fn play_unchecked(&mut self, m: Move) {
        let next = self.board().after_unchecked(m);
        self.boards.push(next);
        self.moves.push(m);
    }

    /// Takes back the last move and returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.boards.pop();
        Some(m)
    }

    /// Takes back moves until only the first `len` remain (nothing happens if fewer were played).
    pub fn truncate(&mut self, len: usize) {
        self.moves.truncate(len);
        self.boards.truncate(len + 1);
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EndReason, Side};

    fn play_all(game: &mut Game, moves: &str) {
        for m in moves.split_whitespace() {
            game.play(m.parse().unwrap()).unwrap();
        }
    }

    #[test]
    fn five_dead() {
        let mut game = Game::from_position("TS2T/5/5/5/T3T t 15".parse().unwrap());
        assert_eq!(game.outcome(), None);
        play_all(&mut game, "a5c5");
        assert_eq!(
            game.outcome(),
            Some(Outcome { winner: Some(Side::Tiger), reason: EndReason::FiveDead })
        );
        assert!(game.legal_moves().is_empty());
        assert!(matches!(game.play("b2".parse().unwrap()), Err(PlayError::GameOver(_))));
    }

    #[test]
    fn no_moves() {
        // The tigers' block in the a5 corner can only move by b4 jumping c3 to d2; a sheep
        // fills d2 and no tiger can move.
        let mut game = Game::from_position("TTSSS/TTSSS/SSSSS/SSS1S/SSSSS s 0".parse().unwrap());
        assert_eq!(game.outcome(), None);
        play_all(&mut game, "e1d2");
        assert_eq!(
            game.outcome(),
            Some(Outcome { winner: Some(Side::Sheep), reason: EndReason::NoMoves })
        );
    }

    #[test]
    fn threefold_repetition() {
        let mut game = Game::from_position("TSSST/SSSSS/SS1SS/SSSSS/T1S1T t 0".parse().unwrap());
        play_all(&mut game, "e1d1 c1b1 d1e1 b1c1");
        assert_eq!(game.outcome(), None); // second occurrence
        play_all(&mut game, "e1d1 c1b1 d1e1");
        assert_eq!(game.outcome(), None);
        play_all(&mut game, "b1c1");
        assert_eq!(game.outcome(), Some(Outcome::DRAW_BY_REPETITION));
        // The board alone would allow e1d1; the game, over by repetition, does not.
        assert!(game.board().is_legal("e1d1".parse().unwrap()));
        assert!(!game.is_legal("e1d1".parse().unwrap()));
        assert!(game.play("e1d1".parse().unwrap()).is_err());
        game.undo();
        assert_eq!(game.outcome(), None);
    }

    #[test]
    fn illegal_moves_leave_game_unchanged() {
        let mut game = Game::new();
        let before = game.clone();
        assert!(matches!(game.play("a5".parse().unwrap()), Err(PlayError::Illegal(_))));
        assert!(!game.is_legal("a5".parse().unwrap()));
        assert_eq!(game, before);
        assert_eq!(game.undo(), None);
        // Unchecked play of a generated move is the same as checked play.
        let mut checked = Game::new();
        for m in ["c3", "a5b4"] {
            let m = m.parse().unwrap();
            assert!(game.is_legal(m));
            game.play_unchecked(m);
            checked.play(m).unwrap();
        }
        assert_eq!(game, checked);
    }

    #[test]
    fn truncate() {
        let mut game = Game::new();
        play_all(&mut game, "c3 a5b4 b5 b4a4");
        game.truncate(1);
        assert_eq!(game.len(), 1);
        assert_eq!(game.board().to_string(), "T3T/5/2S2/5/T3T t 19");
    }
}
