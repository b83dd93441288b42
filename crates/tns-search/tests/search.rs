//! Search tests: forced wins, a differential test against plain negamax, legality, symmetry and
//! determinism.

use std::sync::atomic::AtomicBool;

use proptest::prelude::*;
use tns_board::{Board, KILLS_TO_WIN, Move, Symmetry};
use tns_search::{
    Eval, EvalError, Evaluator, Heuristic, Limits, Parts, Score, Search, SearchConfig, SearchError,
    SearchResult, Weights,
};

fn search_with(board: Board, history: &[Board], limits: Limits, threads: usize) -> SearchResult {
    search_parts(board, history, limits, threads, Parts::DEFAULT)
}

fn search_parts(
    board: Board,
    history: &[Board],
    limits: Limits,
    threads: usize,
    parts: Parts,
) -> SearchResult {
    let config = SearchConfig::default().with_threads(threads).with_tt_mb(2).with_parts(parts);
    let mut s = Search::new(Heuristic::default(), config).unwrap();
    s.search(board, history, limits, &AtomicBool::new(false), |_| {}).unwrap()
}

fn pos(s: &str) -> Board {
    s.parse().unwrap()
}

/// Plain negamax: no pruning, no table, no ordering, the same rules as the engine.
fn reference(board: Board, depth: u32, path: &mut Vec<Board>, history: &[Board]) -> Score {
    let ply = path.len();
    if board.dead() >= KILLS_TO_WIN {
        return Score::loss_in(ply);
    }
    if ply > 0 && is_repetition(board, path, history) {
        return Score::DRAW;
    }
    let moves = board.legal_moves();
    if moves.is_empty() {
        return Score::loss_in(ply);
    }
    if depth == 0 {
        return Score::from_eval(Heuristic::default().evaluate(board));
    }
    path.push(board);
    let best = moves
        .iter()
        .map(|&m| -reference(board.after_unchecked(m), depth - 1, path, history))
        .max()
        .unwrap();
    path.pop();
    best
}

fn is_repetition(board: Board, path: &[Board], history: &[Board]) -> bool {
    board.in_hand() == 0
        && path
            .iter()
            .rev()
            .chain(history.iter().rev())
            .take_while(|b| b.sheep_on_board() == board.sheep_on_board() && b.in_hand() == 0)
            .any(|&b| b == board)
}

fn play_random(choices: &[u8]) -> Vec<Board> {
    let mut boards = vec![Board::START];
    for &c in choices {
        let b = *boards.last().unwrap();
        let moves = b.legal_moves();
        if moves.is_empty() {
            break;
        }
        boards.push(b.after_unchecked(moves[c as usize % moves.len()]));
    }
    boards
}

#[test]
fn tiger_takes_the_fifth_sheep() {
    let board = pos("TS2T/5/S4/5/T3T t 14");
    let r = search_with(board, &[], Limits::depth(5), 1);
    assert_eq!(r.best_move, Some("a5c5".parse().unwrap()));
    assert_eq!(r.score, Score::win_in(1));
    assert_eq!(r.depth, 1, "a win within the horizon ends the search");
}

#[test]
fn sheep_trap_the_last_free_tiger() {
    let board = pos("TTSSS/TTSSS/SSSSS/SSS1S/SSSSS s 0");
    let r = search_with(board, &[], Limits::depth(4), 1);
    assert_eq!(r.score, Score::win_in(1));
    let after = board.after(r.best_move.unwrap()).unwrap();
    assert!(!after.has_moves(), "{after}");
}

/// Movement-phase positions, sheep to move, where the sheep win in exactly 3 plies (and not in
/// 1), found by brute force with the reference search over seeded random placements of the
/// tigers and 2 or 3 empty points.
fn trap_in_three() -> Vec<Board> {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |n: u8| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        u8::try_from(state % u64::from(n)).expect("a remainder below a u8")
    };
    let mut found = Vec::new();
    for _ in 0..200_000 {
        let mut tigers = tns_board::Bitboard::EMPTY;
        while tigers.len() < 4 {
            tigers = tigers.with(tns_board::Point::from_index(next(25)).unwrap());
        }
        let mut sheep = !tigers;
        let empties = 2 + next(2);
        while sheep.len() > 21 - u32::from(empties) {
            sheep = sheep.without(tns_board::Point::from_index(next(25)).unwrap());
        }
        let Ok(board) = Board::from_parts(tigers, sheep, 0, tns_board::Side::Sheep) else {
            continue;
        };
        if reference(board, 3, &mut Vec::new(), &[]) == Score::win_in(3) {
            found.push(board);
            if found.len() == 5 {
                break;
            }
        }
    }
    found
}

#[test]
fn sheep_force_a_trap_in_three() {
    let positions = trap_in_three();
    assert!(!positions.is_empty(), "brute force found no trap in 3");
    for board in positions {
        let r = search_with(board, &[], Limits::depth(6), 1);
        assert_eq!(r.score, Score::win_in(3), "{board}");
        // After the engine's move every tiger reply must lose at once.
        let after = board.after(r.best_move.unwrap()).unwrap();
        assert_eq!(reference(after, 2, &mut Vec::new(), &[]), Score::loss_in(2), "{board}");
    }
}

#[test]
fn repetitions_in_the_game_history_count() {
    // The tiger shuffles e1-d1 while the sheep shuffle c1-b1, so the game history holds the
    // positions the search will meet again.
    let start = pos("TSSST/SSSSS/SS1SS/SSSSS/T1S1T t 0");
    let mut history = vec![start];
    for m in ["e1d1", "c1b1", "d1e1"] {
        let next = history.last().unwrap().after(m.parse().unwrap()).unwrap();
        history.push(next);
    }
    let now = history.pop().unwrap();
    let mut differs = false;
    for depth in 1..=4 {
        let with = reference(now, depth, &mut Vec::new(), &history);
        let without = reference(now, depth, &mut Vec::new(), &[]);
        differs |= with != without;
        assert_eq!(
            search_with(now, &history, Limits::depth(depth), 1).score,
            with,
            "depth {depth}"
        );
        assert_eq!(search_with(now, &[], Limits::depth(depth), 1).score, without, "depth {depth}");
    }
    assert!(differs, "the history never changed a value: the test position shows nothing");
}

#[test]
fn fixed_depth_single_thread_is_deterministic() {
    let boards = play_random(&[7, 3, 9, 1, 4, 4, 8, 2, 6, 5, 1, 3, 9, 9, 0, 2, 7, 1, 5, 5]);
    let board = *boards.last().unwrap();
    let a = search_with(board, &[], Limits::depth(6), 1);
    let b = search_with(board, &[], Limits::depth(6), 1);
    assert_eq!((a.best_move, a.score, a.nodes, &a.pv), (b.best_move, b.score, b.nodes, &b.pv));
}

#[test]
fn stopped_at_once_still_moves() {
    for board in [Board::START, pos("TSSST/SSSSS/SS1SS/SSSSS/T1S1T t 0")] {
        let mut s = Search::new(
            Heuristic::default(),
            SearchConfig::default().with_threads(2).with_tt_mb(1),
        )
        .unwrap();
        let r = s.search(board, &[], Limits::default(), &AtomicBool::new(true), |_| {}).unwrap();
        assert!(board.check_move(r.best_move.unwrap()).is_ok());
        let r = s.search(board, &[], Limits::nodes(1), &AtomicBool::new(false), |_| {}).unwrap();
        assert!(board.check_move(r.best_move.unwrap()).is_ok());
    }
}

#[test]
fn no_move_when_the_game_is_over() {
    let over = pos("T3T/5/2S2/5/T3T s 14");
    assert_eq!(search_with(over, &[], Limits::depth(3), 1).best_move, None);
}

#[test]
fn reports_every_iteration() {
    let mut depths = Vec::new();
    let mut s = Search::new(Heuristic::default(), SearchConfig::default()).unwrap();
    let r = s
        .search(Board::START, &[], Limits::depth(5), &AtomicBool::new(false), |rep| {
            assert!(!rep.pv.is_empty());
            assert!(Board::START.check_move(rep.pv[0]).is_ok());
            depths.push(rep.depth);
        })
        .unwrap();
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    assert_eq!(r.pv.first(), r.best_move.as_ref());
}

fn pv_is_legal(board: Board, pv: &[Move]) -> bool {
    let mut b = board;
    pv.iter().all(|&m| b.play(m).is_ok())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_heuristic_is_its_terms_weighted(
        choices in prop::collection::vec(any::<u8>(), 0..90),
        weights in any::<[i16; 7]>(),
    ) {
        let board = *play_random(&choices).last().unwrap();
        let weights = Weights::from_array(weights.map(i32::from));
        prop_assert_eq!(Weights::from_array(weights.to_array()), weights);
        let terms = Heuristic::terms(board);
        let dot: i32 = terms.iter().zip(weights.to_array()).map(|(t, w)| t * w).sum();
        prop_assert_eq!(Heuristic::new(weights).tiger_score(board), dot, "{}", board);
    }

    #[test]
    fn root_value_matches_plain_negamax(
        choices in prop::collection::vec(any::<u8>(), 0..70),
        depth in 1u32..=4,
        switches in any::<[bool; 5]>(),
    ) {
        let boards = play_random(&choices);
        let (board, history) = boards.split_last().unwrap();
        prop_assume!(board.has_moves() && board.dead() < KILLS_TO_WIN);
        let expected = reference(*board, depth, &mut Vec::new(), history);
        // Whichever parts are switched off, the value is the same; only the node count moves.
        let [table, jumps_first, killers, history_heuristic, pvs] = switches;
        let mut parts = Parts::DEFAULT;
        (parts.tt, parts.jumps_first, parts.killers) = (table, jumps_first, killers);
        (parts.history, parts.pvs) = (history_heuristic, pvs);
        let r = search_parts(*board, history, Limits::depth(depth), 1, parts);
        prop_assert_eq!(r.score, expected, "{} depth {}", board, depth);
        prop_assert!(pv_is_legal(*board, &r.pv));
    }

    #[test]
    fn returned_move_is_legal(
        choices in prop::collection::vec(any::<u8>(), 0..90),
        depth in 1u32..6,
        nodes in 1u64..20_000,
        threads in 1usize..3,
    ) {
        let boards = play_random(&choices);
        let board = *boards.last().unwrap();
        let limits = Limits::depth(depth).with_nodes(nodes);
        let r = search_with(board, &boards[..boards.len() - 1], limits, threads);
        match r.best_move {
            Some(m) => prop_assert!(board.check_move(m).is_ok()),
            None => prop_assert!(board.legal_moves().is_empty()),
        }
    }

    #[test]
    fn symmetric_positions_score_the_same(choices in prop::collection::vec(any::<u8>(), 0..70)) {
        let board = *play_random(&choices).last().unwrap();
        prop_assume!(board.has_moves());
        let score = search_with(board, &[], Limits::depth(4), 1).score;
        for s in Symmetry::ALL {
            let image = board.transformed(s);
            prop_assert_eq!(search_with(image, &[], Limits::depth(4), 1).score, score, "{}", s);
        }
    }
}

/// The heuristic, allowing at the root only the moves of one kind.
#[derive(Debug)]
struct OnlyPlacementsOn(tns_board::Bitboard);

impl Evaluator for OnlyPlacementsOn {
    fn evaluate(&self, board: Board) -> Eval {
        Heuristic::default().evaluate(board)
    }
    fn root_moves(&self, board: Board) -> Result<Option<tns_board::MoveList>, EvalError> {
        let mut list = tns_board::MoveList::new();
        for &m in board.legal_moves().iter().filter(|m| self.0.contains(m.to())) {
            list.push(m);
        }
        // A move that is not legal here is ignored.
        list.push("a5b5".parse().unwrap());
        Ok(Some(list))
    }
}

#[test]
fn the_evaluator_can_narrow_the_root_moves() {
    let board = pos("T3T/5/5/5/T3T s 20");
    // Placements on b1 and d1 only.
    let allowed =
        tns_board::Bitboard::EMPTY.with("b1".parse().unwrap()).with("d1".parse().unwrap());
    for limits in [Limits::depth(1), Limits::depth(5), Limits::nodes(1)] {
        let mut s = Search::new(OnlyPlacementsOn(allowed), SearchConfig::default()).unwrap();
        let result = s.search(board, &[], limits.clone(), &AtomicBool::new(false), |_| {}).unwrap();
        let best = result.best_move.unwrap();
        assert!(allowed.contains(best.to()), "{best} with {limits:?}");
        assert!(result.pv.first().is_none_or(|m| allowed.contains(m.to())));
    }
    // Unrestricted, the heuristic's choice at depth 5 is elsewhere.
    let free = search_with(board, &[], Limits::depth(5), 1).best_move.unwrap();
    assert!(!allowed.contains(free.to()), "{free}");
}

/// An evaluator whose root moves cannot be known (a damaged table, say).
#[derive(Debug)]
struct Broken;

impl Evaluator for Broken {
    fn evaluate(&self, board: Board) -> Eval {
        Heuristic::default().evaluate(board)
    }
    fn root_moves(&self, _board: Board) -> Result<Option<tns_board::MoveList>, EvalError> {
        Err(EvalError::new("block 7 is damaged"))
    }
}

#[test]
fn an_evaluator_error_reaches_the_caller() {
    let mut s = Search::new(Broken, SearchConfig::default()).unwrap();
    let e = s.search(Board::START, &[], Limits::depth(3), &AtomicBool::new(false), |_| {});
    assert_eq!(e.unwrap_err().to_string(), "block 7 is damaged");
}

#[test]
fn a_stop_raised_before_the_call_searches_nothing() {
    let mut s = Search::new(Heuristic::default(), SearchConfig::default()).unwrap();
    let mut reports = 0;
    let r = s.search(Board::START, &[], Limits::depth(6), &AtomicBool::new(true), |_| reports += 1);
    let r = r.unwrap();
    assert_eq!((r.depth, r.nodes, reports), (0, 0, 0));
    assert!(Board::START.check_move(r.best_move.unwrap()).is_ok());
}

/// The value of `m` from `board` at `depth` by plain negamax, from `board`'s side's view.
fn move_value(board: Board, m: Move, depth: u32, history: &[Board]) -> Score {
    -reference(board.after_unchecked(m), depth - 1, &mut vec![board], history)
}

/// A search stopped within an iteration, and what it returned: `None` when it returned the
/// last completed iteration's move, else the move it took from the unfinished iteration, with
/// that move's and the completed move's plain negamax values one ply deeper. Stops after
/// depth 3 are passed over too (`None`): plain negamax one ply deeper would be slow.
fn stopped(board: Board, history: &[Board], nodes: u64) -> Option<(SearchResult, Score, Score)> {
    let r = search_with(board, history, Limits::nodes(nodes), 1);
    // The same search to the depth it completed: one thread and a node limit are deterministic.
    let completed = search_with(board, history, Limits::depth(r.depth.max(1)), 1);
    if r.depth == 0 || r.depth > 3 || r.best_move == completed.best_move {
        return None;
    }
    let deeper = r.depth + 1;
    let taken = move_value(board, r.best_move.unwrap(), deeper, history);
    let before = move_value(board, completed.best_move.unwrap(), deeper, history);
    Some((r, taken, before))
}

#[test]
fn a_stopped_iteration_gives_the_better_move_it_found() {
    // Stopped within its fourth iteration, after it had searched the third's best move and found
    // a better one: that one is played, as the property below checks everywhere.
    let board = pos("S3S/S4/SSTT1/3SS/1ST1T t 12");
    let (r, taken, before) =
        stopped(board, &[], 940).expect("a better move from the stopped iteration");
    assert_eq!(r.depth, 3);
    assert!(taken > before, "{taken:?} against {before:?}");
}

#[test]
fn the_move_of_a_stopped_iteration_is_reported_as_a_lower_bound() {
    // The case above: the last report is the unfinished fourth iteration's, with the move the
    // search returns, its line and score marked as a lower bound; every report before it is a
    // completed iteration's.
    let board = pos("S3S/S4/SSTT1/3SS/1ST1T t 12");
    let config = SearchConfig::default().with_threads(1).with_tt_mb(2);
    let mut s = Search::new(Heuristic::default(), config).unwrap();
    let mut reports = Vec::new();
    let r = s
        .search(board, &[], Limits::nodes(940), &AtomicBool::new(false), |r| {
            reports.push(r.clone());
        })
        .unwrap();
    let (last, completed) = reports.split_last().unwrap();
    assert!(last.lower_bound);
    assert_eq!((last.depth, last.score, &last.pv), (r.depth + 1, r.score, &r.pv));
    assert_eq!(last.pv.first(), r.best_move.as_ref());
    assert_eq!(completed.len(), 3);
    assert!(completed.iter().all(|c| !c.lower_bound));
    assert_ne!(completed[2].pv.first(), r.best_move.as_ref());

    // A fixed-depth search never stops under way: no report is a lower bound.
    let mut reports = Vec::new();
    s.clear();
    s.search(board, &[], Limits::depth(5), &AtomicBool::new(false), |r| reports.push(r.clone()))
        .unwrap();
    assert_eq!(reports.len(), 5);
    assert!(reports.iter().all(|c| !c.lower_bound));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Where a stopped search plays another move than its last completed iteration's, that
    /// move is better one ply deeper, its score is that value, and its line starts with it.
    /// (Each case stops the search at 37 node limits: about one in thirty such stops falls
    /// after a better move was found.)
    #[test]
    fn a_move_taken_from_a_stopped_iteration_is_better_one_ply_deeper(
        choices in prop::collection::vec(any::<u8>(), 0..70),
        first in 20u64..60,
    ) {
        let boards = play_random(&choices);
        let (board, history) = boards.split_last().unwrap();
        prop_assume!(board.has_moves() && board.dead() < KILLS_TO_WIN);
        for nodes in (first..1500).step_by(40) {
            if let Some((r, taken, before)) = stopped(*board, history, nodes) {
                prop_assert!(taken > before, "{} after {} nodes: {:?} against {:?}", board, nodes, taken, before);
                prop_assert_eq!(r.score, taken);
                prop_assert_eq!(r.pv.first(), r.best_move.as_ref());
                prop_assert!(pv_is_legal(*board, &r.pv));
            }
        }
    }
}

#[test]
fn a_node_limit_is_kept_within_a_sixteenth() {
    // A middle-game position, so that the limit comes before any natural end.
    let board = pos("T3T/1S3/2S2/5/T3T t 18");
    for threads in [1, 2] {
        for limit in [1u64, 10, 100, 1000, 10_000, 100_000] {
            let r = search_with(board, &[], Limits::nodes(limit), threads);
            let t = threads as u64;
            let slack = (limit / 16).max(2 * t).min(2048 * t);
            assert!(
                r.nodes <= limit + slack,
                "{threads} threads, limit {limit}: {} nodes",
                r.nodes
            );
            assert!(board.check_move(r.best_move.unwrap()).is_ok());
        }
    }
}

#[test]
fn a_repeated_search_keeps_its_whole_line() {
    let mut s = Search::new(Heuristic::default(), SearchConfig::default()).unwrap();
    let stop = AtomicBool::new(false);
    let board: Board = "T3T/5/2S2/5/T3T t 19".parse().unwrap();
    for round in 0..2 {
        let mut reports = Vec::new();
        let r = s.search(board, &[], Limits::depth(9), &stop, |rep| reports.push(rep.clone()));
        let r = r.unwrap();
        assert_eq!(r.depth, 9);
        for rep in &reports {
            // Every line is legal, and as long as its depth (the game does not end this soon).
            assert_eq!(rep.pv.len(), rep.depth as usize, "round {round}, depth {}", rep.depth);
            let mut b = board;
            for &m in &rep.pv {
                assert!(b.check_move(m).is_ok(), "round {round}: {:?}", rep.pv);
                b = b.after_unchecked(m);
            }
        }
    }
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let mut s = Search::new(Heuristic::default(), SearchConfig::default()).unwrap();
    s.set_multipv(3);
    let board: Board = "T3T/5/2S2/5/T3T t 19".parse().unwrap();
    let mut reports = Vec::new();
    let r = s
        .search(board, &[], Limits::depth(4), &AtomicBool::new(false), |rep| {
            reports.push(rep.clone());
        })
        .unwrap();
    assert_eq!(reports.len(), 12);
    let last: Vec<_> = reports.iter().filter(|rep| rep.depth == 4).collect();
    assert_eq!(last.iter().map(|rep| rep.multipv).collect::<Vec<_>>(), [1, 2, 3]);
    assert!(last[0].score >= last[1].score && last[1].score >= last[2].score);
    let firsts: std::collections::HashSet<_> = last.iter().map(|rep| rep.pv[0]).collect();
    assert_eq!(firsts.len(), 3);
    assert_eq!(r.best_move, Some(last[0].pv[0]));
    // The first line scores what a one-line search finds.
    let one = search_with(board, &[], Limits::depth(4), 1);
    assert_eq!(one.score, last[0].score);
}

#[test]
fn searchmoves_limits_the_choice() {
    let board: Board = "T3T/5/2S2/5/T3T t 19".parse().unwrap();
    let only: tns_board::MoveList = ["a1a2".parse().unwrap()].into_iter().collect();
    let r = search_with(board, &[], Limits::depth(3).with_moves(only), 1);
    assert_eq!(r.best_move, Some("a1a2".parse().unwrap()));
    // Moves that are not legal are ignored; none legal: every move is searched.
    let none: tns_board::MoveList = ["c3".parse().unwrap()].into_iter().collect();
    let r = search_with(board, &[], Limits::depth(3).with_moves(none), 1);
    assert_eq!(r.best_move, search_with(board, &[], Limits::depth(3), 1).best_move);
}

#[test]
fn bad_settings_are_errors_not_aborts() {
    let config = |threads, tt_mb| SearchConfig::default().with_threads(threads).with_tt_mb(tt_mb);
    let err = |c| Search::new(Heuristic::default(), c).unwrap_err();
    assert!(matches!(err(config(0, 1)), SearchError::Threads { given: 0 }));
    assert!(matches!(err(config(65, 1)), SearchError::Threads { given: 65 }));
    assert!(matches!(err(config(1, 0)), SearchError::TableSize { given: 0 }));
    let huge = err(config(1, 99_999_999));
    assert!(matches!(huge, SearchError::TableSize { .. }), "{huge}");
    assert!(huge.to_string().contains("1 to 4096 MiB"), "{huge}");
}

#[test]
fn a_target_time_ends_the_search_near_it() {
    let mut s = Search::new(Heuristic::default(), SearchConfig::default()).unwrap();
    let limits = Limits::none()
        .with_target(std::time::Duration::from_millis(30))
        .with_time(std::time::Duration::from_secs(20));
    let r = s.search(Board::START, &[], limits, &AtomicBool::new(false), |_| {}).unwrap();
    // Never past the hard limit; and far short of it, since the target ends it.
    assert!(r.time < std::time::Duration::from_secs(5), "{:?}", r.time);
    assert!(r.depth >= 1);
}

#[test]
fn a_root_drawn_by_repetition_gets_no_move() {
    // Sheep and tigers step back and forth until the position comes a third time.
    let start: Board = "TSSST/SSSSS/SSSS1/SSSS1/T3T s 0".parse().unwrap();
    let mut game = tns_board::Game::from_position(start);
    let cycle = {
        let sheep = start.legal_moves().iter().copied().find(|m| !m.is_jump()).unwrap();
        let after = start.after(sheep).unwrap();
        let tiger = after.legal_moves().iter().copied().find(|m| !m.is_jump()).unwrap();
        let back = |m: Move| match m {
            Move::Step { from, to } => Move::Step { from: to, to: from },
            other => other,
        };
        [sheep, tiger, back(sheep), back(tiger)]
    };
    while game.outcome().is_none() {
        game.play(cycle[game.len() % 4]).unwrap();
    }
    let r = search_with(game.board(), game.previous(), Limits::depth(3), 1);
    assert_eq!(r.best_move, None, "the game is drawn");
    // One ply earlier the game goes on, and a move comes.
    game.undo();
    let r = search_with(game.board(), game.previous(), Limits::depth(3), 1);
    assert!(r.best_move.is_some());
}

/// The heuristic, counting its evaluations, and saying it is worth caching or not.
#[derive(Debug)]
struct Counting {
    worth_caching: bool,
    calls: std::sync::atomic::AtomicU64,
}

impl Counting {
    fn new(worth_caching: bool) -> Counting {
        Counting { worth_caching, calls: std::sync::atomic::AtomicU64::new(0) }
    }
}

impl Evaluator for Counting {
    fn evaluate(&self, board: Board) -> Eval {
        self.calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Heuristic::default().evaluate(board)
    }
    fn worth_caching(&self) -> bool {
        self.worth_caching
    }
}

/// Two searches of each board in a row with each searcher (the second meets the table of
/// evaluations the first filled), and each searcher's count of evaluations.
fn with_and_without_the_table(boards: &[Board], depth: u32) -> [(Vec<SearchResult>, u64); 2] {
    [true, false].map(|cache| {
        let mut s =
            Search::new(Counting::new(cache), SearchConfig::default().with_tt_mb(2)).unwrap();
        let mut results = Vec::new();
        for &board in boards {
            for _ in 0..2 {
                results.push(s.go(board, Limits::depth(depth)).unwrap());
            }
        }
        (results, s.evaluator().calls.load(std::sync::atomic::Ordering::Relaxed))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// A searcher that keeps its evaluations finds the same moves, scores, lines and node
    /// counts as one that does not, and asks the evaluator no more often.
    #[test]
    fn the_table_of_evaluations_changes_nothing_but_the_calls(
        choices in prop::collection::vec(any::<u8>(), 0..90),
        depth in 1u32..6,
    ) {
        let boards = play_random(&choices);
        let [(cached, cached_calls), (plain, plain_calls)] =
            with_and_without_the_table(&boards[boards.len().saturating_sub(3)..], depth);
        for (c, p) in cached.iter().zip(&plain) {
            prop_assert_eq!(c.best_move, p.best_move);
            prop_assert_eq!(c.score, p.score);
            prop_assert_eq!(&c.pv, &p.pv);
            prop_assert_eq!(c.nodes, p.nodes);
        }
        prop_assert!(cached_calls <= plain_calls, "{} > {}", cached_calls, plain_calls);
    }
}

#[test]
fn the_table_of_evaluations_saves_evaluations() {
    // From the start at depth 6, placements reach the same positions in other orders.
    let [(cached, cached_calls), (plain, plain_calls)] =
        with_and_without_the_table(&[Board::START], 6);
    assert_eq!(cached[1].nodes, plain[1].nodes);
    assert!(cached_calls * 4 < plain_calls * 3, "{cached_calls} against {plain_calls}");
}

#[test]
fn helper_threads_keep_evaluations_of_their_own() {
    // Two threads, each with its own table: the search still answers with a legal move and a
    // score, and the evaluator is asked.
    let config = SearchConfig::default().with_threads(2).with_tt_mb(2);
    let mut s = Search::new(Counting::new(true), config).unwrap();
    for _ in 0..2 {
        let r = s.go(Board::START, Limits::depth(5)).unwrap();
        assert!(Board::START.check_move(r.best_move.unwrap()).is_ok());
    }
    assert!(s.evaluator().calls.load(std::sync::atomic::Ordering::Relaxed) > 0);
    s.clear();
    assert!(s.go(Board::START, Limits::depth(3)).unwrap().best_move.is_some());
}
