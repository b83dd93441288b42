//! The board widget, and the mapping from a screen cell back to a point.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;
use tns_board::{Bitboard, Board, Point, Side};

use crate::palette::Palette;

/// Columns and rows between neighbouring points at scale 1.
const COL_STEP: u16 = 4;
const ROW_STEP: u16 = 2;
/// Room for the rank digits on the left and the file letters below.
const LEFT_MARGIN: u16 = 2;
const BOTTOM_MARGIN: u16 = 1;

/// How the board is drawn: its scale and where its top-left point sits on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// 1, 2, 3...: points are `4 * scale` columns and `2 * scale` rows apart.
    pub scale: u16,
    /// Screen column of point a5.
    pub x0: u16,
    /// Screen row of point a5.
    pub y0: u16,
}

impl Geometry {
    /// Rows a piece reaches above and below its point: the boxes drawn from scale 3 on.
    fn overhang(scale: u16) -> u16 {
        u16::from(scale >= 3)
    }

    /// The size the board needs at `scale`, margins included.
    pub fn size(scale: u16) -> (u16, u16) {
        let pad = Geometry::overhang(scale);
        (
            LEFT_MARGIN + 1 + 4 * COL_STEP * scale + 2,
            2 * pad + 4 * ROW_STEP * scale + 1 + BOTTOM_MARGIN,
        )
    }

    /// The largest whole scale that fits `area`, centred in it; `None` if even scale 1 does not
    /// fit.
    pub fn fit(area: Rect) -> Option<Geometry> {
        let scale = (1..=8).rev().find(|&s| {
            let (w, h) = Geometry::size(s);
            w <= area.width && h <= area.height
        })?;
        let (w, h) = Geometry::size(scale);
        Some(Geometry {
            scale,
            x0: area.x + (area.width - w) / 2 + LEFT_MARGIN + 1,
            y0: area.y + (area.height - h) / 2 + Geometry::overhang(scale),
        })
    }

    /// The screen cell of a point's centre.
    pub fn cell(self, p: Point) -> (u16, u16) {
        (
            self.x0 + u16::from(p.x()) * COL_STEP * self.scale,
            self.y0 + u16::from(p.y()) * ROW_STEP * self.scale,
        )
    }

    /// The point nearest to a screen cell, if the cell is within half a spacing of one.
    pub fn point_at(self, col: u16, row: u16) -> Option<Point> {
        let (cs, rs) = (i32::from(COL_STEP * self.scale), i32::from(ROW_STEP * self.scale));
        let dx = i32::from(col) - i32::from(self.x0);
        let dy = i32::from(row) - i32::from(self.y0);
        let x = (dx + cs / 2).div_euclid(cs);
        let y = (dy + rs / 2).div_euclid(rs);
        // 0 to 4, checked just above.
        let (x, y) = (u8::try_from(x).ok()?, u8::try_from(y).ok()?);
        if x >= 5 || y >= 5 {
            return None;
        }
        Point::new(x, y)
    }
}

/// Draws a position: lines, pieces, the cursor, the selected piece and its destinations.
#[derive(Debug)]
pub struct BoardView {
    /// The position.
    pub board: Board,
    /// Where to draw it.
    pub geometry: Geometry,
    /// The keyboard cursor.
    pub cursor: Option<Point>,
    /// The selected piece.
    pub selected: Option<Point>,
    /// Points to highlight as destinations.
    pub targets: Bitboard,
    /// The last move's points, dimly highlighted.
    pub last: Bitboard,
    /// The point of the sheep the last move took, if it was a jump: an `x` on it, in red.
    pub captured: Option<Point>,
    /// Sheep to mark as open to a jump (the threat view): in red, and with `!` beside them
    /// where there is room.
    pub threatened: Bitboard,
    /// The analysis marks, from the table: the points where a move keeps the position's
    /// result (green, `+` without colours; in a lost position, the longest defence), gives up
    /// a win for a draw (yellow, `=`), loses a result that was held (red, `-`), or, in a lost
    /// position, loses sooner than the longest defence (grey, `~`).
    pub marks: Marks,
    /// The styles to draw with. Without colours ([`Palette::PLAIN`], for `NO_COLOR`) the marks
    /// are shapes and text attributes instead: destinations are `+`, the selected piece is bold
    /// and underlined, the last move's points italic and in round brackets, a threatened sheep
    /// between `!`s (or underlined at the smallest scale).
    pub palette: Palette,
}

/// The table's judgement of the moves to some points: each point in at most one set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// A move there keeps the result the position has.
    pub keeps: Bitboard,
    /// A move there gives up a win for a draw.
    pub holds: Bitboard,
    /// A move there loses a result that was held.
    pub loses: Bitboard,
    /// The position is lost, and a move there loses sooner than the longest defence.
    pub sooner: Bitboard,
}

impl Marks {
    /// The style and the plain letter of a point's mark, if it has one.
    fn of(self, p: Point, palette: &Palette) -> Option<(Style, &'static str)> {
        if self.keeps.contains(p) {
            Some((palette.keeps, "+"))
        } else if self.holds.contains(p) {
            Some((palette.holds, "="))
        } else if self.loses.contains(p) {
            Some((palette.loses, "-"))
        } else if self.sooner.contains(p) {
            Some((palette.sooner, "~"))
        } else {
            None
        }
    }
}

fn put(buf: &mut Buffer, x: u16, y: u16, s: &str, style: Style) {
    if buf.area.contains((x, y).into()) {
        buf.set_string(x, y, s, style);
    }
}

impl BoardView {
    /// What stands on a point: a piece's letter, else the mark of an empty point (the
    /// analysis's and the destinations' only without colours, which say them otherwise).
    fn letter(
        &self,
        p: Point,
        mark: Option<(Style, &'static str)>,
        captured: bool,
    ) -> &'static str {
        match self.board.piece_at(p) {
            Some(Side::Tiger) => "T",
            Some(Side::Sheep) => "S",
            None => match mark {
                Some((_, letter)) if self.palette.plain => letter,
                _ if self.palette.plain && self.targets.contains(p) => "+",
                _ if captured => "x",
                _ => "·",
            },
        }
    }
}

impl Widget for BoardView {
    fn render(self, _area: Rect, buf: &mut Buffer) {
        let g = self.geometry;
        let t = self.palette;
        let line = t.line;
        let (cs, rs) = (COL_STEP * g.scale, ROW_STEP * g.scale);
        // Lines first, pieces on top.
        for p in Point::all() {
            let (x, y) = g.cell(p);
            if p.x() < 4 {
                for i in 1..cs {
                    put(buf, x + i, y, "─", line);
                }
            }
            if p.y() < 4 {
                for i in 1..rs {
                    put(buf, x, y + i, "│", line);
                }
            }
            if p.has_diagonals() && p.y() < 4 {
                for i in 1..rs {
                    let step = i * cs / rs;
                    if p.x() < 4 {
                        put(buf, x + step, y + i, "╲", line);
                    }
                    if p.x() > 0 {
                        put(buf, x - step, y + i, "╱", line);
                    }
                }
            }
        }
        for p in Point::all() {
            let (x, y) = g.cell(p);
            put(buf, g.x0 - LEFT_MARGIN - 1, y, &p.rank_char().to_string(), t.label);
            if p.y() == 4 {
                let below = y + 1 + Geometry::overhang(g.scale);
                put(buf, x, below, &p.file_char().to_string(), t.label);
            }
            // The piece's style, then each mark laid over it, the later ones winning.
            let mut style = match self.board.piece_at(p) {
                Some(Side::Tiger) => t.tiger,
                Some(Side::Sheep) => t.sheep,
                None => t.empty,
            };
            let threatened = self.threatened.contains(p);
            let captured = self.captured == Some(p) && self.board.piece_at(p).is_none();
            let mark = self.marks.of(p, &t);
            let layers = [
                (self.last.contains(p), t.last_move),
                (threatened, t.threatened),
                (captured, t.captured),
                (self.targets.contains(p), t.target),
                (mark.is_some(), mark.map_or(Style::new(), |(s, _)| s)),
                (self.selected == Some(p), t.selected),
                (self.cursor == Some(p), t.cursor),
                (
                    t.plain && threatened && g.scale == 1,
                    Style::new().add_modifier(Modifier::UNDERLINED),
                ),
            ];
            for (on, layer) in layers {
                if on {
                    style = style.patch(layer);
                }
            }
            let letter = self.letter(p, mark, captured);
            let last = t.plain && self.last.contains(p);
            let (open, close) = match (last, threatened) {
                (_, true) => ("!", "!"),
                (true, false) => ("(", ")"),
                (false, false) => ("[", "]"),
            };
            let (top, bottom) =
                if last { ("╭─╮", "╰─╯") } else { ("┌─┐", "└─┘") };
            match g.scale {
                1 => put(buf, x, y, letter, style),
                2 => put(buf, x - 1, y, &format!("{open}{letter}{close}"), style),
                _ => {
                    let (left, right) = if threatened { ("!", "!") } else { ("│", "│") };
                    put(buf, x - 1, y - 1, top, style);
                    put(buf, x - 1, y, &format!("{left}{letter}{right}"), style);
                    put(buf, x - 1, y + 1, bottom, style);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn clicking_a_points_cell_finds_it(
            scale in 1u16..=4, x in 0u16..60, y in 0u16..30, index in 0u8..25
        ) {
            let g = Geometry { scale, x0: x + LEFT_MARGIN + 1, y0: y };
            let p = Point::from_index(index).unwrap();
            let (col, row) = g.cell(p);
            prop_assert_eq!(g.point_at(col, row), Some(p));
            // The piece drawn around the centre maps back too.
            prop_assert_eq!(g.point_at(col + 1, row), Some(p));
            prop_assert_eq!(g.point_at(col - 1, row), Some(p));
        }
    }

    #[test]
    fn fit_picks_largest_scale() {
        let g = Geometry::fit(Rect::new(0, 0, 60, 30)).unwrap();
        assert_eq!(g.scale, 3);
        assert!(Geometry::fit(Rect::new(0, 0, 10, 5)).is_none());
        assert_eq!(Geometry::fit(Rect::new(0, 0, 22, 10)).unwrap().scale, 1);
    }
}
