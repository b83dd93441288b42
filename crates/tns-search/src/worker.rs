//! One thread's search: iterative deepening, negamax alpha-beta over `Copy` boards, the
//! transposition table's probes and stores, and the limits.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

use tns_board::{Board, KILLS_TO_WIN, MAX_MOVES, Move, MoveList, Symmetry, repetition_candidates};

use crate::Evaluator;
use crate::eval_cache::EvalCache;
use crate::limits::Limits;
use crate::ordering::{MoveOrder, pick_next};
use crate::report::{Report, SearchResult};
use crate::score::{MAX_PLY, Score};
use crate::stats::{Stats, count};
use crate::tt::{Bound, Entry, TranspositionTable};

/// The deepest iteration a search makes: one ply short of the plies the ordering keeps.
#[expect(clippy::cast_possible_truncation, reason = "MAX_PLY is 128")]
const DEEPEST: u32 = MAX_PLY as u32 - 1;

/// How often (in nodes) a thread publishes its node count and checks its limits, at most.
pub(crate) const CHECK_EVERY: u64 = 1024;

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

/// What the transposition table says about a node.
#[derive(Clone, Copy, Debug)]
struct Probe {
    /// Whether the transposition table is used at this node (probed, and stored into after).
    use_tt: bool,
    /// The canonical position's key.
    key: u64,
    /// The symmetry from the position to its canonical form.
    sym: Symmetry,
    /// The transposition table's move, in the position's own orientation.
    mv: Option<Move>,
    /// A score that ends the node at once (a deep enough entry whose bound decides).
    cut: Option<Score>,
}

/// What all threads of one search share.
pub(crate) struct Shared<'a, E> {
    pub(crate) evaluator: &'a E,
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) use_tt: bool,
    pub(crate) pvs: bool,
    pub(crate) stability: bool,
    pub(crate) history: &'a [Board],
    pub(crate) limits: Limits,
    pub(crate) start: Instant,
    pub(crate) stop: &'a AtomicBool,
    /// The root moves to search: the legal moves, narrowed by the evaluator (see
    /// [`Evaluator::root_moves`]) and by the limits' moves; never empty unless there is no
    /// legal move.
    pub(crate) root_moves: MoveList,
    /// Nodes between two looks at the limits, for each thread.
    pub(crate) check_every: u64,
    /// Raised when any limit is reached, or when the main thread is done.
    pub(crate) abort: AtomicBool,
    pub(crate) nodes: AtomicU64,
    pub(crate) tbhits: AtomicU64,
}

impl<E> Shared<'_, E> {
    fn out_of_limits(&self) -> bool {
        self.stop.load(AtomicOrdering::Relaxed)
            || self.limits.time.is_some_and(|t| self.start.elapsed() >= t)
            || self.limits.nodes.is_some_and(|n| self.nodes.load(AtomicOrdering::Relaxed) >= n)
    }
}

/// One thread's search state.
pub(crate) struct Worker<'a, 's, E> {
    pub(crate) shared: &'s Shared<'a, E>,
    pub(crate) ordering: &'s mut MoveOrder,
    pub(crate) evals: &'s mut EvalCache,
    pub(crate) unpublished: u64,
    pub(crate) tbhits: u64,
    pub(crate) seldepth: usize,
    /// The root moves of the line being searched (the others, with more lines, are taken).
    pub(crate) root: MoveList,
    pub(crate) aborted: bool,
    /// The first root move searched in the iteration under way, and the best score a root move
    /// has had in it (its line is `pv[0]`): what a stopped iteration has found.
    pub(crate) root_first: Option<Move>,
    pub(crate) root_score: Score,
    /// `path[i]`: the position at ply `i` of the current line.
    pub(crate) path: [Board; MAX_PLY + 1],
    pub(crate) pv: Box<[[Option<Move>; MAX_PLY]]>,
    pub(crate) pv_len: [usize; MAX_PLY + 1],
    pub(crate) stats: Stats,
}

impl<'a, 's, E: Evaluator> Worker<'a, 's, E> {
    pub(crate) fn new(
        shared: &'s Shared<'a, E>,
        ordering: &'s mut MoveOrder,
        evals: &'s mut EvalCache,
        root: Board,
    ) -> Self {
        Worker {
            shared,
            ordering,
            evals,
            unpublished: 0,
            tbhits: 0,
            seldepth: 0,
            root: shared.root_moves.clone(),
            aborted: false,
            root_first: None,
            root_score: -Score::INFINITY,
            path: [root; MAX_PLY + 1],
            pv: vec![[None; MAX_PLY]; MAX_PLY].into_boxed_slice(),
            pv_len: [0; MAX_PLY + 1],
            stats: Stats::default(),
        }
    }

    /// Iterative deepening from `first_depth`, `lines` lines an iteration; `report` is called
    /// after each completed line.
    pub(crate) fn iterate(
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
            score: Score::DRAW,
            chances: self.shared.evaluator.chances(Score::DRAW, root),
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
            stats: Stats::default(),
        };
        if moves.is_empty() || self.aborted() {
            return result;
        }
        let max_depth = self.shared.limits.depth.unwrap_or(DEEPEST).min(DEEPEST);
        let mut stable = 0;
        'deepening: for depth in first_depth..=max_depth.max(1) {
            self.seldepth = 0;
            let mut taken = MoveList::new();
            for line in 1..=lines {
                self.root = moves.iter().copied().filter(|m| !taken.contains(m)).collect();
                self.root_first = None;
                let score = self.negamax(root, depth, 0, -Score::INFINITY, Score::INFINITY);
                if self.aborted {
                    if lines == 1 && self.take_unfinished(&mut result) {
                        report(&self.report(depth, 1, result.score, result.pv.clone(), true));
                    }
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
                report(&self.report(depth, line, score, pv, false));
            }
            self.root = moves.clone();
            // A forced result within the horizon is exact: deeper iterations cannot change it.
            let settled = lines == 1 && result.score.plies_to_end().is_some_and(|n| n <= depth);
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
        result.chances = self.shared.evaluator.chances(result.score, root);
        result
    }

    /// The report of line `line` of the iteration at `depth`, with its score and variation
    /// (`lower_bound` for an iteration stopped under way); publishes the node count first.
    fn report(
        &mut self,
        depth: u32,
        line: usize,
        score: Score,
        pv: Vec<Move>,
        lower_bound: bool,
    ) -> Report {
        self.publish();
        let nodes = self.shared.nodes.load(AtomicOrdering::Relaxed);
        let time = self.shared.start.elapsed();
        #[expect(
            clippy::cast_precision_loss,
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a rate of nodes a second: not negative, and far below 2^52"
        )]
        let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
        Report {
            depth,
            seldepth: u32::try_from(self.seldepth).unwrap_or(u32::MAX),
            multipv: line,
            hashfull: self.shared.tt.hashfull(),
            tbhits: self.shared.tbhits.load(AtomicOrdering::Relaxed),
            score,
            chances: self.shared.evaluator.chances(score, self.path[0]),
            nodes,
            nps,
            time,
            pv,
            lower_bound,
        }
    }

    /// Takes what the iteration stopped under way has found, when it is better than `result`
    /// (the last completed iteration's): it searched that iteration's best move first, to the
    /// end, and another move to the end after it scored higher. That move is better at the
    /// deeper depth than the one `result` holds, so it is played, with its score and line; the
    /// depth stays the last completed one. Otherwise `result` stands. Whether it took the move.
    fn take_unfinished(&self, result: &mut SearchResult) -> bool {
        let best = self.pv[0][0];
        if self.pv_len[0] == 0 || self.root_first != result.best_move || best == self.root_first {
            return false;
        }
        result.best_move = best;
        result.score = self.root_score;
        result.pv = self.pv[0][..self.pv_len[0]].iter().flatten().copied().collect();
        true
    }

    /// Whether the search was stopped before it began (the flag raised before the call).
    fn aborted(&mut self) -> bool {
        if self.shared.abort.load(AtomicOrdering::Relaxed) {
            self.aborted = true;
        }
        self.aborted
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
    /// checks that end a line, the transposition table, the moves, and the table again.
    fn negamax(
        &mut self,
        board: Board,
        depth: u32,
        ply: usize,
        alpha: Score,
        beta: Score,
    ) -> Score {
        self.unpublished += 1;
        self.pv_len[ply] = 0;
        self.seldepth = self.seldepth.max(ply);
        if self.check_abort() {
            return Score::DRAW;
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
            return if self.aborted { Score::DRAW } else { Score::loss_in(ply) };
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
                score: best.to_node(ply),
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
    fn end_of_line(&mut self, board: Board, depth: u32, ply: usize) -> Option<Score> {
        if board.dead() >= KILLS_TO_WIN {
            return Some(Score::loss_in(ply));
        }
        if ply > 0 {
            if self.is_repetition(board, ply) {
                return Some(Score::DRAW);
            }
            if let Some(exact) = self.shared.evaluator.exact(board) {
                self.tbhits += 1;
                return Some(exact.to_root(ply));
            }
        }
        if depth == 0 || ply >= MAX_PLY - 1 {
            if !board.has_moves() {
                return Some(Score::loss_in(ply));
            }
            count!(self.stats, evaluations);
            let score = self.evals.get_or(board, |b| {
                count!(self.stats, evaluator_calls);
                self.shared.evaluator.evaluate(b)
            });
            return Some(Score::from_eval(score));
        }
        None
    }

    /// Looks `board` up in the transposition table (from depth 2: at depth 1 the table saves
    /// less than the symmetry transform costs).
    #[inline]
    fn probe(&mut self, board: Board, depth: u32, ply: usize, alpha: Score, beta: Score) -> Probe {
        let use_tt = depth >= 2 && self.shared.use_tt;
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
            let score = entry.score.to_root(ply);
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
        mut alpha: Score,
        beta: Score,
        tt_move: Option<Move>,
    ) -> Option<(Score, Option<Move>)> {
        let mut moves = MoveList::new();
        if !self.generate(board, ply, &mut moves) {
            return None;
        }
        let side = board.side_to_move();
        let mut scores = [0i32; MAX_MOVES];
        self.ordering.score(side, &moves, tt_move, ply, &mut scores);
        let mut best = -Score::INFINITY;
        let mut best_move = None;
        for i in 0..moves.len() {
            pick_next(&mut moves, &mut scores, i);
            let m = moves[i];
            if ply == 0 && i == 0 {
                self.root_first = Some(m);
            }
            let child = board.after_unchecked(m);
            let score = if i > 0 && self.shared.pvs && beta > alpha.next() {
                // Can it beat the best so far? Only if so, how far.
                let bound = -self.negamax(child, depth - 1, ply + 1, -alpha.next(), -alpha);
                if bound > alpha && bound < beta && !self.aborted {
                    -self.negamax(child, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    bound
                }
            } else {
                -self.negamax(child, depth - 1, ply + 1, -beta, -alpha)
            };
            if self.aborted {
                return None;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if ply == 0 {
                        self.root_score = score;
                    }
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
}
