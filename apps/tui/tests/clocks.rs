//! Games on clocks (`--clock`): both shown, run for the side to move, punched after a move,
//! counted for computers, a fallen flag loses and is recorded, and a saved game's clocks and
//! ending come back with it.

use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use tigers_and_sheep::clock::parse_clock;
use tigers_and_sheep::{App, Controller, clock_of, ending_of};
use tns_board::{EndReason, Game, GameRecord, Outcome, RecordResult, Side};
use tns_match::TimeControl;
use tns_search::Limits;

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| _ = tigers_and_sheep::draw(f, app)).unwrap();
    let buf: &Buffer = terminal.backend().buffer();
    (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
}

fn humans() -> App {
    App::new(Game::new(), Controller::Human, Controller::Human, Limits::depth(1), None)
}

#[test]
fn both_clocks_are_shown_and_the_running_one_is_marked() {
    let mut app = humans();
    app.set_clock(parse_clock("5+3").unwrap());
    for (w, h) in [(100, 32), (80, 24), (60, 20), (40, 15)] {
        let text = screen(&app, w, h);
        assert!(text.contains("Sheep [5:0"), "{w}x{h}: the sheep's clock runs:\n{text}");
        assert!(text.contains("Tigers 5:03"), "{w}x{h}: the tigers' waits, full:\n{text}");
    }
    // After the sheep's move the tigers' clock runs, and the sheep gained 3 s.
    app.play("c3".parse().unwrap());
    let faces = app.clock_faces().unwrap();
    assert!(faces[1].running && !faces[0].running);
    assert!(faces[0].left > Duration::from_secs(303), "{:?}", faces[0].left);
    let text = screen(&app, 100, 32);
    assert!(text.contains("Tigers [5:0"), "{text}");
    // The record says the control, in PGN's seconds, and the time each side has left.
    let record = app.record().to_string();
    assert!(record.contains("[TimeControl \"300+3\"]"), "{record}");
    assert!(record.contains("[SheepClock \"30"), "{record}");
}

#[test]
fn a_fallen_flag_loses_on_time_and_the_record_says_so() {
    let mut app = humans();
    // 60 ms each, no increment: the sheep think too long.
    // (Shorter than --clock allows, which is a second.)
    app.set_clock(TimeControl {
        base: Duration::from_millis(60),
        increment: Duration::ZERO,
        moves: None,
    });
    std::thread::sleep(Duration::from_millis(100));
    app.tick();
    let outcome = app.outcome().expect("the flag fell");
    assert_eq!(outcome, Outcome::lost_on_time(Side::Sheep));
    // The panel says the result once; the message what can be done, and u takes nothing back.
    assert!(app.message().starts_with("g: review, n: new game"), "{}", app.message());
    app.undo();
    assert_eq!(app.outcome(), Some(outcome), "a flag that fell stays fallen");
    assert!(app.message().contains("lost on time"), "{}", app.message());
    // Nothing more is played, the clocks stop, and the record has the result and why.
    app.play("c3".parse().unwrap());
    assert_eq!(app.game().len(), 0);
    assert!(app.clock_faces().unwrap().iter().all(|f| !f.running));
    let text = app.record().to_string();
    assert!(text.contains("[Termination \"time forfeit\"]"), "{text}");
    let back: GameRecord = text.parse().unwrap();
    assert_eq!(back.result, RecordResult::TigerWin);
    // And a game loaded from it ends the same way.
    assert_eq!(ending_of(&back), Some(outcome));
    let text = screen(&app, 100, 32);
    assert!(text.contains("Tigers win on time: the sheep's flag fell"), "{text}");
    assert_eq!(text.matches("Tigers win on time").count(), 1, "said once:\n{text}");
}

#[test]
fn a_computers_time_comes_off_its_clock() {
    // The heuristic with no depth of its own, against a person, on a 0+1 clock: it moves
    // well before its flag falls, and its clock shows the time it used.
    let mut app = App::new(
        Game::new(),
        Controller::heuristic(),
        Controller::Human,
        Limits::time(Duration::from_secs(30)),
        None,
    );
    app.set_clock(parse_clock("0+1").unwrap());
    let start = Instant::now();
    while app.game().is_empty() && start.elapsed() < Duration::from_secs(5) {
        app.tick();
        std::thread::sleep(Duration::from_millis(2));
    }
    assert_eq!(app.game().len(), 1, "the computer moved on its clock, not its 30 s");
    assert_eq!(app.outcome(), None);
    let faces = app.clock_faces().unwrap();
    // It started with 1 s and gained 1 s: it has less than 2 s, and more than 1.
    assert!(faces[0].left < Duration::from_secs(2), "{:?}", faces[0].left);
    assert!(faces[0].left > Duration::from_secs(1), "{:?}", faces[0].left);
    assert!(app.limit_text(Side::Sheep).contains("0+1"), "{}", app.limit_text(Side::Sheep));
}

#[test]
fn a_take_back_keeps_the_time_used() {
    let mut app = humans();
    app.set_clock(parse_clock("1+0").unwrap());
    app.play("c3".parse().unwrap());
    app.play("a5b4".parse().unwrap());
    let before = app.clock_faces().unwrap()[1].left;
    // Two people: u takes back the tigers' move, and their clock runs again from what it had.
    app.undo();
    assert_eq!(app.game().len(), 1);
    let after = app.clock_faces().unwrap();
    assert!(after[1].running, "the tigers' clock runs again");
    assert!(after[1].left <= before, "{:?} then {:?}", before, after[1].left);
}

#[test]
fn taking_moves_back_takes_their_increments_back() {
    // 1+5 between two people: c3 then u, again and again, gained 5 s each time.
    let mut app = humans();
    app.set_clock(parse_clock("1+5").unwrap());
    let start = app.clock_faces().unwrap()[0].left;
    for _ in 0..10 {
        app.play("c3".parse().unwrap());
        app.undo();
        assert!(app.game().is_empty());
    }
    let now = app.clock_faces().unwrap()[0].left;
    assert!(now <= start, "{now:?} after ten take-backs, {start:?} before");
}

#[test]
fn the_last_autosave_keeps_the_time_spent_on_the_move_in_progress() {
    let dir = std::env::temp_dir().join(format!("tns-clock-autosave-{}", std::process::id()));
    let path = dir.join("autosave.txt");
    let mut app = humans();
    app.set_autosave(Some(path.clone()));
    app.set_clock(parse_clock("1+0").unwrap());
    app.play("c3".parse().unwrap());
    app.autosave_now();
    let tiger_left = |path: &std::path::Path| {
        let record: GameRecord = std::fs::read_to_string(path).unwrap().parse().unwrap();
        clock_of(&record).unwrap().unwrap().1.unwrap().1
    };
    assert!(tiger_left(&path) >= Duration::from_millis(59_900));
    // The tigers think 300 ms, then the program ends: the file says so (a resume gives
    // nothing back), where an ordinary autosave, nothing having changed, writes nothing.
    std::thread::sleep(Duration::from_millis(300));
    app.autosave_now();
    assert!(tiger_left(&path) >= Duration::from_millis(59_900), "no change, no write");
    app.close();
    assert!(tiger_left(&path) <= Duration::from_millis(59_700), "{:?}", tiger_left(&path));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_take_back_of_a_resignation_keeps_the_moves() {
    let mut app = humans();
    app.play("c3".parse().unwrap());
    app.end_as(Outcome::resigned(Side::Tiger));
    app.undo();
    assert_eq!((app.outcome(), app.game().len()), (None, 1), "only the resignation went");
}

#[test]
fn a_saved_games_clocks_and_ending_read_back() {
    // As the game writes it: the tigers lost on time after 1. c3.
    let mut app = humans();
    app.set_clock(parse_clock("0+1").unwrap());
    app.play("c3".parse().unwrap());
    app.end_as(Outcome::lost_on_time(Side::Tiger));
    let text = app.record().to_string();
    let text = text
        .lines()
        .map(|l| match l.split_once(' ') {
            Some(("[SheepClock", _)) => "[SheepClock \"0.8\"]",
            Some(("[TigerClock", _)) => "[TigerClock \"12.5\"]",
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let record: GameRecord = text.parse().unwrap();
    let (control, left) = clock_of(&record).unwrap().expect("a clock");
    assert_eq!((control.base, control.increment), (Duration::ZERO, Duration::from_secs(1)));
    assert_eq!(left, Some((Duration::from_millis(800), Duration::from_millis(12_500))));
    let ending = ending_of(&record).expect("an ending");
    assert_eq!((ending.winner, ending.reason), (Some(Side::Sheep), EndReason::TimeForfeit));
    // A tag that names no chosen ending, or a result that does not fit it, is none.
    let other: GameRecord = text.replace("time forfeit", "five sheep dead").parse().unwrap();
    assert_eq!(ending_of(&other), None);
    // A damaged clock tag is an error, never a quiet reset.
    let no_time: GameRecord = text.replace("\"0+1\"", "\"0+0\"").parse().unwrap();
    assert!(clock_of(&no_time).unwrap_err().to_string().contains("gives no time"));
    let garbled: GameRecord = text.replace("\"0.8\"", "\"abc\"").parse().unwrap();
    assert!(clock_of(&garbled).unwrap_err().to_string().contains("SheepClock"));
    let one: GameRecord = text
        .lines()
        .filter(|l| !l.starts_with("[TigerClock"))
        .collect::<Vec<_>>()
        .join("\n")
        .parse()
        .unwrap();
    assert!(clock_of(&one).unwrap_err().to_string().contains("one side's clock"));
}
