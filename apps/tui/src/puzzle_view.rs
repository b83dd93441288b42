//! Drawing the puzzle screen.

use crate::board_view::{BoardView, Geometry, Marks};
use crate::keymap::Keys;
use crate::palette::Palette;
use crate::puzzles::{Attempt, PuzzleScreen};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};
use tns_board::Bitboard;

/// The side panel's width.
const PANEL: u16 = 36;

/// Draws the screen; the board's geometry, for clicks.
pub fn draw(frame: &mut Frame, screen: &PuzzleScreen, palette: Palette) -> Option<Geometry> {
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
        .title_bottom(format!(" {} ", Keys::Puzzles.line()));
    let inner = block.inner(board_area);
    frame.render_widget(block, board_area);
    let geometry = Geometry::fit(inner);
    if let Some(geometry) = geometry {
        let board = screen.board();
        let targets = screen.targets();
        let view = BoardView {
            board,
            geometry,
            cursor: None,
            selected: screen.selected(),
            targets,
            last: Bitboard::EMPTY,
            captured: None,
            threatened: Bitboard::EMPTY,
            marks: Marks::default(),
            palette,
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
        Attempt::Solving { .. } if !screen.typed().is_empty() => {
            format!("typed: {}", screen.typed())
        }
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
        Line::from(screen.message().to_owned()),
        Line::from(format!(
            "Your rating {:.0} (±{:.0}) · streak {} (best {}) · solved {} of {}",
            p.rating.rating, p.rating.deviation, p.streak, p.best_streak, p.solved, p.tried
        )),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::KeyModifiers;
    use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyEventState};
    use tns_puzzles::Progress;

    use crate::input::{Hitmap, map_keys};

    fn key(code: KeyCode) -> Event {
        Event::Key(KeyEvent {
            code,
            modifiers: KeyModifiers::NONE,
            kind: KeyEventKind::Press,
            state: KeyEventState::NONE,
        })
    }

    /// The event as the program hands it on: through the keymap, to the screen.
    fn handle(screen: &mut PuzzleScreen, ev: &Event, board: Option<Geometry>) {
        let hit = Hitmap { board, ..Hitmap::default() };
        if let Some(action) = map_keys(ev, &hit, Keys::Puzzles, true) {
            screen.apply(action);
        }
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
        terminal.draw(|f| geometry = draw(f, &screen, Palette::COLOUR)).unwrap();
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
        terminal.draw(|f| geometry = draw(f, &screen, Palette::COLOUR)).unwrap();
        let shown = text(&terminal);
        assert!(shown.contains("Not this time"), "{shown}");
        assert!(shown.contains("solved 0 of 1"), "{shown}");
        // H shows every answer; n moves on; q leaves.
        handle(&mut screen, &key(KeyCode::Char('H')), geometry);
        assert!(screen.message().contains(&screen.puzzle().solutions[0].to_string()));
        handle(&mut screen, &key(KeyCode::Char('n')), geometry);
        assert_eq!(screen.attempt(), &Attempt::Solving { step: 0 });
        handle(&mut screen, &key(KeyCode::Char('q')), geometry);
        assert_eq!(screen.leaving(), Some(crate::Leave::Quit));
        // Beside the side panel, the board's panel is as tall as it: both end on the last row.
        for (w, h) in [(100, 32), (80, 24)] {
            let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
            t.draw(|f| geometry = draw(f, &screen, Palette::PLAIN)).unwrap();
            let last = text(&t).lines().last().unwrap_or("").to_owned();
            assert!(last.starts_with('└') && last.matches('└').count() == 2, "{w}x{h}: {last}");
        }
        // Small terminals still show the task under the board.
        let mut small = Terminal::new(TestBackend::new(60, 24)).unwrap();
        small.draw(|f| geometry = draw(f, &screen, Palette::PLAIN)).unwrap();
        assert!(text(&small).contains("to move: find"), "{}", text(&small));
    }
}
