//! Tests on the real game's placement layers, as far as they are built (CI builds the last
//! ones with `build --from-placed 18`; a full build holds them all). Ignored by default, like
//! the other tests on the real table; `TNS_TABLEBASE_DIR` names the directory.

mod common;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use common::burnside;
use tns_board::{Board, Game, KILLS_TO_WIN, Move, Side, TOTAL_SHEEP};
use tns_search::{Evaluator as _, Heuristic, Limits, Search, SearchConfig, SearchError};
use tns_tablebase::{Tablebase, TablebaseError, Wdl, WithTablebase};

fn table() -> &'static Arc<Tablebase> {
    let table = common::real_table();
    assert!(table.placement_from().is_some(), "no placement layer is built");
    table
}

/// The fewest sheep placed the built layers answer for.
fn from() -> u8 {
    table().placement_from().unwrap_or(TOTAL_SHEEP)
}

#[test]
#[ignore = "needs the built placement layers; CI builds the last ones"]
fn layers_count_every_class_once() {
    let stats = table().placement_stats();
    assert!(!stats.is_empty());
    for s in stats {
        let e = 21 - usize::from(s.placed - s.dead);
        assert_eq!(s.positions, burnside(e), "{s:?}");
        assert_eq!(s.positions, s.wins + s.draws + s.losses, "{s:?}");
    }
}

#[test]
#[ignore = "needs the built placement layers; CI builds the last ones"]
fn every_placement_value_agrees_with_its_moves() {
    table().verify_placement(|_| {}).unwrap();
}

/// A random walk from the start to `from()` placed (or more), without the kill that would end
/// the game.
fn random_start(seed: u64) -> Option<Game> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut game = Game::new();
    let target = from() + u8::try_from(seed % u64::from(TOTAL_SHEEP - from())).expect("under 20");
    while TOTAL_SHEEP - game.board().in_hand() < target {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let moves = game.legal_moves();
        let pick = usize::try_from(state % moves.len().max(1) as u64).expect("a move's index");
        let m = *moves.get(pick)?;
        game.play(m).ok()?;
        if game.outcome().is_some() {
            return None;
        }
    }
    Some(game)
}

/// The perfect player against the heuristic from a random position the layers cover: at every
/// move of the perfect side, the value for it never falls (a win stays a win, a draw never
/// becomes a loss). Returns the perfect side's value at the start.
fn play(perfect_side: Side, seed: u64) -> Option<Wdl> {
    let mut game = random_start(seed)?;
    let config = SearchConfig::default().with_tt_mb(4);
    let evaluator = WithTablebase::new(Heuristic::default(), Arc::clone(table())).unwrap();
    let mut perfect = Search::new(evaluator, config).unwrap();
    let mut heuristic = Search::new(Heuristic::default(), config).unwrap();
    let stop = AtomicBool::new(false);
    let value_for = |board: Board, side: Side| {
        let v = table().wdl(board).ok()?;
        Some(if board.side_to_move() == side { v } else { v.before() })
    };
    let start = value_for(game.board(), perfect_side);
    while game.outcome().is_none() && game.len() < 120 {
        let board = game.board();
        let m: Move = if board.side_to_move() == perfect_side {
            let before = value_for(board, perfect_side).expect("covered by the layers");
            let m = perfect
                .search(board, game.previous(), Limits::depth(3), &stop, |_| {})
                .unwrap()
                .best_move
                .unwrap();
            let child = board.after_unchecked(m);
            if child.dead() < KILLS_TO_WIN {
                let after = value_for(child, perfect_side).expect("covered by the layers");
                assert!(after >= before, "{board}: {before}, but {m} leads to {after}");
            }
            m
        } else {
            heuristic
                .search(board, game.previous(), Limits::depth(3), &stop, |_| {})
                .ok()?
                .best_move?
        };
        game.play(m).unwrap();
    }
    start
}

#[test]
#[ignore = "needs the built placement layers; CI builds the last ones"]
fn the_perfect_player_never_lets_a_placement_value_slip() {
    let mut decided = 0;
    let mut games = 0;
    for seed in 0..16 {
        for side in [Side::Sheep, Side::Tiger] {
            if let Some(v) = play(side, seed) {
                games += 1;
                decided += u32::from(v != Wdl::Draw);
            }
        }
    }
    assert!(games >= 20, "only {games} games started");
    // The check bites hardest where there is something to keep: some starts must be decided.
    assert!(decided >= 1, "no game started decided");
}

#[test]
#[ignore = "needs the built placement layers; CI builds the last ones"]
fn the_perfect_player_given_a_damaged_table_returns_the_error() {
    // A copy of the movement slices and layers 18 and 19, nearly every block of layer 19
    // damaged.
    let dir = std::env::temp_dir().join(format!("tns-damaged-real-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let names = (0..KILLS_TO_WIN)
        .map(|d| format!("k5-d{d}.tnstb"))
        .chain(["k5-p18.tnspl".into(), "k5-p19.tnspl".into()]);
    for name in names {
        std::fs::copy(common::real_dir().join(&name), dir.join(&name)).unwrap();
    }
    let path = dir.join("k5-p19.tnspl");
    let mut bytes = std::fs::read(&path).unwrap();
    // Past the header and its block table (a few KB): every block but the first few.
    for b in &mut bytes[16 * 1024..] {
        *b ^= 0x55;
    }
    std::fs::write(&path, &bytes).unwrap();
    let damaged = Arc::new(Tablebase::load(KILLS_TO_WIN, &dir).unwrap());
    let evaluator = WithTablebase::new(Heuristic::default(), Arc::clone(&damaged)).unwrap();
    let mut perfect = Search::new(evaluator, SearchConfig::default().with_tt_mb(4)).unwrap();
    let stop = AtomicBool::new(false);
    // Sheep to move with 18 placed: every placement leads into layer 19.
    let slots = damaged.slots(2, 0);
    let mut failed = 0;
    for slot in (0..slots).step_by((slots / 400) as usize) {
        let Some(board) = damaged.position_at(2, 0, Side::Sheep, slot) else { continue };
        match perfect.search(board, &[], Limits::depth(1), &stop, |_| {}) {
            Ok(_) => {}
            Err(e) => {
                let SearchError::Evaluator(eval) = &e else { panic!("{e}") };
                let inner = eval.inner().downcast_ref::<TablebaseError>();
                assert!(matches!(inner, Some(TablebaseError::Block { .. })), "{e}");
                assert!(e.to_string().contains("k5-p19.tnspl: block "), "{e}");
                failed += 1;
            }
        }
    }
    assert!(failed > 0, "no search met a damaged block");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Of a drawn position's moves, how many keep the draw (the safe replies), and how many there are.
fn safe_replies(board: Board) -> (usize, usize) {
    let replies = table().verdicts(board).unwrap();
    (replies.iter().filter(|(_, v)| v.wdl == Wdl::Draw).count(), replies.len())
}

#[test]
#[ignore = "needs the built placement layers; CI builds the last ones"]
fn setting_traps_keeps_the_draw_with_the_moves_that_leave_the_fewest_safe_replies() {
    let plain = WithTablebase::new(Heuristic::default(), Arc::clone(table())).unwrap();
    let traps = plain.clone().setting_traps();
    let (mut drawn, mut narrowed, mut in_movement) = (0, 0, 0);
    for seed in 0..24 {
        let Some(mut game) = random_start(seed) else { continue };
        // A random walk on from there, through the rest of the placement and into the movement.
        let mut state = seed | 1;
        while game.outcome().is_none() && game.len() < 100 {
            let board = game.board();
            if table().wdl(board).ok() == Some(Wdl::Draw) {
                drawn += 1;
                let drawing: Vec<Move> = table()
                    .verdicts(board)
                    .unwrap()
                    .into_iter()
                    .filter(|(_, v)| v.wdl == Wdl::Draw)
                    .map(|(m, _)| m)
                    .collect();
                let chosen = traps.root_moves(board).unwrap().expect("a drawn position's moves");
                let share = |m: Move| safe_replies(board.after_unchecked(m));
                // Shares as whole numbers: k1 / n1 against k2 / n2.
                let below = |(k1, n1): (usize, usize), (k2, n2): (usize, usize)| k1 * n2 < k2 * n1;
                let shares: Vec<_> = drawing.iter().map(|&m| share(m)).collect();
                let fewest = shares.iter().fold(shares[0], |f, &s| if below(s, f) { s } else { f });
                for (&m, &s) in drawing.iter().zip(&shares) {
                    assert_eq!(chosen.contains(&m), !below(fewest, s), "{board}: {m}");
                }
                assert!(chosen.iter().all(|m| drawing.contains(m)), "{board}");
                narrowed += usize::from(chosen.len() < drawing.len());
                in_movement += usize::from(board.in_hand() == 0);
                // The plain player narrows the placement to the drawing moves only.
                if board.in_hand() > 0 {
                    assert_eq!(plain.root_moves(board).unwrap().unwrap().len(), drawing.len());
                }
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let moves = game.legal_moves();
            let m = moves[usize::try_from(state % moves.len() as u64).unwrap()];
            game.play(m).unwrap();
        }
    }
    assert!(drawn >= 20 && in_movement >= 5, "{drawn} drawn, {in_movement} in the movement");
    // The check can fail: setting traps must choose among the drawing moves somewhere.
    assert!(narrowed >= 5, "narrowed in {narrowed} of {drawn}");
}

/// `table_on` takes the table's exact values where the search reaches the movement
/// phase, as the perfect player does, and leaves every move open at the root where the
/// perfect player keeps only those that hold the value.
#[test]
#[ignore = "needs the built placement layers; CI builds the last ones"]
fn table_on_gives_exact_values_and_leaves_the_root_whole() {
    let perfect = WithTablebase::new(Heuristic::default(), Arc::clone(table())).unwrap();
    let searching = perfect.clone().table_on();
    let (mut narrowed, mut exact) = (0, 0);
    for seed in 0..40 {
        let Some(game) = random_start(seed) else { continue };
        let board = game.board();
        let all = board.legal_moves().len();
        if let Some(kept) = perfect.root_moves(board).unwrap() {
            narrowed += usize::from(kept.len() < all);
        }
        assert!(searching.root_moves(board).unwrap().is_none(), "{board}: the root is narrowed");
        // Two plies on, the positions with every sheep placed are valued exactly, as the table
        // has them; those with sheep in hand are left to the heuristic.
        for m in board.legal_moves() {
            let child = board.after_unchecked(m);
            for n in child.legal_moves() {
                let grandchild = child.after_unchecked(n);
                if grandchild.dead() >= KILLS_TO_WIN {
                    continue;
                }
                let expected = table().value(grandchild).map(tns_tablebase::score_of);
                assert_eq!(searching.exact(grandchild), expected, "{grandchild}");
                assert_eq!(expected.is_some(), grandchild.in_hand() == 0, "{grandchild}");
                exact += usize::from(expected.is_some());
            }
        }
    }
    assert!(narrowed > 0, "no position where the perfect player narrows the root was tried");
    assert!(exact > 0, "no position of the movement phase was reached");
}
