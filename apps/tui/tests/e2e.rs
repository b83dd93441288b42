//! The real binary in tmux: play a move by keyboard, see the computer's reply, look back with
//! ← and find the game unchanged, take a hint
//! with Enter, find that Esc does not quit and that `q` asks, quit, and find the terminal
//! restored. Needs tmux, so it is ignored by default; CI installs tmux and runs it
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
    // Its own games folder: the game autosaves there after every move.
    let dir = std::env::temp_dir().join(format!("tns-e2e-games-{}", std::process::id()));
    let command = format!(
        "{bin} --sheep human --tiger heuristic --time 0.2 --save-dir {}; echo EXITED-$?; sleep 30",
        dir.display()
    );
    tmux(&["kill-session", "-t", &session]);
    let status = Command::new("tmux")
        .args(["new-session", "-d", "-x", "100", "-y", "32", "-s", &session, &command])
        .status()
        .expect("tmux starts");
    assert!(status.success());

    let screen = wait_for(&session, "Your move", Duration::from_secs(10));
    assert!(screen.contains("Sheep to move (human)"), "{screen}");
    tmux(&["send-keys", "-t", &session, "c", "3"]);
    let screen = wait_for(&session, "Sheep to move (human)   in hand 19", Duration::from_secs(15));
    assert!(screen.contains("1. c3    "), "{screen}");
    assert!(screen.contains("in hand 19"), "the computer replied:\n{screen}");

    // ← shows the start again (c3 empty, 20 in hand), and the game is unchanged: End returns
    // to it with c3 still played.
    tmux(&["send-keys", "-t", &session, "Left", "Left"]);
    let screen = wait_for(&session, "Looking back: Sheep to move", Duration::from_secs(5));
    assert!(screen.contains("in hand 20"), "the start is shown:\n{screen}");
    tmux(&["send-keys", "-t", &session, "End"]);
    let screen = wait_for(&session, "back to the game", Duration::from_secs(5));
    assert!(screen.contains("in hand 19") && screen.contains("1. c3    "), "{screen}");

    // A hint, taken with Enter: the sheep's second move is played.
    tmux(&["send-keys", "-t", &session, "H"]);
    let screen = wait_for(&session, "Enter or Tab plays it", Duration::from_secs(10));
    assert!(screen.contains("hint from the network: "), "{screen}");
    tmux(&["send-keys", "-t", &session, "Enter"]);
    let screen = wait_for(&session, "in hand 18", Duration::from_secs(10));
    assert!(screen.contains("2. "), "the hint was played:\n{screen}");

    // At 80x24 the help overlay is whole (its last line's last words are on screen) and so is
    // the status panel's message.
    tmux(&["resize-window", "-t", &session, "-x", "80", "-y", "24"]);
    tmux(&["send-keys", "-t", &session, "?"]);
    let screen = wait_for(&session, "quit at once", Duration::from_secs(5));
    assert!(screen.contains("Ctrl+C  quit at once"), "the help's last line:\n{screen}");
    assert!(screen.contains("Keys (any key closes)"), "the help's title:\n{screen}");
    tmux(&["send-keys", "-t", &session, "?"]);
    let screen = wait_for(&session, "Your move: click, Enter, or type it", Duration::from_secs(5));
    assert!(screen.contains("Your move: click, Enter, or type it"), "{screen}");
    assert_eq!(screen.lines().count(), 24, "{screen}");

    // Esc does not quit; q with moves not saved asks, n stays, then q and y quit.
    tmux(&["send-keys", "-t", &session, "Escape"]);
    std::thread::sleep(Duration::from_millis(300));
    tmux(&["send-keys", "-t", &session, "q"]);
    let screen = wait_for(&session, "Quit without saving?", Duration::from_secs(5));
    assert!(screen.contains("Quit without saving?"), "q asks first:\n{screen}");
    assert!(!screen.contains("EXITED-"), "{screen}");
    tmux(&["send-keys", "-t", &session, "y"]);
    let screen = wait_for(&session, "EXITED-", Duration::from_secs(5));
    let alternate = tmux(&["display-message", "-p", "-t", &session, "#{alternate_on}"]);
    tmux(&["kill-session", "-t", &session]);
    assert!(screen.contains("EXITED-0"), "quit cleanly:\n{screen}");
    assert!(!screen.contains("Moves"), "the game's screen is gone:\n{screen}");
    assert_eq!(alternate.trim(), "0", "the alternate screen was left");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "needs tmux; CI runs it"]
fn ctrl_c_then_resume_brings_the_game_back() {
    let bin = env!("CARGO_BIN_EXE_tigers-and-sheep");
    let session = format!("tns-e2e-resume-{}", std::process::id());
    let dir = std::env::temp_dir().join(format!("tns-e2e-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let start = |extra: &str| {
        tmux(&["kill-session", "-t", &session]);
        let command =
            format!("{bin} --save-dir {} {extra}; echo EXITED-$?; sleep 30", dir.display());
        let status = Command::new("tmux")
            .args(["new-session", "-d", "-x", "100", "-y", "32", "-s", &session, &command])
            .status()
            .expect("tmux starts");
        assert!(status.success());
    };
    // Two humans: c3, then a5b4 typed; Ctrl+C quits at once, nothing saved by hand.
    start("--sheep human --tiger human");
    wait_for(&session, "Your move", Duration::from_secs(10));
    tmux(&["send-keys", "-t", &session, "c", "3"]);
    wait_for(&session, "1. c3", Duration::from_secs(5));
    tmux(&["send-keys", "-t", &session, "a", "5", "b", "4"]);
    let screen = wait_for(&session, "a5b4", Duration::from_secs(5));
    assert!(screen.contains("1. c3    a5b4"), "{screen}");
    tmux(&["send-keys", "-t", &session, "C-c"]);
    let screen = wait_for(&session, "EXITED-", Duration::from_secs(5));
    assert!(screen.contains("EXITED-0"), "{screen}");
    // --resume: the same position, the same players.
    start("--resume");
    let screen = wait_for(&session, "Your move", Duration::from_secs(10));
    tmux(&["kill-session", "-t", &session]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(screen.contains("1. c3    a5b4"), "the moves came back:\n{screen}");
    assert!(screen.contains("Sheep to move (human)") && screen.contains("in hand 19"), "{screen}");
}
