//! The real binary in tmux: play a move by keyboard, see the computer's reply, quit, and find
//! the terminal restored. Needs tmux, so it is ignored by default; CI installs tmux and runs it
//! with `cargo test --release -- --ignored`.

use std::process::Command;
use std::time::{Duration, Instant};

fn tmux(args: &[&str]) -> String {
    let out = Command::new("tmux").args(args).output().expect("tmux runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn wait_for(session: &str, what: &str, timeout: Duration) -> String {
    let deadline = Instant::now() + timeout;
    loop {
        let screen = tmux(&["capture-pane", "-p", "-t", session]);
        if screen.contains(what) || Instant::now() > deadline {
            return screen;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
#[ignore = "needs tmux; CI runs it"]
fn play_a_move_and_quit_in_tmux() {
    let bin = env!("CARGO_BIN_EXE_tigers-and-sheep");
    let session = format!("tns-e2e-{}", std::process::id());
    let command =
        format!("{bin} --sheep human --tiger heuristic --time 0.2; echo EXITED-$?; sleep 30");
    tmux(&["kill-session", "-t", &session]);
    let status = Command::new("tmux")
        .args(["new-session", "-d", "-x", "100", "-y", "32", "-s", &session, &command])
        .status()
        .expect("tmux starts");
    assert!(status.success());

    let screen = wait_for(&session, "Your move", Duration::from_secs(10));
    assert!(screen.contains("Sheep to move (human)"), "{screen}");
    tmux(&["send-keys", "-t", &session, "c", "3"]);
    let screen = wait_for(&session, "2. t ", Duration::from_secs(15));
    assert!(screen.contains("1. s c3"), "{screen}");
    assert!(screen.contains("2. t "), "the computer replied:\n{screen}");
    assert!(screen.contains("in hand 19"), "{screen}");

    tmux(&["send-keys", "-t", &session, "q"]);
    let screen = wait_for(&session, "EXITED-", Duration::from_secs(5));
    let alternate = tmux(&["display-message", "-p", "-t", &session, "#{alternate_on}"]);
    tmux(&["kill-session", "-t", &session]);
    assert!(screen.contains("EXITED-0"), "quit cleanly:\n{screen}");
    assert!(!screen.contains("Moves"), "the game's screen is gone:\n{screen}");
    assert_eq!(alternate.trim(), "0", "the alternate screen was left");
}
