//! The placement layers, on the 1- and 2-kill variants and near the end of the placement, built
//! here in seconds: verification, agreement with an exhaustive minimax down to the movement
//! table, symmetry, counts by Burnside's lemma, files, resuming and damage.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use common::burnside;
use proptest::prelude::*;
use tns_board::{Board, Move, Side, Symmetry, TOTAL_SHEEP};
use tns_file::FileError;
use tns_tablebase::{PlacementEvent, Tablebase, TablebaseError, Verdict, Wdl};

/// A fresh directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tns-placement-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The movement table and the placement layers from `from` placed, built into `dir`.
fn build(kills: u8, from: u8, dir: &Path) -> Tablebase {
    let mut table = Tablebase::build(kills, Some(dir), |_| {}).unwrap();
    table.build_placement(dir, from, &|_| {}).unwrap();
    table
}

/// The value for the side to move by plain minimax over the rules, down to the movement table.
fn minimax(table: &Tablebase, board: Board) -> Wdl {
    if board.dead() >= table.kills() {
        return Wdl::Loss;
    }
    if board.in_hand() == 0 {
        return table.value(board).expect("the movement table holds it").wdl();
    }
    board
        .legal_moves()
        .iter()
        .map(|&m| minimax(table, board.after_unchecked(m)).before())
        .max()
        .unwrap_or(Wdl::Loss)
}

/// A position reached by random moves from the start, with at least `from` sheep placed and
/// some still in hand, or `None` when the game ended first. The tigers never make the kill
/// that would end the game, so the walk reaches the late placement layers.
fn random_position(seed: u64, from: u8, kills: u8) -> Option<Board> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut board = Board::START;
    let target = from + u8::try_from(seed % u64::from(TOTAL_SHEEP - from)).expect("under 20");
    let mut step = |board: Board| {
        let moves: Vec<Move> = board
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| board.after_unchecked(m).dead() < kills)
            .collect();
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let pick = usize::try_from(state % moves.len().max(1) as u64).expect("a move's index");
        (!moves.is_empty()).then(|| moves[pick])
    };
    while TOTAL_SHEEP - board.in_hand() < target {
        board = board.after_unchecked(step(board)?);
    }
    // Half the time, the tigers to move.
    if seed % 2 == 1 && board.side_to_move() == Side::Sheep {
        board = board.after_unchecked(step(board)?);
    }
    (board.in_hand() > 0).then_some(board)
}

fn check_against_minimax(table: &Tablebase, from: u8, samples: u64) -> usize {
    let mut checked = 0;
    for seed in 0..samples {
        let Some(board) = random_position(seed, from, table.kills()) else { continue };
        assert_eq!(table.wdl(board).unwrap(), minimax(table, board), "{board}");
        checked += 1;
    }
    checked
}

#[test]
fn one_kill_layers_verify_agree_with_minimax_and_count_every_class_once() {
    let dir = temp_dir("one");
    let table = build(1, 17, &dir);
    assert_eq!(table.placement_from(), Some(17));
    assert!(!table.solves_whole_game());
    table.verify_placement(|_| {}).unwrap();
    assert!(check_against_minimax(&table, 17, 120) > 60);
    let stats = table.placement_stats();
    // Layers 19, 18, 17; one dead count; both sides.
    assert_eq!(stats.len(), 6);
    for s in stats {
        let e = 21 - usize::from(s.placed - s.dead);
        assert_eq!(s.positions, burnside(e), "{s:?}");
        assert_eq!(s.positions, s.wins + s.draws + s.losses);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn two_kill_layers_verify_and_agree_with_minimax() {
    let dir = temp_dir("two");
    let table = build(2, 18, &dir);
    table.verify_placement(|_| {}).unwrap();
    // A part at a time: the layer below 19 against the stored layer 19.
    let mut seen = Vec::new();
    table.verify_placement_layers(18..=18, |p| seen.push(p)).unwrap();
    assert_eq!(seen, [18]);
    assert!(matches!(
        table.verify_placement_layers(17..=17, |_| {}),
        Err(TablebaseError::NoLayer(17))
    ));
    assert!(check_against_minimax(&table, 18, 120) > 60);
    for s in table.placement_stats() {
        let e = 21 - usize::from(s.placed - s.dead);
        assert_eq!(s.positions, burnside(e), "{s:?}");
    }
    // Positions below the built layers are not held.
    let early: Board = "T3T/5/2S2/5/T3T t 19".parse().unwrap();
    assert!(matches!(table.wdl(early), Err(TablebaseError::NoLayer(1))));
    assert!(matches!(
        table.placement_examples(17, 0, Side::Sheep, Wdl::Win, 1),
        Err(TablebaseError::NoLayer(17))
    ));
    // Examples are what they claim to be.
    for (side, wdl) in [(Side::Sheep, Wdl::Win), (Side::Tiger, Wdl::Loss), (Side::Tiger, Wdl::Draw)]
    {
        let found = table.placement_examples(18, 1, side, wdl, 3).unwrap();
        assert!(!found.is_empty(), "{side:?} {wdl}");
        for board in found {
            assert_eq!((board.in_hand(), board.dead(), board.side_to_move()), (2, 1, side));
            assert_eq!(table.wdl(board).unwrap(), wdl);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The 2-kill table from 18 placed, built once for the property tests.
fn shared_two() -> &'static Tablebase {
    static TABLE: std::sync::OnceLock<Tablebase> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| build(2, 18, &temp_dir("shared-two")))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn symmetric_positions_share_a_value(seed in 0u64..10_000, sym in 0u8..8) {
        let table = shared_two();
        if let Some(board) = random_position(seed, 18, 2) {
            let image = board.transformed(Symmetry::new(sym).unwrap());
            prop_assert_eq!(table.wdl(board).unwrap(), table.wdl(image).unwrap());
        }
    }

    #[test]
    fn the_best_move_keeps_the_value(seed in 0u64..10_000) {
        let table = shared_two();
        if let Some(board) = random_position(seed, 18, 2) {
            let value = table.wdl(board).unwrap();
            let verdicts = table.verdicts(board).unwrap();
            prop_assert_eq!(verdicts.len(), board.legal_moves().len());
            // Tigers with no move have lost.
            prop_assert_eq!(verdicts.first().map_or(Wdl::Loss, |v| v.1.wdl), value);
            prop_assert!(verdicts.windows(2).all(|w| w[0].1 >= w[1].1));
            prop_assert!(verdicts.iter().all(|(_, v)| v.wdl <= value));
        }
    }
}

#[test]
fn a_stopped_build_resumes_at_its_layer() {
    let dir = temp_dir("resume");
    let mut table = Tablebase::build(1, Some(&dir), |_| {}).unwrap();
    table.build_placement(&dir, 19, &|_| {}).unwrap();
    let first = std::fs::read(dir.join("k1-p19.tnspl")).unwrap();
    // A build killed while saving layer 18 leaves only its temporary file: the next build
    // removes it and builds the layer again.
    let leftover = dir.join("k1-p18.tnspl.tmp4000000000");
    std::fs::write(&leftover, &first[..first.len() / 2]).unwrap();
    let events = Mutex::new(Vec::new());
    let record = |e: PlacementEvent| {
        if !matches!(e, PlacementEvent::Progress { .. }) {
            events.lock().unwrap().push(e);
        }
    };
    table.build_placement(&dir, 18, &record).unwrap();
    let events = events.into_inner().unwrap();
    assert_eq!(events[0], PlacementEvent::Found { placed: 19 });
    assert_eq!(events[1], PlacementEvent::Started { placed: 18, work: events_work(&events) });
    assert!(matches!(events[2], PlacementEvent::Finished { placed: 18, .. }));
    assert_eq!(events.len(), 3);
    assert!(!leftover.exists());
    // The finished layer was not rebuilt, and a rebuild from scratch gives the same bytes.
    assert_eq!(std::fs::read(dir.join("k1-p19.tnspl")).unwrap(), first);
    let again = temp_dir("resume-again");
    build(1, 18, &again);
    for placed in [18, 19] {
        let name = format!("k1-p{placed}.tnspl");
        assert_eq!(
            std::fs::read(dir.join(&name)).unwrap(),
            std::fs::read(again.join(&name)).unwrap()
        );
    }
    assert!(matches!(table.build_placement(&dir, 20, &|_| {}), Err(TablebaseError::Placed(20))));
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&again).unwrap();
}

fn events_work(events: &[PlacementEvent]) -> u64 {
    match events[1] {
        PlacementEvent::Started { work, .. } => work,
        _ => 0,
    }
}

#[test]
fn every_kind_of_damage_has_its_own_error() {
    let dir = temp_dir("damage");
    build(1, 19, &dir);
    let path = dir.join("k1-p19.tnspl");
    let good = std::fs::read(&path).unwrap();
    let load = || Tablebase::load(1, &dir);
    let with = |bytes: &[u8]| {
        std::fs::write(&path, bytes).unwrap();
        load()
    };
    assert!(matches!(
        with(&good[..good.len() - 1]),
        Err(TablebaseError::File { source: FileError::Length { .. }, .. })
    ));
    assert!(matches!(
        with(b"some other file"),
        Err(TablebaseError::File { source: FileError::Foreign(_), .. })
    ));
    let mut version = good.clone();
    version[8] = 9;
    assert!(matches!(
        with(&version),
        Err(TablebaseError::File { source: FileError::Version { found: 9, .. }, .. })
    ));
    let mut placed = good.clone();
    placed[13] = 18;
    assert!(matches!(
        with(&placed),
        Err(TablebaseError::File { source: FileError::Contents { .. }, .. })
    ));
    // A flipped bit in a block passes the header checks; the first probe that reads the block,
    // and verification, find it, naming the file and the block.
    let mut flipped = good.clone();
    let at = good.len() - 100;
    flipped[at] ^= 1;
    let table = with(&flipped).unwrap();
    let e = table.verify_placement(|_| {}).unwrap_err();
    assert!(matches!(e, TablebaseError::Block { .. }), "{e}");
    assert!(e.to_string().contains("k1-p19.tnspl: block "), "{e}");
    let damaged = (0..table.slots(1, 0))
        .filter_map(|i| table.position_at(1, 0, Side::Tiger, i))
        .map(|b| table.wdl(b))
        .find(Result::is_err)
        .expect("some position's block is the damaged one");
    assert!(matches!(damaged, Err(TablebaseError::Block { .. })), "{damaged:?}");
    assert!(matches!(Tablebase::check_files(1, &dir, |_| {}), Err(TablebaseError::Block { .. })));
    // A build finds the damaged layer and builds it again, to the same bytes.
    let mut table = Tablebase::build(1, Some(&dir), |_| {}).unwrap();
    let events = std::sync::Mutex::new(Vec::new());
    table.build_placement(&dir, 19, &|e| events.lock().unwrap().push(e)).unwrap();
    let events = events.into_inner().unwrap();
    assert!(matches!(events[0], PlacementEvent::Damaged { placed: 19, .. }), "{events:?}");
    assert_eq!(std::fs::read(&path).unwrap(), good);
    // A layer of a newer format is not ours to replace: a build refuses to build on it.
    assert!(matches!(
        with(&version),
        Err(TablebaseError::File { source: FileError::Version { .. }, .. })
    ));
    let mut table = Tablebase::build(1, None, |_| {}).unwrap();
    assert!(matches!(
        table.build_placement(&dir, 18, &|_| {}),
        Err(TablebaseError::File { source: FileError::Version { .. }, .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sampled_verification_passes_and_catches_wrong_values() {
    let dir = temp_dir("sample");
    let table = build(2, 18, &dir);
    assert_eq!(table.verify_placement_sample(500, 7).unwrap(), 1000);
    // Bytes of layer 18 overwritten: the blocks' checksums say so before any value is used.
    let path = dir.join("k2-p18.tnspl");
    let mut bytes = std::fs::read(&path).unwrap();
    let len = bytes.len();
    for b in &mut bytes[len / 2..] {
        *b = 242;
    }
    std::fs::write(&path, &bytes).unwrap();
    let damaged = Tablebase::load(2, &dir).unwrap();
    assert!(matches!(damaged.verify_placement_sample(5000, 7), Err(TablebaseError::Block { .. })));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verdicts_read_like_the_rules() {
    let dir = temp_dir("verdicts");
    let table = build(1, 19, &dir);
    // One sheep in hand, tigers to move with a jump: the tigers win the one-kill game.
    let board: Board = "TS1ST/SSSSS/SSSSS/SSSSS/T1SST t 1".parse().unwrap();
    assert_eq!(table.wdl(board).unwrap(), Wdl::Win);
    let verdicts = table.verdicts(board).unwrap();
    assert!(verdicts[0].0.is_jump());
    assert_eq!(verdicts[0].1, Verdict::from(tns_tablebase::Value::Win(1)));
    // The sheep to place its last sheep: its moves lead into the movement table, which knows
    // the distance.
    let sheep: Board = "T1SST/SSSSS/SSSSS/SSSSS/TSS1T s 1".parse().unwrap();
    for (m, v) in table.verdicts(sheep).unwrap() {
        assert!(matches!(m, Move::Place(_)));
        assert!(v.value.is_some(), "{m}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn reach_counts_each_ply_by_value_as_a_walk_by_hand_does() {
    let table = shared_two();
    let mut checked = 0;
    for seed in 0..40 {
        let Some(from) = random_position(seed, 18, table.kills()) else { continue };
        let mut plies = Vec::new();
        table.reach(from, 2, |p| plies.push(p)).unwrap();
        assert_eq!(plies.iter().map(|p| p.ply).collect::<Vec<_>>(), [1, 2]);
        // Ply 1: played from the position itself, counted under its value.
        let first = plies[0];
        assert_eq!(first.positions, 1);
        let value = table.wdl(from).unwrap();
        let counts = [first.losses, first.draws, first.wins];
        assert_eq!(counts[value as usize], 1, "{from}: {first:?}");
        assert_eq!(counts.iter().sum::<u64>(), 1);
        let moves = from.legal_moves();
        if value == Wdl::Draw {
            assert_eq!(first.moves_from_draws, moves.len() as u64);
            let losing = moves
                .iter()
                .filter(|&&m| {
                    let child = from.after_unchecked(m);
                    child.dead() >= table.kills() || table.wdl(child).unwrap() == Wdl::Win
                })
                .count();
            assert_eq!(first.losing_moves_from_draws, losing as u64, "{from}");
        } else {
            assert_eq!((first.moves_from_draws, first.losing_moves_from_draws), (0, 0));
        }
        // Ply 2: played from the children the game goes on from, each set of symmetric ones once.
        let children: std::collections::HashSet<Board> = moves
            .iter()
            .map(|&m| from.after_unchecked(m))
            .filter(|c| c.dead() < table.kills())
            .map(|c| c.canonical().0)
            .collect();
        assert_eq!(plies[1].positions, children.len() as u64);
        for p in &plies {
            assert_eq!(p.positions, p.wins + p.draws + p.losses, "{p:?}");
            assert!(p.losing_moves_from_draws <= p.moves_from_draws);
        }
        checked += 1;
    }
    assert!(checked > 20, "only {checked} positions");
}
