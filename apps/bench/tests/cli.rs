//! The `tns-bench` command line: matches, the search bench and bad input.

use std::process::{Command, Output};

use tns_board::{GameRecord, RecordResult};

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tns-bench")).args(args).output().expect("tns-bench runs")
}

/// A match of the heuristic at depth 1 against random play, with more arguments.
fn quick_match(extra: &[&str]) -> Output {
    let mut args = vec!["match", "--engines", "heuristic", "random", "--depth", "1"];
    args.extend_from_slice(extra);
    bench(&args)
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
    assert!(text.contains("hard as sheep"), "{text}");
    let score_line = text.lines().find(|l| l.starts_with("score hard vs random: ")).unwrap();
    let percent: f64 =
        score_line.rsplit(' ').next().unwrap().trim_end_matches('%').parse().unwrap();
    assert!(percent > 50.0, "{text}");
    assert!(text.lines().any(|l| l.starts_with("elo ")), "{text}");
    // The searching player's chances are held against the results; random play reads none.
    assert!(text.contains("chances: hard's readings against the results: Brier"), "{text}");
    assert!(!text.contains("chances: random"), "{text}");

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
    let out = quick_match(&["--games", "1000", "--sprt", "0", "100"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("H1 accepted"), "{text}");
    let overall = text.lines().find(|l| l.starts_with("hard overall")).unwrap();
    let games: u32 = overall.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(games < 100, "{text}");
}

#[test]
fn sprt_bounds_beyond_a_thousand_elo_are_refused_and_quoted_short() {
    let out = quick_match(&["--games", "2", "--sprt", "0", "1e308"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("-1000 <= ELO0 < ELO1 <= 1000") && err.contains("1e308"), "{err}");
}

/// A non-regression test's bounds are below zero: `--sprt -10 0` is two numbers, not an option.
#[test]
fn sprt_takes_negative_bounds() {
    let out = quick_match(&["--games", "1000", "--sprt", "-10", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("H1 accepted"), "{text}");
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
        (&["perft", "0"], "0"),
        (&["perft", "1000"], "1000"),
        (&["perft", "30"], "30"),
        (&["search", "2", "--evaluator", "random"], "no evaluator"),
        (&["search", "2", "--evaluator", "network:table=on"], "drop table=on"),
        (&["analyse", "T3T/5/5/5 s 20"], "bad position"),
        (&["analyse", "T3T/5/5/5/T3T s 20", "--player", "random"], "does not search"),
        (
            &[
                "analyse",
                "T3T/5/5/5/T3T s 20",
                "--player",
                "perfect",
                "--tablebase",
                "/nonexistent",
            ],
            "needs the tablebase",
        ),
        (&["analyse", "T3T/5/5/5/T3T s 20", "--player", "heuristic:tt=99999"], "table"),
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
    assert_eq!(all, scores(&["--without", "killers"]));
    assert_eq!(all, scores(&["--with", "pvs"]));
}

#[test]
fn match_report_has_the_testers_figures_and_a_line_per_game() {
    let out = quick_match(&["--games", "6", "--verbose"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 6, "{text}");
    assert!(games.iter().all(|l| l.contains(" by ") && l.contains(" plies")), "{text}");
    // The searching side's last reading of each game; random play reads none.
    for line in &games {
        let heuristic_sheep = line.contains("hard (sheep)");
        let said = if heuristic_sheep { "the sheep's player Sheep " } else { "the tigers' Sheep " };
        assert!(line.contains(&format!("last readings: {said}")), "{line}");
        assert!(!line.contains(", the"), "one reading, the heuristic's: {line}");
    }
    for figure in ["draw ratio ", "los ", "elo ", "pentanomial [", "elo from pairs "] {
        assert!(text.lines().any(|l| l.starts_with(figure)), "{figure}: {text}");
    }
    // A sweep over six games: no infinities, and the sample is said to be small.
    assert!(!text.contains("inf"), "{text}");
    assert!(text.contains("too small a sample"), "{text}");
}

#[test]
fn openings_come_from_a_file_and_bad_ones_are_named() {
    let dir = std::env::temp_dir();
    let good = dir.join(format!("tns-openings-{}.txt", std::process::id()));
    std::fs::write(&good, "# two starts\nT3T/5/5/5/T3T s 20\n\nT3T/5/2S2/5/T3T t 19\n").unwrap();
    let records = dir.join(format!("tns-openings-records-{}.txt", std::process::id()));
    let out = quick_match(&[
        "--games",
        "4",
        "--openings-file",
        good.to_str().unwrap(),
        "--records",
        records.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("2 openings from"), "{}", stdout(&out));
    let played = GameRecord::parse_all(&std::fs::read_to_string(&records).unwrap()).unwrap();
    let starts: Vec<String> =
        played.iter().map(|r| r.replay().unwrap().start().to_string()).collect();
    assert_eq!(starts.iter().filter(|s| s.as_str() == "T3T/5/2S2/5/T3T t 19").count(), 2);

    // The records just written are openings too: cut to their Opening tag (0 moves here).
    let out = quick_match(&["--games", "2", "--openings-file", records.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));

    let bad = dir.join(format!("tns-openings-bad-{}.txt", std::process::id()));
    std::fs::write(&bad, "T3T/5/5/5/T3T s 20\nT3T/5/5/5/T3T x 20\n").unwrap();
    let out = bench(&[
        "match",
        "--engines",
        "heuristic",
        "random",
        "--openings-file",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("line 2"), "{}", stderr(&out));
    for f in [good, records, bad] {
        std::fs::remove_file(f).unwrap();
    }

    // More random plies than random play survives: an error, at once, not a loop.
    let out = bench(&["match", "--engines", "heuristic", "random", "--openings", "3000"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no random opening of 3000 plies"), "{}", stderr(&out));
}

#[test]
fn ctrl_c_ends_a_match_with_the_summary_so_far() {
    let child = Command::new(env!("CARGO_BIN_EXE_tns-bench"))
        .args(["match", "--engines", "heuristic", "random", "--depth", "3", "--games", "100000"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("stopped by Ctrl+C after "), "{text}");
    assert!(text.contains("hard overall"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("score hard vs random: ")), "{text}");
}

#[test]
fn draw_writes_pictures_of_positions_and_games() {
    let dir = std::env::temp_dir();
    let svg = dir.join(format!("tns-draw-{}.svg", std::process::id()));
    let out = bench(&[
        "draw",
        "T3T/5/2S2/5/T3T t 19",
        "--moves",
        "a5b4",
        "--last",
        "c3",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(text.matches("class=\"tiger\"").count(), 4);
    assert_eq!(text.matches("class=\"sheep\"").count(), 1);
    assert_eq!(text.matches("class=\"arrow\"").count(), 1);

    let records = dir.join(format!("tns-draw-records-{}.txt", std::process::id()));
    let out = quick_match(&["--games", "2", "--records", records.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let game = GameRecord::parse_all(&std::fs::read_to_string(&records).unwrap()).unwrap()[1]
        .replay()
        .unwrap();
    // A last move that led to the position is drawn.
    let out =
        bench(&["draw", "1T2T/5/2S2/5/T3T s 19", "--last", "a5b5", "-o", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    for extra in [&[][..], &["--animate", "0.3"][..], &["--animate", "3600"][..]] {
        let mut args = vec!["draw", "--record", records.to_str().unwrap(), "--game", "2"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["-o", svg.to_str().unwrap()]);
        let out = bench(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = std::fs::read_to_string(&svg).unwrap();
        // Every position of the game is drawn once.
        assert_eq!(text.matches("<rect width=").count(), game.len() + 1, "{extra:?}");
    }

    for (args, why) in [
        (vec!["draw", "T3T/5/2S2/5/T3T x 19", "-o", "x.svg"], "bad side to move"),
        (vec!["draw", "T3T/5/2S2/5/T3T t 19", "--moves", "a5a1", "-o", "x.svg"], "a5a1"),
        (
            vec!["draw", "--record", records.to_str().unwrap(), "--game", "9", "-o", "x.svg"],
            "holds 2 games",
        ),
        // A last move that cannot have led to the position: a5b4 onto an empty point.
        (vec!["draw", "T3T/5/5/5/T3T s 20", "--last", "a5b4", "-o", "x.svg"], "--last a5b4"),
        (vec!["draw", "1T2T/5/2S2/5/T3T t 19", "--last", "a5b5", "-o", "x.svg"], "--last a5b5"),
        // A kill where no sheep is dead; a sheep's step while sheep are in hand.
        (vec!["draw", "4T/5/T4/5/T2ST s 19", "--last", "c3a3", "-o", "x.svg"], "--last c3xa3"),
        (vec!["draw", "T3T/1S3/S4/5/T3T t 17", "--last", "b3b4", "-o", "x.svg"], "--last b3b4"),
    ] {
        let out = bench(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(stderr(&out).contains(why), "{args:?}: {}", stderr(&out));
    }
    // Times a viewer cannot read, or an absurd number of digits.
    for seconds in ["1e300", "1e308", "0.001"] {
        let out = bench(&[
            "draw",
            "--record",
            records.to_str().unwrap(),
            "--animate",
            seconds,
            "-o",
            "x.svg",
        ]);
        assert_eq!(out.status.code(), Some(1), "{seconds}");
        assert!(stderr(&out).contains("--animate takes"), "{seconds}: {}", stderr(&out));
        assert!(stderr(&out).len() < 200, "the number is quoted short: {}", stderr(&out));
    }
    std::fs::remove_file(&svg).unwrap();
    std::fs::remove_file(&records).unwrap();
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::io::{BufRead as _, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tns-bench"))
        .args(["perft", "10"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Read one line, as `| head -1` would, then go away.
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.starts_with("depth 1 "), "{first}");
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?} {}", out.status, stderr(&out));
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
}

/// The tag pairs and the result token of each game in `text`, read as the PGN standard (8.1)
/// describes them, with no knowledge of our own reader: a tag pair is `[` NAME `"`VALUE`"` `]`
/// with NAME a symbol (letters, digits, `_`) and the value a string (with `\"` and `\\`), the
/// movetext follows and ends in a game termination marker.
fn pgn_games(text: &str) -> Vec<(Vec<(String, String)>, String)> {
    let mut games = Vec::new();
    let mut tags = Vec::new();
    let mut last_token = String::new();
    let mut in_moves = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            if in_moves {
                games.push((std::mem::take(&mut tags), std::mem::take(&mut last_token)));
                in_moves = false;
            }
            let inner = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')).unwrap();
            let (name, value) = inner.split_once(' ').unwrap();
            assert!(name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{line}");
            let value = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap();
            tags.push((name.to_string(), value.replace("\\\"", "\"").replace("\\\\", "\\")));
        } else if !line.is_empty() {
            in_moves = true;
            last_token = line.split_whitespace().last().unwrap().to_string();
        }
    }
    if in_moves {
        games.push((tags, last_token));
    }
    games
}

#[test]
fn records_are_pgn_with_the_seven_tag_roster() {
    let path = std::env::temp_dir().join(format!("tns-bench-pgn-{}.pgn", std::process::id()));
    let out = quick_match(&["--games", "4", "--records", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let games = pgn_games(&text);
    assert_eq!(games.len(), 4, "{text}");
    for (i, (tags, token)) in games.iter().enumerate() {
        let names: Vec<&str> = tags.iter().take(7).map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Event", "Site", "Date", "Round", "White", "Black", "Result"]);
        let value = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        assert_eq!(value("Round"), Some((i + 1).to_string().as_str()));
        let date = value("Date").unwrap();
        assert!(date.len() == 10 && date.as_bytes()[4] == b'.' && date.starts_with("20"), "{date}");
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&value("Result").unwrap()), "{tags:?}");
        assert_eq!(Some(token.as_str()), value("Result"), "the token ends the moves");
        assert_eq!(value("White"), value("Sheep"));
        assert!(["hard", "random"].contains(&value("Black").unwrap()));
        assert!(value("Termination").is_some() && value("Opening").is_some());
    }
    // And our reader reads them back.
    assert_eq!(GameRecord::parse_all(&text).unwrap().len(), 4);
}

#[test]
fn the_sprt_decides_between_pairs() {
    let out = quick_match(&["--games", "1000", "--sprt", "0", "100", "--concurrency", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line = text.lines().find(|l| l.starts_with("sprt ")).unwrap();
    assert!(line.contains("pentanomial [") && line.contains("H1 accepted"), "{line}");
    let overall = text.lines().find(|l| l.starts_with("hard overall")).unwrap();
    let games: u32 = overall.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert_eq!(games % 2, 0, "stopped between pairs: {text}");
}

#[test]
fn a_records_file_that_cannot_be_written_stops_the_match_before_it_starts() {
    let dir = std::env::temp_dir();
    for bad in [dir.clone(), dir.join("no-such-folder-tns").join("games.pgn")] {
        let out = quick_match(&["--games", "2", "--records", bad.to_str().unwrap()]);
        assert!(!out.status.success(), "{bad:?}");
        assert!(stderr(&out).contains("--records"), "{}", stderr(&out));
        assert!(!stdout(&out).contains("overall"), "no game was played: {}", stdout(&out));
    }
}

#[test]
fn an_openings_file_that_is_not_a_plain_file_is_refused() {
    let fifo = std::env::temp_dir().join(format!("tns-bench-fifo-{}", std::process::id()));
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let out = quick_match(&["--games", "2", "--openings-file", fifo.to_str().unwrap()]);
    std::fs::remove_file(&fifo).unwrap();
    assert!(!out.status.success());
    assert!(stderr(&out).contains("not a plain file"), "{}", stderr(&out));
}

#[test]
fn a_timed_match_reports_the_time_a_move() {
    let out = bench(&[
        "match",
        "--engines",
        "heuristic",
        "heuristic:dead=300",
        "--tc",
        "1s+0.02",
        "--games",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("time control 1s+0.02 a side"), "{text}");
    // heuristic and heuristic:dead=300 are written hard and hard:dead=300.
    let times: Vec<&str> = text.lines().filter(|l| l.starts_with("time hard")).collect();
    assert_eq!(times.len(), 2, "{text}");
    for line in times {
        assert!(line.contains("mean ") && line.contains("max "), "{line}");
        assert!(line.ends_with("0 lost on time"), "{line}");
    }
    let bad = bench(&["match", "--engines", "heuristic", "random", "--tc", "0+0"]);
    assert!(!bad.status.success() && stderr(&bad).contains("bad time control"));
}

#[test]
fn moves_past_their_time_are_counted_even_when_tolerated() {
    // A program that answers 40 ms late (within the 100 ms margin) with a legal move: the
    // first placement on an empty point, or a tiger's first step (found by a tiny parser).
    let script = r#"import sys, time
def moves(ranks, side):
    rows = ranks.split("/")
    board = []
    for r in rows:
        for c in r:
            board += ["."] * int(c) if c.isdigit() else [c]
    name = lambda i: "abcde"[i % 5] + str(5 - i // 5)
    if side == "s":
        return [name(i) for i in range(25) if board[i] == "."]
    out = []
    for i in range(25):
        if board[i] != "T": continue
        for d in (-1, 1, -5, 5):
            j = i + d
            if 0 <= j < 25 and abs(j % 5 - i % 5) <= 1 and board[j] == ".":
                out.append(name(i) + name(j))
    return out
for line in sys.stdin:
    w = line.split()
    if not w: continue
    if w[0] == "tsi": print("id name late\ntsiok", flush=True)
    elif w[0] == "isready": print("readyok", flush=True)
    elif w[0] == "quit": sys.exit(0)
    elif w[0] == "position": pos = w
    elif w[0] == "go":
        time.sleep(0.09)
        ms = moves(pos[2], pos[3]) if len(pos) == 5 else []
        print("bestmove " + (ms[0] if ms else "none"), flush=True)
"#;
    let path = std::env::temp_dir().join(format!("tns-late-{}.py", std::process::id()));
    std::fs::write(&path, script).unwrap();
    let spec = format!("cmd:python3 {} name=late", path.display());
    // Games of one move each from the engine: it plays the sheep's first placement only, in
    // fixed colours, at 0.05 s a move; the ply cap ends each game after it.
    let out = bench(&[
        "match",
        "--sheep",
        &spec,
        "--tiger",
        "random",
        "--time",
        "0.05",
        "--games",
        "3",
        "--openings",
        "0",
        "--max-plies",
        "1",
    ]);
    std::fs::remove_file(&path).unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line =
        text.lines().find(|l| l.starts_with("time late:")).unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("3 moves") && line.contains("3 past their time, by at most"), "{line}");
    // It sleeps 90 ms where it has 50: the worst overrun is at least 40 ms.
    let worst: f64 =
        line.rsplit("by at most ").next().unwrap().trim_end_matches(" ms").parse().unwrap();
    assert!(worst >= 40.0, "{line}");
    assert!(text.contains("forfeits: none"), "{text}");
}

#[test]
fn analyse_searches_as_the_player_it_is_given() {
    // Without a table the strongest player is the network; a spec's own limits are its own.
    let run = |extra: &[&str]| {
        let mut args = vec!["analyse", "T3T/5/5/5/T3T s 20", "--tablebase", "/nonexistent"];
        args.extend_from_slice(extra);
        let out = bench(&args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out)
    };
    let default = run(&["--depth", "3"]);
    assert!(default.starts_with("player strongest\n"), "{default}");
    assert!(default.contains("\ndepth 3 "), "{default}");
    let own = run(&["--depth", "3", "--player", "heuristic:depth=5"]);
    assert!(own.starts_with("player hard:depth=5\n"), "{own}");
    assert!(own.contains("\ndepth 5 ") && !own.contains("\ndepth 6 "), "{own}");
    // The network and the heuristic judge the start differently: the spec reaches the search.
    let last = |text: &str| text.lines().last().unwrap_or_default().to_owned();
    assert_ne!(last(&default), last(&run(&["--depth", "3", "--player", "heuristic"])));
}

/// Two games at depth 1 of `player` against random play, the table looked for in `dir`.
fn table_match(player: &str, dir: &str) -> Output {
    let args = ["--depth", "1", "--games", "2", "--tablebase", dir];
    bench(&[&["match", "--engines", player, "random"][..], &args].concat())
}

#[test]
fn a_table_on_player_without_the_table_stops_the_match_before_it_starts() {
    // No table where it looks: the match does not start, and says why.
    let out = table_match("network:table=on", "/nonexistent");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--tablebase"), "{}", stderr(&out));
}

#[test]
#[ignore = "needs the built tablebase (TNS_TABLEBASE_DIR); CI runs it"]
fn a_match_with_the_table_plays_a_table_on_player_with_it() {
    let dir = std::env::var("TNS_TABLEBASE_DIR").expect("TNS_TABLEBASE_DIR names the table");
    let out = table_match("heuristic:table=on", &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("with the table's movement phase"), "{}", stdout(&out));
}

#[test]
fn the_header_says_which_players_search_with_the_endgame_built_in() {
    let limits = |player: &str| {
        let out = table_match(player, "/nonexistent");
        assert!(out.status.success(), "{player}: {}", stderr(&out));
        let text = stdout(&out);
        text.lines().find(|l| l.starts_with("limits: ")).unwrap_or_default().to_owned()
    };
    assert!(limits("network").contains("with the network and the endgame built in"));
    let alone = limits("network:endgame=off");
    assert!(alone.contains("with the network;") && !alone.contains("built in"), "{alone}");
    assert!(limits("heuristic:endgame=on").contains("with the endgame built in"));
    assert!(!limits("heuristic").contains("built in"));
}

#[test]
fn the_search_bench_measures_the_network_with_or_without_the_endgame() {
    // The last placement's search reaches the movement phase at once: the endgame's exact wins
    // and losses end some of its lines there (its draws are searched on, as the network alone
    // searches everything), so it takes fewer nodes.
    let nodes = |evaluator: &str| -> u64 {
        let out = bench(&["search", "5", "--evaluator", evaluator]);
        assert!(out.status.success(), "{evaluator}: {}", stderr(&out));
        let text = stdout(&out);
        let line = text.lines().find(|l| l.starts_with("last-placement")).unwrap_or_default();
        line.split_whitespace()
            .nth(4)
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{text}"))
    };
    let (with, alone) = (nodes("network"), nodes("network:endgame=off"));
    assert!(with < alone, "{with} nodes with the endgame, {alone} without");
}

#[cfg(unix)]
#[test]
fn a_picture_or_records_never_replace_a_fifo_or_a_link() {
    use std::os::unix::fs::FileTypeExt as _;
    let dir = std::env::temp_dir().join(format!("tns-bench-special-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo");
    if !Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
        return;
    }
    let fifo_text = fifo.to_str().unwrap();
    let out = bench(&["draw", "T3T/5/5/5/T3T s 20", "-o", fifo_text]);
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(stderr(&out).contains("a FIFO, not a regular file"), "{}", stderr(&out));
    let out = quick_match(&["--games", "2", "--records", fifo_text]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("a FIFO"), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "still a FIFO");
    // A link to nothing is not written through: nothing is made where it points.
    let link = dir.join("picture.svg");
    std::os::unix::fs::symlink("target.svg", &link).unwrap();
    let out = bench(&["draw", "T3T/5/5/5/T3T s 20", "-o", link.to_str().unwrap()]);
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(stderr(&out).contains("does not exist: not written through"), "{}", stderr(&out));
    assert!(!dir.join("target.svg").exists());
    // A link to a file is written through: it stays a link, its target holds the picture.
    std::fs::write(dir.join("target.svg"), "old").unwrap();
    let out = bench(&["draw", "T3T/5/5/5/T3T s 20", "-o", link.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert!(std::fs::read_to_string(dir.join("target.svg")).unwrap().starts_with("<svg"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn audit_refuses_records_it_cannot_judge_before_reading_a_table() {
    let dir = std::env::temp_dir().join(format!("tns-bench-audit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = "[Sheep \"a\"]\n[Tiger \"b\"]\n";
    let cases = [
        ("", "no game record"),
        ("[Opening \"-1\"]\n[Sheep \"a\"]\n\n1. c3 *\n", "Opening tag \"-1\""),
        ("[Opening \"1e20\"]\n[Sheep \"a\"]\n\n1. c3 *\n", "Opening tag \"1e20\""),
        ("[Opening \"1000\"]\n[Sheep \"a\"]\n\n1. c3 *\n", "not a number of its 1 moves"),
        (
            &format!("{game}[Termination \"five sheep dead\"]\n\n1. c3 a5b4 *\n"),
            "Termination tag says five sheep dead",
        ),
    ];
    for (i, (text, said)) in cases.iter().enumerate() {
        let path = dir.join(format!("{i}.txt"));
        std::fs::write(&path, text).unwrap();
        let out = bench(&["audit", path.to_str().unwrap(), "--tablebase", "/no/such/table"]);
        assert!(!out.status.success(), "{text:?}");
        assert!(stderr(&out).contains(said), "{text:?}: {}", stderr(&out));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Starts a long match that writes `records` and prints a line for every finished game, lets it
/// play for `run_for`, then sends it `signal` (`KILL` or `TERM`): what it printed.
#[cfg(unix)]
fn match_stopped_by(
    signal: &str,
    records: &std::path::Path,
    run_for: std::time::Duration,
) -> String {
    let child = Command::new(env!("CARGO_BIN_EXE_tns-bench"))
        .args(["match", "--engines", "heuristic", "random", "--depth", "1", "--games", "100000"])
        .args(["--verbose", "--records", records.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(run_for);
    let killed =
        Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status();
    assert!(killed.unwrap().success());
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[cfg(unix)]
#[test]
fn a_killed_match_keeps_every_game_it_finished() {
    for signal in ["KILL", "TERM"] {
        let records = std::env::temp_dir()
            .join(format!("tns-bench-killed-{signal}-{}.txt", std::process::id()));
        let _ = std::fs::remove_file(&records);
        let printed = match_stopped_by(signal, &records, std::time::Duration::from_secs(2));
        let finished = printed.lines().filter(|l| l.starts_with("game ")).count();
        assert!(finished > 0, "{signal}: no game finished in two seconds: {printed}");
        let text = std::fs::read_to_string(&records).unwrap();
        let kept = GameRecord::parse_all(&text).unwrap();
        // Each game is written before its line is printed; the one under way is not kept.
        assert!(kept.len() >= finished, "{signal}: {finished} games finished, {} kept", kept.len());
        assert!(
            kept.len() <= finished + 1,
            "{signal}: {finished} games finished, {} kept",
            kept.len()
        );
        for (i, record) in kept.iter().enumerate() {
            assert_eq!(record.tag("Round"), Some((i + 1).to_string().as_str()), "{signal}");
        }
        // A second match never writes over the games a first one kept.
        let out = quick_match(&["--games", "2", "--records", records.to_str().unwrap()]);
        assert!(!out.status.success(), "{signal}: {}", stdout(&out));
        assert!(stderr(&out).contains("holds games already"), "{signal}: {}", stderr(&out));
        assert_eq!(std::fs::read_to_string(&records).unwrap(), text, "{signal}");
        std::fs::remove_file(&records).unwrap();
    }
}

#[test]
fn puzzles_refuse_a_program_that_cannot_play_instead_of_scoring_it() {
    // A program that does the handshake and answers every go with a move against the rules.
    let ill = std::env::temp_dir().join(format!("tns-ill-engine-{}.sh", std::process::id()));
    std::fs::write(
        &ill,
        "#!/bin/sh\nwhile read -r line; do case \"$line\" in\n tsi) echo 'id name ill'; echo tsiok;;\n \
         isready) echo readyok;;\n go*) echo 'bestmove a1b2';;\n quit) exit 0;;\n esac; done\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&ill, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let ill_player = format!("cmd:{}", ill.display());
    let out = bench(&["puzzles", "--every", "100", &ill_player]);
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(stderr(&out).contains("against the rules"), "{}", stderr(&out));
    std::fs::remove_file(&ill).unwrap();
    for player in ["cmd:/nonexistent", "cmd:/bin/false"] {
        let out = bench(&["puzzles", "--every", "100", player]);
        assert!(!out.status.success(), "{player}: {}", stdout(&out));
        assert!(!stdout(&out).contains("solves"), "{player}: {}", stdout(&out));
        assert!(stderr(&out).contains(player), "{player}: {}", stderr(&out));
    }
}

#[test]
fn load_against_a_closed_port_is_one_error_before_any_load() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let addr = format!("127.0.0.1:{port}");
    let out = bench(&["load", "--addr", &addr, "--requests", "10"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains(&format!("cannot connect to {addr}")), "{err}");
    assert!(!err.contains("requests failed"), "{err}");
}

#[test]
fn load_stops_at_its_time_limit_with_requests_in_flight() {
    // A server that takes connections and never answers: the requests under way when the
    // time runs out are cut off and said to be, and a test with no answer at all fails.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().take(3) {
            held.push(stream);
        }
        std::thread::sleep(std::time::Duration::from_secs(60));
    });
    let mut child = Command::new(env!("CARGO_BIN_EXE_tns-bench"))
        .args(["load", "--addr", &addr, "--connections", "2", "--time-limit", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A bound on a hang, far above the one second asked for: not a measure of speed.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("load went on past its time limit, waiting on requests that never end");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out).contains("2 requests under way at the time limit"), "{}", stdout(&out));
    assert!(!stdout(&out).contains("latency"), "no answer, no latency: {}", stdout(&out));
    assert!(
        stderr(&out).contains("no request was answered within the time limit"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bot_refuses_links_and_servers_it_cannot_play_before_thinking() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let seat = format!("http://127.0.0.1:{port}/play/q7Rk2mWx9a#{}", "3f".repeat(16));
    let cases: [(&[&str], &str); 5] = [
        (&["--join", "http://127.0.0.1:8080/play/q7Rk2mWx9a"], "watch link"),
        (&["--join", "https://example.org/play/q7Rk2mWx9a"], "http://"),
        (&["--join", "http://example.org/q7Rk2mWx9a"], "/play/ID"),
        (&["--join", &seat], "cannot reach the server"),
        (&["--server", &format!("http://127.0.0.1:{port}"), "--side", "sheep"], "cannot reach"),
    ];
    for (extra, said) in cases {
        let mut args = vec!["bot", "--engine", "easy"];
        args.extend_from_slice(extra);
        let out = bench(&args);
        assert!(!out.status.success(), "{extra:?}");
        assert!(stderr(&out).contains(said), "{extra:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains(&"3f".repeat(16)), "the token shown: {}", stderr(&out));
    }
    // A game to create needs the bot's side.
    let out = bench(&["bot", "--engine", "easy", "--server", "http://127.0.0.1:1"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--side"), "{}", stderr(&out));
}
