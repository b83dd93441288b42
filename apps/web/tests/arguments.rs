//! The server's arguments: what it refuses, and the words it refuses them in.

use std::process::Command;

fn refused(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tns-web")).args(args).output().unwrap();
    assert!(!out.status.success(), "{args:?} was taken");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_move_time_is_read_as_every_program_reads_seconds_and_capped_at_a_minute() {
    for bad in ["0", "-1", "NaN", "inf", "soon", "61"] {
        let text = refused(&[&format!("--max-move-time={bad}")]);
        assert!(text.contains("a number of seconds above 0 and at most 60, not"), "{bad}: {text}");
    }
}

#[test]
fn a_player_that_cannot_be_offered_says_why() {
    let text = refused(&["--addr", "127.0.0.1:0", "--offer", "cmd:/bin/sh"]);
    assert!(text.contains("--offer cmd:/bin/sh: only built-in players"), "{text}");
    let text = refused(&["--addr", "127.0.0.1:0", "--tablebase", "/no/such/folder"]);
    assert!(text.starts_with("tns-web: --tablebase /no/such/folder: "), "{text}");
}

#[test]
fn a_database_that_is_not_a_regular_file_is_refused() {
    let dir = std::env::temp_dir();
    let text = refused(&["--addr", "127.0.0.1:0", "--database", dir.to_str().unwrap()]);
    assert!(text.starts_with("tns-web: --database "), "{text}");
    assert!(text.contains("is not a regular file"), "{text}");
}
