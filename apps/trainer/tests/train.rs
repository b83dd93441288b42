//! A few tiny generations in a temporary folder: the files load, a second run resumes from
//! them, a run is reproducible from its seed, and a killed run's files are whole.

use std::path::PathBuf;

use tns_nn::Network;
use tns_trainer::{Settings, generation_path, newest_generation, progress, train};

fn settings(out: PathBuf, generations: u32) -> Settings {
    Settings {
        generations,
        games: 4,
        out,
        from: None,
        hidden: vec![8],
        depth: 1,
        epsilon: 0.1,
        lambda: 0.7,
        epochs: 2,
        learning_rate: 0.01,
        batch: 32,
        window: 2,
        seed: 3,
        match_every: 2,
        match_games: 2,
        match_depth: 1,
        max_plies: 80,
        bars: false,
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
    let net = train(&settings(out.clone(), 2), |l| lines.push(l.to_owned())).unwrap();
    assert_eq!(lines.len(), 2);
    assert_eq!(newest_generation(&out), Some(2));
    assert_eq!(Network::load(&out.join("latest.bin")).unwrap(), net);
    assert_eq!(Network::load(&generation_path(&out, 2)).unwrap(), net);
    Network::load(&generation_path(&out, 1)).unwrap();
    let rows = progress::read(&out.join("progress.csv"));
    assert_eq!(rows.len(), 2);
    assert!(rows[1].vs_heuristic.is_some(), "generation 2 played its match");
    assert!(std::fs::read_to_string(out.join("progress.svg")).unwrap().contains("<svg"));

    // A second run continues at generation 3 from generation 2's weights.
    let again = train(&settings(out.clone(), 1), |l| lines.push(l.to_owned())).unwrap();
    assert!(lines[2].starts_with("generation 3:"), "{}", lines[2]);
    assert_ne!(again, net);
    assert_eq!(progress::read(&out.join("progress.csv")).len(), 3);
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
        let net = pool.install(|| train(&settings(out.clone(), 2), |_| {})).unwrap();
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
    let err = train(&s, |_| {}).unwrap_err();
    assert!(err.contains("broken.bin"), "{err}");
    std::fs::remove_dir_all(&out).unwrap();
}
