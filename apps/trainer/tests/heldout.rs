//! `tns-heldout`: bad players and tables are clear errors; on the real table (as far as it is
//! built: CI builds the last placement layers) it measures the held-out set the trainer builds
//! from the same seed, and its figures are the library's for that set.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::Arc;

use tns_board::{KILLS_TO_WIN, Move};
use tns_nn::{Network, NeuralEvaluator};
use tns_search::{Heuristic, Limits};
use tns_tablebase::Tablebase;
use tns_trainer::held_out_seed;
use tns_trainer::measures::{Validation, figures, search_choices, search_move_accuracy};
use tns_trainer::teacher::Teacher;

fn heldout(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tns-heldout")).args(args).output().expect("it runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn shipped() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../weights/latest.bin")
}

#[test]
fn players_that_cannot_be_measured_are_refused_before_the_table_is_read() {
    for player in ["random", "perfect"] {
        let out = heldout(&["--teacher", "/nonexistent", player]);
        assert_eq!(out.status.code(), Some(1), "{player}");
        assert!(stderr(&out).contains("not a searching player without the table"), "{player}");
    }
    // The perfect player's own reason comes along.
    let out = heldout(&["--teacher", "/nonexistent", "perfect"]);
    assert!(stderr(&out).contains("tablebase"), "{}", stderr(&out));
    // A player's own limits would be ignored: they are refused instead.
    for player in ["heuristic:time=0.2", "heuristic:depth=6", "network:threads=2", "network:tt=8"] {
        let out = heldout(&["--teacher", "/nonexistent", player]);
        assert_eq!(out.status.code(), Some(1), "{player}");
        assert!(stderr(&out).contains("sets its own limits"), "{player}: {}", stderr(&out));
    }
    let out = heldout(&["--teacher", "/nonexistent", "/nonexistent.bin"]);
    assert_eq!(out.status.code(), Some(2), "a missing weights file is a bad argument");
    assert!(stderr(&out).contains("/nonexistent.bin"), "{}", stderr(&out));
    let out = heldout(&["--teacher", "/nonexistent"]);
    assert_eq!(out.status.code(), Some(2), "no player");
    // Limits out of range are bad arguments, named.
    for (flag, value) in [("--depth", "0"), ("--depth", "121"), ("--time", "0"), ("--time", "nan")]
    {
        let out = heldout(&["--teacher", "/nonexistent", flag, value, "heuristic"]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        assert!(stderr(&out).contains(flag), "{flag} {value}: {}", stderr(&out));
    }
}

#[test]
fn a_missing_or_foreign_table_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("tns-heldout-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for teacher in [dir.to_str().unwrap(), "/nonexistent"] {
        let out = heldout(&["--teacher", teacher, "heuristic"]);
        assert_eq!(out.status.code(), Some(1), "{teacher}");
        assert!(stderr(&out).contains("the table in"), "{teacher}: {}", stderr(&out));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The first number after `after` on the line of `stdout` that begins with `line_start`.
fn figure(stdout: &str, line_start: &str, after: &str) -> f64 {
    let line = stdout.lines().find(|l| l.starts_with(line_start)).unwrap_or_else(|| {
        panic!("no line starting {line_start:?} in:\n{stdout}");
    });
    let rest =
        &line[line.find(after).unwrap_or_else(|| panic!("{after:?} in {line}")) + after.len()..];
    let number: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    number.parse().unwrap_or_else(|_| panic!("a number after {after:?} in {line}"))
}

/// The real table's folder: `TNS_TABLEBASE_DIR`, else `tablebase` at the top.
fn real_table() -> PathBuf {
    std::env::var_os("TNS_TABLEBASE_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tablebase"),
        PathBuf::from,
    )
}

#[test]
#[ignore = "needs the real table's last placement layers; CI builds them"]
fn on_the_real_table_it_measures_the_trainers_held_out_set() {
    let dir = real_table();
    let weights = shipped();
    let args = ["--validation-games", "30", "--positions", "40", "--seed", "7"];
    let out = heldout(
        &[
            &["--teacher", dir.to_str().unwrap()],
            &args[..],
            &[weights.to_str().unwrap(), "heuristic"],
        ]
        .concat(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8(out.stdout).unwrap();

    // The library's figures on the set the trainer builds from seed 7 (epsilon 0.05, 300 plies).
    let table = Tablebase::load(KILLS_TO_WIN, &dir).unwrap();
    let teacher = Teacher::new(Arc::new(table));
    let validation = Validation::build(&teacher, 30, 0.05, 300, held_out_seed(7));
    let critical = validation.critical().count();
    assert!(critical > 0, "the built layers hold critical positions of 30 games");
    let set = format!("held-out set: {} positions ({critical} critical)", validation.held.len());
    assert!(stdout.contains(&set), "{set} in:\n{stdout}");

    let net = Network::load(&weights).unwrap();
    let f = figures(&net, &teacher, &validation);
    let name = weights.display().to_string();
    let moves = figure(&stdout, &format!("{name}: validation"), "one-ply moves ");
    assert!((moves - 100.0 * f.moves).abs() < 0.051, "{moves} against {}", f.moves);
    let loss = figure(&stdout, &format!("{name}: validation"), "loss ");
    assert!((loss - f.loss).abs() < 0.000_051, "{loss} against {}", f.loss);

    // At depth 4 the search is deterministic: the same share, to the printed digit.
    let evaluator = NeuralEvaluator::new(net);
    let k = search_move_accuracy(&evaluator, &validation, &Limits::depth(4), 40);
    let share = figure(&stdout, &format!("{name}: search at depth 4"), "value in ");
    assert!((share - 100.0 * k.share()).abs() < 0.051, "{share} against {}", k.share());
    assert!(stdout.contains(&format!("of {} critical positions", critical.min(40))), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("hard: search at 0.05 s a move")), "{stdout}");

    // Without --positions every critical position is judged, not only the first.
    let out = heldout(&[
        "--teacher",
        dir.to_str().unwrap(),
        "--validation-games",
        "30",
        "--seed",
        "7",
        "heuristic",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains(&format!("of {critical} critical positions")), "{stdout}");

    // Other limits: the fixed depth is the one asked for, with the library's share for it.
    let out = heldout(&[
        "--teacher",
        dir.to_str().unwrap(),
        "--validation-games",
        "30",
        "--positions",
        "40",
        "--seed",
        "7",
        "--depth",
        "2",
        "--time",
        "0.01",
        "heuristic",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let k = search_move_accuracy(&Heuristic::default(), &validation, &Limits::depth(2), 40);
    let share = figure(&stdout, "hard: search at depth 2", "value in ");
    assert!((share - 100.0 * k.share()).abs() < 0.051, "{share} against {}", k.share());
    assert!(stdout.lines().any(|l| l.starts_with("hard: search at 0.01 s a move")), "{stdout}");
}

#[test]
#[ignore = "needs the real table's last placement layers; CI builds them"]
fn on_the_real_table_it_lists_what_the_search_missed() {
    let dir = real_table();
    let table = Tablebase::load(KILLS_TO_WIN, &dir).unwrap();
    let validation =
        Validation::build(&Teacher::new(Arc::new(table)), 30, 0.05, 300, held_out_seed(7));

    // --misses lists, after each share, the positions missed: at depth 2 exactly the library's,
    // each with a move played that drops the value and the moves that keep it.
    let out = heldout(&[
        "--teacher",
        dir.to_str().unwrap(),
        "--validation-games",
        "30",
        "--positions",
        "40",
        "--seed",
        "7",
        "--depth",
        "2",
        "--misses",
        "heuristic",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let listed: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("hard: search at depth 2"))
        .skip(1)
        .take_while(|l| l.starts_with("  missed "))
        .collect();
    let choices = search_choices(&Heuristic::default(), &validation, &Limits::depth(2), 40);
    let missed: Vec<_> = choices.iter().filter(|c| !c.kept()).collect();
    assert!(!missed.is_empty(), "the heuristic at depth 2 misses some of 40: {stdout}");
    assert_eq!(listed.len(), missed.len(), "{stdout}");
    for (line, c) in listed.iter().zip(&missed) {
        let played = c.chosen.unwrap();
        assert!(line.contains(&format!("{} ({})", c.held.board, c.held.value)), "{line}");
        assert!(line.contains(&format!("played {played} at depth 2; keeps ")), "{line}");
        let keeps = &line[line.find("; keeps ").unwrap() + "; keeps ".len()..];
        let keeps: Vec<Move> = keeps.split(' ').map(|m| m.parse().unwrap()).collect();
        assert!(!keeps.is_empty() && keeps.iter().all(|&m| c.held.keeps(m)), "{line}");
        assert!(!keeps.contains(&played) && !c.held.keeps(played), "{line}");
    }
}

/// The real table with every so many bytes of its last placement layer's blocks flipped, in a
/// folder of its own (the other files linked).
fn damaged_table(name: &str) -> PathBuf {
    let real = real_table();
    let dir = std::env::temp_dir().join(format!("tns-damaged-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(&real).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap();
        if file == "k5-p19.tnspl" {
            let mut bytes = std::fs::read(&path).unwrap();
            // Past the header and the block table (a few kilobytes), through the blocks: a bit
            // every 4 KiB. The file opens; the blocks fail when read.
            for at in (1 << 16..bytes.len()).step_by(4096) {
                bytes[at] ^= 0x10;
            }
            std::fs::write(dir.join(file), bytes).unwrap();
        } else if file.to_string_lossy().starts_with("k5-") {
            std::os::unix::fs::symlink(&path, dir.join(file)).unwrap();
        }
    }
    dir
}

#[cfg(unix)]
#[test]
#[ignore = "needs the real table's last placement layers; CI builds them"]
fn a_damaged_table_stops_the_held_out_measures_and_the_tuning_with_an_error() {
    let dir = damaged_table("heldout");
    let table = dir.to_str().unwrap();
    let args = ["--validation-games", "30", "--positions", "40", "--seed", "7"];
    let out = heldout(&[&["--teacher", table][..], &args[..], &["heuristic"]].concat());
    assert!(!out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(stderr(&out).contains("the tablebase failed"), "{}", stderr(&out));
    let tune = Command::new(env!("CARGO_BIN_EXE_tns-tune"))
        .args([&["--teacher", table][..], &args[..4], &["--games", "20"]].concat())
        .output()
        .unwrap();
    assert!(!tune.status.success(), "{}", String::from_utf8_lossy(&tune.stdout));
    assert!(String::from_utf8_lossy(&tune.stderr).contains("the tablebase failed"));
    std::fs::remove_dir_all(&dir).unwrap();
}
