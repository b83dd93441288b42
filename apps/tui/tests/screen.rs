//! Rendering with `TestBackend`, and the game loop driven by scripted events.

use std::path::Path;
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use tigers_and_sheep::Browse;
use tigers_and_sheep::Screen;
use tigers_and_sheep::board_view::{BoardView, Geometry};
use tigers_and_sheep::input::{Action, Hitmap, map_event};
use tigers_and_sheep::{App, Controller, apply};
use tns_board::{Bitboard, Board, Game, Point};
use tns_search::Limits;

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

fn row_text(buf: &Buffer, y: u16) -> String {
    (0..buf.area.width).map(|x| buf[(x, y)].symbol().to_string()).collect()
}

fn screen_text(buf: &Buffer) -> String {
    (0..buf.area.height).map(|y| row_text(buf, y) + "\n").collect()
}

fn render_board(scale: u16) -> (Buffer, Geometry) {
    let (w, h) = Geometry::size(scale);
    let area = Rect::new(0, 0, w, h);
    let geometry = Geometry::fit(area).unwrap();
    assert_eq!(geometry.scale, scale);
    let mut buf = Buffer::empty(area);
    let board: Board = "T3T/5/2S2/5/T3T t 19".parse().unwrap();
    let view = BoardView {
        board,
        geometry,
        cursor: None,
        selected: None,
        targets: Bitboard::EMPTY,
        last: Bitboard::EMPTY,
        captured: None,
        threatened: Bitboard::EMPTY,
        marks: tigers_and_sheep::board_view::Marks::default(),
        palette: tigers_and_sheep::Palette::COLOUR,
    };
    ratatui::widgets::Widget::render(view, area, &mut buf);
    (buf, geometry)
}

#[test]
fn board_at_each_scale() {
    for scale in 1..=3 {
        let (buf, g) = render_board(scale);
        let (x, y) = g.cell(p("a5"));
        let (cx, cy) = g.cell(p("c3"));
        match scale {
            1 => {
                assert_eq!(buf[(x, y)].symbol(), "T");
                assert_eq!(buf[(cx, cy)].symbol(), "S");
                assert_eq!(buf[(x + 1, y)].symbol(), "─");
                assert_eq!(buf[(x + 2, y + 1)].symbol(), "╲", "diagonal from a5");
                let (bx, by) = g.cell(p("b5"));
                assert_eq!(buf[(bx, by + 1)].symbol(), "│");
            }
            2 => {
                assert_eq!(row_text(&buf, y).split_whitespace().next(), Some("5"));
                assert!(row_text(&buf, y).contains("[T]"));
                assert!(row_text(&buf, cy).contains("[S]"));
            }
            _ => {
                assert_eq!(buf[(x, y)].symbol(), "T");
                assert_eq!(buf[(x - 1, y - 1)].symbol(), "┌");
                assert_eq!(buf[(cx + 1, cy + 1)].symbol(), "┘");
            }
        }
        // File letters under the bottom row, rank digits left of the first file.
        let text = screen_text(&buf);
        for c in ["a", "b", "c", "d", "e", "1", "5"] {
            assert!(text.contains(c), "scale {scale}: {c} missing\n{text}");
        }
    }
}

/// Two people at `board`, with `table` loaded.
/// Two people at `board`, without a table.
fn two_people(board: Board) -> App {
    App::new(
        Game::from_position(board),
        Controller::Human,
        Controller::Human,
        Limits::depth(1),
        None,
    )
}

fn two_people_at(board: Board, table: &std::sync::Arc<tns_tablebase::Tablebase>) -> App {
    let table = Some(std::sync::Arc::clone(table));
    App::new(
        Game::from_position(board),
        Controller::Human,
        Controller::Human,
        Limits::depth(1),
        table,
    )
}

fn human_game() -> App {
    App::new(Game::new(), Controller::Human, Controller::Human, Limits::depth(2), None)
}

fn draw(app: &App, w: u16, h: u16) -> (Buffer, Hitmap) {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    let mut hit = Hitmap::default();
    terminal.draw(|f| hit = tigers_and_sheep::draw(f, app)).unwrap();
    (terminal.backend().buffer().clone(), hit)
}

#[test]
fn whole_screen_mid_game() {
    let mut app = human_game();
    for m in ["c3", "a5b4", "b5"] {
        app.play(m.parse().unwrap());
    }
    let (buf, hit) = draw(&app, 100, 32);
    let text = screen_text(&buf);
    assert!(text.contains("Moves"), "{text}");
    // Numbered by turn: the sheep's move, then the tigers'.
    assert!(text.contains("1. c3     a5b4"), "{text}");
    assert!(text.contains("2. b5 "), "{text}");
    assert!(text.contains("Tigers to move (human)   in hand 18   dead 0"), "{text}");
    assert!(text.contains("Last turn: Sheep"), "{text}");
    let g = hit.board.unwrap();
    let (x, y) = g.cell(p("b4"));
    assert_eq!(buf[(x, y)].symbol(), "T");
}

#[test]
fn every_size_draws_without_panic() {
    let app = human_game();
    for w in [1, 10, 39, 40, 41, 60, 100, 200] {
        for h in [1, 5, 14, 15, 16, 30, 60] {
            let (buf, _) = draw(&app, w, h);
            if (w < tigers_and_sheep::MIN_SIZE.0 || h < tigers_and_sheep::MIN_SIZE.1)
                && w >= 10
                && h >= 5
            {
                assert!(screen_text(&buf).contains("Enlarge"), "{w}x{h}");
            }
        }
    }
}

fn click(hit: &Hitmap, point: Point) -> Action {
    let (col, row) = hit.board.unwrap().cell(point);
    let ev = Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: col,
        row,
        modifiers: KeyModifiers::NONE,
    });
    map_event(&ev, hit, &Screen::Play).unwrap()
}

fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

#[test]
fn clicks_and_keys_make_moves() {
    let mut app = human_game();
    let dir = std::env::temp_dir();
    let (_, hit) = draw(&app, 100, 32);
    // A click places a sheep.
    apply(&mut app, click(&hit, p("c3")), &dir);
    assert_eq!(app.game().moves().last().unwrap().to_string(), "c3");
    // Tiger: click a5 to select, then b4 to move.
    apply(&mut app, click(&hit, p("a5")), &dir);
    assert_eq!(app.selected(), Some(p("a5")));
    assert!(app.targets().contains(p("b4")));
    apply(&mut app, click(&hit, p("b4")), &dir);
    assert_eq!(app.game().moves().last().unwrap().to_string(), "a5b4");
    // Keyboard: the cursor is on b4, where the last click was; right to c4, up to c5, Enter.
    assert_eq!(app.cursor(), p("b4"));
    for ev in [key(KeyCode::Char('l')), key(KeyCode::Char('k')), key(KeyCode::Enter)] {
        let action = map_event(&ev, &hit, &Screen::Play).unwrap();
        apply(&mut app, action, &dir);
    }
    assert_eq!(app.game().moves().last().unwrap().to_string(), "c5");
    // Typing a move plays it.
    for c in "b4a5".chars() {
        apply(&mut app, map_event(&key(KeyCode::Char(c)), &hit, &Screen::Play).unwrap(), &dir);
    }
    assert_eq!(app.game().moves().last().unwrap().to_string(), "b4a5");
    assert_eq!(app.game().len(), 4);
}

#[test]
fn revert_and_undo_truncate_history() {
    let mut app =
        App::new(Game::new(), Controller::Human, Controller::heuristic(), Limits::depth(1), None);
    let dir = std::env::temp_dir();
    app.play("c3".parse().unwrap());
    // Let the computer reply.
    let deadline = Instant::now() + Duration::from_secs(10);
    while app.game().len() < 2 && Instant::now() < deadline {
        app.tick();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(app.game().len(), 2, "the computer replied");
    app.play("b5".parse().unwrap());
    assert_eq!(app.game().len(), 3);
    // Undo takes back the human's move (the computer had not replied yet).
    apply(&mut app, Action::Undo, &dir);
    assert_eq!(app.game().len(), 2);
    // Undo again takes back the computer's reply and the human's first move.
    apply(&mut app, Action::Undo, &dir);
    assert_eq!(app.game().len(), 0);
}

fn shift(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::SHIFT))
}

fn keys(app: &mut App, events: &[Event]) {
    for ev in events {
        if let Some(action) = map_event(ev, &Hitmap::default(), app.screen()) {
            apply(app, action, &std::env::temp_dir());
        }
    }
}

#[test]
fn review_looks_back_without_changing_the_game() {
    let mut app = human_game();
    for m in ["c3", "a5b4", "b5", "b4a4"] {
        app.play(m.parse().unwrap());
    }
    let moves = app.game().moves().to_vec();
    // ← twice: the position after the second move, with that move highlighted.
    keys(&mut app, &[key(KeyCode::Left), key(KeyCode::Left)]);
    assert_eq!(app.looking_back(), Some(2));
    assert_eq!(app.shown_board(), app.game().positions()[2]);
    assert_eq!(app.shown_last_move(), Some("a5b4".parse().unwrap()));
    let (buf, hit) = draw(&app, 100, 32);
    let text = screen_text(&buf);
    assert!(text.contains("Looking back: Sheep to move, in hand 19"), "{text}");
    assert!(app.message().starts_with("move 1 of 2 (ply 2 of 4)"), "{}", app.message());
    let g = hit.board.unwrap();
    let (x, y) = g.cell(p("b4"));
    assert_eq!(
        buf[(x, y)].symbol(),
        "T",
        "b4 holds the tiger after a5b4:
{text}"
    );
    let (x, y) = g.cell(p("b5"));
    assert_ne!(
        buf[(x, y)].symbol(),
        "S",
        "b5 is still empty then:
{text}"
    );
    // Moves are refused while looking back, and the game is as it was.
    app.play("c1".parse().unwrap());
    assert!(app.message().contains("End goes back"), "{}", app.message());
    assert_eq!(app.game().moves(), moves.as_slice());
    // Home, then → steps on; End and Esc go back to the game.
    keys(&mut app, &[key(KeyCode::Home)]);
    assert_eq!((app.looking_back(), app.shown_last_move()), (Some(0), None));
    keys(&mut app, &[key(KeyCode::Right)]);
    assert_eq!(app.looking_back(), Some(1));
    keys(&mut app, &[key(KeyCode::End)]);
    assert_eq!(app.looking_back(), None);
    keys(&mut app, &[key(KeyCode::Left), key(KeyCode::Esc)]);
    assert_eq!(app.looking_back(), None);
    assert_eq!(app.game().moves(), moves.as_slice(), "looking changed nothing");
    // A click on a move in the list shows the position after it.
    let (_, hit) = draw(&app, 100, 32);
    let list = hit.history.unwrap();
    let (number, width) = tigers_and_sheep::input::HISTORY_COLUMNS;
    let at = |column: u16, row: u16| {
        let ev = Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: list.area.x + column,
            row: list.area.y + row,
            modifiers: KeyModifiers::NONE,
        });
        map_event(&ev, &hit, &Screen::Play)
    };
    assert_eq!(at(number, 0), Some(Action::Browse(Browse::At(1))));
    assert_eq!(at(number + width, 1), Some(Action::Browse(Browse::At(4))));
    apply(&mut app, at(number + width, 0).unwrap(), &std::env::temp_dir());
    assert_eq!(app.looking_back(), Some(2));
    // t takes the game back there, on purpose; r plays the moves again.
    keys(&mut app, &[key(KeyCode::Char('t'))]);
    assert_eq!((app.looking_back(), app.game().len()), (None, 2));
    keys(&mut app, &[key(KeyCode::Char('r'))]);
    assert_eq!(app.game().len(), 3, "r redoes one move between two people");
    keys(&mut app, &[key(KeyCode::Char('r'))]);
    assert_eq!(app.game().moves(), moves.as_slice());
    keys(&mut app, &[key(KeyCode::Char('r'))]);
    assert_eq!(app.message(), "nothing to redo");
    // Shift+← still moves the cursor.
    let before = app.cursor();
    keys(&mut app, &[shift(KeyCode::Left)]);
    assert_eq!((app.cursor().x() + 1, app.looking_back()), (before.x(), None));
}

#[test]
fn redo_brings_back_a_move_and_the_computers_reply_and_a_new_move_ends_it() {
    let mut app =
        App::new(Game::new(), Controller::Human, Controller::heuristic(), Limits::depth(1), None);
    app.play("c3".parse().unwrap());
    let deadline = Instant::now() + Duration::from_secs(10);
    while app.game().len() < 2 && Instant::now() < deadline {
        app.tick();
        std::thread::sleep(Duration::from_millis(5));
    }
    let moves = app.game().moves().to_vec();
    assert_eq!(moves.len(), 2);
    keys(&mut app, &[key(KeyCode::Char('u'))]);
    assert_eq!(app.game().len(), 0);
    keys(&mut app, &[key(KeyCode::Char('r'))]);
    assert_eq!(app.game().moves(), moves.as_slice(), "the move and the reply came back");
    keys(&mut app, &[key(KeyCode::Char('u'))]);
    app.play("b5".parse().unwrap());
    keys(&mut app, &[key(KeyCode::Char('r'))]);
    assert_eq!(app.message(), "nothing to redo", "another move forgets what was taken back");
}

#[test]
fn the_move_list_numbers_turns_and_marks_kills() {
    // A tiger to move next to a sheep it can jump.
    let board: Board = "T3T/1S3/5/5/T3T t 19".parse().unwrap();
    let mut app = two_people(board);
    app.play("a5c3".parse().unwrap());
    let text = screen_text(&draw(&app, 100, 32).0);
    assert!(text.contains("played a5xc3"), "the last-turn panel marks it too:\n{text}");
    app.play("b1".parse().unwrap());
    let (buf, _) = draw(&app, 100, 32);
    let text = screen_text(&buf);
    assert!(text.contains("1. …      a5xc3"), "{text}");
    assert!(text.contains("2. b1"), "{text}");
}

#[test]
fn a_random_player_moves_at_once_and_specs_set_their_own_limits() {
    let random = Controller::parse("random").unwrap();
    let mut app = App::new(
        Game::new(),
        random,
        Controller::parse("heuristic:depth=2").unwrap(),
        Limits::time(Duration::from_secs(5)),
        None,
    );
    // Its player chooses on its thread like any other, at once: a few ticks and it has moved.
    let start = Instant::now();
    while app.game().is_empty() && start.elapsed() < Duration::from_secs(10) {
        app.tick();
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(app.game().len(), 1, "the random sheep moved");
    let (_, found) = app.last_turn(tns_board::Side::Sheep).unwrap();
    assert_eq!(found, None, "without searching: no depth, score or line to show");
    assert_eq!(app.limit_text(tns_board::Side::Tiger), "depth 2");
    let record = app.record();
    assert_eq!(record.tag("Tiger"), Some("easy"));
    assert_eq!(record.tag("TigerLimits"), Some("depth 2"));
    assert_eq!(record.tag("SheepLimits"), None, "random play has no limits");
    assert!(Controller::parse("heuristic:time=0").is_err());
}

#[test]
fn quit_returns_while_a_search_runs() {
    let mut app = App::new(
        Game::new(),
        Controller::heuristic(),
        Controller::heuristic(),
        Limits::default(),
        None,
    );
    app.tick();
    assert!(app.thinking().is_some(), "the computer started thinking");
    std::thread::sleep(Duration::from_millis(20));
    let dir = std::env::temp_dir();
    let quit = map_event(&key(KeyCode::Char('q')), &Hitmap::default(), &Screen::Play).unwrap();
    apply(&mut app, quit, &dir);
    assert!(app.leaving().is_some());
    // The search has no limit, so it only ends because quitting raised its stop flag; cancel
    // waits for it and hands the engine back.
    assert!(app.thinking().is_some(), "still searching");
    let (done, closed) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        app.close();
        let _ = done.send(app.thinking().is_none());
    });
    let stopped = closed.recv_timeout(Duration::from_secs(60));
    assert_eq!(stopped, Ok(true), "closing waited for the search, which stopped");
}

#[test]
fn help_lists_every_key() {
    let mut app = human_game();
    apply(&mut app, Action::ToggleHelp, &std::env::temp_dir());
    let (buf, _) = draw(&app, 100, 32);
    let text = screen_text(&buf);
    for (k, _) in tigers_and_sheep::help_rows() {
        assert!(text.contains(k), "{k}\n{text}");
    }
}

#[test]
fn status_shows_the_tablebase_verdict() {
    // The variant won by one kill builds in a moment; the verdict line reads any table.
    let table = std::sync::Arc::new(tns_tablebase::Tablebase::build(1, None, |_| {}).unwrap());
    let board: Board = "TS1ST/SSSSS/SSSSS/SSSSS/TSSST t 0".parse().unwrap();
    let app = two_people_at(board, &table);
    assert_eq!(app.verdict().as_deref(), Some("Tigers win in 1 ply"));
    let (buf, _) = draw(&app, 100, 32);
    let text = screen_text(&buf);
    assert!(text.contains("Tablebase: Tigers win in 1 ply"), "{text}");
    // No table, no verdict line.
    assert!(!screen_text(&draw(&human_game(), 100, 32).0).contains("Tablebase"));
}

#[test]
fn the_verdict_reaches_into_the_placement_with_its_layers() {
    // The 1-kill variant with its last placement layer: one sheep still in hand.
    let dir = std::env::temp_dir().join(format!("tns-tui-layers-{}", std::process::id()));
    let mut table = tns_tablebase::Tablebase::build(1, Some(&dir), |_| {}).unwrap();
    table.build_placement(&dir, 19, &|_| {}).unwrap();
    let board: Board = "TS1ST/SSSSS/SSSSS/SSSSS/T1SST t 1".parse().unwrap();
    let app = App::new(
        Game::from_position(board),
        Controller::Human,
        Controller::Human,
        Limits::depth(1),
        Some(std::sync::Arc::new(table)),
    );
    // No distance in the placement phase: the layers keep win, draw or loss only.
    assert_eq!(app.verdict().as_deref(), Some("Tigers win"));
    let text = screen_text(&draw(&app, 100, 32).0);
    assert!(text.contains("Tablebase: Tigers win"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Lets the game's ticks collect the hint asked for, as the game's loop does.
fn wait_for_hint(app: &mut App) {
    let start = Instant::now();
    while app.message() == "hint: thinking…" && start.elapsed() < Duration::from_secs(60) {
        app.tick();
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn press(app: &mut App, code: KeyCode) {
    if let Some(action) = map_event(&key(code), &Hitmap::default(), app.screen()) {
        apply(app, action, &std::env::temp_dir());
    }
}

#[test]
fn typing_while_the_hint_thinks_plays_the_typed_move() {
    // H, then c and 3 typed while the hint is worked out: the c is not swallowed when the hint
    // arrives, and c3 is played, not the hint.
    let mut app = human_game();
    app.move_cursor(1, 1);
    let cursor = app.cursor();
    press(&mut app, KeyCode::Char('H'));
    press(&mut app, KeyCode::Char('c'));
    wait_for_hint(&mut app);
    assert_eq!(app.typed(), "c", "the hint took the typed text");
    assert!(app.hinted().is_some(), "the hint is shown");
    assert_eq!(app.cursor(), cursor, "nor the cursor");
    press(&mut app, KeyCode::Char('3'));
    assert_eq!(app.game().moves(), ["c3".parse().unwrap()]);
    // An Enter after it acts on nothing typed: the tigers are to move, nobody is placed.
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.game().len(), 1);
}

#[test]
fn enter_after_a_refused_typed_move_does_not_act_on_the_cursor() {
    let mut app = human_game();
    assert_eq!(app.cursor(), "c3".parse().unwrap());
    // a5 holds a tiger: refused, and said.
    press(&mut app, KeyCode::Char('a'));
    press(&mut app, KeyCode::Char('5'));
    assert!(app.game().is_empty());
    assert!(app.message().contains("a5"), "{}", app.message());
    // Enter does not place a sheep on the cursor's point.
    press(&mut app, KeyCode::Enter);
    assert!(app.game().is_empty(), "Enter played {:?}", app.game().moves());
    // The next key starts a new move, which plays.
    press(&mut app, KeyCode::Char('b'));
    press(&mut app, KeyCode::Char('2'));
    assert_eq!(app.game().moves(), ["b2".parse().unwrap()]);
}

#[test]
fn a_hint_puts_the_cursor_on_its_move_and_enter_plays_it() {
    // The sheep to move: the hint is a placement, and Enter places it.
    let mut app = human_game();
    press(&mut app, KeyCode::Char('H'));
    wait_for_hint(&mut app);
    let hint = app.hinted().expect("a hint");
    assert_eq!(app.cursor(), hint.to());
    // Without a table the hint is the shipped network's, and says so.
    assert!(
        app.message().starts_with(&format!("hint from the strongest: {hint} ")),
        "{}",
        app.message()
    );
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.game().moves().last(), Some(&hint));
    // Now the tigers: the hint is a step or a jump; its piece is selected and Tab plays it.
    press(&mut app, KeyCode::Char('H'));
    wait_for_hint(&mut app);
    let hint = app.hinted().expect("a hint");
    assert_eq!((app.selected(), app.cursor()), (hint.from(), hint.to()));
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.game().moves().last(), Some(&hint));
    assert_eq!(app.hinted(), None);
}

#[test]
#[ignore = "needs the built tablebase (TNS_TABLEBASE_DIR); CI runs it"]
fn the_hint_comes_from_the_network_where_the_table_does_not_hold_the_position() {
    // A table of the movement phase and the last two placement layers only, as CI builds it:
    // at the start the table knows nothing, and the hint is the network's, not the heuristic's
    // behind a table that never answers (named "the table").
    let dir = std::env::var_os("TNS_TABLEBASE_DIR").expect("TNS_TABLEBASE_DIR names the table");
    let partial = std::env::temp_dir().join(format!("tns-partial-table-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir_all(&partial).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".tnstb") || name == "k5-p18.tnspl" || name == "k5-p19.tnspl" {
            std::os::unix::fs::symlink(Path::new(&dir).join(&*name), partial.join(&*name)).unwrap();
        }
    }
    let table = std::sync::Arc::new(tns_tablebase::Tablebase::load(5, &partial).unwrap());
    assert_eq!(table.placement_from(), Some(18));
    let hint_at = |board: Board| {
        let mut app = two_people_at(board, &table);
        app.hint();
        wait_for_hint(&mut app);
        assert!(app.hinted().is_some(), "a hint");
        app.message().to_owned()
    };
    let start = hint_at(Board::START);
    assert!(start.starts_with("hint from the strongest: "), "{start}");
    // 18 sheep placed, the sheep to place their 19th: the table holds it.
    let late: Board = "SSSSS/SSSSS/SSSS1/S1TT1/TS1ST s 2".parse().unwrap();
    assert_eq!(late.in_hand(), 2);
    let late = hint_at(late);
    let _ = std::fs::remove_dir_all(&partial);
    assert!(late.starts_with("hint from the table: "), "{late}");
}

#[test]
#[ignore = "needs the built tablebase (TNS_TABLEBASE_DIR); CI runs it"]
fn the_hint_comes_from_the_table_where_it_knows_the_position() {
    // The real game's table (a variant's is refused by the perfect player, and the hint would
    // quietly be the network's): the tigers to move win at once with one of two jumps, and one
    // of their moves only draws; the hint wins, and says whose it is.
    let dir = std::env::var_os("TNS_TABLEBASE_DIR").expect("TNS_TABLEBASE_DIR names the table");
    let table = tns_tablebase::Tablebase::load(5, std::path::Path::new(&dir)).unwrap();
    let table = std::sync::Arc::new(table);
    let board: Board = "SSSSS/S1TTS/STS2/S1S1S/TSSSS t 0".parse().unwrap();
    let verdicts = table.verdicts(board).unwrap();
    let best = verdicts[0].1.wdl;
    assert!(verdicts.iter().any(|&(_, v)| v.wdl < best), "some move throws the result away");
    let mut app = two_people_at(board, &table);
    app.hint();
    wait_for_hint(&mut app);
    let hint = app.hinted().expect("a hint");
    assert!(app.message().starts_with("hint from the table: "), "{}", app.message());
    let kept = verdicts.iter().find(|&&(m, _)| m == hint).map(|&(_, v)| v.wdl);
    assert_eq!(kept, Some(best), "{hint} keeps the position's result");
}

#[test]
fn esc_cancels_and_never_quits_and_backspace_deletes() {
    let mut app = human_game();
    press(&mut app, KeyCode::Char('a'));
    assert_eq!(app.typed(), "a");
    press(&mut app, KeyCode::Backspace);
    assert_eq!(app.typed(), "");
    // A mistyped column, cleared with Backspace, then the right one: c3 is placed.
    press(&mut app, KeyCode::Char('b'));
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Char('c'));
    press(&mut app, KeyCode::Char('3'));
    assert_eq!(app.game().moves().last().map(ToString::to_string).as_deref(), Some("c3"));
    app.new_game();
    press(&mut app, KeyCode::Char('d'));
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.typed(), "");
    press(&mut app, KeyCode::Esc);
    assert!(app.leaving().is_none());
    assert!(app.message().contains("q quits"), "{}", app.message());
}

#[test]
fn quitting_or_starting_again_with_unsaved_moves_asks_first() {
    let mut app = human_game();
    // Nothing played: q quits at once.
    let mut fresh = human_game();
    press(&mut fresh, KeyCode::Char('q'));
    assert!(fresh.leaving().is_some());

    app.play("c3".parse().unwrap());
    press(&mut app, KeyCode::Char('q'));
    assert!(app.leaving().is_none(), "asks first");
    assert!(matches!(app.screen(), Screen::Ask { .. }));
    let text = screen_text(&draw(&app, 100, 32).0);
    assert!(text.contains("Quit without saving?"), "{text}");
    press(&mut app, KeyCode::Char('n'));
    assert!(app.leaving().is_none());
    assert_eq!(app.game().len(), 1);

    // n opens the new-game form; Enter asks too; y starts again.
    press(&mut app, KeyCode::Char('n'));
    assert!(matches!(app.screen(), Screen::NewGame { .. }));
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.screen(), Screen::Ask { .. }));
    press(&mut app, KeyCode::Char('y'));
    assert!(app.game().is_empty());
    assert!(matches!(app.screen(), Screen::Play));

    // s saves, then quits; once saved, q quits at once.
    app.play("c3".parse().unwrap());
    let dir = std::env::temp_dir().join(format!("tns-tui-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    apply(&mut app, Action::Quit, &dir);
    apply(&mut app, Action::SaveAndConfirm, &dir);
    assert!(app.leaving().is_some());
    let saved: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    assert_eq!(saved.len(), 1);
    // The whole path is kept for the line printed on exit.
    assert_eq!(app.saved_to(), Some(saved[0].path().as_path()));
    std::fs::remove_dir_all(&dir).unwrap();

    // Ctrl+C quits at once, saved or not; the line printed on exit says where the game is
    // kept and that --resume takes it up.
    let mut again = human_game();
    assert_eq!(again.resume_note(), None, "no autosave, nothing to take up");
    let autosave = std::env::temp_dir().join("tns-resume-note-autosave.txt");
    again.set_autosave(Some(autosave.clone()));
    assert_eq!(again.resume_note(), None, "no move, nothing to take up");
    again.play("c3".parse().unwrap());
    let ctrl_c = Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    let action = map_event(&ctrl_c, &Hitmap::default(), again.screen()).unwrap();
    apply(&mut again, action, &std::env::temp_dir());
    assert!(again.leaving().is_some());
    let note = again.resume_note().expect("a game under way, unsaved");
    assert!(note.contains("--resume") && note.contains(&autosave.display().to_string()), "{note}");
}

#[test]
fn every_panel_is_whole_from_80_by_24_up_and_the_minimum_shows_a_board() {
    for (w, h) in [(80, 24), (120, 40), (200, 50)] {
        // The help overlay: every key and the whole of every description.
        let mut app = human_game();
        app.open_help();
        let text = screen_text(&draw(&app, w, h).0);
        for (k, what) in tigers_and_sheep::help_rows() {
            assert!(text.contains(&format!("{k}  {what}")), "{w}x{h}: {k} {what}\n{text}");
        }
        // The status panel: the prompt and the longest messages end on screen.
        let mut app = human_game();
        for message in [
            "hint from the strongest: a5b4 (Enter or Tab plays it, Esc drops it)",
            "Quit without saving? y: quit, s: save and quit, n: stay",
        ] {
            app.set_message(message);
            let text = screen_text(&draw(&app, w, h).0);
            assert!(text.contains("or type it"), "{w}x{h}\n{text}");
            // Wrapped or not, its last word is on screen.
            let last_word = message.rsplit(' ').next().unwrap_or_default();
            assert!(text.contains(last_word), "{w}x{h}: {last_word}\n{text}");
        }
        let (_, hit) = draw(&app, w, h);
        assert!(hit.board.is_some() && hit.history.is_some(), "{w}x{h}");
    }
    // The smallest size the game asks for still draws a board to play on.
    let (w, h) = tigers_and_sheep::MIN_SIZE;
    let (buf, hit) = draw(&human_game(), w, h);
    assert!(hit.board.is_some(), "{}", screen_text(&buf));
    assert!(!screen_text(&buf).contains("too small"));
}

#[test]
fn the_result_is_shown_once() {
    // Five sheep dead: the tigers have won.
    let mut app = App::new(
        Game::from_position("TS2T/5/5/5/T3T t 15".parse().unwrap()),
        Controller::Human,
        Controller::Human,
        Limits::depth(1),
        None,
    );
    app.play("a5c5".parse().unwrap());
    let text = screen_text(&draw(&app, 100, 32).0);
    assert_eq!(text.matches("Tigers win").count(), 1, "{text}");
    assert!(!text.contains("to move"), "{text}");
    assert!(text.contains("n: new game"), "{text}");
}

#[test]
fn results_are_said_as_chances_from_the_sheeps_end_with_one_wording_for_forced_ones() {
    use tigers_and_sheep::{bar_position, result_text};
    use tns_board::Side;
    use tns_search::{Chances, Score, Wdl};
    let even = Chances::from_probabilities(0.1, 0.1);
    let sheep_ahead = Chances::from_probabilities(0.3, 0.02);
    let zero = Score::DRAW;
    assert_eq!(result_text(zero, sheep_ahead, Side::Sheep), "Sheep 30% · Draw 68% · Tigers 2%");
    assert_eq!(result_text(zero, sheep_ahead, Side::Tiger), "Sheep 2% · Draw 68% · Tigers 30%");
    let won = Chances::certain(Wdl::Win);
    assert_eq!(result_text(Score::win_in(7), won, Side::Sheep), "Sheep win in 7 plies");
    assert_eq!(result_text(-Score::win_in(1), won.flipped(), Side::Sheep), "Tigers win in 1 ply");
    // The bar: even in the middle, at an end for a certain win, towards the side ahead.
    assert_eq!(bar_position(even, Side::Sheep, 10), 5);
    assert_eq!(bar_position(won, Side::Tiger, 10), 10);
    assert_eq!(bar_position(won, Side::Sheep, 10), 0);
    assert!(bar_position(sheep_ahead, Side::Sheep, 10) < 5);

    // While a computer thinks: the score from a named side, the expected line and the bar.
    let mut app =
        App::new(Game::new(), Controller::heuristic(), Controller::Human, Limits::depth(4), None);
    app.tick();
    let deadline = Instant::now() + Duration::from_secs(30);
    while app.thinking().is_some() && Instant::now() < deadline {
        if app.live_report().is_some() {
            let text = screen_text(&draw(&app, 100, 32).0);
            assert!(text.contains("Thinking… depth"), "{text}");
            assert!(text.contains("expects"), "{text}");
            assert!(text.contains("Sheep ") && text.contains(" Tigers"), "{text}");
        }
        std::thread::sleep(Duration::from_millis(1));
        app.tick();
    }
    // The last turn says the same things once the move is played.
    assert_eq!(app.game().len(), 1, "{}", app.message());
    let text = screen_text(&draw(&app, 100, 32).0);
    assert!(text.contains("expected "), "{text}");
    // The result in chances, from the sheep's end to the tigers' (or a forced result).
    assert!(
        (text.contains("Sheep ") && text.contains("% · Draw ") && text.contains("% · Tigers "))
            || text.contains("plies"),
        "{text}"
    );
}

#[test]
fn saved_games_are_dated_tagged_and_never_overwrite() {
    use tigers_and_sheep::{limits_of_tag, utc_of};
    assert_eq!(utc_of(0), ("1970-01-01".into(), "00:00:00".into()));
    assert_eq!(utc_of(1_764_533_151), ("2025-11-30".into(), "20:05:51".into()));
    assert_eq!(utc_of(951_782_400), ("2000-02-29".into(), "00:00:00".into()));

    let dir = std::env::temp_dir().join(format!("tns-tui-games-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut app =
        App::new(Game::new(), Controller::Human, Controller::heuristic(), Limits::depth(4), None);
    app.play("c3".parse().unwrap());
    app.save(&dir);
    app.save(&dir);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|f| f.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names
            .iter()
            .all(|n| n.starts_with("tns-") && Path::new(n).extension().is_some_and(|x| x == "txt")),
        "{names:?}"
    );
    let text = std::fs::read_to_string(dir.join(&names[0])).unwrap();
    let record: tns_board::GameRecord = text.parse().unwrap();
    assert_eq!(record.tag("Sheep"), Some("human"));
    assert_eq!(record.tag("Tiger"), Some("hard"));
    assert_eq!(record.tag("SheepLimits"), None);
    let limits = record.tag("TigerLimits").and_then(limits_of_tag);
    assert_eq!(limits, Some(Limits::depth(4)));
    assert!(record.tag("Date").is_some_and(|d| d.len() == 10));
    assert!(!app.unsaved());
    assert_eq!(limits_of_tag("2.5 s a move"), Some(Limits::time(Duration::from_secs_f64(2.5))));
    assert_eq!(limits_of_tag("soon"), None);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_position_can_be_copied() {
    let mut app = human_game();
    app.play("c3".parse().unwrap());
    apply(&mut app, Action::CopyPosition, &std::env::temp_dir());
    assert_eq!(app.clipboard(), Some("T3T/5/2S2/5/T3T t 19"));
    assert!(app.message().contains("T3T/5/2S2/5/T3T t 19"), "{}", app.message());
    // Looking back, the position shown is the one copied.
    apply(&mut app, Action::Browse(Browse::Back), &std::env::temp_dir());
    apply(&mut app, Action::CopyPosition, &std::env::temp_dir());
    assert_eq!(app.clipboard(), Some("T3T/5/5/5/T3T s 20"));
    assert_eq!(tigers_and_sheep::base64(b""), "");
    assert_eq!(tigers_and_sheep::base64(b"f"), "Zg==");
    assert_eq!(tigers_and_sheep::base64(b"fo"), "Zm8=");
    assert_eq!(tigers_and_sheep::base64(b"foo"), "Zm9v");
    assert_eq!(tigers_and_sheep::base64(b"foob"), "Zm9vYg==");
}

#[test]
fn no_color_draws_without_colours() {
    let mut app = human_game();
    app.play("c3".parse().unwrap());
    let coloured = |buf: &Buffer| {
        buf.content
            .iter()
            .any(|c| c.fg != ratatui::style::Color::Reset || c.bg != ratatui::style::Color::Reset)
    };
    assert!(coloured(&draw(&app, 100, 32).0));
    app.set_no_color(true);
    let (buf, _) = draw(&app, 100, 32);
    assert!(!coloured(&buf));
    assert!(screen_text(&buf).contains("Moves"));
}

#[test]
fn no_color_marks_the_selection_its_destinations_and_the_last_move_by_shape() {
    let mut app = human_game();
    app.play("c3".parse().unwrap());
    app.set_no_color(true);
    // The tigers to move: select the tiger on a5, whose destinations are a4, b5 and b4.
    app.activate(p("a5"));
    assert_eq!(app.selected(), Some(p("a5")));
    let (buf, hit) = draw(&app, 100, 32);
    let g = hit.board.unwrap();
    let at = |q: &str| {
        let (x, y) = g.cell(p(q));
        buf[(x, y)].clone()
    };
    for target in ["a4", "b5", "b4"] {
        assert_eq!(at(target).symbol(), "+", "{target} is a destination");
    }
    assert_eq!(at("d4").symbol(), "·", "d4 is not");
    let selected = at("a5");
    assert!(selected.modifier.contains(ratatui::style::Modifier::UNDERLINED));
    // The last move, c3, is italic and in round brackets (at this size, boxed round).
    let last = at("c3");
    assert!(last.modifier.contains(ratatui::style::Modifier::ITALIC), "{last:?}");
    let text = screen_text(&buf);
    assert!(text.contains('╭') || text.contains("(S)"), "{text}");
}

#[test]
fn a_key_saves_the_shown_position_as_a_picture() {
    let dir = std::env::temp_dir().join(format!("tns-tui-pictures-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut app = human_game();
    for m in ["c3", "a5b4"] {
        app.play(m.parse().unwrap());
    }
    // Look back one move, then P: the picture is of the position under review.
    keys(&mut app, &[key(KeyCode::Left)]);
    let action = map_event(&key(KeyCode::Char('P')), &Hitmap::default(), app.screen()).unwrap();
    apply(&mut app, action, &dir);
    assert!(app.message().starts_with("picture saved: "), "{}", app.message());
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|f| f.path()).collect();
    assert_eq!(files.len(), 1);
    let svg = std::fs::read_to_string(&files[0]).unwrap();
    assert!(svg.contains("<title>tiger on a5</title>"), "the tiger has not moved yet");
    assert!(svg.contains("<title>sheep on c3</title>"));
    assert!(svg.contains("class=\"last\""), "c3, the last move, is ringed");
    assert!(app.game().len() == 2, "saving a picture changes nothing");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn below_the_minimum_size_no_key_plays_unseen() {
    let mut app = human_game();
    let (_, hit) = draw(&app, 30, 10);
    assert!(hit.too_small);
    let dir = std::env::temp_dir();
    for code in [KeyCode::Char('c'), KeyCode::Char('3'), KeyCode::Enter, KeyCode::Char('H')] {
        if let Some(action) = map_event(&key(code), &hit, app.screen()) {
            apply(&mut app, action, &dir);
        }
    }
    assert!(app.game().is_empty(), "played unseen: {:?}", app.game().moves());
    // q still works, and so does the answer to its question.
    let quit = map_event(&key(KeyCode::Char('q')), &hit, app.screen());
    assert_eq!(quit, Some(Action::Quit));
    // At a size that shows the game, keys play again.
    let (_, hit) = draw(&app, 80, 24);
    assert!(!hit.too_small);
    for code in [KeyCode::Char('c'), KeyCode::Char('3')] {
        if let Some(action) = map_event(&key(code), &hit, app.screen()) {
            apply(&mut app, action, &dir);
        }
    }
    assert_eq!(app.game().len(), 1);
}

#[test]
fn the_message_is_whole_at_every_size_even_while_the_computer_thinks() {
    use tigers_and_sheep::layout::wrapped_rows;
    assert_eq!(wrapped_rows("", 10), 0);
    assert_eq!(wrapped_rows("one two", 7), 1);
    assert_eq!(wrapped_rows("one two", 6), 2);
    assert_eq!(wrapped_rows("abcdefghij", 5), 2);
    assert_eq!(wrapped_rows("abcdefghij k", 5), 3);
    // A computer to move and thinking, and a long message with a path in it: at every size
    // from the minimum up, every word of the message is on the screen.
    let mut app =
        App::new(Game::new(), Controller::heuristic(), Controller::Human, Limits::depth(30), None);
    // On clocks too, which take a line of the panel.
    app.set_clock(tigers_and_sheep::clock::parse_clock("90+30").unwrap());
    app.tick();
    let messages = [
        "saved /root/.local/share/tigers-and-sheep/games/game-2026-12-01-1.txt".to_string(),
        "Quit without saving? y: quit, n: stay, s: save and quit".to_string(),
    ];
    for message in &messages {
        app.set_message(message.clone());
        for w in 40..=120 {
            for h in 15..=40 {
                let (buf, _) = draw(&app, w, h);
                let text: String =
                    screen_text(&buf).split_whitespace().collect::<Vec<_>>().join(" ");
                for word in message.split_whitespace() {
                    // A word wider than the panel is cut into pieces: look for its start.
                    let start: String = word.chars().take(20).collect();
                    assert!(
                        text.contains(&start),
                        "{w}x{h}: {word:?} missing from\n{}",
                        screen_text(&buf)
                    );
                }
            }
        }
    }
}

#[test]
fn the_last_turn_panel_follows_take_backs_and_redos() {
    // The computer plays the tigers at depth 2: its turns carry a depth and a score.
    let mut app =
        App::new(Game::new(), Controller::Human, Controller::heuristic(), Limits::depth(2), None);
    let reply = |app: &mut App| {
        let deadline = Instant::now() + Duration::from_secs(10);
        let len = app.game().len();
        while app.game().len() == len && Instant::now() < deadline {
            app.tick();
            std::thread::sleep(Duration::from_millis(2));
        }
    };
    for m in ["c3", "b2"] {
        app.play(m.parse().unwrap());
        reply(&mut app);
    }
    assert_eq!(app.game().len(), 4);
    let (second, info) = app.last_turn(tns_board::Side::Tiger).unwrap();
    assert_eq!(Some(second), app.game().moves().last().copied());
    assert_eq!(info.map(|t| t.depth), Some(2));
    // Undo (the human's move and the reply): the panel shows the first reply, with its depth.
    app.undo();
    assert_eq!(app.game().len(), 2);
    let (first, info) = app.last_turn(tns_board::Side::Tiger).unwrap();
    assert_eq!(Some(first), app.game().moves().last().copied());
    assert_eq!(info.map(|t| (t.mv, t.depth)), Some((first, 2)), "the depth stays");
    // Redo both: the second reply is back, with what its search found.
    app.redo();
    app.redo();
    assert_eq!(app.game().len(), 4);
    let (again, info) = app.last_turn(tns_board::Side::Tiger).unwrap();
    assert_eq!((again, info.map(|t| t.mv)), (second, Some(second)));
    // Never a move that is not the game's: a panel is only the last move's of its side.
    let shown = draw(&app, 100, 32).0;
    let text = screen_text(&shown);
    assert!(text.contains(&format!("played {second}")), "{text}");
}

#[test]
fn the_help_scrolls_where_it_does_not_fit() {
    let mut app = human_game();
    press(&mut app, KeyCode::Char('?'));
    assert!(matches!(app.screen(), Screen::Help { .. }));
    let text = screen_text(&draw(&app, 40, 15).0);
    assert!(text.contains("more"), "the title says there is more:\n{text}");
    assert!(!text.contains("quit at once"), "{text}");
    // ↓ until the last key shows; the help stays open while it scrolls.
    for _ in 0..40 {
        press(&mut app, KeyCode::Down);
    }
    assert!(matches!(app.screen(), Screen::Help { .. }));
    let text = screen_text(&draw(&app, 40, 15).0);
    assert!(text.contains("quit at once"), "the last key is reachable:\n{text}");
    // Any other key closes it; a large screen shows it whole, without scrolling.
    press(&mut app, KeyCode::Char('x'));
    assert!(!matches!(app.screen(), Screen::Help { .. }));
    press(&mut app, KeyCode::Char('?'));
    let text = screen_text(&draw(&app, 120, 40).0);
    assert!(text.contains("any key closes") && text.contains("quit at once"), "{text}");
}

/// A game from `position` between two humans, with `moves` played.
fn game_from(position: &str, moves: &[&str]) -> App {
    let game = Game::from_position(position.parse().unwrap());
    let mut app = App::new(game, Controller::Human, Controller::Human, Limits::depth(2), None);
    for m in moves {
        app.play(m.parse().unwrap());
    }
    app
}

#[test]
fn the_point_of_a_capture_is_marked_on_the_next_screen() {
    // The tiger on a5 jumps the sheep on b4 to c3: b4 shows an x, with and without colours.
    for plain in [false, true] {
        let mut app = game_from("T3T/1S3/5/5/T3T t 19", &["a5c3"]);
        app.set_no_color(plain);
        let (buf, hit) = draw(&app, 100, 30);
        let g = hit.board.expect("a board");
        let (x, y) = g.cell(p("b4"));
        assert_eq!(buf[(x, y)].symbol(), "x", "plain {plain}\n{}", screen_text(&buf));
        // Nowhere else: the other empty points keep their dot.
        let (ex, ey) = g.cell(p("d4"));
        assert_eq!(buf[(ex, ey)].symbol(), "·");
        // The next move clears it.
        app.play("d2".parse().unwrap());
        let (buf, _) = draw(&app, 100, 30);
        assert_eq!(buf[(x, y)].symbol(), "·", "plain {plain}");
    }
}

#[test]
fn the_threat_view_marks_the_sheep_open_to_a_jump() {
    // A sheep on b4 with c3 empty behind it: the tiger on a5 could jump it; the one on c1, next
    // to no tiger, is safe. v marks b4 and not c1, and v again takes the marks away.
    let mut app = game_from("T3T/1S3/5/5/T1S1T s 18", &[]);
    assert_eq!(app.board().capturable_sheep(), Bitboard::from_point(p("b4")));
    let marked = |app: &App, point: &str| {
        let (buf, hit) = draw(app, 100, 30);
        let g = hit.board.expect("a board");
        assert!(g.scale >= 2, "room for the marks");
        let (x, y) = g.cell(p(point));
        buf[(x - 1, y)].symbol() == "!" && buf[(x + 1, y)].symbol() == "!"
    };
    assert!(!marked(&app, "b4"));
    press(&mut app, KeyCode::Char('v'));
    assert!(app.message().contains("1 sheep open to a jump"), "{}", app.message());
    assert!(marked(&app, "b4") && !marked(&app, "c1"));
    app.set_no_color(true);
    assert!(marked(&app, "b4"), "the marks are shapes, not only colours");
    press(&mut app, KeyCode::Char('v'));
    assert!(!marked(&app, "b4"));
}

#[test]
fn the_game_in_progress_is_autosaved_after_every_change() {
    let dir = std::env::temp_dir().join(format!("tns-autosave-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("autosave.txt");
    let mut app = human_game();
    app.autosave_now();
    assert!(!path.exists(), "no autosave file unless one is asked for");
    app.set_autosave(Some(path.clone()));
    let saved = |path: &Path| {
        let record: tns_board::GameRecord = std::fs::read_to_string(path).unwrap().parse().unwrap();
        record.replay().unwrap().moves().iter().map(ToString::to_string).collect::<Vec<_>>()
    };
    for m in ["c3", "a5b4"] {
        app.play(m.parse().unwrap());
        app.autosave_now();
    }
    assert_eq!(saved(&path), ["c3", "a5b4"]);
    // A take-back is a change too: the file follows it.
    press(&mut app, KeyCode::Char('u'));
    app.autosave_now();
    assert_eq!(saved(&path), ["c3"], "u took back the last move");
    // A resignation is a change: the file's result says it.
    press(&mut app, KeyCode::Char('R'));
    press(&mut app, KeyCode::Char('y'));
    app.autosave_now();
    assert!(std::fs::read_to_string(&path).unwrap().contains("resignation"));
    // u takes back the resignation alone, and the file follows.
    press(&mut app, KeyCode::Char('u'));
    app.autosave_now();
    assert_eq!(saved(&path), ["c3"]);
    assert!(!std::fs::read_to_string(&path).unwrap().contains("resignation"));
    // No change, no write: a file put in its place stays.
    std::fs::write(&path, "not rewritten").unwrap();
    app.autosave_now();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "not rewritten");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_analysis_needs_a_table_and_says_so() {
    let mut app = human_game();
    press(&mut app, KeyCode::Char('m'));
    assert!(!app.show_analysis());
    assert!(app.message().contains("needs the table"), "{}", app.message());
    // It says how to get one here: B builds the endgame table.
    assert!(app.message().contains("B builds the endgame table"), "{}", app.message());
    assert_eq!(app.analysis(), tigers_and_sheep::board_view::Marks::default());
}

#[test]
#[ignore = "needs the built tablebase (TNS_TABLEBASE_DIR); CI runs it"]
fn the_analysis_marks_each_move_by_the_tables_verdict() {
    // The tigers to move, winning at once with two jumps; one step only draws. Select the
    // tiger on b3: its jump b3d3 keeps the win, its step b3b2 loses it for a draw... each
    // destination is marked as the table says, and drawn so, with and without colours.
    let dir = std::env::var_os("TNS_TABLEBASE_DIR").expect("TNS_TABLEBASE_DIR names the table");
    let table = tns_tablebase::Tablebase::load(5, Path::new(&dir)).unwrap();
    let table = std::sync::Arc::new(table);
    let board: Board = "SSSSS/S1TTS/STS2/S1S1S/TSSSS t 0".parse().unwrap();
    let verdicts = table.verdicts(board).unwrap();
    let best = verdicts[0].1.wdl;
    let mut app = two_people_at(board, &table);
    press(&mut app, KeyCode::Char('m'));
    assert!(app.show_analysis(), "{}", app.message());
    for from in ["b3", "d4", "a1"] {
        app.select(Some(p(from)));
        let marks = app.analysis();
        for &(m, v) in verdicts.iter().filter(|(m, _)| m.from() == Some(p(from))) {
            let to = m.to();
            let expected = if v.wdl == best {
                marks.keeps
            } else if v.wdl == tns_tablebase::Wdl::Draw {
                marks.holds
            } else {
                marks.loses
            };
            assert!(expected.contains(to), "{m}: {v:?}");
        }
        let all = marks.keeps | marks.holds | marks.loses;
        assert_eq!(all, app.targets(), "every destination of {from} is marked, nothing else");
    }
    // On screen without colours: a1's destinations show their letters.
    app.select(Some(p("a1")));
    app.set_no_color(true);
    let marks = app.analysis();
    let (buf, hit) = draw(&app, 100, 30);
    let g = hit.board.expect("a board");
    for to in marks.keeps | marks.holds | marks.loses {
        let (x, y) = g.cell(to);
        let letter = if marks.keeps.contains(to) {
            "+"
        } else if marks.holds.contains(to) {
            "="
        } else {
            "-"
        };
        assert_eq!(buf[(x, y)].symbol(), letter, "{to}");
    }
    press(&mut app, KeyCode::Char('m'));
    assert_eq!(app.analysis(), tigers_and_sheep::board_view::Marks::default());
}

#[test]
#[ignore = "needs the built tablebase (TNS_TABLEBASE_DIR); CI runs it"]
fn in_a_lost_position_the_longest_defence_keeps_and_nothing_is_thrown_away() {
    // The sheep to move, lost whatever they play: the sheep on c3's moves all lose. The one
    // that loses slowest keeps the result (the longest defence), the others lose sooner, none
    // is marked as throwing away what was never held, and the distances are shown.
    let dir = std::env::var_os("TNS_TABLEBASE_DIR").expect("TNS_TABLEBASE_DIR names the table");
    let table = std::sync::Arc::new(tns_tablebase::Tablebase::load(5, Path::new(&dir)).unwrap());
    let board: Board = "SSSSS/S1TTS/STS2/S1S1S/TSSSS s 0".parse().unwrap();
    let verdicts = table.verdicts(board).unwrap();
    assert_eq!(verdicts[0].1.wdl, tns_tablebase::Wdl::Loss, "the position is lost");
    let longest = verdicts[0].1;
    let mut app = two_people_at(board, &table);
    press(&mut app, KeyCode::Char('m'));
    app.select(Some(p("c3")));
    let marks = app.analysis();
    assert!(marks.loses.is_empty() && marks.holds.is_empty(), "{marks:?}");
    for &(m, v) in verdicts.iter().filter(|(m, _)| m.from() == Some(p("c3"))) {
        let set = if v == longest { marks.keeps } else { marks.sooner };
        assert!(set.contains(m.to()), "{m}: {v:?} {marks:?}");
    }
    assert_eq!(marks.keeps | marks.sooner, app.targets());
    let line = app.analysis_line().expect("the distances are shown");
    assert!(line.starts_with("d2 Tigers win in 20 (longest)"), "{line}");
}

/// A person's sheep against the heuristic's tigers at depth 1.
fn sheep_against_the_heuristic() -> App {
    let tigers = Controller::Computer(tns_match::PlayerSpec::heuristic());
    App::new(Game::new(), Controller::Human, tigers, Limits::depth(1), None)
}

#[test]
fn a_person_resigns_after_a_yes_and_the_record_says_so() {
    // Against the computer, the human side resigns, even while the computer would move.
    let mut app = sheep_against_the_heuristic();
    app.play("c3".parse().unwrap());
    press(&mut app, KeyCode::Char('R'));
    assert!(app.message().starts_with("Resign for the sheep?"), "{}", app.message());
    assert_eq!(app.outcome(), None, "nothing happens before the answer");
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.outcome(), None);
    press(&mut app, KeyCode::Char('R'));
    press(&mut app, KeyCode::Char('y'));
    let outcome = app.outcome().expect("the game is over");
    assert_eq!(outcome.winner, Some(tns_board::Side::Tiger));
    // The status panel says the result, once; the message what can be done.
    let text = screen_text(&draw(&app, 100, 32).0);
    assert_eq!(text.matches("Tigers win: the sheep resigned").count(), 1, "{text}");
    assert!(app.message().starts_with("g: review, u: take back"), "{}", app.message());
    // Nothing more is played, and the record (which parses back) has the result and why.
    app.tick();
    assert_eq!(app.game().len(), 1, "no search after a resignation");
    let text = app.record().to_string();
    assert!(text.contains("[Termination \"resignation\"]"), "{text}");
    let back: tns_board::GameRecord = text.parse().unwrap();
    assert_eq!(back.result, tns_board::RecordResult::TigerWin);
    // u takes the resignation back, and the move stays.
    press(&mut app, KeyCode::Char('u'));
    assert_eq!(app.outcome(), None);
}

#[test]
fn two_people_agree_a_draw_and_a_computer_takes_no_offer() {
    let mut app = human_game();
    app.play("c3".parse().unwrap());
    press(&mut app, KeyCode::Char('='));
    assert!(
        app.message().starts_with("The tigers offer a draw: sheep, y agrees"),
        "{}",
        app.message()
    );
    press(&mut app, KeyCode::Char('y'));
    let outcome = app.outcome().expect("drawn");
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.reason, tns_board::EndReason::Agreement);
    assert!(app.record().to_string().contains("[Result \"1/2-1/2\"]"));
    assert!(!app.human_to_move(), "the game is over");
    let mut app = sheep_against_the_heuristic();
    press(&mut app, KeyCode::Char('='));
    assert!(app.message().contains("the computer plays on"), "{}", app.message());
    assert_eq!(app.outcome(), None);
}

#[test]
fn a_seat_chosen_on_the_command_line_keeps_its_player_when_a_table_comes() {
    let mut app = App::new(
        Game::new(),
        Controller::parse("heuristic").unwrap(),
        Controller::network(),
        Limits::depth(1),
        None,
    );
    // The tigers were left to the default, the sheep named: only the tigers take the table.
    app.set_takes_table([false, true]);
    let table = std::sync::Arc::new(tns_tablebase::Tablebase::build(1, None, |_| {}).unwrap());
    app.adopt_table(std::sync::Arc::clone(&table));
    assert_eq!(app.player(tns_board::Side::Sheep).name(), "hard");
    assert_eq!(app.player(tns_board::Side::Tiger).name(), "strongest:table=on");
    // With a table, the new-game form offers the network searching with it; without, not.
    let offered = |mut app: App| {
        press(&mut app, KeyCode::Char('n'));
        app.new_game_form().unwrap().players.iter().any(|p| p == "strongest:table=on")
    };
    assert!(offered(two_people_at(Board::START, &table)));
    assert!(!offered(human_game()));
}

#[test]
fn the_review_keeps_the_verdict_in_view_and_says_its_keys_once() {
    let table = std::sync::Arc::new(tns_tablebase::Tablebase::build(1, None, |_| {}).unwrap());
    let board: Board = "T1SST/SSSSS/SSSSS/SSSSS/TSSST t 0".parse().unwrap();
    let mut app = two_people_at(board, &table);
    app.play("a5b5".parse().unwrap());
    app.browse(Browse::Back);
    for (w, h) in [(100, 32), (80, 24), (60, 20)] {
        let text = screen_text(&draw(&app, w, h).0);
        assert!(text.contains("Looking back"), "{w}x{h}\n{text}");
        assert!(text.contains("Tablebase: "), "{w}x{h}: the verdict is pushed out\n{text}");
        let told = text.matches("take back").count() + text.matches("takes the game").count();
        assert_eq!(told, 1, "{w}x{h}: the keys are said once\n{text}");
    }
}

#[test]
fn at_60_by_20_the_verdict_what_is_typed_and_the_results_are_whole() {
    let table = std::sync::Arc::new(tns_tablebase::Tablebase::build(1, None, |_| {}).unwrap());
    let board: Board = "T1SST/SSSSS/SSSSS/SSSSS/TSSST s 0".parse().unwrap();
    let mut app = two_people_at(board, &table);
    app.type_char('a');
    app.type_char('4');
    for (w, h) in [(60, 20), (80, 24), (100, 32)] {
        let text = screen_text(&draw(&app, w, h).0);
        assert!(text.contains("Tablebase: "), "{w}x{h}: the verdict is lost\n{text}");
        assert!(text.contains("typed: a4"), "{w}x{h}: what is typed is hidden\n{text}");
        assert!(text.contains("dead 0"), "{w}x{h}: the counts are cut\n{text}");
    }
}

#[test]
fn m_in_the_placement_with_the_movement_table_alone_says_what_it_needs() {
    let table = std::sync::Arc::new(tns_tablebase::Tablebase::build(1, None, |_| {}).unwrap());
    let mut app = two_people_at(Board::START, &table);
    press(&mut app, KeyCode::Char('m'));
    assert!(app.show_analysis());
    assert!(app.message().contains("placement needs the whole table"), "{}", app.message());
    // In the movement phase, the table answers and the colours are told.
    let board: Board = "T1SST/SSSSS/SSSSS/SSSSS/TSSST s 0".parse().unwrap();
    let mut app = two_people_at(board, &table);
    press(&mut app, KeyCode::Char('m'));
    assert!(app.message().contains("green keeps"), "{}", app.message());
}

#[test]
fn s_save_first_says_where_the_game_went() {
    let mut app = human_game();
    app.play("c3".parse().unwrap());
    let dir = std::env::temp_dir().join(format!("tns-tui-save-first-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    press(&mut app, KeyCode::Char('n'));
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.screen(), Screen::Ask { .. }));
    apply(&mut app, Action::SaveAndConfirm, &dir);
    assert!(app.game().is_empty(), "the new game started");
    let saved = std::fs::read_dir(&dir).unwrap().flatten().next().unwrap().path();
    assert!(app.message().contains(&saved.display().to_string()), "{}", app.message());
    assert!(app.message().contains("new game"), "{}", app.message());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_finished_game_offers_to_save_it() {
    let board: Board = "TS2T/5/5/5/T3T t 15".parse().unwrap();
    let mut app = two_people(board);
    app.play("a5xc5".parse().unwrap());
    assert!(app.outcome().is_some(), "five sheep are dead");
    assert!(app.message().contains("s: save"), "{}", app.message());
    // An ending on the board offers the review as the players' endings do, and `g` opens it.
    assert!(app.message().starts_with("g: review"), "{}", app.message());
    press(&mut app, KeyCode::Char('g'));
    assert!(app.game_review().is_some(), "{}", app.message());
}

#[test]
fn trapping_the_tigers_ends_the_game_and_offers_the_review() {
    // The sheep to move close the last gap: every tiger is trapped.
    let board: Board = "TSSST/SSSSS/SSSS1/SSSSS/TSSST s 0".parse().unwrap();
    let mut app = two_people(board);
    let closing = app.game().legal_moves().iter().copied().find(|&m| {
        let mut after = app.game().clone();
        after.play(m).is_ok() && after.outcome().is_some()
    });
    let Some(closing) = closing else { panic!("a move traps the tigers") };
    app.play(closing);
    assert!(app.outcome().is_some());
    assert!(app.message().starts_with("g: review"), "{}", app.message());
    // The finished game's panel keeps the dead count beside the result.
    let text = screen_text(&draw(&app, 100, 32).0);
    assert!(text.contains("dead 0"), "{text}");
}

#[test]
fn typing_a_point_selects_the_piece_there() {
    let board: Board = "T3T/5/2S2/5/T3T t 19".parse().unwrap();
    let mut app = two_people(board);
    press(&mut app, KeyCode::Char('e'));
    press(&mut app, KeyCode::Char('5'));
    assert_eq!(app.selected(), Some(p("e5")), "the tiger on e5 is selected");
    assert_eq!(app.cursor(), p("e5"));
    assert!(!app.targets().is_empty(), "its moves are shown");
    press(&mut app, KeyCode::Char('d'));
    press(&mut app, KeyCode::Char('5'));
    assert_eq!(app.game().moves(), ["e5d5".parse().unwrap()]);
    // A point without the mover's piece selects nothing.
    press(&mut app, KeyCode::Char('c'));
    press(&mut app, KeyCode::Char('3'));
    assert_eq!(app.selected(), None);
}

#[test]
fn a_kill_is_typed_with_or_without_its_x() {
    for typed in ["a5xc5", "a5c5"] {
        let board: Board = "TS2T/5/5/5/T3T t 15".parse().unwrap();
        let mut app = two_people(board);
        for c in typed.chars() {
            press(&mut app, KeyCode::Char(c));
        }
        assert_eq!(app.game().moves(), ["a5xc5".parse().unwrap()], "{typed}: {}", app.message());
        let text = screen_text(&draw(&app, 100, 32).0);
        assert!(text.contains("a5xc5"), "the move list writes the x:\n{text}");
    }
}

#[test]
fn typing_a_taken_point_in_the_placement_says_why() {
    let mut app = human_game();
    for c in "a5".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    assert!(app.game().is_empty());
    assert!(
        app.message().contains("a5 is taken: while sheep are in hand (20 now)"),
        "{}",
        app.message()
    );
}

#[test]
fn the_review_marks_a_thrown_result_charts_the_game_and_jumps_to_it() {
    use tns_tablebase::Tablebase;
    // The variant won by one kill: a sheep position where one move keeps the result and
    // another loses.
    let table = std::sync::Arc::new(Tablebase::build(1, None, |_| {}).unwrap());
    let tns_puzzles::TurningPoint { board: start, keeps: best, loses: losing } =
        tns_puzzles::turning_point(&table, tns_board::Side::Sheep).expect("a turning point");
    let mut app = two_people_at(start, &table);
    press(&mut app, KeyCode::Char('!'));
    assert!(app.message().contains("g reviews"), "{}", app.message());
    app.play(losing);
    press(&mut app, KeyCode::Char('g'));
    assert!(app.message().contains(&format!("{losing}??")), "{}", app.message());
    assert!(app.message().contains(&format!("{best} kept it")), "{}", app.message());
    assert_eq!(app.looking_back(), Some(0), "the board shows the position before the mistake");
    let text = screen_text(&draw(&app, 100, 32).0);
    assert!(text.contains("Review: sheep"), "the chart is drawn:\n{text}");
    assert!(text.contains(&format!("{losing}??")), "the move list marks it:\n{text}");
    press(&mut app, KeyCode::Char('!'));
    assert_eq!(app.looking_back(), Some(0), "the only mistake again");
    // g again closes it; a changed game forgets it.
    press(&mut app, KeyCode::Char('g'));
    assert!(app.game_review().is_none());
    assert!(!screen_text(&draw(&app, 100, 32).0).contains("Review: sheep"));
}
