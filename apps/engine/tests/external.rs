//! tns-engine as an external player in matches (`cmd:`), and what the match runner does with
//! programs that break the protocol: a crash, a late answer, an illegal move each lose that
//! game with the reason in the record, and the next game gets a fresh process.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use tns_match::{Budget, MatchConfig, MatchError, ProgramError, Termination, run_match};

fn config(a: &str, b: &str, games: u32, defaults: Budget) -> MatchConfig {
    MatchConfig {
        games,
        seed: 5,
        concurrency: 2,
        max_plies: 200,
        defaults,
        ..MatchConfig::new(a.parse().unwrap(), b.parse().unwrap())
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
    // An engine that cannot start stops the match before its first game, with the reason.
    let missing = "cmd:/no/such/engine".parse::<tns_match::PlayerSpec>().unwrap();
    let mut config = config("random", "random", 2, quick);
    config.b = missing;
    let mut played = 0;
    let result = run_match(&config, &AtomicBool::new(false), |_| played += 1);
    match result {
        Err(MatchError::Program { player, reason }) => {
            assert_eq!(player, "cmd:/no/such/engine");
            assert!(reason.to_string().contains("cannot start /no/such/engine"), "{reason}");
            assert!(matches!(reason, ProgramError::Start { .. }), "{reason:?}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(played, 0);
}

/// A fake engine whose handshake and answers are `script`'s (Python, reading `w`, the words of
/// each line, in a loop), written to a file of its own.
fn fake_with(tag: &str, body: &str) -> String {
    let script = format!(
        "import sys, time\nfor line in sys.stdin:\n    w = line.split()\n    if not w: continue\n{body}"
    );
    let path: PathBuf =
        std::env::temp_dir().join(format!("tns-fake-{tag}-{}.py", std::process::id()));
    std::fs::write(&path, script).unwrap();
    format!("cmd:python3 {}", path.display())
}

/// The usual answers, then a legal move from `move` (Python) for each `go`.
fn answers(go: &str) -> String {
    format!(
        r#"    if w[0] == "tsi": print("id name fake\noption name Hash type spin default 1 min 1 max 64\ntsiok", flush=True)
    elif w[0] == "isready": print("readyok", flush=True)
    elif w[0] == "quit": sys.exit(0)
    elif w[0] == "setoption" and w[-1] == "999": print("info string error: Hash must be at most 64", flush=True)
    elif w[0] == "position": pos = w
    elif w[0] == "go":
{go}
"#
    )
}

#[test]
fn output_that_is_not_utf8_is_read_not_taken_for_a_closed_pipe() {
    // The fake plays d2 whatever the position (legal as the sheep's first move, an illegal
    // move later): what matters is that the bytes before it pass as a line.
    let go = r#"        sys.stdout.buffer.write(b"info string caf\xe9 \xff\n"); sys.stdout.flush()
        print("bestmove d2", flush=True)"#;
    let spec = fake_with("latin1", &answers(go));
    let mut config = config(&spec, "random", 2, Budget { time: Some(0.2), ..DEPTH_3 });
    config.openings = 0;
    config.concurrency = 1;
    let mut reasons = Vec::new();
    run_match(&config, &AtomicBool::new(false), |g| reasons.push(g.played.termination.to_string()))
        .unwrap();
    for reason in &reasons {
        assert!(!reason.contains("closed its output"), "{reasons:?}");
    }
}

#[test]
fn a_refused_option_stops_the_match_before_it_starts() {
    let go = r#"        print("bestmove c3", flush=True)"#;
    let spec = fake_with("refuses", &answers(go));
    let mut config = config(&format!("{spec} option.Hash=999"), "random", 2, DEPTH_3);
    config.concurrency = 1;
    let result = run_match(&config, &AtomicBool::new(false), |_| {});
    match result {
        Err(MatchError::Program { reason, .. }) => {
            assert!(matches!(reason, ProgramError::RefusedOption { .. }), "{reason:?}");
            let reason = reason.to_string();
            assert!(reason.contains("refused setoption name Hash value 999"), "{reason}");
            assert!(reason.contains("at most 64"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    // The engine's own Hash bound, set through the spec: refused the same way.
    let engine = format!("cmd:{} option.Hash=8192", env!("CARGO_BIN_EXE_tns-engine"));
    let result = run_match(&config_of(&engine), &AtomicBool::new(false), |_| {});
    assert!(matches!(result, Err(MatchError::Program { .. })), "{result:?}");
}

fn config_of(a: &str) -> MatchConfig {
    let mut c = config(a, "random", 2, DEPTH_3);
    c.concurrency = 1;
    c
}

#[test]
fn engines_take_names_options_and_clocks() {
    let engine = env!("CARGO_BIN_EXE_tns-engine");
    let a = format!("cmd:{engine} name=fast option.Evaluator=heuristic option.Hash=4");
    let b = format!("cmd:{engine} name=slow option.Evaluator=heuristic");
    let mut c = config(&a, &b, 2, DEPTH_3);
    c.time_control = Some("2s+0.05".parse().unwrap());
    assert_eq!((c.a.to_string().as_str(), c.b.to_string().as_str()), ("fast", "slow"));
    let mut games = Vec::new();
    run_match(&c, &AtomicBool::new(false), |g| games.push(g.clone())).unwrap();
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(
            !matches!(g.played.termination, Termination::Time { .. } | Termination::Forfeit { .. }),
            "{}",
            g.played.termination
        );
        // Every move on the clock was timed, and the record names the control.
        assert_eq!(g.played.times.len(), g.played.game.len() - g.played.first_ply);
        assert_eq!(g.played.record("a", "b").tag("TimeControl"), Some("2+0.05"));
    }
}

#[test]
fn a_program_that_writes_without_line_ends_fails_its_handshake_in_bounded_memory() {
    // `exec cat /dev/zero`: output without end and without a line end. The runner keeps at
    // most a megabyte of a line, so the handshake's timeout ends it with the reason.
    let script = std::env::temp_dir().join(format!("tns-zeros-{}.sh", std::process::id()));
    std::fs::write(&script, "exec cat /dev/zero\n").unwrap();
    let spec = format!("cmd:sh {}", script.display());
    let config = config(&spec, "random", 2, DEPTH_3);
    let result = run_match(&config, &AtomicBool::new(false), |_| {});
    match result {
        Err(MatchError::Program { reason, .. }) => {
            assert!(reason.to_string().contains("tsiok"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    // The most this test process ever held: a reader that kept the whole line would have
    // taken gigabytes in the handshake's ten seconds (about 1 GB a second).
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let peak_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    assert!(peak_kb < 2 << 20, "peak {peak_kb} kB");
}
