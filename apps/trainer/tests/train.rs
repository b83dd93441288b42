//! A few tiny generations in a temporary folder: the files load, a second run resumes from
//! them, a run is reproducible from its seed, and a killed run's files are whole.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use tns_nn::Network;
use tns_trainer::run::learning_rate_at;
use tns_trainer::{Settings, generation_path, newest_generation, progress, train};

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
        match_every: 2,
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
    let dir = std::env::temp_dir().join(format!("tns-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn writes_loadable_files_and_resumes() {
    let out = temp("resume");
    let mut lines = Vec::new();
    let go = AtomicBool::new(false);
    let net = train(&settings(out.clone(), 2), &go, |l| lines.push(l.to_owned())).unwrap();
    assert_eq!(lines.len(), 2);
    assert_eq!(newest_generation(&out), Some(2));
    assert_eq!(Network::load(&out.join("latest.bin")).unwrap(), net);
    assert_eq!(Network::load(&generation_path(&out, 2)).unwrap(), net);
    Network::load(&generation_path(&out, 1)).unwrap();
    let rows = progress::read(&out.join("progress.csv")).unwrap();
    assert_eq!(rows.len(), 2);
    assert!(rows[1].vs_heuristic.is_some(), "generation 2 played its match");
    assert!(std::fs::read_to_string(out.join("progress.svg")).unwrap().contains("<svg"));

    // Asking for 3 continues at generation 3 from generation 2's weights, and says so.
    let again = train(&settings(out.clone(), 3), &go, |l| lines.push(l.to_owned())).unwrap();
    assert_eq!(lines[2], "resuming from generation 2 of 3");
    assert!(lines[3].starts_with("generation 3:"), "{}", lines[3]);
    assert_ne!(again, net);
    assert_eq!(progress::read(&out.join("progress.csv")).unwrap().len(), 3);
    // The same command again: the run is done, nothing more is trained.
    let done = train(&settings(out.clone(), 3), &go, |l| lines.push(l.to_owned())).unwrap();
    assert_eq!(done, again);
    assert!(lines[4].contains("is at generation 3 of 3: nothing to do"), "{}", lines[4]);
    assert_eq!(newest_generation(&out), Some(3));
    // A resume with other settings is refused, naming them, and nothing is trained.
    for change in [
        (|s: &mut Settings| s.hidden = vec![16]) as fn(&mut Settings),
        |s| s.seed = 9,
        |s| s.learning_rate = 0.5,
        |s| s.objective = tns_nn::Objective::CrossEntropy,
    ] {
        let mut other = settings(out.clone(), 4);
        change(&mut other);
        let e = format!("{:#}", train(&other, &go, |l| lines.push(l.to_owned())).unwrap_err());
        assert!(e.contains("was started with other settings: --"), "{e}");
        assert!(e.contains("--new-settings"), "{e}");
        assert_eq!(newest_generation(&out), Some(3));
    }
    let mut other = settings(out.clone(), 4);
    other.seed = 9;
    let e = format!("{:#}", train(&other, &go, |_| {}).unwrap_err());
    assert!(e.contains("--seed 3 in the run, 9 now"), "{e}");
    // Told to go on with the new ones, it does, and says so; the hidden sizes it cannot change.
    other.hidden = vec![16];
    other.new_settings = true;
    train(&other, &go, |l| lines.push(l.to_owned())).unwrap();
    assert!(lines.iter().any(|l| l.contains("going on with new settings")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("--hidden [16] does not apply")), "{lines:?}");
    // No temporary files are left behind.
    for entry in std::fs::read_dir(&out).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(!name.contains(".tmp"), "{name}");
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn reproducible_from_the_seed() {
    let run = |name| {
        let out = temp(name);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let go = AtomicBool::new(false);
        let net = pool.install(|| train(&settings(out.clone(), 2), &go, |_| {})).unwrap();
        std::fs::remove_dir_all(&out).unwrap();
        net
    };
    assert_eq!(run("seed-a"), run("seed-b"));
}

#[test]
fn a_bad_starting_file_is_an_error() {
    let out = temp("bad");
    let mut s = settings(out.clone(), 1);
    let bad = out.join("broken.bin");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(&bad, b"TNS-NN\r\n\x01\x00").unwrap();
    s.from = Some(bad);
    let err = format!("{:#}", train(&s, &AtomicBool::new(false), |_| {}).unwrap_err());
    assert!(err.contains("broken.bin"), "{err}");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_stopped_run_resumed_by_the_same_command_ends_bit_for_bit_as_an_unbroken_one() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let unbroken = temp("unbroken");
    let whole = pool
        .install(|| train(&settings(unbroken.clone(), 4), &AtomicBool::new(false), |_| {}))
        .unwrap();

    // The same command, stopped (as by Ctrl+C) once generation 2 is done...
    let broken = temp("broken");
    let stop = AtomicBool::new(false);
    let mut lines = Vec::new();
    let first = pool.install(|| {
        train(&settings(broken.clone(), 4), &stop, |l| {
            lines.push(l.to_owned());
            if l.starts_with("generation 2:") {
                stop.store(true, Ordering::Relaxed);
            }
        })
    });
    assert_eq!(newest_generation(&broken), Some(2), "{lines:?} {first:?}");
    assert!(lines.last().unwrap().starts_with("stopped: generation 2 of 4 is saved"), "{lines:?}");
    // ...then run again: it finishes the run, to the same bits.
    let resumed = pool
        .install(|| train(&settings(broken.clone(), 4), &AtomicBool::new(false), |_| {}))
        .unwrap();
    assert_eq!(newest_generation(&broken), Some(4));
    let bits = |net: &Network| net.params().iter().map(|p| p.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&resumed), bits(&whole));
    for g in 1..=4 {
        assert_eq!(
            std::fs::read(generation_path(&broken, g)).unwrap(),
            std::fs::read(generation_path(&unbroken, g)).unwrap(),
            "generation {g}"
        );
    }
    std::fs::remove_dir_all(&unbroken).unwrap();
    std::fs::remove_dir_all(&broken).unwrap();
}

#[test]
fn the_learning_rate_falls_geometrically_over_the_run() {
    let mut s = settings(temp("rates"), 5);
    assert!((learning_rate_at(&s, 3) - 0.01).abs() < 1e-9, "constant by default");
    s.final_learning_rate = 0.0001;
    let rates: Vec<f32> = (1..=5).map(|g| learning_rate_at(&s, g)).collect();
    let expected = [0.01, 0.003_162_3, 0.001, 0.000_316_23, 0.0001];
    for (r, e) in rates.iter().zip(expected) {
        assert!((r - e).abs() < e * 1e-3, "{rates:?}");
    }
}
