//! A generation's new training positions: self-play games, or, with a teacher, the positions of
//! sampled games and of the table, valued by it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::rngs::StdRng;
use rayon::prelude::*;
use tns_board::Board;
use tns_match::mix_seed;
use tns_nn::{Network, Sample};

use crate::bars::{bar, duration};
use crate::measures::Validation;
use crate::sampling::{self, TRAINING_SEATS, TRAP_TRAINING_SEATS};
use crate::selfplay;
use crate::settings::Settings;
use crate::teacher::Teacher;

/// A generation's self-play games, with a bar that shows the generation and the run's ETA;
/// `None` when `stop` was raised meanwhile.
pub fn self_play(
    s: &Settings,
    net: &Network,
    generation: u32,
    eta: Option<f64>,
    stop: &AtomicBool,
) -> Option<Vec<selfplay::SelfPlayGame>> {
    let what = format!("games, generation {generation}/{}", s.generations);
    let games_bar = bar(s.games as u64, &what, s.bars);
    games_bar.set_message(eta.map_or(String::new(), |t| format!("run ETA {}", duration(t))));
    let games: Vec<Option<selfplay::SelfPlayGame>> = (0..s.games)
        .into_par_iter()
        .map(|i| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let seed = mix_seed(s.seed, u64::from(generation), i as u64);
            let game = selfplay::play(net, s.depth, s.epsilon, s.max_plies, seed);
            games_bar.inc(1);
            Some(game)
        })
        .collect();
    games_bar.finish_and_clear();
    games.into_iter().collect()
}

/// A generation's training positions from the teacher: the positions of `s.games` games
/// between players of every strength (the network among them) and `s.children` of the positions
/// one ply on from each, and `s.uniform` drawn evenly
/// from the table, each class once and none from the held-out set, valued by the table and
/// shown in a random symmetry. `None` when `stop` was raised meanwhile.
#[expect(clippy::too_many_arguments, reason = "the generation loop's state, passed as it is")]
pub fn distil_samples(
    s: &Settings,
    teacher: &Teacher,
    validation: &Validation,
    net: &Network,
    generation: u32,
    eta: Option<f64>,
    stop: &AtomicBool,
    rng: &mut StdRng,
) -> Option<Vec<Sample>> {
    let what = format!("games, generation {generation}/{}", s.generations);
    let games_bar = bar(s.games as u64, &what, s.bars);
    games_bar.set_message(eta.map_or(String::new(), |t| format!("run ETA {}", duration(t))));
    let network = Arc::new(net.clone());
    let games: Vec<Vec<Board>> = (0..s.games)
        .into_par_iter()
        .map(|i| {
            if stop.load(Ordering::Relaxed) {
                return Vec::new();
            }
            let seed = mix_seed(s.seed, u64::from(generation), i as u64);
            let mut positions = sampling::game_positions(
                teacher,
                if s.traps { &TRAP_TRAINING_SEATS } else { &TRAINING_SEATS },
                Some(&network),
                s.epsilon,
                s.max_plies,
                seed,
            );
            if s.children > 0 {
                let line = positions.clone();
                for (ply, board) in line.into_iter().enumerate() {
                    let seed = mix_seed(seed, ply as u64, 0xC41D);
                    positions.extend(sampling::children(teacher, board, s.children, seed));
                }
            }
            games_bar.inc(1);
            positions
        })
        .collect();
    games_bar.finish_and_clear();
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let uniform = sampling::uniform_positions(
        teacher,
        s.uniform,
        mix_seed(s.seed, u64::from(generation), u64::MAX - 1),
    );
    let boards = sampling::distinct(games.into_iter().flatten().chain(uniform), &validation.keys);
    let valued: Vec<(Board, f32)> = boards
        .into_par_iter()
        .filter_map(|b| Some((b, teacher.target_with_margin(b, teacher.value(b)?, s.margin_of(b)))))
        .collect();
    Some(
        valued
            .into_iter()
            .map(|(board, target)| Sample { board: sampling::random_image(board, rng), target })
            .collect(),
    )
}
