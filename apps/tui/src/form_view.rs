//! The new-game form drawn as a box over the game: a row per choice, the one the keys change
//! marked, the typed position and why it does not parse, and the keys.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

use crate::new_game::{NewGameForm, StartChoice};
use crate::palette::Palette;

/// The form's box, centred in the area it is given.
#[derive(Clone, Debug)]
pub struct NewGameView<'a> {
    /// The form.
    pub form: &'a NewGameForm,
    /// The styles.
    pub palette: Palette,
}

/// The start screen's first line: what the game is, for someone who has never played it.
const OPENING_INTRO: &str = "4 tigers hunt 20 sheep. Tigers win by killing five; sheep win by \
                             leaving no tiger a move.";

impl NewGameView<'_> {
    fn lines(&self) -> Vec<Line<'static>> {
        let form = self.form;
        let mut lines = Vec::new();
        if form.opening {
            lines.push(Line::from(OPENING_INTRO));
            lines.push(Line::default());
        }
        for (row, name, value) in form.rows() {
            let chosen = row == form.row;
            let (open, close) = if chosen { ("‹ ", " ›") } else { ("  ", "  ") };
            let style = if chosen { self.palette.cursor } else { ratatui::style::Style::new() };
            lines.push(Line::from(vec![
                Span::styled(format!("{name:<7}"), self.palette.key),
                Span::styled(format!("{open}{value}{close}"), style),
            ]));
        }
        if form.start == StartChoice::Typed {
            let cursor = if form.typing() { "_" } else { "" };
            lines.push(Line::from(format!("  {}{cursor}", form.typed)));
        }
        if let Some(error) = &form.error {
            lines.push(Line::styled(error.clone(), self.palette.message));
        }
        lines
    }
}

impl Widget for NewGameView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines = self.lines();
        let (keys, title) = if self.form.opening {
            (crate::keymap::Keys::Opening, " Tigers and Sheep ")
        } else {
            (crate::keymap::Keys::Form, " New game ")
        };
        let keys_text = &keys.line();
        // As wide as the keys' line (the widest choice is narrower): a long typed position or
        // error wraps inside rather than widening the box across the screen.
        let widest = keys_text.chars().count();
        let width = u16::try_from(widest + 2).unwrap_or(u16::MAX).min(area.width);
        let inner_width = width.saturating_sub(2);
        let rows: u16 = lines
            .iter()
            .map(|l| crate::layout::wrapped_rows(&l.to_string(), inner_width).max(1))
            .sum();
        // The keys keep their rows at the bottom whatever the rest needs: the choices give
        // way first where the screen is short.
        let key_rows = crate::layout::wrapped_rows(keys_text, inner_width);
        let height = (rows + 1 + key_rows).saturating_add(2).min(area.height);
        let popup = crate::layout::centred(area, width, height);
        Clear.render(popup, buf);
        let block = Block::bordered().title(title);
        let inner = block.inner(popup);
        block.render(popup, buf);
        let [body, keys] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(key_rows)]).areas(inner);
        Paragraph::new(lines).wrap(Wrap { trim: true }).render(body, buf);
        Paragraph::new(keys_text.as_str()).wrap(Wrap { trim: true }).render(keys, buf);
    }
}
