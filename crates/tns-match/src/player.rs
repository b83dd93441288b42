//! Players: anything that can be asked for a move, and the two built in here, the search with
//! any evaluator within a budget, and random play. Players are named by a spec (`spec.rs`,
//! read by `spec_grammar.rs`) and built from it (`spec_build.rs`).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{RngExt as _, SeedableRng as _};
use tns_board::{Game, Move};
use tns_search::{
    Chances, Evaluator, Limits, Report, Search, SearchConfig, SearchError, SearchResult,
};

use crate::error::{ChooseError, ProgramError};
use crate::time_control::Clocks;

/// A player that can be asked for moves, game after game.
pub trait Player: Send {
    /// Called before each game, with a seed for any randomness the player uses.
    fn new_game(&mut self, seed: u64);

    /// The move to play in `game`'s current position. Gives up early when `stop` is raised.
    ///
    /// # Errors
    /// Why there is no move ([`ChooseError`]): the game is over, `stop` was raised first, or
    /// the player failed (the failure kept as its source).
    fn choose(&mut self, game: &Game, stop: &AtomicBool) -> Result<Move, ChooseError>;

    /// The move to play under a time control: as [`Player::choose`], with both sides' clocks
    /// (the side to move's decides how long to think). The default ignores the clocks.
    ///
    /// # Errors
    /// As [`Player::choose`].
    fn choose_timed(
        &mut self,
        game: &Game,
        clocks: &Clocks,
        stop: &AtomicBool,
    ) -> Result<Move, ChooseError> {
        let _ = clocks;
        self.choose(game, stop)
    }

    /// As [`Player::choose`], within `limits` instead of the player's own, telling `watch`
    /// each report of its search as it deepens: for a front end that keeps its own clocks and
    /// shows the computer thinking. The default ignores both and chooses as it would.
    ///
    /// # Errors
    /// As [`Player::choose`].
    fn choose_watched(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        watch: &mut dyn FnMut(&Report),
    ) -> Result<Move, ChooseError> {
        let _ = (limits, watch);
        self.choose(game, stop)
    }

    /// What the search behind the last move found (its depth, score, chances and line), for
    /// those who show it; `None` for a player that does not search (random, another program).
    fn last_search(&self) -> Option<&SearchResult> {
        None
    }

    /// The chances of a win, a draw and a loss for the side it moved for, as its last move's
    /// search read them; `None` for a player that reads none (random, another program).
    fn chances(&self) -> Option<Chances> {
        self.last_search().map(|r| r.chances)
    }

    /// Gets ready to play, before the first game: an external program is started, its
    /// handshake done and its options set. The default has nothing to do.
    ///
    /// # Errors
    /// Why the player cannot play (a program that does not start, fails its handshake or
    /// refuses an option).
    fn prepare(&mut self) -> Result<(), ProgramError> {
        Ok(())
    }
}

/// How long a searching player thinks per move, and with what.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Seconds per move.
    pub time: Option<f64>,
    /// Plies per move.
    pub depth: Option<u32>,
    /// Search threads.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub tt_mb: usize,
}

impl Budget {
    /// The search limits of one move.
    pub fn limits(&self) -> Limits {
        let mut limits = Limits::none();
        if let Some(depth) = self.depth {
            limits = limits.with_depth(depth);
        }
        if let Some(time) = self.time {
            limits = limits.with_time(Duration::from_secs_f64(time));
        }
        limits
    }

    /// The search's settings for this budget.
    pub fn config(&self) -> SearchConfig {
        SearchConfig::default().with_threads(self.threads).with_tt_mb(self.tt_mb)
    }
}

/// The search with any evaluator, thinking within a budget.
#[derive(Debug)]
pub struct SearchPlayer<E> {
    search: Search<E>,
    limits: Limits,
    /// What the last search found.
    last: Option<SearchResult>,
}

impl<E: Evaluator> SearchPlayer<E> {
    /// A player searching with `evaluator` within `budget`.
    ///
    /// # Errors
    /// As [`Search::new`]: threads or transposition table size out of range, or no memory for it.
    pub fn new(evaluator: E, budget: Budget) -> Result<SearchPlayer<E>, SearchError> {
        Ok(SearchPlayer {
            search: Search::new(evaluator, budget.config())?,
            limits: budget.limits(),
            last: None,
        })
    }
}

impl<E: Evaluator> SearchPlayer<E> {
    fn search_with(
        &mut self,
        game: &Game,
        limits: Limits,
        stop: &AtomicBool,
        watch: &mut dyn FnMut(&Report),
    ) -> Result<Move, ChooseError> {
        self.last = None;
        match self.search.search(game.board(), game.previous(), limits, stop, |r| watch(r)) {
            Ok(result) => {
                let best = result.best_move;
                self.last = Some(result);
                // A search finds a move wherever there is one, unless stopped first.
                best.ok_or(if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    ChooseError::Stopped
                } else {
                    ChooseError::GameOver
                })
            }
            Err(e) => Err(ChooseError::Search(Arc::new(e))),
        }
    }
}

impl<E: Evaluator + Send> Player for SearchPlayer<E> {
    fn new_game(&mut self, _seed: u64) {
        // Each game starts from a clean table, so a game does not depend on the one before.
        self.search.clear();
    }

    fn choose(&mut self, game: &Game, stop: &AtomicBool) -> Result<Move, ChooseError> {
        let limits = self.limits.clone();
        self.search_with(game, limits, stop, &mut |_| {})
    }

    fn choose_timed(
        &mut self,
        game: &Game,
        clocks: &Clocks,
        stop: &AtomicBool,
    ) -> Result<Move, ChooseError> {
        let mut limits = clocks.of(game.board().side_to_move()).limits();
        if let Some(depth) = self.limits.depth {
            limits = limits.with_depth(depth);
        }
        self.search_with(game, limits, stop, &mut |_| {})
    }

    fn choose_watched(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        watch: &mut dyn FnMut(&Report),
    ) -> Result<Move, ChooseError> {
        self.search_with(game, limits.clone(), stop, watch)
    }

    fn last_search(&self) -> Option<&SearchResult> {
        self.last.as_ref()
    }
}

/// Plays a uniformly random legal move.
#[derive(Debug)]
pub struct RandomPlayer {
    rng: StdRng,
}

impl RandomPlayer {
    /// A random player drawing from `seed` (until [`Player::new_game`] gives another).
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: StdRng::seed_from_u64(seed) }
    }
}

impl Player for RandomPlayer {
    fn new_game(&mut self, seed: u64) {
        self.rng = StdRng::seed_from_u64(seed);
    }

    fn choose(&mut self, game: &Game, _stop: &AtomicBool) -> Result<Move, ChooseError> {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return Err(ChooseError::GameOver);
        }
        Ok(moves[self.rng.random_range(0..moves.len())])
    }
}
