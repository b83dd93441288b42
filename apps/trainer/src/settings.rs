//! What a training run is told: every setting, and the draw margin each position's target takes.

use std::path::PathBuf;
use std::sync::Arc;

use tns_board::{Board, Side};
use tns_nn::{Buckets, Inputs, Objective};
use tns_tablebase::Tablebase;

/// Everything a training run is told.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Generations to train in this run.
    pub generations: u32,
    /// Self-play games per generation.
    pub games: usize,
    /// The folder of `gen-NNN.bin`, `latest.bin`, `progress.csv` and `progress.svg`.
    pub out: PathBuf,
    /// Start from this weights file instead of the newest generation in `out`.
    pub from: Option<PathBuf>,
    /// Hidden layer sizes of a new network.
    pub hidden: Vec<usize>,
    /// The input set of a new network.
    pub inputs: Inputs,
    /// How a new network's layers after the first are chosen for a position.
    pub buckets: Buckets,
    /// What training minimises.
    pub objective: Objective,
    /// Self-play search depth.
    pub depth: u32,
    /// Probability of a random move in self-play.
    pub epsilon: f64,
    /// TD(λ)'s λ.
    pub lambda: f32,
    /// Passes over the training positions per generation.
    pub epochs: u32,
    /// Adam's learning rate in the first generation.
    pub learning_rate: f32,
    /// Adam's learning rate in the last generation: the rate falls geometrically from
    /// `learning_rate` to it over the run (equal to `learning_rate`: constant).
    pub final_learning_rate: f32,
    /// Minibatch size.
    pub batch: usize,
    /// Generations of positions kept for training (1: only the newest).
    pub window: usize,
    /// The seed of everything random.
    pub seed: u64,
    /// Play matches every this many generations (0: never).
    pub match_every: u32,
    /// Games per match.
    pub match_games: u32,
    /// Search depth of both players in matches.
    pub match_depth: u32,
    /// The ply cap of self-play and match games.
    pub max_plies: usize,
    /// Draw progress bars.
    pub bars: bool,
    /// Distil this table instead of playing itself: every generation's targets are the table's
    /// exact values, and the run is measured against it on a held-out set.
    pub teacher: Option<Arc<Tablebase>>,
    /// With a teacher: positions drawn evenly from the table's parts each generation, besides
    /// those of the games.
    pub uniform: usize,
    /// With a teacher: for each position of the games, this many of the positions one ply on
    /// (where a search looks, and where the moves that lose lead).
    pub children: usize,
    /// With a teacher: the margin of drawn positions' targets, by the share of moves that keep
    /// the draw (0: every draw is 0), for the positions with the sheep to move.
    pub draw_margin: f32,
    /// With a teacher: the same margin for the positions with the tigers to move.
    pub draw_margin_tigers: f32,
    /// With a teacher: the margin of every movement position (no sheep in hand), either side
    /// to move, if it differs there; the two above then hold for the placement's.
    pub draw_margin_movement: Option<f32>,
    /// With a teacher: one of the games' two perfect seats sets traps
    /// ([`crate::sampling::TRAP_TRAINING_SEATS`]).
    pub traps: bool,
    /// With a teacher: the games whose positions make the held-out set.
    pub validation_games: usize,
    /// With a teacher: the critical positions (at most; the first) the searches are judged on at
    /// the end (`usize::MAX`: all of them).
    pub final_positions: usize,
    /// Go on with these settings where the run folder recorded others (`--new-settings`);
    /// without it such a resume is refused ([`crate::recorded`]).
    pub new_settings: bool,
}

impl Settings {
    /// The draw margin of `board`'s targets: the movement's, or in the placement its side to
    /// move's.
    pub fn margin_of(&self, board: Board) -> f32 {
        if let Some(movement) = self.draw_margin_movement.filter(|_| board.in_hand() == 0) {
            return movement;
        }
        match board.side_to_move() {
            Side::Tiger => self.draw_margin_tigers,
            Side::Sheep => self.draw_margin,
        }
    }
}
