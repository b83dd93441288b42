//! Drawing: every picture is the same board drawn at an offset, so a strip or an animation is
//! positions side by side or one over another.

// Casts allowed in this file only: counts far below 2^52 turned into f64 (for rates, statistics, coordinates).
#![allow(clippy::cast_precision_loss)]

use std::fmt::Write as _;

use tns_board::{Board, Game, Move, Point, Side};

/// What to draw besides the pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// The move that led to the position: its points are ringed.
    pub last_move: Option<Move>,
    /// Moves to draw as arrows (a hint, a best line).
    pub arrows: Vec<Move>,
    /// Whether to write the files and ranks around the board.
    pub labels: bool,
}

impl Default for Picture {
    fn default() -> Picture {
        Picture { last_move: None, arrows: Vec::new(), labels: true }
    }
}

/// Pixels between neighbouring points.
const STEP: f64 = 80.0;
/// Room around the points, for the labels.
const MARGIN: f64 = 50.0;
/// The side of one board picture.
const SIZE: f64 = 2.0 * MARGIN + 4.0 * STEP;

/// The game's colours.
pub(crate) const BACKGROUND: &str = "#f3e6c8";
const LINES: &str = "#6b4f2a";
/// A tiger's fill.
pub(crate) const TIGER: &str = "#e07b00";
/// A sheep's fill.
pub(crate) const SHEEP: &str = "#ffffff";
const LAST: &str = "#2e8b57";
const ARROW: &str = "#1f5fbf";

fn centre(p: Point) -> (f64, f64) {
    (MARGIN + STEP * f64::from(p.x()), MARGIN + STEP * f64::from(p.y()))
}

fn open(out: &mut String, width: f64, height: f64) {
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"#
    );
    let _ = writeln!(
        out,
        r#"<defs><marker id="head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{ARROW}"/></marker></defs>"#
    );
}

/// One board at (`dx`, `dy`), as a group.
fn board_group(out: &mut String, board: Board, picture: &Picture, dx: f64, dy: f64, extra: &str) {
    let _ = writeln!(out, r#"<g transform="translate({dx} {dy})"{extra}>"#);
    let _ = writeln!(out, r#"<rect width="{SIZE}" height="{SIZE}" fill="{BACKGROUND}"/>"#);
    // Every line of the board is a pair of neighbouring points; each is drawn once.
    for p in Point::all() {
        let (x1, y1) = centre(p);
        for q in p.neighbours() {
            if q.index() > p.index() {
                let (x2, y2) = centre(q);
                let _ = writeln!(
                    out,
                    r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{LINES}" stroke-width="3"/>"#
                );
            }
        }
    }
    if picture.labels {
        for i in 0..5u8 {
            let x = MARGIN + STEP * f64::from(i);
            let file = char::from(b'a' + i);
            let rank = char::from(b'5' - i);
            let _ = writeln!(
                out,
                r#"<text x="{x}" y="{}" font-size="16" fill="{LINES}" text-anchor="middle">{file}</text><text x="{}" y="{}" font-size="16" fill="{LINES}" text-anchor="middle">{rank}</text>"#,
                SIZE - 14.0,
                18.0,
                x + 5.0
            );
        }
    }
    if let Some(m) = picture.last_move {
        for p in m.from().into_iter().chain([m.to()]) {
            let (x, y) = centre(p);
            let _ = writeln!(
                out,
                r#"<circle class="last" cx="{x}" cy="{y}" r="31" fill="none" stroke="{LAST}" stroke-width="5"/>"#
            );
        }
    }
    for p in Point::all() {
        let (x, y) = centre(p);
        match board.piece_at(p) {
            Some(Side::Tiger) => {
                let _ = writeln!(
                    out,
                    r#"<circle class="tiger" cx="{x}" cy="{y}" r="24" fill="{TIGER}" stroke="{LINES}" stroke-width="2"><title>tiger on {p}</title></circle>"#
                );
            }
            Some(Side::Sheep) => {
                let _ = writeln!(
                    out,
                    r##"<circle class="sheep" cx="{x}" cy="{y}" r="20" fill="{SHEEP}" stroke="#555" stroke-width="2"><title>sheep on {p}</title></circle>"##
                );
            }
            None => {
                let _ = writeln!(out, r#"<circle cx="{x}" cy="{y}" r="5" fill="{LINES}"/>"#);
            }
        }
    }
    for m in &picture.arrows {
        let (x2, y2) = centre(m.to());
        let (x1, y1) = match m.from() {
            Some(from) => centre(from),
            // A placement: an arrow dropping in from just above the point.
            None => (x2, y2 - STEP * 0.6),
        };
        // Stop short of the target's centre, so the head is not hidden under a piece.
        let (lx, ly) = (x2 - x1, y2 - y1);
        let len = (lx * lx + ly * ly).sqrt().max(1.0);
        let (ex, ey) = (x2 - lx / len * 22.0, y2 - ly / len * 22.0);
        let _ = writeln!(
            out,
            r#"<line class="arrow" x1="{x1}" y1="{y1}" x2="{ex:.1}" y2="{ey:.1}" stroke="{ARROW}" stroke-width="7" stroke-opacity="0.8" marker-end="url(#head)"/>"#
        );
    }
    out.push_str("</g>\n");
}

/// A position as a standalone SVG picture.
pub fn position(board: Board, picture: &Picture) -> String {
    let mut out = String::new();
    open(&mut out, SIZE, SIZE);
    board_group(&mut out, board, picture, 0.0, 0.0, "");
    out.push_str("</svg>\n");
    out
}

/// Every position of a game side by side, `columns` to a row, each with the move that led to
/// it ringed and captioned (`3. b5`, by ply).
pub fn strip(game: &Game, columns: usize) -> String {
    let columns = columns.max(1);
    let positions = game.positions();
    let rows = positions.len().div_ceil(columns);
    let caption = 24.0;
    let width = SIZE * columns.min(positions.len()) as f64;
    let height = (SIZE + caption) * rows as f64;
    let mut out = String::new();
    open(&mut out, width, height);
    for (i, &board) in positions.iter().enumerate() {
        let last_move = i.checked_sub(1).map(|j| game.moves()[j]);
        let picture = Picture { last_move, arrows: Vec::new(), labels: false };
        let (dx, dy) = ((i % columns) as f64 * SIZE, (i / columns) as f64 * (SIZE + caption));
        board_group(&mut out, board, &picture, dx, dy + caption, "");
        let text = last_move.map_or_else(|| "start".to_string(), |m| format!("{i}. {m}"));
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-size="18" text-anchor="middle">{text}</text>"#,
            dx + SIZE / 2.0,
            dy + 18.0
        );
    }
    out.push_str("</svg>\n");
    out
}

/// A game as one animated picture: each position shown for `seconds_per_ply`, over and over.
/// Viewers without animation show the final position.
pub fn animated(game: &Game, seconds_per_ply: f64) -> String {
    let positions = game.positions();
    let n = positions.len();
    let step =
        if seconds_per_ply.is_finite() && seconds_per_ply > 0.0 { seconds_per_ply } else { 1.0 };
    let total = step * n as f64;
    let mut out = String::new();
    open(&mut out, SIZE, SIZE);
    for (i, &board) in positions.iter().enumerate() {
        let last_move = i.checked_sub(1).map(|j| game.moves()[j]);
        let picture = Picture { last_move, arrows: Vec::new(), labels: true };
        // Hidden but for its own slice of the loop; the last frame is visible without animation.
        let base = if i + 1 == n { "visible" } else { "hidden" };
        let (from, to) = (i as f64 / n as f64, (i + 1) as f64 / n as f64);
        let extra = format!(r#" class="frame" visibility="{base}""#);
        board_group(&mut out, board, &picture, 0.0, 0.0, &extra);
        // The animation goes inside the group just closed: reopen it by replacing its end.
        out.truncate(out.len() - "</g>\n".len());
        let _ = writeln!(
            out,
            r#"<animate attributeName="visibility" values="hidden;visible;hidden" keyTimes="0;{from:.6};{to:.6}" calcMode="discrete" dur="{total}s" repeatCount="indefinite"/>"#
        );
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}
