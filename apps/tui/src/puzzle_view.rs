//! Drawing the puzzle screen, and its keys and clicks.

use std::time::Duration;

use ratatui::Frame;
use ratatui::crossterm::event::{
    self, Event, KeyCode, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::{Constraint, Layout};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};
use tns_board::Bitboard;

use crate::board_view::{BoardView, Geometry, Marks};
use crate::puzzles::{Attempt, PuzzleScreen};
use crate::theme::Theme;

/// The side panel's width.
const PANEL: u16 = 36;

/// Draws the screen; the board's geometry, for clicks.
pub fn draw(frame: &mut Frame, screen: &PuzzleScreen, theme: Theme) -> Option<Geometry> {
    let area = frame.area();
    let panel = if area.width >= 70 { PANEL } else { 0 };
    let [left, right] =
        Layout::horizontal([Constraint::Min(0), Constraint::Length(panel)]).areas(area);
    // With the side panel the board's panel takes the whole height beside it; without, the
    // text goes under the board.
    let [board_area, bottom] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(if panel == 0 { 6 } else { 0 })])
            .areas(left);
    let block = Block::bordered()
        .title(format!(" Puzzle {} · rated {} ", screen.number(), screen.puzzle().rating))
        .title_bottom(" H answer · n next · g play it · q quit ");
    let inner = block.inner(board_area);
    frame.render_widget(block, board_area);
    let geometry = Geometry::fit(inner);
    if let Some(geometry) = geometry {
        let board = screen.board();
        let targets = screen.selected.map_or(Bitboard::EMPTY, |from| {
            board
                .legal_moves()
                .iter()
                .filter(|m| m.from() == Some(from))
                .fold(Bitboard::EMPTY, |b, m| b.with(m.to()))
        });
        let view = BoardView {
            board,
            geometry,
            cursor: None,
            selected: screen.selected,
            targets,
            last: Bitboard::EMPTY,
            captured: None,
            threatened: Bitboard::EMPTY,
            marks: Marks::default(),
            theme,
        };
        frame.render_widget(view, inner);
    } else {
        frame.render_widget(Paragraph::new("board too small"), inner);
    }
    let lines = panel_lines(screen);
    let target = if panel == 0 { bottom } else { right };
    let text: Vec<Line> = if panel == 0 { lines.into_iter().skip(1).collect() } else { lines };
    let widget = Paragraph::new(text).wrap(Wrap { trim: true });
    if panel == 0 {
        frame.render_widget(widget, target);
    } else {
        frame.render_widget(widget.block(Block::bordered().title(" Puzzles ")), target);
    }
    geometry
}

/// The panel's text: the task, the verdict, the record, the keys.
fn panel_lines(screen: &PuzzleScreen) -> Vec<Line<'static>> {
    let p = screen.progress();
    let puzzle = screen.puzzle();
    let themes: Vec<&str> = puzzle.themes.iter().map(|t| t.name()).collect();
    let state = match screen.attempt() {
        Attempt::Solving { .. } if !screen.typed.is_empty() => format!("typed: {}", screen.typed),
        Attempt::Solving { .. } => "Your move: click, or type it (c3, b4b5, a5xc3)".into(),
        Attempt::Solved => "Solved!".into(),
        Attempt::Failed { .. } => "Not this time.".into(),
        Attempt::Shown => "The answer, shown.".into(),
    };
    let board = screen.board();
    vec![
        Line::from(format!("Themes: {}", themes.join(", "))),
        Line::from(format!("Sheep in hand {} · dead {}", board.in_hand(), board.dead())),
        Line::from(screen.task()),
        Line::from(state),
        Line::from(screen.message.clone()),
        Line::from(format!(
            "Your rating {:.0} (±{:.0}) · streak {} (best {}) · solved {} of {}",
            p.rating.rating, p.rating.deviation, p.streak, p.best_streak, p.solved, p.tried
        )),
    ]
}

/// Applies one terminal event to the screen; `geometry` is the board's, for clicks.
pub fn handle(screen: &mut PuzzleScreen, ev: &Event, geometry: Option<Geometry>) {
    match ev {
        Event::Key(key) if key.kind != KeyEventKind::Release => {
            let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
            let typing = !screen.typed.is_empty();
            match key.code {
                KeyCode::Char('c') if ctrl => screen.quit = true,
                KeyCode::Esc if typing => screen.typed.clear(),
                KeyCode::Esc => screen.selected = None,
                KeyCode::Enter if typing => screen.enter_typed(),
                KeyCode::Backspace => {
                    screen.typed.pop();
                }
                KeyCode::Char('q') if !typing => screen.quit = true,
                KeyCode::Char('H') if !typing => screen.show_answer(),
                KeyCode::Char('n') if !typing => screen.next(),
                KeyCode::Char('g') if !typing => screen.open_as_game(),
                KeyCode::Char(c)
                    if (c.is_ascii_alphanumeric() || c == 'x') && screen.typed.len() < 12 =>
                {
                    // As in the game: a whole move is played as soon as it is typed.
                    screen.typed.push(c.to_ascii_lowercase());
                    if crate::input::typed_move_complete(screen.board(), &screen.typed) {
                        screen.enter_typed();
                    }
                }
                _ => {}
            }
        }
        Event::Mouse(mouse) if mouse.kind == MouseEventKind::Down(MouseButton::Left) => {
            if let Some(p) = geometry.and_then(|g| g.point_at(mouse.column, mouse.row)) {
                screen.point(p);
            }
        }
        _ => {}
    }
}

/// Runs the puzzle screen until the player leaves (or opens a puzzle as a game).
///
/// # Errors
/// A terminal I/O error.
pub fn run(
    terminal: &mut ratatui::DefaultTerminal,
    screen: &mut PuzzleScreen,
    theme: Theme,
) -> std::io::Result<()> {
    let mut geometry = None;
    while !screen.quit {
        terminal.draw(|frame| geometry = draw(frame, screen, theme))?;
        if event::poll(Duration::from_millis(100))? {
            handle(screen, &event::read()?, geometry);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::{KeyEvent, KeyEventState};
    use tns_puzzles::Progress;

    fn key(code: KeyCode) -> Event {
        Event::Key(KeyEvent {
            code,
            modifiers: KeyModifiers::NONE,
            kind: KeyEventKind::Press,
            state: KeyEventState::NONE,
        })
    }

    fn text(terminal: &Terminal<TestBackend>) -> String {
        let buffer = terminal.backend().buffer();
        buffer
            .content
            .chunks(buffer.area.width as usize)
            .map(|row| row.iter().map(ratatui::buffer::Cell::symbol).collect::<String>() + "\n")
            .collect()
    }

    #[test]
    fn a_typed_answer_is_judged_on_screen() {
        let set = tns_puzzles::shipped().unwrap();
        let mut screen = PuzzleScreen::new(set, Progress::default(), None, None, 11).unwrap();
        let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
        let mut geometry = None;
        terminal.draw(|f| geometry = draw(f, &screen, Theme::COLOUR)).unwrap();
        let shown = text(&terminal);
        assert!(geometry.is_some());
        assert!(shown.contains(&format!("Puzzle {}", screen.number())), "{shown}");
        assert!(shown.contains("to move: find"), "{shown}");
        assert!(shown.contains("Your rating 1500"), "{shown}");
        // A wrong move, typed.
        let wrong = screen
            .board()
            .legal_moves()
            .iter()
            .copied()
            .find(|m| !screen.puzzle().solutions.contains(m))
            .unwrap();
        for c in wrong.to_string().chars() {
            handle(&mut screen, &key(KeyCode::Char(c)), geometry);
        }
        assert!(
            matches!(screen.attempt(), Attempt::Failed { .. }),
            "a whole move is played as soon as it is typed, as in the game"
        );
        handle(&mut screen, &key(KeyCode::Enter), geometry);
        terminal.draw(|f| geometry = draw(f, &screen, Theme::COLOUR)).unwrap();
        let shown = text(&terminal);
        assert!(shown.contains("Not this time"), "{shown}");
        assert!(shown.contains("solved 0 of 1"), "{shown}");
        // H shows every answer; n moves on; q leaves.
        handle(&mut screen, &key(KeyCode::Char('H')), geometry);
        assert!(screen.message.contains(&screen.puzzle().solutions[0].to_string()));
        handle(&mut screen, &key(KeyCode::Char('n')), geometry);
        assert_eq!(screen.attempt(), &Attempt::Solving { step: 0 });
        handle(&mut screen, &key(KeyCode::Char('q')), geometry);
        assert!(screen.quit);
        // Beside the side panel, the board's panel is as tall as it: both end on the last row.
        for (w, h) in [(100, 32), (80, 24)] {
            let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
            t.draw(|f| geometry = draw(f, &screen, Theme::PLAIN)).unwrap();
            let last = text(&t).lines().last().unwrap_or("").to_owned();
            assert!(last.starts_with('└') && last.matches('└').count() == 2, "{w}x{h}: {last}");
        }
        // Small terminals still show the task under the board.
        let mut small = Terminal::new(TestBackend::new(60, 24)).unwrap();
        small.draw(|f| geometry = draw(f, &screen, Theme::PLAIN)).unwrap();
        assert!(text(&small).contains("to move: find"), "{}", text(&small));
    }
}
