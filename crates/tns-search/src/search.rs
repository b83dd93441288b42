//! The search: negamax alpha-beta with iterative deepening, over `Copy` boards.

// Casts allowed in this file only:
// narrowing casts of values that fit by construction (point indices under 25, move counts, table indices, durations in milliseconds).
// unsigned values far below the signed type's limit.
// counts far below 2^52 turned into f64 (for rates, statistics, coordinates).
// signed values that are never negative here.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_precision_loss,
    clippy::cast_sign_loss
)]

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

use tns_board::{Board, KILLS_TO_WIN, MAX_MOVES, Move, MoveList, Symmetry, repetition_candidates};

use crate::Evaluator;
use crate::error::SearchError;
use crate::limits::{Limits, MAX_THREADS};
use crate::ordering::{Ordering, pick_next};
use crate::score::{
    DRAW, EVAL_LIMIT, INFINITY, MAX_PLY, from_table, loss_in, plies_to_end, to_table,
};
use crate::stats::{Stats, count};
use crate::tt::{Bound, Entry, TranspositionTable};

/// How often (in nodes) a thread publishes its node count and checks its limits, at most.
const CHECK_EVERY: u64 = 1024;

/// How much of the target time a search uses after an iteration, by how many iterations in a
/// row have kept the best move (0: it just changed): stop early when it is stable, go on when
/// it is not (see [`Limits`]).
fn target_share(stable: u32) -> f64 {
    match stable {
        0 => 1.5,
        1 | 2 => 1.0,
        _ => 0.5,
    }
}

/// Settings of a [`Search`], built from the default: `SearchConfig::default().with_threads(2)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchConfig {
    /// Threads searching together (lazy SMP), 1 to [`MAX_THREADS`].
    pub threads: usize,
    /// Transposition table size in MiB, 1 to [`MAX_TT_MB`](crate::MAX_TT_MB).
    pub tt_mb: usize,
    /// Which parts of the search are on (all, unless you are measuring one).
    pub parts: Parts,
}

impl SearchConfig {
    /// These settings with `threads` threads.
    #[must_use]
    pub const fn with_threads(mut self, threads: usize) -> SearchConfig {
        self.threads = threads;
        self
    }

    /// These settings with a table of `tt_mb` MiB.
    #[must_use]
    pub const fn with_tt_mb(mut self, tt_mb: usize) -> SearchConfig {
        self.tt_mb = tt_mb;
        self
    }

    /// These settings with these parts of the search.
    #[must_use]
    pub const fn with_parts(mut self, parts: Parts) -> SearchConfig {
        self.parts = parts;
        self
    }
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig { threads: 1, tt_mb: 64, parts: Parts::DEFAULT }
    }
}

/// Switches for the parts of the search that only make it faster, so each one's worth can be
/// measured by turning it off (`tns-bench search --without ...`). None of them changes the
/// value a fixed-depth search finds, only how many nodes it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(clippy::struct_excessive_bools)]
#[non_exhaustive]
pub struct Parts {
    /// The transposition table: cutoffs from stored bounds, and the stored move tried first.
    pub table: bool,
    /// Jumps (kills) tried before quiet moves.
    pub jumps_first: bool,
    /// Killer moves: quiet moves that caused a cutoff at the same ply, tried early.
    pub killers: bool,
    /// The history heuristic: quiet moves ordered by how often they caused cutoffs.
    pub history: bool,
    /// Time management by the best move's stability: with a target time, stop early when the
    /// best move holds and go on when it changes. Off, the search stops at the target. (It
    /// changes only how a clock's time is spent, not what a search finds.)
    pub stability: bool,
}

impl Parts {
    /// Every part on.
    pub const ALL: Parts =
        Parts { table: true, jumps_first: true, killers: true, history: true, stability: true };

    /// The parts the engine uses: all but killer moves, which cost 15-25% more nodes to reach
    /// depths 12 to 14 on the bench positions (docs/search.md has the figures).
    pub const DEFAULT: Parts = Parts { killers: false, ..Parts::ALL };
}

impl Default for Parts {
    fn default() -> Parts {
        Parts::DEFAULT
    }
}

/// What the search reports after each completed iteration (one report a line with
/// [`Search::set_multipv`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The deepest ply the main thread reached in it, quiescent lines and all (UCI's
    /// `seldepth`).
    pub seldepth: u32,
    /// Which line this is, from 1 (the best) to the number of lines asked for.
    pub multipv: usize,
    /// How full the transposition table is, in thousandths.
    pub hashfull: u32,
    /// Positions whose exact value the evaluator gave (tablebase hits), over all threads.
    pub tbhits: u64,
    /// The root score from the side to move's view (see [`describe`](crate::describe)).
    pub score: i32,
    /// Nodes searched so far, over all threads.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchResult {
    /// The best move of the last completed iteration; `None` only when the game is over (no
    /// legal move, or the root drawn by repetition).
    pub best_move: Option<Move>,
    /// Its score from the side to move's view.
    pub score: i32,
    /// The depth of the last completed iteration (0 if none completed).
    pub depth: u32,
    /// Nodes searched, over all threads.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// The principal variation of the last completed iteration.
    pub pv: Vec<Move>,
    /// Counters, with the `search-stats` feature.
    pub stats: Stats,
}

/// What the transposition table says about a node.
#[derive(Clone, Copy, Debug)]
struct Probe {
    /// Whether the table is used at this node (probed, and stored into after).
    use_tt: bool,
    /// The canonical position's key.
    key: u64,
    /// The symmetry from the position to its canonical form.
    sym: Symmetry,
    /// The table's move, in the position's own orientation.
    mv: Option<Move>,
    /// A score that ends the node at once (a deep enough entry whose bound decides).
    cut: Option<i32>,
}

/// A searcher: an evaluator, a transposition table that lasts across searches, and per-thread
/// ordering state.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use tns_board::Board;
/// use tns_search::{Heuristic, Limits, Search, SearchConfig, describe};
///
/// let mut search = Search::new(Heuristic::default(), SearchConfig::default().with_tt_mb(4))?;
/// // Four sheep are dead and the tigers can jump a fifth.
/// let board: Board = "TS2T/5/5/5/T3T t 15".parse()?;
/// let result = search.search(board, &[], Limits::depth(4), &AtomicBool::new(false), |_| {})?;
/// assert_eq!(result.best_move.unwrap().to_string(), "a5c5");
/// assert_eq!(describe(result.score, board.side_to_move()), "Tigers win in 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Search<E> {
    evaluator: E,
    tt: TranspositionTable,
    /// Ordering state of the main thread, then of each helper thread.
    main_ordering: Ordering,
    helper_orderings: Vec<Ordering>,
    parts: Parts,
    /// Lines to search and report (UCI's `MultiPV`).
    multipv: usize,
}

/// What all threads of one search share.
struct Shared<'a, E> {
    evaluator: &'a E,
    tt: &'a TranspositionTable,
    use_table: bool,
    stability: bool,
    history: &'a [Board],
    limits: Limits,
    start: Instant,
    stop: &'a AtomicBool,
    /// The root moves to search: the legal moves, narrowed by the evaluator (see
    /// [`Evaluator::root_moves`]) and by the limits' moves; never empty unless there is no
    /// legal move.
    root_moves: MoveList,
    /// Nodes between two looks at the limits, for each thread.
    check_every: u64,
    /// Raised when any limit is reached, or when the main thread is done.
    abort: AtomicBool,
    nodes: AtomicU64,
    tbhits: AtomicU64,
}

impl<E> Shared<'_, E> {
    fn out_of_limits(&self) -> bool {
        self.stop.load(AtomicOrdering::Relaxed)
            || self.limits.time.is_some_and(|t| self.start.elapsed() >= t)
            || self.limits.nodes.is_some_and(|n| self.nodes.load(AtomicOrdering::Relaxed) >= n)
    }
}

/// One thread's search state.
struct Worker<'a, 's, E> {
    shared: &'s Shared<'a, E>,
    ordering: &'s mut Ordering,
    nodes: u64,
    unpublished: u64,
    tbhits: u64,
    seldepth: usize,
    /// The root moves of the line being searched (the others, with more lines, are taken).
    root: MoveList,
    aborted: bool,
    /// `path[i]`: the position at ply `i` of the current line.
    path: [Board; MAX_PLY + 1],
    pv: Box<[[Option<Move>; MAX_PLY]]>,
    pv_len: [usize; MAX_PLY + 1],
    stats: Stats,
}

impl<E: Evaluator> Search<E> {
    /// A searcher with `config.threads` threads and a table of `config.tt_mb` MiB.
    ///
    /// # Errors
    /// [`SearchError::Threads`] for a thread count outside 1 to
    /// [`MAX_THREADS`](crate::MAX_THREADS), [`SearchError::TableSize`] for a table size
    /// outside 1 to [`MAX_TT_MB`](crate::MAX_TT_MB), [`SearchError::Memory`] when the table's
    /// memory cannot be had.
    pub fn new(evaluator: E, config: SearchConfig) -> Result<Search<E>, SearchError> {
        let threads = config.threads;
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(SearchError::Threads { given: threads });
        }
        Ok(Search {
            evaluator,
            tt: TranspositionTable::new(config.tt_mb)?,
            main_ordering: Ordering::new(config.parts),
            helper_orderings: (1..threads).map(|_| Ordering::new(config.parts)).collect(),
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

    /// The number of threads.
    pub fn threads(&self) -> usize {
        1 + self.helper_orderings.len()
    }

    /// Forgets everything learnt in earlier searches (table, killers, history), so the next
    /// search behaves as a fresh searcher's.
    pub fn clear(&mut self) {
        self.tt.clear();
        let parts = self.parts;
        for o in self.orderings_mut() {
            *o = Ordering::new(parts);
        }
    }

    fn orderings_mut(&mut self) -> impl Iterator<Item = &mut Ordering> {
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
    /// the last completed iteration. `history` is the game's earlier positions, oldest first, so
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
        let threads = self.threads() as u64;
        let check_every =
            limits.nodes.map_or(CHECK_EVERY, |n| (n / (32 * threads)).clamp(1, CHECK_EVERY));
        let shared = Shared {
            evaluator: &self.evaluator,
            root_moves,
            tt: &self.tt,
            use_table: self.parts.table,
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
        let threads = threads as usize;
        let mut result = std::thread::scope(|scope| {
            let mut handles = Vec::with_capacity(helpers.len());
            for (i, ordering) in helpers.iter_mut().enumerate() {
                let shared = &shared;
                let spawned = std::thread::Builder::new()
                    .name(format!("search helper {}", i + 1))
                    .spawn_scoped(scope, move || {
                        let mut w = Worker::new(shared, ordering, board);
                        // Half the helpers start one ply deeper, so threads spread over depths.
                        w.iterate(board, 1 + (i as u32 + 1) % 2, 1, |_| {});
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
            let mut w = Worker::new(&shared, main, board);
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

impl<'a, 's, E: Evaluator> Worker<'a, 's, E> {
    fn new(shared: &'s Shared<'a, E>, ordering: &'s mut Ordering, root: Board) -> Self {
        Worker {
            shared,
            ordering,
            nodes: 0,
            unpublished: 0,
            tbhits: 0,
            seldepth: 0,
            root: shared.root_moves.clone(),
            aborted: false,
            path: [root; MAX_PLY + 1],
            pv: vec![[None; MAX_PLY]; MAX_PLY].into_boxed_slice(),
            pv_len: [0; MAX_PLY + 1],
            stats: Stats::default(),
        }
    }

    /// Iterative deepening from `first_depth`, `lines` lines an iteration; `report` is called
    /// after each completed line.
    fn iterate(
        &mut self,
        root: Board,
        first_depth: u32,
        lines: usize,
        mut report: impl FnMut(&Report),
    ) -> SearchResult {
        let moves = self.shared.root_moves.clone();
        let lines = lines.min(moves.len()).max(1);
        let mut result = SearchResult {
            // Until an iteration completes, the first move in the usual order: a kill if any.
            best_move: moves.first().copied(),
            score: 0,
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
            stats: Stats::default(),
        };
        if moves.is_empty() || self.aborted() {
            return result;
        }
        let max_depth =
            self.shared.limits.depth.unwrap_or(MAX_PLY as u32 - 1).min(MAX_PLY as u32 - 1);
        let mut stable = 0;
        'deepening: for depth in first_depth..=max_depth.max(1) {
            self.seldepth = 0;
            let mut taken = MoveList::new();
            for line in 1..=lines {
                self.root = moves.iter().copied().filter(|m| !taken.contains(m)).collect();
                let score = self.negamax(root, depth, 0, -INFINITY, INFINITY);
                if self.aborted {
                    break 'deepening;
                }
                let mut pv: Vec<Move> =
                    self.pv[0][..self.pv_len[0]].iter().flatten().copied().collect();
                self.extend_pv(root, &mut pv, depth as usize);
                let Some(&best) = pv.first() else { break };
                taken.push(best);
                if line == 1 {
                    stable = if result.best_move == Some(best) { stable + 1 } else { 0 };
                    result.best_move = Some(best);
                    result.score = score;
                    result.depth = depth;
                    result.pv.clone_from(&pv);
                }
                self.publish();
                let nodes = self.shared.nodes.load(AtomicOrdering::Relaxed);
                let time = self.shared.start.elapsed();
                let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
                report(&Report {
                    depth,
                    seldepth: self.seldepth as u32,
                    multipv: line,
                    hashfull: self.shared.tt.hashfull(),
                    tbhits: self.shared.tbhits.load(AtomicOrdering::Relaxed),
                    score,
                    nodes,
                    nps,
                    time,
                    pv,
                });
            }
            self.root = moves.clone();
            // A forced result within the horizon is exact: deeper iterations cannot change it.
            let settled =
                lines == 1 && plies_to_end(result.score).is_some_and(|n| n <= depth as i32);
            let only_move = moves.len() == 1 && self.shared.limits.depth.is_none();
            let share = if self.shared.stability { target_share(stable) } else { 1.0 };
            let target_met = self.shared.limits.target.is_some_and(|target| {
                self.shared.start.elapsed().as_secs_f64() >= target.as_secs_f64() * share
            });
            if settled || only_move || target_met {
                break;
            }
        }
        self.publish();
        result
    }

    /// Whether the search was stopped before it began (the flag raised before the call).
    fn aborted(&mut self) -> bool {
        if self.shared.abort.load(AtomicOrdering::Relaxed) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Lengthens `pv` to `depth` moves with the table's moves, where a cutoff by the table cut
    /// the line short (a search that repeats an earlier one finds most of its lines there).
    /// Stops at a position the table has no move for, or at one already on the line.
    fn extend_pv(&self, root: Board, pv: &mut Vec<Move>, depth: usize) {
        if !self.shared.use_table {
            return;
        }
        let mut line = vec![root];
        let mut board = root;
        for &m in pv.iter() {
            board = board.after_unchecked(m);
            line.push(board);
        }
        while pv.len() < depth && board.dead() < KILLS_TO_WIN {
            let (canonical, sym) = board.canonical();
            let stored = self.shared.tt.probe(canonical.key()).and_then(|e| e.mv);
            let m = match stored.map(|m| sym.inverse().apply_move(m)) {
                Some(m) if board.check_move(m).is_ok() => m,
                // The table keeps no depth-1 nodes: the last move is a one-ply look's.
                _ if pv.len() + 1 == depth => match self.one_ply_best(board) {
                    Some(m) => m,
                    None => break,
                },
                _ => break,
            };
            board = board.after_unchecked(m);
            if line.contains(&board) {
                break;
            }
            pv.push(m);
            line.push(board);
        }
    }

    /// The move a one-ply search of `board` chooses (repetitions aside): the one whose
    /// position is worst for the opponent.
    fn one_ply_best(&self, board: Board) -> Option<Move> {
        let value = |child: Board| -> i32 {
            if child.dead() >= KILLS_TO_WIN || !child.has_moves() {
                return loss_in(0);
            }
            self.shared.evaluator.exact(child).unwrap_or_else(|| {
                self.shared.evaluator.evaluate(child).clamp(-EVAL_LIMIT, EVAL_LIMIT)
            })
        };
        let moves = board.legal_moves();
        moves.iter().copied().min_by_key(|&m| value(board.after_unchecked(m)))
    }

    fn publish(&mut self) {
        self.shared.nodes.fetch_add(self.unpublished, AtomicOrdering::Relaxed);
        self.unpublished = 0;
        if self.tbhits > 0 {
            self.shared.tbhits.fetch_add(self.tbhits, AtomicOrdering::Relaxed);
            self.tbhits = 0;
        }
    }

    /// Whether the search must stop now.
    #[inline]
    fn check_abort(&mut self) -> bool {
        if self.unpublished >= self.shared.check_every {
            self.publish();
            if self.shared.abort.load(AtomicOrdering::Relaxed) || self.shared.out_of_limits() {
                self.shared.abort.store(true, AtomicOrdering::Relaxed);
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Whether the position at `ply` occurred earlier on the path or in the game, with the same
    /// side to move (the scan is tns-board's, shared with the game's own repetition count).
    #[inline]
    fn is_repetition(&self, board: Board, ply: usize) -> bool {
        let earlier = self.path[..ply].iter().rev().chain(self.shared.history.iter().rev());
        repetition_candidates(board, earlier.copied()).any(|b| b == board)
    }

    /// The score of `board` at `ply` with `depth` plies to go, within (`alpha`, `beta`): the
    /// checks that end a line, the table, the moves, and the table again.
    fn negamax(&mut self, board: Board, depth: u32, ply: usize, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        self.unpublished += 1;
        self.pv_len[ply] = 0;
        self.seldepth = self.seldepth.max(ply);
        if self.check_abort() {
            return 0;
        }
        self.path[ply] = board;
        if let Some(score) = self.end_of_line(board, depth, ply) {
            return score;
        }
        let probe = self.probe(board, depth, ply, alpha, beta);
        if let Some(score) = probe.cut {
            return score;
        }
        let Some((best, best_move)) = self.search_moves(board, depth, ply, alpha, beta, probe.mv)
        else {
            // No legal move: lost. (An aborted search's score is never used.)
            return if self.aborted { 0 } else { loss_in(ply) };
        };
        if probe.use_tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let entry = Entry {
                score: to_table(best, ply),
                depth: depth.min(255) as u8,
                bound,
                mv: best_move.map(|m| probe.sym.apply_move(m)),
            };
            self.shared.tt.store(probe.key, entry);
        }
        best
    }

    /// The score where the line ends here: five dead, a repetition, a position the evaluator
    /// knows exactly, or the horizon (or no legal move there). `None` to search on.
    #[inline]
    fn end_of_line(&mut self, board: Board, depth: u32, ply: usize) -> Option<i32> {
        if board.dead() >= KILLS_TO_WIN {
            return Some(loss_in(ply));
        }
        if ply > 0 {
            if self.is_repetition(board, ply) {
                return Some(DRAW);
            }
            if let Some(exact) = self.shared.evaluator.exact(board) {
                self.tbhits += 1;
                return Some(from_table(exact, ply));
            }
        }
        if depth == 0 || ply >= MAX_PLY - 1 {
            if !board.has_moves() {
                return Some(loss_in(ply));
            }
            return Some(self.shared.evaluator.evaluate(board).clamp(-EVAL_LIMIT, EVAL_LIMIT));
        }
        None
    }

    /// Looks `board` up in the transposition table (from depth 2: at depth 1 the table saves
    /// less than the symmetry transform costs).
    #[inline]
    fn probe(&mut self, board: Board, depth: u32, ply: usize, alpha: i32, beta: i32) -> Probe {
        let use_tt = depth >= 2 && self.shared.use_table;
        if !use_tt {
            return Probe { use_tt, key: 0, sym: Symmetry::IDENTITY, mv: None, cut: None };
        }
        let (canonical, sym) = board.canonical();
        let key = canonical.key();
        count!(self.stats, tt_probes);
        let mut probe = Probe { use_tt, key, sym, mv: None, cut: None };
        if let Some(entry) = self.shared.tt.probe(key) {
            count!(self.stats, tt_hits);
            probe.mv = entry.mv.map(|m| sym.inverse().apply_move(m));
            let score = from_table(entry.score, ply);
            if ply > 0 && u32::from(entry.depth) >= depth {
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    count!(self.stats, tt_cutoffs);
                    probe.cut = Some(score);
                }
            }
        }
        probe
    }

    /// Searches the moves of `board`, best first by the ordering, and returns the best score
    /// and move; `None` when there is no legal move or the search was aborted.
    #[inline]
    fn search_moves(
        &mut self,
        board: Board,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        tt_move: Option<Move>,
    ) -> Option<(i32, Option<Move>)> {
        let mut moves = MoveList::new();
        if !self.generate(board, ply, &mut moves) {
            return None;
        }
        let side = board.side_to_move();
        let mut scores = [0i32; MAX_MOVES];
        self.ordering.score(side, &moves, tt_move, ply, &mut scores);
        let mut best = -INFINITY;
        let mut best_move = None;
        for i in 0..moves.len() {
            pick_next(&mut moves, &mut scores, i);
            let m = moves[i];
            let score = -self.negamax(board.after_unchecked(m), depth - 1, ply + 1, -beta, -alpha);
            if self.aborted {
                return None;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        count!(self.stats, cutoffs);
                        if i == 0 {
                            count!(self.stats, first_move_cutoffs);
                        }
                        if !m.is_jump() {
                            self.ordering.record_cutoff(side, m, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        Some((best, best_move))
    }

    /// The moves to search at `ply`: every legal move, or at the root those the evaluator
    /// narrowed them to. False when there is no legal move.
    #[inline]
    fn generate(&self, board: Board, ply: usize, moves: &mut MoveList) -> bool {
        board.generate_moves(moves);
        if moves.is_empty() {
            return false;
        }
        if ply == 0 {
            moves.clone_from(&self.root);
        }
        true
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = if ply + 1 < MAX_PLY { self.pv_len[ply + 1] } else { 0 };
        self.pv[ply][0] = Some(m);
        for i in 0..child_len.min(MAX_PLY - 1) {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = (child_len + 1).min(MAX_PLY);
    }
}
