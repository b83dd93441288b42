//! The faults a training run must survive, each seen in use: a save cut short part-way through
//! a generation, weights that overflow, two trainers in one folder, a garbled log, leftover
//! temporary files, and command lines that asked for absurd amounts.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::AtomicBool;

use tns_nn::Network;
use tns_trainer::{Settings, complete_generation, generation_path, progress, train};

fn settings(out: PathBuf, generations: u32) -> Settings {
    Settings {
        generations,
        games: 4,
        out,
        from: None,
        hidden: vec![8],
        inputs: tns_nn::Inputs::Pieces,
        buckets: tns_nn::Buckets::One,
        objective: tns_nn::Objective::Squared,
        depth: 1,
        epsilon: 0.1,
        lambda: 0.7,
        epochs: 2,
        learning_rate: 0.01,
        final_learning_rate: 0.01,
        batch: 32,
        window: 2,
        seed: 3,
        match_every: 0,
        match_games: 2,
        match_depth: 1,
        max_plies: 80,
        bars: false,
        teacher: None,
        uniform: 0,
        children: 0,
        draw_margin: 0.0,
        draw_margin_tigers: 0.0,
        draw_margin_movement: None,
        traps: false,
        validation_games: 0,
        final_positions: 0,
        new_settings: false,
    }
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tns-faults-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn one_thread<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(f)
}

#[test]
fn a_generation_saved_in_part_is_done_again_and_ends_on_the_same_bits() {
    let whole = temp("whole");
    one_thread(|| train(&settings(whole.clone(), 3), &AtomicBool::new(false), |_| {})).unwrap();

    // A run whose save of generation 3 was cut short: its weights are there, the state (the
    // last file a generation writes) still names generation 2, the log has two rows, and a
    // temporary file of the interrupted save is left over.
    let cut = temp("cut");
    one_thread(|| train(&settings(cut.clone(), 2), &AtomicBool::new(false), |_| {})).unwrap();
    std::fs::copy(generation_path(&cut, 1), generation_path(&cut, 3)).unwrap();
    std::fs::copy(generation_path(&cut, 2), cut.join("latest.bin")).unwrap();
    std::fs::write(cut.join("state.bin.tmp4242"), b"half a state").unwrap();
    assert_eq!(complete_generation(&cut).unwrap(), Some(2));

    let mut lines = Vec::new();
    let net = one_thread(|| {
        train(&settings(cut.clone(), 3), &AtomicBool::new(false), |l| lines.push(l.to_owned()))
    })
    .unwrap();
    assert!(
        lines.iter().any(|l| l.starts_with("removed what a stopped run left unfinished after generation 2: gen-003.bin, state.bin.tmp4242")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l == "resuming from generation 2 of 3"), "{lines:?}");
    assert_eq!(
        std::fs::read(generation_path(&cut, 3)).unwrap(),
        std::fs::read(generation_path(&whole, 3)).unwrap()
    );
    assert_eq!(Network::load(&cut.join("latest.bin")).unwrap(), net);
    let rows = progress::read(&cut.join("progress.csv")).unwrap();
    assert_eq!(rows.iter().map(|r| r.generation).collect::<Vec<_>>(), [1, 2, 3]);
    assert!(!cut.join("state.bin.tmp4242").exists());
    for dir in [whole, cut] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn weights_that_overflow_stop_the_run_and_nothing_non_finite_is_saved() {
    let out = temp("overflow");
    std::fs::create_dir_all(&out).unwrap();
    let sizes = vec![52, 8, 1];
    let count = 52 * 8 + 8 + 8 + 1;
    let huge = Network::from_params(sizes, vec![3e38; count]).unwrap();
    let from = out.join("huge.bin");
    huge.save(&from).unwrap();
    let mut s = settings(out.clone(), 2);
    s.from = Some(from);
    let e = format!("{:#}", train(&s, &AtomicBool::new(false), |_| {}).unwrap_err());
    assert!(e.contains("training diverged in generation 1"), "{e}");
    assert!(!generation_path(&out, 1).exists());
    assert!(!out.join("latest.bin").exists());
    assert!(!out.join("state.bin").exists());
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_first_generation_without_its_state_is_done_again_and_ends_on_the_same_bits() {
    // The disk filled between generation 1's weights and its state: no state.bin at all.
    let whole = temp("first-whole");
    one_thread(|| train(&settings(whole.clone(), 2), &AtomicBool::new(false), |_| {})).unwrap();
    let cut = temp("first-cut");
    one_thread(|| train(&settings(cut.clone(), 1), &AtomicBool::new(false), |_| {})).unwrap();
    // Killed before the state, so before latest.bin, which is written after it.
    std::fs::remove_file(cut.join("state.bin")).unwrap();
    std::fs::remove_file(cut.join("latest.bin")).unwrap();
    assert_eq!(complete_generation(&cut).unwrap(), None, "weights alone are no generation");
    let mut lines = Vec::new();
    one_thread(|| {
        train(&settings(cut.clone(), 2), &AtomicBool::new(false), |l| lines.push(l.to_owned()))
    })
    .unwrap();
    assert!(!lines.iter().any(|l| l.contains("no saved optimiser state")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("unfinished after generation 0: gen-001.bin")),
        "{lines:?}"
    );
    assert_eq!(
        std::fs::read(generation_path(&cut, 2)).unwrap(),
        std::fs::read(generation_path(&whole, 2)).unwrap()
    );
    assert_eq!(
        std::fs::read(cut.join("latest.bin")).unwrap(),
        std::fs::read(whole.join("latest.bin")).unwrap()
    );
    for dir in [whole, cut] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn a_second_trainer_in_the_same_folder_refuses() {
    let out = temp("locked");
    std::fs::create_dir_all(&out).unwrap();
    // The folder held (by a lock taken here, as another trainer would hold it).
    let held = tns_file::Lock::take(&out.join("run.lock")).unwrap();
    let e = format!(
        "{:#}",
        train(&settings(out.clone(), 1), &AtomicBool::new(false), |_| {}).unwrap_err()
    );
    assert!(e.contains("in use by another trainer (process "), "{e}");
    assert!(!generation_path(&out, 1).exists());
    drop(held);
    // A lock file a killed run left holds nothing: the run goes on, and lets it go at the end.
    std::fs::write(out.join("run.lock"), "1").unwrap();
    train(&settings(out.clone(), 1), &AtomicBool::new(false), |_| {}).unwrap();
    assert!(generation_path(&out, 1).exists());
    assert!(!out.join("run.lock").exists());
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn two_trainers_started_at_once_never_both_run() {
    // The case: two trainers into one folder at the same instant, with other seeds.
    for round in 0..3 {
        let out = temp(&format!("race-{round}"));
        let start = std::sync::Barrier::new(2);
        let results: Vec<anyhow::Result<()>> = std::thread::scope(|s| {
            let runs: Vec<_> = [5, 9]
                .map(|seed| {
                    let (out, start) = (out.clone(), &start);
                    s.spawn(move || {
                        let mut settings = settings(out, 1);
                        settings.seed = seed;
                        start.wait();
                        train(&settings, &AtomicBool::new(false), |_| {}).map(|_| ())
                    })
                })
                .into_iter()
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        // One trains; the other is refused: by the lock while the first runs, else by the
        // settings the first recorded (another seed). Never both, never mixed.
        let ran = results.iter().filter(|r| r.is_ok()).count();
        assert_eq!(ran, 1, "{results:?}");
        for e in results.iter().filter_map(|r| r.as_ref().err()) {
            let e = format!("{e:#}");
            assert!(e.contains("in use by another trainer") || e.contains("--seed"), "{e}");
        }
        assert_eq!(complete_generation(&out).unwrap(), Some(1));
        let _ = std::fs::remove_dir_all(&out);
    }
}

#[test]
fn a_garbled_log_stops_the_run_instead_of_losing_its_rows() {
    let out = temp("garbled");
    train(&settings(out.clone(), 1), &AtomicBool::new(false), |_| {}).unwrap();
    let csv = out.join("progress.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    std::fs::write(&csv, format!("{text}1,2,garbage\n")).unwrap();
    let e = format!(
        "{:#}",
        train(&settings(out.clone(), 2), &AtomicBool::new(false), |_| {}).unwrap_err()
    );
    assert!(e.contains("progress.csv: line 3 is not a row"), "{e}");
    assert!(std::fs::read_to_string(&csv).unwrap().ends_with("1,2,garbage\n"));
    std::fs::remove_dir_all(&out).unwrap();
}

fn tns_train(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tns-train")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn absurd_command_lines_are_refused_before_anything_is_allocated() {
    let out = temp("cli");
    let dir = out.to_str().unwrap();
    let (code, err) = tns_train(&["1", "99999999999", dir]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("99999999999 is more than 1000000"), "{err}");
    let (code, err) = tns_train(&["1", "4", dir, "--match-games", "0", "--match-every", "1"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--match-games 0 plays no match"), "{err}");
    let (code, err) = tns_train(&["1", "4", dir, "--teacher", "/nonexistent-table"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("the teacher's table in /nonexistent-table"), "{err}");
    // Nothing to train on, or no pass over it: refused, not an untrained generation saved.
    for args in
        [&["1", "0", dir][..], &["1", "4", dir, "--epochs", "0"], &["1", "4", dir, "--window", "0"]]
    {
        let (code, err) = tns_train(args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains("nothing to train on") || err.contains("at least 1"), "{err}");
    }
    assert!(!out.exists(), "nothing was written");
}

#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_a_run_file_is_refused_not_waited_on() {
    for name in ["state.bin", "progress.csv", "run.lock"] {
        let out = temp(&format!("fifo-{name}"));
        one_thread(|| train(&settings(out.clone(), 1), &AtomicBool::new(false), |_| {})).unwrap();
        let path = out.join(name);
        let _ = std::fs::remove_file(&path);
        assert!(Command::new("mkfifo").arg(&path).status().unwrap().success());
        let e = one_thread(|| train(&settings(out.clone(), 2), &AtomicBool::new(false), |_| {}))
            .unwrap_err();
        let e = format!("{e:#}");
        assert!(e.contains("not a") && e.contains(name), "{name}: {e}");
        std::fs::remove_dir_all(&out).unwrap();
    }
}

#[test]
fn a_state_copied_from_another_run_is_refused() {
    let ours = temp("state-ours");
    let theirs = temp("state-theirs");
    one_thread(|| train(&settings(ours.clone(), 1), &AtomicBool::new(false), |_| {})).unwrap();
    let mut other = settings(theirs.clone(), 1);
    other.seed = 9;
    one_thread(|| train(&other, &AtomicBool::new(false), |_| {})).unwrap();
    std::fs::copy(theirs.join("state.bin"), ours.join("state.bin")).unwrap();
    let e = one_thread(|| train(&settings(ours.clone(), 2), &AtomicBool::new(false), |_| {}))
        .unwrap_err();
    let e = format!("{e:#}");
    assert!(e.contains("state.bin is not this run's"), "{e}");
    for dir in [ours, theirs] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// A short self-play run of the real program (tiny games and network, one thread): its exit
/// code, and what it wrote to both streams.
fn short_run(dir: &std::path::Path, generations: u32, extra: &[&str]) -> (i32, String) {
    let generations = generations.to_string();
    let dir = dir.to_str().unwrap();
    let mut args = vec![generations.as_str(), "4", dir, "--hidden", "8", "--depth", "1"];
    args.extend_from_slice(&["--epochs", "1", "--match-every", "0", "--threads", "1"]);
    args.extend_from_slice(extra);
    let out = Command::new(env!("CARGO_BIN_EXE_tns-train")).args(&args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text.into_owned())
}

/// Every file in a folder with the checksum of its bytes, to show that a refusal changed nothing.
fn snapshot(dir: &std::path::Path) -> Vec<(String, u64)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(Result::unwrap)
        .filter(|e| e.file_type().unwrap().is_file())
        .map(|e| {
            let bytes = std::fs::read(e.path()).unwrap();
            (e.file_name().to_string_lossy().into_owned(), tns_file::checksum(&bytes))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_state_from_elsewhere_is_refused_before_any_generation_is_removed() {
    // Run R has six finished generations; S is another run (another seed, or other layer
    // sizes). S's state copied into R, or R's state from an earlier generation put back, or no
    // state at all: the resume is refused, and every one of R's files is as it was.
    let ours = temp("keep-ours");
    let (code, text) = short_run(&ours, 6, &[]);
    assert_eq!(code, 0, "{text}");
    let early = temp("keep-early");
    let (code, text) = short_run(&early, 2, &[]);
    assert_eq!(code, 0, "{text}");
    let seeded = temp("keep-seeded");
    let (code, text) = short_run(&seeded, 2, &["--seed", "9"]);
    assert_eq!(code, 0, "{text}");
    let sized = temp("keep-sized");
    let (code, text) = short_run(&sized, 2, &["--hidden", "4,4"]);
    assert_eq!(code, 0, "{text}");
    // The same run stopped one generation short: its state is the one before ours.
    let one_short = temp("keep-one-short");
    let (code, text) = short_run(&one_short, 5, &[]);
    assert_eq!(code, 0, "{text}");
    let original = snapshot(&ours);
    let original_state = std::fs::read(ours.join("state.bin")).unwrap();

    for (from, says) in [
        (Some(&seeded), "is not this run's"),
        (Some(&sized), "is not this run's"),
        (Some(&early), "names generation 2 as the last finished"),
        (Some(&one_short), "names generation 5 as the last finished"),
        (None, "state.bin is missing"),
    ] {
        match from {
            Some(other) => {
                std::fs::copy(other.join("state.bin"), ours.join("state.bin")).unwrap();
            }
            None => std::fs::remove_file(ours.join("state.bin")).unwrap(),
        }
        let changed = snapshot(&ours);
        let (code, text) = short_run(&ours, 8, &[]);
        assert_ne!(code, 0, "{says}: {text}");
        assert!(text.contains(says), "{says}: {text}");
        assert!(!text.contains("removed what"), "{says}: {text}");
        assert_eq!(snapshot(&ours), changed, "{says}: nothing in the folder changes");
        std::fs::write(ours.join("state.bin"), &original_state).unwrap();
    }
    assert_eq!(snapshot(&ours), original, "every refusal left the folder as it was");
    // A user's files that only look like a save's leftovers are kept: `x.tmp` names a
    // folder, `notes.tmpl` a file; a save's own leftover (`state.bin.tmp123`) goes.
    std::fs::create_dir_all(ours.join("x.tmp")).unwrap();
    std::fs::write(ours.join("notes.tmpl"), "mine").unwrap();
    std::fs::write(ours.join("state.bin.tmp123"), "half").unwrap();
    // With its own state back, the run goes on from generation 6.
    let (code, text) = short_run(&ours, 7, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("resuming from generation 6 of 7"), "{text}");
    assert!(ours.join("x.tmp").is_dir() && ours.join("notes.tmpl").exists(), "{text}");
    assert!(!ours.join("state.bin.tmp123").exists(), "{text}");
    // No state and no weights left, but latest.bin and the log of finished generations: not
    // a new run to start over them.
    for n in 1..=7 {
        std::fs::remove_file(generation_path(&ours, n)).unwrap();
    }
    std::fs::remove_file(ours.join("state.bin")).unwrap();
    let before = snapshot(&ours);
    let (code, text) = short_run(&ours, 7, &[]);
    assert_ne!(code, 0, "{text}");
    assert!(text.contains("latest.bin holds a finished generation"), "{text}");
    assert_eq!(snapshot(&ours), before);
    // The log alone left: it is not written over by a new run.
    std::fs::remove_file(ours.join("latest.bin")).unwrap();
    let before = snapshot(&ours);
    let (code, text) = short_run(&ours, 2, &["--seed", "7"]);
    assert_ne!(code, 0, "{text}");
    assert!(text.contains("progress.csv logs generation 7"), "{text}");
    assert_eq!(snapshot(&ours), before);
    for dir in [ours, early, seeded, sized, one_short] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}
