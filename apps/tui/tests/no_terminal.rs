//! Started without a terminal (from a script), the game says so and exits 1 instead of
//! panicking.

use std::process::{Command, Stdio};

#[test]
fn without_a_terminal_the_game_says_so_and_exits_1() {
    let out = Command::new(env!("CARGO_BIN_EXE_tigers-and-sheep"))
        .stdin(Stdio::null())
        .output()
        .expect("it runs");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the game needs a terminal"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A saved game whose tiger player is a weights file that is gone.
fn saved_game() -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("tns-load-{}.txt", std::process::id()));
    let text = "[Sheep \"human\"]\n[Tiger \"no/such/weights.bin\"]\n[TigerLimits \"depth 3\"]\n[Result \"*\"]\n\n1. c3\n";
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn loading_restores_the_players_and_options_override_them() {
    let path = saved_game();
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_tigers-and-sheep"))
            .arg("--load")
            .arg(&path)
            .args(extra)
            .stdin(Stdio::null())
            .output()
            .expect("it runs");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // The saved tiger player is restored, and cannot play: a clear error names it.
    let stderr = run(&[]);
    assert!(stderr.contains("the saved game's Tiger player \"no/such/weights.bin\""), "{stderr}");
    // Given on the command line, the option wins: the game gets as far as wanting a terminal.
    let stderr = run(&["--tiger", "heuristic"]);
    assert!(stderr.contains("the game needs a terminal"), "{stderr}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn the_perfect_player_says_where_it_looked_for_the_table() {
    let home = std::env::temp_dir().join(format!("tns-home-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tigers-and-sheep"))
        .args(["--tiger", "perfect"])
        .current_dir(&home)
        .env("HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("TNS_TABLEBASE_DIR", home.join("from-env"))
        .stdin(Stdio::null())
        .output()
        .expect("it runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the perfect player (or `table=on`) needs the tablebase"), "{stderr}");
    for place in ["from-env", "tablebase", "tigers-and-sheep/tablebase"] {
        assert!(stderr.contains(place), "{place}: {stderr}");
    }
    std::fs::remove_dir_all(&home).unwrap();
}

/// The game's stderr for these arguments, started without a terminal (so a run that gets past
/// its checks says it needs one).
fn stderr_of(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tigers-and-sheep"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("it runs");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn bad_options_say_what_is_wrong() {
    let said = stderr_of(&["--time", "-1"]);
    assert!(said.contains("time must be a number of seconds above 0"), "{said}");
    let said = stderr_of(&["--time", "100000"]);
    assert!(said.contains("at most 86400"), "{said}");
    // The same bound as a spec's depth=.
    let said = stderr_of(&["--depth", "121"]);
    assert!(said.contains("from 1 to 120"), "{said}");
    assert!(stderr_of(&["--depth", "110"]).contains("the game needs a terminal"));
    for (clock, why) in [
        ("0+0", "a clock needs some time"),
        ("5+x", "the increment: not a number"),
        ("-1", "the minutes: must be 0 or more"),
        ("nan", "the minutes: not a number"),
        ("0+0.001", "at least a second"),
    ] {
        let said = stderr_of(&["--clock", clock]);
        assert!(said.contains(why) && said.contains("MINUTES+SECONDS"), "{clock}: {said}");
    }
    assert!(stderr_of(&["--clock", "0+1"]).contains("the game needs a terminal"));
    let said = stderr_of(&["--tablebase", "/nonexistent/tns"]);
    assert!(said.contains("--tablebase /nonexistent/tns: no such folder"), "{said}");
    let empty = std::env::temp_dir().join(format!("tns-empty-{}.txt", std::process::id()));
    std::fs::write(&empty, "").unwrap();
    let said = stderr_of(&["--load", empty.to_str().unwrap()]);
    std::fs::remove_file(&empty).unwrap();
    assert!(said.contains("the file is empty"), "{said}");
}

#[test]
fn resume_takes_up_the_autosaved_game_or_says_there_is_none() {
    let dir = std::env::temp_dir().join(format!("tns-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let dir_arg = dir.to_str().unwrap();
    let said = stderr_of(&["--resume", "--save-dir", dir_arg]);
    assert!(said.contains("--resume: no game to resume in"), "{said}");
    assert!(said.contains("autosave.txt"), "{said}");
    // An autosaved game whose tiger is a player that cannot play: resuming reads it (and names
    // the player), so it is the autosave that was read.
    std::fs::copy(saved_game(), dir.join("autosave.txt")).unwrap();
    let said = stderr_of(&["--resume", "--save-dir", dir_arg]);
    assert!(said.contains("the saved game's Tiger player \"no/such/weights.bin\""), "{said}");
    let said = stderr_of(&["--resume", "--save-dir", dir_arg, "--tiger", "heuristic"]);
    assert!(said.contains("the game needs a terminal"), "{said}");
    let said = stderr_of(&["--resume", "--load", "x.txt"]);
    assert!(said.contains("cannot be used with"), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn another_program_as_a_player_is_refused_not_replaced_by_the_games_own_search() {
    // Named on the command line, or in a saved game's tags: the game does not host another
    // program, and says so, where it used to seat its own search under that name.
    let path = std::env::temp_dir().join(format!("tns-load-cmd-{}.txt", std::process::id()));
    std::fs::write(
        &path,
        "[Sheep \"cmd:./my-engine\"]\n[Tiger \"easy\"]\n[Result \"*\"]\n\n1. c3\n",
    )
    .unwrap();
    let path = path.to_str().unwrap().to_owned();
    for args in [vec!["--sheep", "cmd:./my-engine", "--tiger", "easy"], vec!["--load", &path]] {
        let out = Command::new(env!("CARGO_BIN_EXE_tigers-and-sheep"))
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .expect("it runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("not another program"), "{args:?}: {stderr}");
        assert!(stderr.contains("tns-bench match"), "{args:?}: {stderr}");
    }
    std::fs::remove_file(&path).unwrap();
}
