//! Self-play games and the TD(λ) targets drawn from them.

use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::{RngExt as _, SeedableRng as _};
use tns_board::{Board, Game, Side, Symmetry};
use tns_nn::{Network, NeuralEvaluator, SCORE_SCALE, Sample};
use tns_search::{Limits, Score, Search, SearchConfig};

/// One self-play game: every position where a side was to move, the search's value of it for
/// that side in [-1, 1], and how the game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfPlayGame {
    /// The positions, in order (the final position, where the game was over, is not included).
    pub positions: Vec<Board>,
    /// The search's value of each position for its side to move.
    pub values: Vec<f32>,
    /// The winner, or `None` for a draw (including a game stopped at the ply cap).
    pub winner: Option<Side>,
}

/// A search score as a value in [-1, 1] for the side to move: a forced win is 1.
pub fn value_of_score(score: Score) -> f32 {
    if score.is_decisive() {
        if score > Score::DRAW { 1.0 } else { -1.0 }
    } else {
        #[expect(
            clippy::cast_precision_loss,
            reason = "a score short of a forced result, within ±25,000: exact in an f32"
        )]
        let score = score.as_eval().get() as f32;
        (score / SCORE_SCALE).clamp(-1.0, 1.0)
    }
}

/// Plays one game of `network` against itself: each move is the search's best at `depth`,
/// except that with probability `epsilon` a uniformly random legal move is played instead (to
/// explore). Stops at `max_plies` as a draw. Deterministic for a given `seed`.
///
/// # Panics
/// Only on a machine without the memory for a 2 MiB table and 2 MiB of evaluations.
pub fn play(
    network: &Network,
    depth: u32,
    epsilon: f64,
    max_plies: usize,
    seed: u64,
) -> SelfPlayGame {
    let mut rng = StdRng::seed_from_u64(seed);
    let config = SearchConfig::default().with_tt_mb(2);
    // One thread and 2 MiB are within the bounds: only a machine out of memory fails.
    let mut search =
        Search::new(NeuralEvaluator::new(network.clone()), config).expect("a 2 MiB search");
    let stop = AtomicBool::new(false);
    let mut game = Game::new();
    let (mut positions, mut values) = (Vec::new(), Vec::new());
    while game.outcome().is_none() && game.len() < max_plies {
        let board = game.board();
        // The network evaluator never fails to name root moves: an error ends the game.
        let Ok(result) = search.search(board, game.previous(), Limits::depth(depth), &stop, |_| {})
        else {
            break;
        };
        let Some(best) = result.best_move else { break };
        positions.push(board);
        values.push(value_of_score(result.score));
        let moves = game.legal_moves();
        let m = if rng.random_bool(epsilon.clamp(0.0, 1.0)) {
            moves[rng.random_range(0..moves.len())]
        } else {
            best
        };
        if game.play(m).is_err() {
            break;
        }
    }
    let winner = game.outcome().and_then(|o| o.winner);
    SelfPlayGame { positions, values, winner }
}

/// TD(λ) targets for a game's positions, each for its side to move: the last position's target
/// mixes its search value with the result, `(1 - λ) v + λ z`, and each earlier one mixes its own
/// search value with the (negated) target after it, `(1 - λ) v_t - λ G_{t+1}`. With λ = 1 every
/// target is the game's result; with λ = 0 each is the search's own value.
pub fn td_lambda(game: &SelfPlayGame, lambda: f32) -> Vec<f32> {
    let n = game.positions.len();
    let mut targets = vec![0.0; n];
    let Some(last) = n.checked_sub(1) else { return targets };
    let result_for = |board: Board| match game.winner {
        None => 0.0,
        Some(w) if w == board.side_to_move() => 1.0,
        Some(_) => -1.0,
    };
    let mut next = (1.0 - lambda) * game.values[last] + lambda * result_for(game.positions[last]);
    targets[last] = next;
    for t in (0..last).rev() {
        next = (1.0 - lambda) * game.values[t] - lambda * next;
        targets[t] = next;
    }
    targets
}

/// The training samples of a game: each position with its TD(λ) target, shown in a random one of
/// the 8 symmetries.
pub fn samples(game: &SelfPlayGame, lambda: f32, rng: &mut StdRng) -> Vec<Sample> {
    td_lambda(game, lambda)
        .into_iter()
        .zip(&game.positions)
        .map(|(target, &board)| {
            let symmetry = Symmetry::ALL[rng.random_range(0..Symmetry::ALL.len())];
            Sample { board: board.transformed(symmetry), target }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(winner: Option<Side>, values: Vec<f32>) -> SelfPlayGame {
        // Alternating sides from the start: sheep, tigers, sheep, ...
        let mut positions = Vec::new();
        let mut b = Board::START;
        for _ in 0..values.len() {
            positions.push(b);
            b = b.after_unchecked(b.legal_moves()[0]);
        }
        SelfPlayGame { positions, values, winner }
    }

    #[test]
    fn lambda_one_is_the_result_and_zero_the_search() {
        let g = game(Some(Side::Tiger), vec![0.1, -0.2, 0.3, 0.4]);
        // Positions alternate sheep, tigers, sheep, tigers to move.
        assert_eq!(td_lambda(&g, 1.0), vec![-1.0, 1.0, -1.0, 1.0]);
        assert_eq!(td_lambda(&g, 0.0), vec![0.1, -0.2, 0.3, 0.4]);
        let half = td_lambda(&g, 0.5);
        assert!((half[3] - 0.7).abs() < 1e-6);
        assert!((half[2] - (0.15 - 0.35)).abs() < 1e-6);
        assert!(td_lambda(&game(None, vec![]), 0.5).is_empty());
    }

    #[test]
    fn self_play_is_seeded_and_legal() {
        let net = Network::new(&[8], 1).unwrap();
        let a = play(&net, 1, 0.2, 60, 5);
        assert_eq!(a, play(&net, 1, 0.2, 60, 5));
        assert_eq!(a.positions.len(), a.values.len());
        assert!(a.values.iter().all(|v| (-1.0..=1.0).contains(v)));
        for pair in a.positions.windows(2) {
            assert!(pair[0].legal_moves().iter().any(|&m| pair[0].after_unchecked(m) == pair[1]));
        }
    }
}
