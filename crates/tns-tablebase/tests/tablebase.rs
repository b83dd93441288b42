//! Tablebase tests on the 1- and 2-kill variants, built here: verification, agreement with an
//! exhaustive search, symmetry, the position count by Burnside's lemma, files and resuming.

use std::sync::OnceLock;

mod common;

use common::burnside;

use proptest::prelude::*;
use proptest::strategy::ValueTree as _;
use tns_board::{Bitboard, Board, Side, Symmetry};
use tns_file::FileError;
use tns_tablebase::{BuildEvent, Tablebase, TablebaseError, Value};

fn table(kills: u8) -> &'static Tablebase {
    static ONE: OnceLock<Tablebase> = OnceLock::new();
    static TWO: OnceLock<Tablebase> = OnceLock::new();
    let cell = if kills == 1 { &ONE } else { &TWO };
    cell.get_or_init(|| Tablebase::build(kills, None, |_| {}).unwrap())
}

#[test]
fn burnside_gives_the_published_count() {
    let per_side: u64 = (1..=5).map(burnside).sum();
    assert_eq!(2 * per_side, 88_260_972);
}

#[test]
fn small_tables_verify_and_count_every_class_once() {
    for kills in [1u8, 2] {
        let t = table(kills);
        t.verify().unwrap();
        for s in t.stats() {
            assert_eq!(s.positions, burnside(usize::from(s.dead) + 1), "{s:?}");
            assert_eq!(s.positions, s.wins + s.draws + s.losses);
        }
    }
}

#[test]
fn one_kill_variant_facts() {
    let t = table(1);
    // A tiger to move with a jump wins at once.
    let jump: Board = "TS1ST/SSSSS/SSSSS/SSSSS/TSSST t 0".parse().unwrap();
    assert!(jump.legal_moves().iter().any(|m| m.is_jump()));
    assert_eq!(t.value(jump), Some(Value::Win(1)));
    // Positions with sheep in hand are not in the table.
    assert_eq!(t.value(Board::START), None);
    let (m, v) = t.best_move(jump).unwrap();
    assert!(m.is_jump());
    assert_eq!(v, Value::Win(1));
}

/// Exhaustive search to `depth` plies under the `kills`-kill rules: the value when it is decided
/// within the horizon, `None` otherwise. Repetitions are ignored: a forced win never repeats a
/// position, since its distance falls at every ply.
fn solve(board: Board, depth: u32, kills: u8) -> Option<Value> {
    if board.dead() >= kills {
        return Some(Value::Loss(0));
    }
    let moves = board.legal_moves();
    if moves.is_empty() {
        return Some(Value::Loss(0));
    }
    if depth == 0 {
        return None;
    }
    let mut best_win: Option<u16> = None;
    let mut longest_loss = Some(0u16);
    for &m in &moves {
        match solve(board.after_unchecked(m), depth - 1, kills).map(Value::before) {
            Some(Value::Win(n)) => best_win = Some(best_win.map_or(n, |b| b.min(n))),
            Some(Value::Loss(n)) => longest_loss = longest_loss.map(|l| l.max(n)),
            _ => longest_loss = None,
        }
    }
    match (best_win, longest_loss) {
        (Some(n), _) => Some(Value::Win(n)),
        (None, Some(n)) => Some(Value::Loss(n)),
        (None, None) => None,
    }
}

/// A random position with no sheep in hand: 4 tigers, `20 - dead` sheep.
fn random_position() -> impl Strategy<Value = Board> {
    (prop::collection::vec(any::<u32>(), 25), 0u8..2, any::<bool>()).prop_map(
        |(keys, dead, tiger)| {
            // The points in the order of their random keys.
            let mut points: Vec<u32> = (0..25).collect();
            points.sort_by_key(|&p| (keys[p as usize], p));
            let tigers = points[..4].iter().fold(0, |m, &p| m | 1 << p);
            let sheep = points[4..24 - usize::from(dead)].iter().fold(0, |m, &p| m | 1 << p);
            let side = if tiger { Side::Tiger } else { Side::Sheep };
            Board::from_parts(
                Bitboard::from_bits_truncate(tigers),
                Bitboard::from_bits_truncate(sheep),
                0,
                side,
            )
            .unwrap()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn values_agree_with_exhaustive_search(board in random_position()) {
        const DEPTH: u32 = 4;
        let t = table(2);
        let stored = t.value(board).unwrap();
        let searched = solve(board, DEPTH, 2);
        match stored {
            Value::Win(n) | Value::Loss(n) if u32::from(n) <= DEPTH => {
                prop_assert_eq!(searched, Some(stored), "{}", board);
            }
            _ => prop_assert_eq!(searched, None, "{} is {}", board, stored),
        }
    }

    #[test]
    fn symmetric_positions_have_the_same_value(board in random_position()) {
        let t = table(2);
        let v = t.value(board);
        prop_assert!(v.is_some());
        for s in Symmetry::ALL {
            prop_assert_eq!(t.value(board.transformed(s)), v, "{}", s);
        }
    }

    #[test]
    fn best_move_realises_the_value(board in random_position()) {
        let t = table(2);
        let v = t.value(board).unwrap();
        match t.best_move(board) {
            None => prop_assert_eq!(v, Value::Loss(0)),
            Some((m, after)) => {
                prop_assert!(board.check_move(m).is_ok());
                prop_assert_eq!(after, v);
            }
        }
    }
}

#[test]
fn files_resume_and_reject_damage() {
    let dir = std::env::temp_dir().join(format!("tns-tb-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let built = Tablebase::build(2, Some(&dir), |_| {}).unwrap();
    let loaded = Tablebase::load(2, &dir).unwrap();
    assert_eq!(built.stats(), loaded.stats());
    // The files of the 2-kill table, and only they, whatever else is in the folder.
    std::fs::write(dir.join("k3-d0.tnstb"), b"another variant's").unwrap();
    let files = Tablebase::files(2, &dir).unwrap();
    assert_eq!(files.len(), 2, "{files:?}");
    assert!(files.iter().all(|f| matches!(f.part, tns_tablebase::TablePart::Slice { .. })));
    let bytes: u64 = files.iter().map(|f| f.bytes).sum();
    let on_disk: u64 = ["k2-d0.tnstb", "k2-d1.tnstb"]
        .iter()
        .map(|n| std::fs::metadata(dir.join(n)).unwrap().len())
        .sum();
    assert_eq!(bytes, on_disk);
    std::fs::remove_file(dir.join("k3-d0.tnstb")).unwrap();
    // A variant's table is no perfect player's: the error says so, not "between 1 and 5".
    let variant =
        tns_tablebase::WithTablebase::new(tns_search::Heuristic::default(), loaded.into());
    let why = variant.unwrap_err();
    assert!(matches!(why, TablebaseError::Variant(2)), "{why}");
    assert!(why.to_string().contains("2-kill variant, not the real game"), "{why}");

    // A build stopped after the first slice resumes with the second.
    std::fs::remove_file(dir.join("k2-d0.tnstb")).unwrap();
    assert!(matches!(
        Tablebase::load(2, &dir),
        Err(TablebaseError::File { source: FileError::Missing, .. })
    ));
    let mut events = Vec::new();
    Tablebase::build(2, Some(&dir), |e| events.push(e)).unwrap();
    assert_eq!(events[0], BuildEvent::Loaded { dead: 1 });
    assert!(matches!(events[1], BuildEvent::Started { dead: 0, .. }));
    assert_eq!(Tablebase::load(2, &dir).unwrap().stats(), built.stats());

    // Damage is reported, never a panic.
    let path = dir.join("k2-d1.tnstb");
    let bytes = std::fs::read(&path).unwrap();
    for len in [0, 7, 30, bytes.len() / 2, bytes.len() - 1] {
        std::fs::write(&path, &bytes[..len]).unwrap();
        assert!(Tablebase::load(2, &dir).is_err(), "{len}");
    }
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 3] ^= 4;
    std::fs::write(&path, &flipped).unwrap();
    let e = Tablebase::load(2, &dir).unwrap_err();
    assert!(matches!(e, TablebaseError::Block { .. }), "{e}");
    assert!(e.to_string().contains("k2-d1.tnstb: block "), "{e}");
    // A build finds the damaged slice and builds it again, to the same bytes.
    let mut events = Vec::new();
    Tablebase::build(2, Some(&dir), |e| events.push(e)).unwrap();
    assert_eq!(events[0], BuildEvent::Damaged { dead: 1 });
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    let mut header = bytes.clone();
    header[20] ^= 1;
    std::fs::write(&path, &header).unwrap();
    assert!(matches!(
        Tablebase::load(2, &dir),
        Err(TablebaseError::File { source: FileError::Contents { .. }, .. })
    ));
    std::fs::write(&path, b"not a table").unwrap();
    assert!(matches!(
        Tablebase::load(2, &dir),
        Err(TablebaseError::File { source: FileError::Foreign(_), .. })
    ));
    assert!(matches!(
        Tablebase::load(1, &dir),
        Err(TablebaseError::File { source: FileError::Missing, .. })
    ));
    assert!(matches!(Tablebase::build(6, None, |_| {}), Err(TablebaseError::Kills(6))));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_table_of_the_first_slices_holds_those_alone() {
    let dir = std::env::temp_dir().join(format!("tns-tb-first-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let whole = Tablebase::build(2, Some(&dir), |_| {}).unwrap();
    let d0 = std::fs::read(dir.join("k2-d0.tnstb")).unwrap();
    let d1 = std::fs::read(dir.join("k2-d1.tnstb")).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();

    let first = Tablebase::from_slice_bytes(2, &[&d0]).unwrap();
    assert!(!first.holds_whole_movement() && whole.holds_whole_movement());
    let both = Tablebase::from_slice_bytes(2, &[&d0, &d1]).unwrap();
    assert!(both.holds_whole_movement());
    assert_eq!(both.stats(), whole.stats());
    // Only the slice given is held, with the whole table's values.
    assert_eq!(first.stats(), whole.stats()[2..]);
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for _ in 0..200 {
        let board = random_position().new_tree(&mut runner).unwrap().current();
        let expected = if board.dead() == 0 { whole.value(board) } else { None };
        assert_eq!(first.value(board), expected, "{board}");
    }
    // Its values are checked where they can be: a kill leads out of it.
    first.verify().unwrap();

    // More slices than the game has, a damaged block, another slice's bytes: each its error.
    let three = Tablebase::from_slice_bytes(2, &[&d0, &d1, &d1]).unwrap_err();
    assert!(matches!(three, TablebaseError::Slices { given: 3, kills: 2 }), "{three}");
    assert!(three.to_string().contains("3 movement slices given"), "{three}");
    let mut damaged = d0.clone();
    let at = damaged.len() - 100;
    damaged[at] ^= 1;
    let why = Tablebase::from_slice_bytes(2, &[&damaged]).unwrap_err().to_string();
    assert!(why.contains("(bytes)/k2-d0.tnstb"), "{why}");
    let why = Tablebase::from_slice_bytes(2, &[&d1]).unwrap_err().to_string();
    assert!(why.contains("k2-d0.tnstb") && why.contains("1 dead"), "{why}");
    assert!(matches!(Tablebase::from_slice_bytes(6, &[]), Err(TablebaseError::Kills(6))));
}
