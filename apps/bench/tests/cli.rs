//! The `tns-bench` command line: matches, the search bench and bad input.

use std::process::{Command, Output};

use tns_board::{GameRecord, RecordResult};

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tns-bench")).args(args).output().expect("tns-bench runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn match_reports_and_writes_records_that_parse() {
    let path = std::env::temp_dir().join(format!("tns-bench-records-{}.txt", std::process::id()));
    let out = bench(&[
        "match",
        "--engines",
        "heuristic",
        "random",
        "--depth",
        "2",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--records",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("heuristic as sheep"), "{text}");
    let score_line = text.lines().find(|l| l.starts_with("score heuristic vs random: ")).unwrap();
    let percent: f64 =
        score_line.rsplit(' ').next().unwrap().trim_end_matches('%').parse().unwrap();
    assert!(percent > 50.0, "{text}");
    assert!(text.lines().any(|l| l.starts_with("elo ")), "{text}");

    let records = GameRecord::parse_all(&std::fs::read_to_string(&path).unwrap()).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(records.len(), 4);
    for r in &records {
        assert_ne!(r.result, RecordResult::Unfinished);
        assert!(r.tag("Termination").is_some());
        let game = r.replay().unwrap();
        // A game that ended by the rules replays to the same result.
        if r.tag("Termination") != Some("ply cap") {
            assert_eq!(RecordResult::from_outcome(game.outcome()), r.result);
        }
    }
}

#[test]
fn sprt_stops_a_lopsided_match() {
    let out = bench(&[
        "match",
        "--engines",
        "heuristic",
        "random",
        "--depth",
        "1",
        "--games",
        "1000",
        "--sprt",
        "0",
        "100",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("H1 accepted"), "{text}");
    let overall = text.lines().find(|l| l.starts_with("heuristic overall")).unwrap();
    let games: u32 = overall.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(games < 100, "{text}");
}

#[test]
fn bad_arguments_fail_with_a_message() {
    for (args, expected) in [
        (&["match", "--engines", "heuristic:speed=2", "random"][..], "unknown option"),
        (&["match", "--engines", "minimax", "random"], "unknown player"),
        (&["match", "--engines", "heuristic", "random", "--sprt", "10", "0"], "ELO0 < ELO1"),
        (&["match", "--engines", "heuristic", "random", "--time", "0"], "--time"),
        (&["match", "--sheep", "heuristic"], "--tiger"),
        (&["search", "0"], "0"),
        (&["search", "2", "--evaluator", "random"], "no evaluator"),
        (&["analyse", "T3T/5/5/5 s 20"], "bad position"),
    ] {
        let out = bench(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(stderr(&out).contains(expected), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn search_bench_prints_every_position_and_parts_do_not_change_scores() {
    let scores = |extra: &[&str]| {
        let mut args = vec!["search", "4"];
        args.extend_from_slice(extra);
        let out = bench(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        assert_eq!(text.lines().count(), 8, "{text}");
        assert!(text.lines().last().unwrap().starts_with("total"));
        text.lines()
            .skip(1)
            .take(6)
            .map(|l| l.split_whitespace().nth(2).unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let all = scores(&[]);
    assert_eq!(all, scores(&["--without", "table,jumps,history"]));
    assert_eq!(all, scores(&["--with", "killers"]));
}
