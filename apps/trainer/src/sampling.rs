//! Where distillation's positions come from: games between players of several strengths, from
//! random openings and with random moves mixed in, and uniform samples of the table's parts.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::{RngExt as _, SeedableRng as _};
use tns_board::{Board, MoveList, Side, Symmetry, TOTAL_SHEEP};
use tns_match::{Budget, ChooseError, Player, RandomPlayer, SearchPlayer, random_opening};
use tns_nn::{Network, NeuralEvaluator};
use tns_search::Heuristic;
use tns_tablebase::Wdl;

use crate::teacher::Teacher;

/// Who may sit at a side of a sampled game, weakest first. Each side of each game draws one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// Uniformly random moves.
    Random,
    /// The heuristic searching this many plies.
    Heuristic(u32),
    /// The network being trained, searching this many plies.
    Network(u32),
    /// The solved game: a move that keeps the position's value, drawn at random among them
    /// (so perfect play, in all its variety: the positions a player meets against the best).
    Perfect,
    /// The solved game setting traps: in a drawn position, a drawing move that leaves the
    /// opponent the smallest share of replies that hold the draw, at random among them (the
    /// positions a player meets against a perfect opponent that plays to win).
    Trapping,
}

/// The seats of the training games: every strength from random play to the heuristic at depth
/// 4, the network itself and perfect play, so the network sees the positions weak and strong
/// players reach, and those a player meets against the best (one seat in five).
pub const TRAINING_SEATS: [Seat; 10] = [
    Seat::Random,
    Seat::Heuristic(1),
    Seat::Heuristic(2),
    Seat::Heuristic(3),
    Seat::Heuristic(4),
    Seat::Network(1),
    Seat::Network(2),
    Seat::Network(3),
    Seat::Perfect,
    Seat::Perfect,
];

/// The training seats with `--traps`: one of the two perfect seats sets traps.
pub const TRAP_TRAINING_SEATS: [Seat; 10] = {
    let mut seats = TRAINING_SEATS;
    seats[seats.len() - 1] = Seat::Trapping;
    seats
};

/// The seats of the validation games: the same strengths without the network, whose play
/// changes as it learns, so the held-out set is fixed by the seed alone.
pub const VALIDATION_SEATS: [Seat; 6] = [
    Seat::Random,
    Seat::Heuristic(1),
    Seat::Heuristic(2),
    Seat::Heuristic(3),
    Seat::Heuristic(4),
    Seat::Perfect,
];

/// Perfect play from the teacher: a move that keeps the value, at random among them (where the
/// table does not hold the position, any move); setting traps, in a drawn position only those
/// drawing moves that leave the fewest safe replies.
#[derive(Debug)]
struct PerfectSeat {
    teacher: Teacher,
    rng: StdRng,
    traps: bool,
}

impl Player for PerfectSeat {
    fn new_game(&mut self, seed: u64) {
        self.rng = StdRng::seed_from_u64(seed);
    }

    fn choose(
        &mut self,
        game: &tns_board::Game,
        _stop: &AtomicBool,
    ) -> Result<tns_board::Move, ChooseError> {
        let board = game.board();
        let moves: Vec<tns_board::Move> = match self.teacher.move_values(board) {
            Some(values) => {
                let best = values.iter().map(|&(_, v)| v).max().ok_or(ChooseError::GameOver)?;
                let mut keeping: MoveList =
                    values.into_iter().filter(|&(_, v)| v == best).map(|(m, _)| m).collect();
                if self.traps && best == Wdl::Draw {
                    self.teacher.keep_traps(board, &mut keeping);
                }
                keeping.to_vec()
            }
            None => board.legal_moves().iter().copied().collect(),
        };
        if moves.is_empty() {
            return Err(ChooseError::GameOver);
        }
        Ok(moves[self.rng.random_range(0..moves.len())])
    }
}

/// The most random plies a sampled game opens with.
const OPENING_PLIES: usize = 4;

/// The player that sits at `seat`: the network (if given) for [`Seat::Network`], else the
/// heuristic; perfect play from `teacher`; random moves from `seed`.
///
/// # Panics
/// Only on a machine out of memory: the searches are of one thread and 1 MiB, within bounds.
pub fn player(
    seat: Seat,
    teacher: &Teacher,
    network: Option<&Arc<Network>>,
    seed: u64,
) -> Box<dyn Player> {
    let budget = |depth| Budget { time: None, depth: Some(depth), threads: 1, tt_mb: 1 };
    // One thread and 1 MiB are within the bounds: only a machine out of memory fails.
    let small = "a 1 MiB one-thread search";
    match (seat, network) {
        (Seat::Heuristic(depth), _) | (Seat::Network(depth), None) => {
            Box::new(SearchPlayer::new(Heuristic::default(), budget(depth)).expect(small))
        }
        (Seat::Network(depth), Some(net)) => Box::new(
            SearchPlayer::new(NeuralEvaluator::new(Network::clone(net)), budget(depth))
                .expect(small),
        ),
        (Seat::Random, _) => Box::new(RandomPlayer::new(seed)),
        (Seat::Perfect | Seat::Trapping, _) => Box::new(PerfectSeat {
            teacher: teacher.clone(),
            rng: StdRng::seed_from_u64(seed),
            traps: seat == Seat::Trapping,
        }),
    }
}

/// The positions of one game between two players drawn from `seats`, after 0 to 4 random
/// plies, each of its moves random with probability `epsilon`; stops when the game ends (by the
/// rules, or by the teacher's kills), or at `max_plies`. Every position a side was to move in
/// is kept, the opening's too. Deterministic for a given `seed`.
pub fn game_positions(
    teacher: &Teacher,
    seats: &[Seat],
    network: Option<&Arc<Network>>,
    epsilon: f64,
    max_plies: usize,
    seed: u64,
) -> Vec<Board> {
    let mut rng = StdRng::seed_from_u64(seed);
    let plies = rng.random_range(0..=OPENING_PLIES);
    // Four random plies from the start can never end the game, so the opening is always there.
    let Ok(mut game) = random_opening(plies, rng.random()) else { return Vec::new() };
    let mut players: Vec<Box<dyn Player>> = (0..2)
        .map(|_| player(seats[rng.random_range(0..seats.len())], teacher, network, rng.random()))
        .collect();
    for p in &mut players {
        p.new_game(rng.random());
    }
    let stop = AtomicBool::new(false);
    let mut positions: Vec<Board> = game.previous().to_vec();
    while game.outcome().is_none() && game.len() < max_plies {
        let board = game.board();
        if teacher.is_over(board) {
            break;
        }
        positions.push(board);
        let moves = game.legal_moves();
        let seat = usize::from(board.side_to_move() == Side::Tiger);
        let chosen = if rng.random_bool(epsilon.clamp(0.0, 1.0)) {
            Some(moves[rng.random_range(0..moves.len())])
        } else {
            players[seat].choose(&game, &stop).ok()
        };
        let Some(m) = chosen else { break };
        if game.play(m).is_err() {
            break;
        }
    }
    positions
}

/// The parts of the table the teacher can answer for: (sheep in hand, side to move), every
/// dead count of each. The movement phase always; with sheep in hand, the parts whose layers
/// are built (a sheep-to-move position is answered from the next layer).
pub fn held_parts(teacher: &Teacher) -> Vec<(u8, Side)> {
    let table = teacher.table();
    let mut parts = vec![(0, Side::Sheep), (0, Side::Tiger)];
    if let Some(from) = table.placement_from() {
        for in_hand in 1..TOTAL_SHEEP {
            let placed = TOTAL_SHEEP - in_hand;
            if placed >= from {
                parts.push((in_hand, Side::Tiger));
            }
            // A sheep placement leads to the tigers with one more placed.
            if placed + 1 >= from {
                parts.push((in_hand, Side::Sheep));
            }
        }
    }
    parts
}

/// `count` positions drawn evenly over the parts the teacher holds (a part, then a dead count,
/// then a slot at random; a slot with no position is drawn again), none of them over. Gives up
/// on a draw after 1,000 empty slots in a row, so a sparse part cannot make it hang.
pub fn uniform_positions(teacher: &Teacher, count: usize, seed: u64) -> Vec<Board> {
    let table = teacher.table();
    let parts = held_parts(teacher);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let (in_hand, side) = parts[rng.random_range(0..parts.len())];
        let most_dead = (table.kills() - 1).min(TOTAL_SHEEP - in_hand);
        let dead = rng.random_range(0..=most_dead);
        let slots = table.slots(in_hand, dead);
        if slots == 0 {
            continue;
        }
        let found = (0..1000).find_map(|_| {
            let board = table.position_at(in_hand, dead, side, rng.random_range(0..slots))?;
            (!teacher.is_over(board)).then_some(board)
        });
        out.extend(found);
    }
    out
}

/// `k` of the positions one ply on from `board` (all of them when it has `k` or fewer moves),
/// drawn without repeats from `seed`, none that is over: the positions a search meets just off
/// the line a game took, where the moves that throw a game away lead.
pub fn children(teacher: &Teacher, board: Board, k: usize, seed: u64) -> Vec<Board> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut moves: Vec<_> = board.legal_moves().iter().copied().collect();
    let mut out = Vec::with_capacity(k);
    while out.len() < k && !moves.is_empty() {
        let m = moves.swap_remove(rng.random_range(0..moves.len()));
        let child = board.after_unchecked(m);
        if !teacher.is_over(child) {
            out.push(child);
        }
    }
    out
}

/// The canonical key of a position: the same for all eight of its images.
pub fn class_key(board: Board) -> u64 {
    board.canonical().0.key()
}

/// Positions without repeats up to symmetry (the first of each class kept, in order), without
/// those whose class is in `exclude` (the held-out set).
pub fn distinct<S: std::hash::BuildHasher>(
    boards: impl IntoIterator<Item = Board>,
    exclude: &HashSet<u64, S>,
) -> Vec<Board> {
    let mut seen = HashSet::new();
    boards
        .into_iter()
        .filter(|&b| {
            let key = class_key(b);
            !exclude.contains(&key) && seen.insert(key)
        })
        .collect()
}

/// `board` in a random one of the eight symmetries.
pub fn random_image(board: Board, rng: &mut StdRng) -> Board {
    board.transformed(Symmetry::ALL[rng.random_range(0..Symmetry::ALL.len())])
}
