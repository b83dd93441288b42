//! The shipped set against the real table: every answer is exactly the moves that keep the
//! value, and some legal move drops it. Ignored in the normal suite: it needs the table CI
//! builds (`TNS_TABLEBASE_DIR`, the movement phase and the last placement layers); puzzles from
//! layers it does not hold are counted, not checked.

use tns_puzzles::{CheckError, check, shipped};
use tns_tablebase::{Tablebase, TablebaseError};

#[test]
#[ignore = "needs the tablebase: TNS_TABLEBASE_DIR"]
fn every_shipped_puzzle_the_table_holds_checks() {
    let dir = std::env::var_os("TNS_TABLEBASE_DIR").expect("TNS_TABLEBASE_DIR names the table");
    let table = Tablebase::load(5, std::path::Path::new(&dir)).unwrap();
    let puzzles = shipped().unwrap();
    let mut checked = 0;
    for puzzle in &puzzles {
        match check(puzzle, &table) {
            Ok(()) => checked += 1,
            Err(CheckError::Table(TablebaseError::NoLayer(_))) => {}
            Err(e) => panic!("{puzzle}: {e:?}"),
        }
    }
    // The movement phase alone holds about half the set.
    assert!(checked >= puzzles.len() / 3, "{checked} of {} checked", puzzles.len());
}
