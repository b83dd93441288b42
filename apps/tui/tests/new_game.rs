//! A new game from inside the game (`n`): each side's player, the time and the start chosen in
//! a form, without restarting the program.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use tigers_and_sheep::input::{Hitmap, map_event};
use tigers_and_sheep::{App, Controller, Screen, apply};
use tns_board::{Board, Game, Side};
use tns_search::Limits;

fn screen(app: &App, w: u16, h: u16) -> (String, Hitmap) {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    let mut hit = Hitmap::default();
    terminal.draw(|f| hit = tigers_and_sheep::draw(f, app)).unwrap();
    let buf = terminal.backend().buffer();
    let text = (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n");
    (text.collect(), hit)
}

fn press(app: &mut App, code: KeyCode) {
    let (_, hit) = screen(app, 100, 32);
    let event = Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
    if let Some(action) = map_event(&event, &hit, app.screen()) {
        apply(app, action, &std::env::temp_dir());
    }
}

fn keys(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

#[test]
fn the_form_chooses_the_sides_the_time_and_starts_without_restarting() {
    let mut app =
        App::new(Game::new(), Controller::Human, Controller::network(), Limits::depth(1), None);
    press(&mut app, KeyCode::Char('n'));
    assert!(matches!(app.screen(), Screen::NewGame { .. }));
    let (text, _) = screen(&app, 100, 32);
    assert!(text.contains("New game"), "{text}");
    assert!(text.contains("‹ you ›"), "the sheep's row is chosen, with the player now:\n{text}");
    assert!(text.contains("strongest (network)"), "the level, its spec beside:\n{text}");
    // Sheep: you → random; tigers: strongest → hard (one back); time: clock 5+3.
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Down);
    for _ in 0..4 {
        press(&mut app, KeyCode::Right);
    }
    let (text, _) = screen(&app, 100, 32);
    assert!(text.contains("‹ clock 5+3 ›"), "{text}");
    // Nothing was played, so Enter starts at once.
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.screen(), Screen::Play));
    assert_eq!(app.player(Side::Sheep).name(), "random");
    assert_eq!(app.player(Side::Tiger).name(), "hard");
    let clock = app.clock().expect("on clocks");
    assert_eq!(clock.control.base.as_secs(), 300);
    assert!(
        app.message().starts_with("new game: sheep random, tigers hard (heuristic), clock 5+3"),
        "{}",
        app.message()
    );
    let (text, _) = screen(&app, 100, 32);
    assert!(text.contains("Sheep [5:0"), "the clocks are shown:\n{text}");
}

#[test]
fn a_typed_start_position_is_checked_and_esc_leaves_the_game_as_it_was() {
    let mut app =
        App::new(Game::new(), Controller::Human, Controller::Human, Limits::depth(1), None);
    app.play("c3".parse().unwrap());
    press(&mut app, KeyCode::Char('n'));
    // Start row (above the first, around), then the typed position: a bad one is refused.
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Right);
    keys(&mut app, "T3T/5/5/5/T3T s 2x");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.screen(), Screen::NewGame { .. }), "the form stays open");
    let (text, _) = screen(&app, 100, 32);
    assert!(text.contains("T3T/5/5/5/T3T s 2x"), "{text}");
    assert!(text.contains("not a position: "), "{text}");
    // Mended with Backspace, a position with the tigers to move: Enter asks (c3 is not saved).
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Backspace);
    keys(&mut app, "t 19");
    let typed = app.new_game_form().unwrap().typed.clone();
    assert_eq!(typed, "T3T/5/5/5/T3T t 19");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.screen(), Screen::Ask { .. }));
    // n: back to the form; Esc: back to the game, c3 still played.
    press(&mut app, KeyCode::Char('n'));
    assert!(matches!(app.screen(), Screen::NewGame { .. }));
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.screen(), Screen::Play));
    assert_eq!(app.game().len(), 1);
    // Again, and yes: the game starts from the typed position.
    press(&mut app, KeyCode::Char('n'));
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Right);
    keys(&mut app, "T3T/5/5/5/T3T t 19");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('y'));
    let start: Board = "T3T/5/5/5/T3T t 19".parse().unwrap();
    assert_eq!(app.game().start(), start);
    assert!(app.game().is_empty());
}

#[test]
fn the_form_fits_from_40_by_15_up_and_offers_perfect_only_with_the_table() {
    let mut app =
        App::new(Game::new(), Controller::Human, Controller::Human, Limits::depth(1), None);
    press(&mut app, KeyCode::Char('n'));
    let form = app.new_game_form().unwrap();
    assert!(!form.players.iter().any(|p| p == "perfect"), "{:?}", form.players);
    assert_eq!(form.players.first().map(String::as_str), Some("human"));
    for (w, h) in [(40, 15), (60, 20), (80, 24), (120, 40)] {
        let (text, _) = screen(&app, w, h);
        for word in ["Sheep", "Tigers", "Time", "Start", "Enter", "Esc"] {
            assert!(text.contains(word), "{w}x{h}: {word} missing:\n{text}");
        }
    }
    // With a long typed position and its error, the keys' line is still there.
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Right);
    keys(&mut app, "SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS");
    press(&mut app, KeyCode::Enter);
    assert!(app.new_game_form().unwrap().error.is_some());
    for (w, h) in [(40, 15), (60, 20), (80, 24), (120, 40)] {
        let (text, _) = screen(&app, w, h);
        assert!(text.contains("Esc"), "{w}x{h}: the keys' line is cut:\n{text}");
    }
}

/// The game as `main` starts it without `--sheep` or `--tiger`: the default players, then the
/// start screen.
fn started_without_sides() -> App {
    let mut app =
        App::new(Game::new(), Controller::network(), Controller::network(), Limits::depth(1), None);
    app.open_start_screen();
    app
}

#[test]
fn the_start_screen_asks_whom_you_play_and_nothing_moves_until_enter() {
    let mut app = started_without_sides();
    assert!(matches!(app.screen(), Screen::NewGame { .. }));
    let (text, _) = screen(&app, 100, 32);
    assert!(text.contains("Tigers and Sheep"), "{text}");
    assert!(text.contains("‹ you ›"), "the sheep are yours at first:\n{text}");
    assert!(text.contains("strongest (network)"), "{text}");
    assert!(text.contains("Enter play") && text.contains("Esc quit"), "{text}");
    // The computer would be the sheep's player behind the form: it does not move.
    for _ in 0..20 {
        app.tick();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(app.game().is_empty() && app.thinking().is_none(), "nobody moves on the start screen");
    // The tigers' level one down, to hard; Enter plays.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.screen(), Screen::Play));
    assert_eq!(*app.player(Side::Sheep), Controller::Human);
    assert_eq!(app.player(Side::Tiger).name(), "hard");
    assert!(app.new_game_form().is_none());
    app.play("c3".parse().unwrap());
    assert_eq!(app.game().len(), 1, "the game is on");
}

#[test]
fn esc_on_the_start_screen_quits_and_n_later_is_the_usual_form() {
    let mut app = started_without_sides();
    press(&mut app, KeyCode::Esc);
    assert!(app.leaving().is_some(), "there is no game behind the start screen to go back to");
    let mut app = started_without_sides();
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('n'));
    let (text, _) = screen(&app, 100, 32);
    assert!(text.contains("New game") && text.contains("Esc cancel"), "{text}");
    press(&mut app, KeyCode::Esc);
    assert!(app.leaving().is_none() && matches!(app.screen(), Screen::Play));
}

#[test]
fn the_start_screen_fits_from_40_by_15_up() {
    let app = started_without_sides();
    for (w, h) in [(40, 15), (60, 20), (80, 24), (120, 40)] {
        let (text, _) = screen(&app, w, h);
        for word in ["Sheep", "Tigers", "Time", "Enter", "Esc"] {
            assert!(text.contains(word), "{w}x{h}: {word} missing:\n{text}");
        }
    }
}

#[test]
fn behind_the_start_screen_nobody_is_said_to_think() {
    let app = started_without_sides();
    let (text, _) = screen(&app, 100, 32);
    assert!(!text.contains("Thinking"), "{text}");
    assert!(!text.contains("to move (network)"), "no player is named before the choice:\n{text}");
}

#[test]
fn q_and_question_mark_on_the_start_screen_do_what_the_frame_says() {
    let mut app = started_without_sides();
    press(&mut app, KeyCode::Char('?'));
    assert!(matches!(app.screen(), Screen::Help { .. }), "? opens the help");
    press(&mut app, KeyCode::Esc);
    assert!(
        !matches!(app.screen(), Screen::Help { .. })
            && matches!(app.screen(), Screen::NewGame { .. }),
        "closing it, the start screen is back"
    );
    press(&mut app, KeyCode::Char('q'));
    assert!(app.leaving().is_some(), "q quits");
}
