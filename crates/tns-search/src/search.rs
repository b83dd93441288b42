//! The searcher: its transposition table and ordering state across searches, and one
//! search's threads (lazy SMP); the negamax itself is each thread's [`Worker`](crate::worker).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};
use std::time::Instant;

use tns_board::{Board, MoveList};

use crate::Evaluator;
use crate::config::{Parts, SearchConfig};
use crate::error::SearchError;
use crate::eval_cache::EvalCache;
use crate::limits::{Limits, MAX_THREADS};
use crate::ordering::MoveOrder;
use crate::report::{Report, SearchResult};
use crate::tt::TranspositionTable;
use crate::worker::{CHECK_EVERY, Shared, Worker};

/// A searcher: an evaluator, a transposition table that lasts across searches, and per-thread
/// ordering state.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use tns_board::Board;
/// use tns_search::{Heuristic, Limits, Search, SearchConfig};
///
/// let mut search = Search::new(Heuristic::default(), SearchConfig::default().with_tt_mb(4))?;
/// // Four sheep are dead and the tigers can jump a fifth.
/// let board: Board = "TS2T/5/5/5/T3T t 15".parse()?;
/// let result = search.search(board, &[], Limits::depth(4), &AtomicBool::new(false), |_| {})?;
/// assert_eq!(result.best_move.unwrap().to_string(), "a5xc5");
/// assert_eq!(result.score.describe(board.side_to_move()), "Tigers win in 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Search<E> {
    evaluator: E,
    tt: TranspositionTable,
    /// Ordering state of the main thread, then of each helper thread.
    main_ordering: MoveOrder,
    helper_orderings: Vec<MoveOrder>,
    /// Each thread's evaluations, the main thread's then the helpers' (off unless the
    /// evaluator is [worth caching](Evaluator::worth_caching)).
    main_evals: EvalCache,
    helper_evals: Vec<EvalCache>,
    parts: Parts,
    /// Lines to search and report (UCI's `MultiPV`).
    multipv: usize,
}

impl<E: Evaluator> Search<E> {
    /// A searcher with `config.threads` threads and a transposition table of `config.tt_mb`
    /// MiB.
    ///
    /// # Errors
    /// [`SearchError::Threads`] for a thread count outside 1 to
    /// [`MAX_THREADS`](crate::MAX_THREADS), [`SearchError::TableSize`] for a transposition
    /// transposition table size outside 1 to [`MAX_TT_MB`](crate::MAX_TT_MB), [`SearchError::Memory`] when
    /// the transposition table's memory cannot be had, [`SearchError::EvalCacheMemory`] when
    /// that of the threads' tables of evaluations cannot.
    pub fn new(evaluator: E, config: SearchConfig) -> Result<Search<E>, SearchError> {
        let threads = config.threads;
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(SearchError::Threads { given: threads });
        }
        let evals = || {
            if evaluator.worth_caching() { EvalCache::new() } else { Ok(EvalCache::off()) }
        };
        Ok(Search {
            main_evals: evals()?,
            helper_evals: (1..threads).map(|_| evals()).collect::<Result<_, _>>()?,
            evaluator,
            tt: TranspositionTable::new(config.tt_mb)?,
            main_ordering: MoveOrder::new(config.parts),
            helper_orderings: (1..threads).map(|_| MoveOrder::new(config.parts)).collect(),
            parts: config.parts,
            multipv: 1,
        })
    }

    /// Searches `lines` lines from now on (at least 1; UCI's `MultiPV`): each iteration finds
    /// the best move, then the best of the others, and so on, and reports each line with its
    /// number. The result's move is the first line's.
    pub fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.clamp(1, tns_board::MAX_MOVES);
    }

    /// The lines each search reports (see [`Search::set_multipv`]).
    pub fn multipv(&self) -> usize {
        self.multipv
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// The transposition table's size in bytes (at most the MiB asked for).
    pub fn tt_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// The number of threads.
    pub fn threads(&self) -> usize {
        1 + self.helper_orderings.len()
    }

    /// Forgets everything learnt in earlier searches (transposition table, killers, history,
    /// the evaluations kept), so the next search behaves as a fresh searcher's.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.main_evals.clear();
        for e in &mut self.helper_evals {
            e.clear();
        }
        let parts = self.parts;
        for o in self.orderings_mut() {
            *o = MoveOrder::new(parts);
        }
    }

    fn orderings_mut(&mut self) -> impl Iterator<Item = &mut MoveOrder> {
        std::iter::once(&mut self.main_ordering).chain(&mut self.helper_orderings)
    }

    /// A one-off search of `board` within `limits`: no game history, no stop flag, no reports
    /// (see [`Search::search`] for those).
    ///
    /// ```
    /// use tns_board::Board;
    /// use tns_search::{Heuristic, Limits, Search, SearchConfig};
    ///
    /// let mut search = Search::new(Heuristic::default(), SearchConfig::default().with_tt_mb(4))?;
    /// let best = search.go("TS2T/5/5/5/T3T t 15".parse()?, Limits::depth(2))?.best_move;
    /// assert_eq!(best, Some("a5c5".parse()?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Search::search`].
    pub fn go(&mut self, board: Board, limits: Limits) -> Result<SearchResult, SearchError> {
        self.search(board, &[], limits, &AtomicBool::new(false), |_| {})
    }

    /// Searches `board` within `limits`, or until `stop` is raised, and returns the best move of
    /// the last completed iteration (or of the stopped one, when it had found a better move:
    /// see [`SearchResult::best_move`]). `history` is the game's earlier positions, oldest first, so
    /// repetitions are scored as draws. `on_iteration` is called after each completed iteration
    /// (once a line).
    ///
    /// A legal move is returned whenever one exists and the game goes on, even if the search is
    /// stopped before its first iteration completes (then it is the first in the usual order: a
    /// kill if any), and a stop flag already raised when the call is made ends it before any
    /// node is searched. A root that `history` makes a threefold repetition (the game is drawn)
    /// gets no move, as a root with no legal move does.
    /// The caller owns the flag: the search only reads it, and never lowers it.
    ///
    /// # Errors
    /// [`SearchError::Evaluator`] when the evaluator cannot say which root moves to search
    /// ([`Evaluator::root_moves`]); [`SearchError::Spawn`] when a helper thread cannot be
    /// started. Nothing is searched then.
    pub fn search(
        &mut self,
        board: Board,
        history: &[Board],
        limits: Limits,
        stop: &AtomicBool,
        mut on_iteration: impl FnMut(&Report),
    ) -> Result<SearchResult, SearchError> {
        let start = Instant::now();
        // A root the game has drawn by repetition (its third time) has no move to play.
        let mut root_moves =
            if tns_board::repetitions(history, &board) >= tns_board::REPETITION_DRAW {
                MoveList::new()
            } else {
                board.legal_moves()
            };
        for allowed in
            [self.evaluator.root_moves(board)?, limits.moves.clone()].into_iter().flatten()
        {
            let kept: MoveList =
                root_moves.iter().copied().filter(|m| allowed.contains(m)).collect();
            if !kept.is_empty() {
                root_moves = kept;
            }
        }
        self.tt.new_search();
        for o in self.orderings_mut() {
            o.new_search();
        }
        let threads = self.threads();
        let check_every =
            limits.nodes.map_or(CHECK_EVERY, |n| (n / (32 * threads as u64)).clamp(1, CHECK_EVERY));
        let shared = Shared {
            evaluator: &self.evaluator,
            root_moves,
            tt: &self.tt,
            use_tt: self.parts.tt,
            pvs: self.parts.pvs,
            stability: self.parts.stability,
            history,
            limits,
            start,
            stop,
            check_every,
            abort: AtomicBool::new(stop.load(AtomicOrdering::Relaxed)),
            nodes: AtomicU64::new(0),
            tbhits: AtomicU64::new(0),
        };
        let lines = self.multipv;
        let (main, helpers) = (&mut self.main_ordering, &mut self.helper_orderings);
        let (main_evals, helper_evals) = (&mut self.main_evals, &mut self.helper_evals);
        let mut result = std::thread::scope(|scope| {
            let mut handles = Vec::with_capacity(helpers.len());
            for (i, (ordering, evals)) in helpers.iter_mut().zip(helper_evals).enumerate() {
                let shared = &shared;
                let spawned = std::thread::Builder::new()
                    .name(format!("search helper {}", i + 1))
                    .spawn_scoped(scope, move || {
                        let mut w = Worker::new(shared, ordering, evals, board);
                        // Half the helpers start one ply deeper, so threads spread over depths.
                        w.iterate(board, 1 + u32::from(i % 2 == 0), 1, |_| {});
                        w.stats
                    });
                match spawned {
                    Ok(handle) => handles.push(handle),
                    Err(source) => {
                        shared.abort.store(true, AtomicOrdering::Relaxed);
                        return Err(SearchError::Spawn { thread: i + 2, threads, source });
                    }
                }
            }
            let mut w = Worker::new(&shared, main, main_evals, board);
            let mut result = w.iterate(board, 1, lines, &mut on_iteration);
            shared.abort.store(true, AtomicOrdering::Relaxed);
            result.stats = w.stats;
            for h in handles {
                if let Ok(s) = h.join() {
                    result.stats += s;
                }
            }
            Ok(result)
        })?;
        result.nodes = shared.nodes.load(AtomicOrdering::Relaxed);
        result.time = start.elapsed();
        Ok(result)
    }
}
