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
