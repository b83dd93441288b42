//! How the game looks: one palette in colour, one without (the `NO_COLOR` convention), each a
//! set of named styles the widgets draw with.

use ratatui::style::{Color, Modifier, Style};

/// The styles of everything the game draws, by what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    /// Without colours: the marks colour makes are made by shapes instead (`+` on a
    /// destination, the last move's points in round brackets, a threatened sheep between `!`s).
    pub plain: bool,
    /// The board's lines.
    pub line: Style,
    /// The rank digits and file letters.
    pub label: Style,
    /// A tiger.
    pub tiger: Style,
    /// A sheep.
    pub sheep: Style,
    /// An empty point.
    pub empty: Style,
    /// Laid over the last move's points.
    pub last_move: Style,
    /// Laid over a sheep a tiger could jump (the threat view).
    pub threatened: Style,
    /// Laid over the point of the sheep the last move took.
    pub captured: Style,
    /// Laid over a destination of the selected piece.
    pub target: Style,
    /// Laid over a point where a move keeps the position's result (the analysis).
    pub keeps: Style,
    /// Laid over a point where a move gives up a win for a draw.
    pub holds: Style,
    /// Laid over a point where a move loses a result that was held.
    pub loses: Style,
    /// Laid over a point where, in a lost position, a move loses sooner than the longest
    /// defence.
    pub sooner: Style,
    /// Laid over the selected piece.
    pub selected: Style,
    /// Laid over the keyboard cursor's point.
    pub cursor: Style,
    /// A move number in the list.
    pub move_number: Style,
    /// A sheep's move in the list.
    pub sheep_move: Style,
    /// A tigers' move in the list.
    pub tiger_move: Style,
    /// Laid over the move looked at in review.
    pub looked_at: Style,
    /// The message line.
    pub message: Style,
    /// A key in the help.
    pub key: Style,
    /// The score bar.
    pub bar: Style,
    /// A heading: the result, the position looked back at.
    pub emphasis: Style,
    /// The clock of the side to move, running.
    pub clock_running: Style,
    /// A clock under ten seconds.
    pub clock_low: Style,
}

const fn fg(colour: Color) -> Style {
    Style::new().fg(colour)
}

const fn on(colour: Color) -> Style {
    Style::new().bg(colour).fg(Color::Black)
}

const BOLD: Style = Style::new().add_modifier(Modifier::BOLD);

impl Palette {
    /// The colours.
    pub const COLOUR: Palette = Palette {
        plain: false,
        line: fg(Color::DarkGray),
        label: Style::new(),
        tiger: fg(Color::Yellow).add_modifier(Modifier::BOLD),
        sheep: fg(Color::White).add_modifier(Modifier::BOLD),
        empty: fg(Color::Gray),
        last_move: Style::new().bg(Color::Rgb(40, 40, 70)),
        threatened: fg(Color::LightRed),
        captured: fg(Color::Red).add_modifier(Modifier::BOLD),
        // An ordinary destination is not a judgement: grey, so that the analysis's green
        // (keeps the result) stands apart from it.
        target: on(Color::Gray),
        keeps: on(Color::Green),
        holds: on(Color::Yellow),
        loses: on(Color::Red),
        sooner: on(Color::DarkGray),
        selected: Style::new().bg(Color::Blue),
        cursor: Style::new().add_modifier(Modifier::REVERSED),
        move_number: fg(Color::DarkGray),
        sheep_move: fg(Color::White),
        tiger_move: fg(Color::Yellow),
        looked_at: Style::new().add_modifier(Modifier::REVERSED),
        message: fg(Color::Cyan),
        key: fg(Color::Yellow),
        bar: fg(Color::Yellow),
        emphasis: BOLD,
        clock_running: BOLD,
        clock_low: fg(Color::Red).add_modifier(Modifier::BOLD),
    };

    /// No colours at all: bold, italics, underlines and reversed text only, and the shapes
    /// the board draws in their place.
    pub const PLAIN: Palette = Palette {
        plain: true,
        line: Style::new(),
        label: Style::new(),
        tiger: BOLD,
        sheep: BOLD,
        empty: Style::new(),
        last_move: Style::new().add_modifier(Modifier::ITALIC),
        threatened: Style::new(),
        captured: BOLD,
        target: Style::new(),
        keeps: Style::new(),
        holds: Style::new(),
        loses: Style::new(),
        sooner: Style::new(),
        selected: Style::new().add_modifier(Modifier::BOLD.union(Modifier::UNDERLINED)),
        cursor: Style::new().add_modifier(Modifier::REVERSED),
        move_number: Style::new(),
        sheep_move: Style::new(),
        tiger_move: Style::new(),
        looked_at: Style::new().add_modifier(Modifier::REVERSED),
        message: Style::new(),
        key: BOLD,
        bar: Style::new(),
        emphasis: BOLD,
        clock_running: BOLD,
        clock_low: BOLD.add_modifier(Modifier::UNDERLINED),
    };

    /// The palette for a terminal with colours, or without them (`NO_COLOR` set).
    pub const fn new(no_color: bool) -> Palette {
        if no_color { Palette::PLAIN } else { Palette::COLOUR }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_palette_has_no_colour_and_tells_the_marks_apart_otherwise() {
        let plain = Palette::PLAIN;
        let styles = [
            plain.line,
            plain.tiger,
            plain.sheep,
            plain.empty,
            plain.last_move,
            plain.threatened,
            plain.captured,
            plain.selected,
            plain.cursor,
            plain.message,
            plain.key,
            plain.bar,
            plain.clock_low,
        ];
        for style in styles {
            assert_eq!((style.fg, style.bg), (None, None), "{style:?}");
        }
        // What colour says in the other palette, a modifier says here.
        assert_ne!(plain.selected, plain.cursor);
        assert_ne!(plain.last_move, Style::new());
        assert!(Palette::new(true).plain && !Palette::new(false).plain);
    }

    #[test]
    fn each_analysis_mark_differs_from_an_ordinary_destination() {
        let colour = Palette::COLOUR;
        for mark in [colour.keeps, colour.holds, colour.loses, colour.sooner] {
            assert_ne!(mark, colour.target, "{mark:?}");
        }
    }
}
