//! The generator end to end on a small variant's table (one kill wins, the placement solved
//! from 18 sheep placed), built here in seconds: every puzzle checks against the table, the
//! file reads back, and the same seed makes the same file.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use tns_puzzles::{CheckError, Settings, Theme, check, generate, parse, write};
use tns_tablebase::Tablebase;

/// Cheap players, so that the test runs in seconds unoptimised; the real ladder is the same code.
const PLAYERS: [&str; 2] = ["heuristic:depth=1", "heuristic:depth=2"];
const LADDER: [&str; 4] = ["random", "heuristic:depth=1", "heuristic:depth=2", "network:depth=1"];

fn settings(count: usize, games: usize, seed: u64) -> Settings {
    Settings { count, games, seed, game_players: &PLAYERS, ladder: &LADDER, ..Settings::default() }
}

fn table() -> Arc<Tablebase> {
    static TABLE: OnceLock<Arc<Tablebase>> = OnceLock::new();
    Arc::clone(TABLE.get_or_init(build))
}

fn build() -> Arc<Tablebase> {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("tns-puzzles-generate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut table = Tablebase::build(1, Some(&dir), |_| {}).unwrap();
    table.build_placement(&dir, 18, &|_| {}).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    Arc::new(table)
}

#[test]
fn a_small_table_makes_checked_puzzles_the_same_from_the_same_seed() {
    let table = table();
    let settings = settings(40, 30, 5);
    let made = generate(&table, settings, &|_| {}).unwrap();
    assert!(
        !made.puzzles.is_empty(),
        "{} candidates from {} positions",
        made.candidates,
        made.positions
    );
    for puzzle in &made.puzzles {
        check(puzzle, &table).unwrap_or_else(|e| panic!("{puzzle}: {e:?}"));
        assert!(puzzle.solutions.len() <= settings.max_solutions);
        assert!(puzzle.has(Theme::Placement) != puzzle.has(Theme::Movement));
    }
    let text = write(&["a test".to_string()], &made.puzzles);
    assert_eq!(parse(&text).unwrap(), made.puzzles);
    let again = generate(&table, settings, &|_| {}).unwrap();
    assert_eq!(
        write(&["a test".to_string()], &again.puzzles),
        text,
        "the same seed, the same file"
    );
    // The ladder's ratings order its players from random upwards at the ends.
    let first = made.ladder.first().unwrap();
    let last = made.ladder.last().unwrap();
    assert!(first.rating < last.rating, "{:?}", made.ladder);
}

#[test]
fn a_wrong_answer_is_caught() {
    let table = table();
    let settings = settings(10, 30, 5);
    let made = generate(&table, settings, &|_| {}).unwrap();
    let mut puzzle = made.puzzles.first().cloned().expect("a puzzle");
    let wrong = puzzle
        .position
        .legal_moves()
        .iter()
        .copied()
        .find(|m| !puzzle.solutions.contains(m))
        .expect("some move drops the value");
    puzzle.solutions.push(wrong);
    assert!(matches!(check(&puzzle, &table), Err(CheckError::Solutions { step: 0, .. })));
    puzzle.solutions.pop();
    puzzle.solutions.pop();
    puzzle.solutions.push(wrong);
    assert!(check(&puzzle, &table).is_err());
}
