//! Drawing: every picture is the same board drawn at an offset, so a strip or an animation is
//! positions side by side or one over another.

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
    /// Whether to write under the board who is to move, the sheep in hand and the dead (a
    /// single position's picture; a strip captions its boards by move instead).
    pub status: bool,
}

impl Default for Picture {
    fn default() -> Picture {
        Picture { last_move: None, arrows: Vec::new(), labels: true, status: true }
    }
}

/// Pixels between neighbouring points.
const STEP: f64 = 80.0;
/// Room around the points, for the labels: wide enough that the ring of a move on the edge
/// (`RING` and half its stroke beyond the point) ends before a label begins.
const MARGIN: f64 = 64.0;
/// The side of one board picture.
const SIZE: f64 = 2.0 * MARGIN + 4.0 * STEP;
/// The radius of the ring round a last move's points, and its stroke.
const RING: f64 = 31.0;
const RING_STROKE: f64 = 5.0;
/// Where the labels are: the ranks' centre from the left edge, the files' baseline from the
/// bottom, and their font size.
const RANK_X: f64 = 18.0;
const FILE_BASELINE: f64 = 14.0;
const LABEL_SIZE: f64 = 16.0;
/// The height of the status line under a position's picture.
const STATUS: f64 = 36.0;

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
                r#"<text x="{x}" y="{}" font-size="{LABEL_SIZE}" fill="{LINES}" text-anchor="middle">{file}</text><text x="{RANK_X}" y="{}" font-size="{LABEL_SIZE}" fill="{LINES}" text-anchor="middle">{rank}</text>"#,
                SIZE - FILE_BASELINE,
                x + 5.0
            );
        }
    }
    if let Some(m) = picture.last_move {
        for p in m.from().into_iter().chain([m.to()]) {
            let (x, y) = centre(p);
            let _ = writeln!(
                out,
                r#"<circle class="last" cx="{x}" cy="{y}" r="{RING}" fill="none" stroke="{LAST}" stroke-width="{RING_STROKE}"/>"#
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

/// Who is to move, the sheep in hand and the dead, in words: `Tigers to move, 12 sheep in
/// hand, 2 dead`.
pub fn status(board: Board) -> String {
    let side = match board.side_to_move() {
        Side::Tiger => "Tigers",
        Side::Sheep => "Sheep",
    };
    let hand = match board.in_hand() {
        0 => "no sheep in hand".to_string(),
        1 => "1 sheep in hand".to_string(),
        n => format!("{n} sheep in hand"),
    };
    format!("{side} to move, {hand}, {} dead", board.dead())
}

/// A position as a standalone SVG picture, with [`status`] written under it when the picture
/// asks for it.
pub fn position(board: Board, picture: &Picture) -> String {
    let mut out = String::new();
    let band = if picture.status { STATUS } else { 0.0 };
    open(&mut out, SIZE, SIZE + band);
    board_group(&mut out, board, picture, 0.0, 0.0, "");
    if picture.status {
        let _ = writeln!(
            out,
            r#"<rect y="{SIZE}" width="{SIZE}" height="{STATUS}" fill="{BACKGROUND}"/><text class="status" x="{}" y="{}" font-size="18" fill="{LINES}" text-anchor="middle">{}</text>"#,
            SIZE / 2.0,
            SIZE + STATUS / 2.0 + 6.0,
            status(board)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// A count of positions, rows or columns as a coordinate or a share: far below 2^52, so exact.
#[expect(clippy::cast_precision_loss, reason = "see the function's docs")]
fn coord(n: usize) -> f64 {
    n as f64
}

/// Every position of a game side by side, `columns` to a row, each with the move that led to
/// it ringed and captioned (`3. b5`, by ply).
pub fn strip(game: &Game, columns: usize) -> String {
    let columns = columns.max(1);
    let positions = game.positions();
    let rows = positions.len().div_ceil(columns);
    let caption = 24.0;
    let width = SIZE * coord(columns.min(positions.len()));
    let height = (SIZE + caption) * coord(rows);
    let mut out = String::new();
    open(&mut out, width, height);
    for (i, &board) in positions.iter().enumerate() {
        let last_move = i.checked_sub(1).map(|j| game.moves()[j]);
        let picture = Picture { last_move, arrows: Vec::new(), labels: false, status: false };
        let (dx, dy) = (coord(i % columns) * SIZE, coord(i / columns) * (SIZE + caption));
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

/// The seconds a ply of an [`animated`] game may be shown: a hundredth of a second to an hour.
pub const SECONDS_PER_PLY: std::ops::RangeInclusive<f64> = 0.01..=3600.0;

/// A game as one animated picture: each position shown for `seconds_per_ply`, over and over.
/// Viewers without animation show the final position. The time is taken within
/// [`SECONDS_PER_PLY`] (a time outside it, or not a number, is brought to its nearer end, 1 s
/// for not a number), so the picture's durations are always numbers a viewer reads; a program
/// that takes the time from a person should refuse one outside the range first.
pub fn animated(game: &Game, seconds_per_ply: f64) -> String {
    let positions = game.positions();
    let n = positions.len();
    let step = if seconds_per_ply.is_nan() {
        1.0
    } else {
        seconds_per_ply.clamp(*SECONDS_PER_PLY.start(), *SECONDS_PER_PLY.end())
    };
    // Milliseconds at most, without trailing zeros: `2`, `2.1`, `0.35`.
    let total = format!("{:.3}", step * coord(n));
    let total = total.trim_end_matches('0').trim_end_matches('.');
    let mut out = String::new();
    open(&mut out, SIZE, SIZE);
    for (i, &board) in positions.iter().enumerate() {
        let last_move = i.checked_sub(1).map(|j| game.moves()[j]);
        let picture = Picture { last_move, arrows: Vec::new(), labels: true, status: false };
        // Hidden but for its own slice of the loop; the last frame is visible without animation.
        let base = if i + 1 == n { "visible" } else { "hidden" };
        let (from, to) = (coord(i) / coord(n), coord(i + 1) / coord(n));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ring_on_the_edge_ends_before_the_labels() {
        // A label's text reaches at most its font size from where it is anchored; a ring, its
        // radius and half its stroke from its point.
        let ring_reach = RING + RING_STROKE / 2.0;
        // The ranks, centred at RANK_X, against a ring on the left-hand file.
        assert!(RANK_X + LABEL_SIZE / 2.0 < MARGIN - ring_reach, "rank label under a ring");
        // The files, above their baseline, against a ring on the bottom rank.
        let bottom_point = MARGIN + 4.0 * STEP;
        let file_top = SIZE - FILE_BASELINE - LABEL_SIZE;
        assert!(bottom_point + ring_reach < file_top, "file label under a ring");
    }

    #[test]
    fn the_status_says_who_moves_and_what_is_left() {
        let b: Board = "T3T/1S3/2S2/5/T3T t 18".parse().unwrap();
        assert_eq!(status(b), "Tigers to move, 18 sheep in hand, 0 dead");
        let b: Board = "TSSST/SSSSS/SS1SS/SSS2/TSSST s 0".parse().unwrap();
        assert_eq!(status(b), "Sheep to move, no sheep in hand, 2 dead");
        let svg = position(b, &Picture::default());
        assert!(svg.contains(">Sheep to move, no sheep in hand, 2 dead</text>"), "{svg}");
        let bare = position(b, &Picture { status: false, ..Picture::default() });
        assert!(!bare.contains("class=\"status\""));
    }
}
