//! Placing text and boxes on the screen: a box centred in an area, text wrapped at words.

use ratatui::layout::Rect;

/// A box of `width` by `height` in the middle of `area` (cut to it where it is larger).
pub fn centred(area: Rect, width: u16, height: u16) -> Rect {
    let (width, height) = (width.min(area.width), height.min(area.height));
    Rect::new(area.x + (area.width - width) / 2, area.y + (area.height - height) / 2, width, height)
}

/// `text` wrapped at words into lines of at most `width` columns; a word longer than the width
/// is cut into pieces of it.
pub fn wrap_words(text: &str, width: u16) -> Vec<String> {
    let width = usize::from(width.max(1));
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        let used = line.chars().count();
        if used > 0 && used + 1 + word.len() <= width {
            line.push(' ');
            line.extend(&word);
            continue;
        }
        if used > 0 {
            lines.push(std::mem::take(&mut line));
        }
        while word.len() > width {
            lines.push(word.drain(..width).collect());
        }
        line = word.into_iter().collect();
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The rows `text` takes wrapped at words in `width` columns ([`wrap_words`]).
pub fn wrapped_rows(text: &str, width: u16) -> u16 {
    u16::try_from(wrap_words(text, width).len()).unwrap_or(u16::MAX)
}
