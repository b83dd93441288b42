//! tns-engine as an external player in matches (`cmd:`), and what the match runner does with
//! programs that break the protocol: a crash, a late answer, an illegal move each lose that
//! game with the reason in the record, and the next game gets a fresh process.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use tns_match::{Budget, Colours, MatchConfig, Termination, run_match};

fn config(a: &str, b: &str, games: u32, defaults: Budget) -> MatchConfig {
    MatchConfig {
        a: a.parse().unwrap(),
        b: b.parse().unwrap(),
        colours: Colours::Alternate,
        games,
        openings: 4,
        seed: 5,
        concurrency: 2,
        max_plies: 200,
        defaults,
        tablebase: None,
        book: Vec::new(),
    }
}

const DEPTH_3: Budget = Budget { time: None, depth: Some(3), threads: 1, tt_mb: 8 };

#[test]
fn the_engine_through_the_protocol_plays_exactly_as_the_built_in_player() {
    // Same evaluator, same depth, a clean table each game: the program behind the pipe must
    // choose the very moves the built-in player does, so every pair of games is split.
    let engine = format!("cmd:{}", env!("CARGO_BIN_EXE_tns-engine"));
    let mut games = Vec::new();
    let standings =
        run_match(&config(&engine, "network", 12, DEPTH_3), &AtomicBool::new(false), |g| {
            games.push(g.clone());
        })
        .unwrap();
    assert_eq!(standings.a_total().games(), 12);
    for g in &games {
        assert!(
            !matches!(g.played.termination, Termination::Forfeit { .. }),
            "{:?}",
            g.played.termination
        );
    }
    games.sort_by_key(|g| g.index);
    for pair in games.chunks(2) {
        // Each opening is played twice with colours swapped: identical players mirror.
        assert_eq!(pair[0].played.game.moves(), pair[1].played.game.moves());
    }
    let score = standings.a_total().score().unwrap();
    assert!((score - 0.5).abs() < 1e-9, "{standings:?}");
}

/// A fake engine in Python that handshakes properly, then misbehaves on its first move.
fn fake(kind: &str) -> String {
    let script = format!(
        r#"import sys, time
for line in sys.stdin:
    w = line.split()
    if not w: continue
    if w[0] == "tsi": print("id name fake\ntsiok", flush=True)
    elif w[0] == "isready": print("readyok", flush=True)
    elif w[0] == "quit": sys.exit(0)
    elif w[0] == "go":
        if "{kind}" == "crash": sys.exit(3)
        if "{kind}" == "late": time.sleep(5)
        if "{kind}" == "illegal": print("bestmove a5e1", flush=True)
        if "{kind}" == "garbage": print("bestmove banana", flush=True)
"#
    );
    let path: PathBuf =
        std::env::temp_dir().join(format!("tns-fake-{kind}-{}.py", std::process::id()));
    std::fs::write(&path, script).unwrap();
    format!("cmd:python3 {}", path.display())
}

#[test]
fn broken_programs_lose_with_the_reason_and_the_match_goes_on() {
    let quick = Budget { time: Some(0.1), depth: None, threads: 1, tt_mb: 8 };
    for (kind, why) in [
        ("crash", "exited"),
        ("late", "late"),
        ("illegal", "illegal move a5e1"),
        ("garbage", "unreadable move"),
    ] {
        let spec = fake(kind);
        let mut config = config(&spec, "random", 4, quick);
        config.concurrency = 1;
        let mut reasons = Vec::new();
        let standings = run_match(&config, &AtomicBool::new(false), |g| {
            let record = g.played.record("a", "b");
            reasons.push(record.tag("Termination").unwrap_or_default().to_string());
        })
        .unwrap();
        assert_eq!(standings.a_total().games(), 4, "{kind}: the match went on");
        assert_eq!(standings.a_total().losses, 4, "{kind}: {reasons:?}");
        for reason in &reasons {
            assert!(reason.starts_with("forfeit by the "), "{kind}: {reason}");
            assert!(reason.contains(why), "{kind}: {reason}");
        }
    }
    let missing = "cmd:/no/such/engine".parse::<tns_match::PlayerSpec>().unwrap();
    let mut config = config("random", "random", 2, quick);
    config.b = missing;
    let mut reasons = Vec::new();
    run_match(&config, &AtomicBool::new(false), |g| {
        reasons.push(g.played.termination.to_string());
    })
    .unwrap();
    assert!(reasons.iter().all(|r| r.contains("cannot start /no/such/engine")), "{reasons:?}");
}
