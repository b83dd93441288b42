//! Drawing the online screen: the board as in a local game, the clocks the server keeps, whose
//! turn it is, the links, and what happened last.

use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use tns_board::{Move, Side};
use tns_online::side_name;

use crate::board_view::{BoardView, Geometry, Marks};
use crate::clock::clock_face;
use crate::keymap::Keys;
use crate::online::OnlineScreen;
use crate::palette::Palette;

/// The side panel's width.
const PANEL: u16 = 40;

/// Draws the screen; the board's geometry, for clicks.
pub fn draw(frame: &mut Frame, screen: &OnlineScreen, palette: Palette) -> Option<Geometry> {
    let area = frame.area();
    let panel = if area.width >= 76 { PANEL } else { 0 };
    let [left, right] =
        Layout::horizontal([Constraint::Min(0), Constraint::Length(panel)]).areas(area);
    let [board_area, bottom] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(if panel == 0 { 8 } else { 0 })])
            .areas(left);
    let block = Block::bordered()
        .title(format!(" Online game {} ", screen.id()))
        .title_bottom(format!(" {} ", Keys::Online.line()));
    let inner = block.inner(board_area);
    frame.render_widget(block, board_area);
    let geometry = Geometry::fit(inner);
    if let Some(geometry) = geometry {
        let view = BoardView {
            board: screen.board(),
            geometry,
            cursor: screen.cursor(),
            selected: screen.selected(),
            targets: screen.targets(),
            last: screen.last_move(),
            captured: screen.last().and_then(Move::captured),
            threatened: tns_board::Bitboard::EMPTY,
            marks: Marks::default(),
            palette,
        };
        frame.render_widget(view, inner);
    } else {
        frame.render_widget(Paragraph::new("board too small"), inner);
    }
    let lines = panel_lines(screen, Instant::now());
    let widget = Paragraph::new(lines).wrap(Wrap { trim: true });
    if panel == 0 {
        frame.render_widget(widget, bottom);
    } else {
        frame.render_widget(widget.block(Block::bordered().title(" Online ")), right);
    }
    geometry
}

/// Whose turn it is, in words, from this seat's view.
fn turn_line(screen: &OnlineScreen) -> String {
    if let Some(finish) = screen.finish() {
        let verdict = match (finish.winner, screen.you()) {
            (Some(w), Some(you)) if w == you => "You won: ",
            (Some(_), Some(_)) => "You lost: ",
            _ => "",
        };
        return format!("{verdict}{finish}");
    }
    let side = screen.board().side_to_move();
    let name = side_name::of(side);
    match screen.you() {
        Some(you) if you == side => format!("Your move ({name})"),
        Some(_) => format!("The {name} to move: your opponent thinks"),
        None => format!("The {name} to move"),
    }
}

/// The panel's text.
fn panel_lines(screen: &OnlineScreen, now: Instant) -> Vec<Line<'static>> {
    let mut lines = vec![Line::from(Span::styled(
        turn_line(screen),
        Style::default().add_modifier(Modifier::BOLD),
    ))];
    let seat = |side: Side| {
        let you = if screen.you() == Some(side) { " (you)" } else { "" };
        format!("{}: {}{you}", side_name::of(side), screen.name(side))
    };
    if let Some((sheep, tigers, running)) = screen.clock(now) {
        let face = |side: Side, left| {
            let text = format!("{} {}", seat(side), clock_face(left));
            let style = if running == Some(side) {
                Style::default().add_modifier(Modifier::REVERSED)
            } else {
                Style::default()
            };
            Line::from(Span::styled(text, style))
        };
        lines.push(face(Side::Sheep, sheep));
        lines.push(face(Side::Tiger, tigers));
        if let Some(control) = screen.control() {
            lines.push(Line::from(format!("clock {control}")));
        }
    } else {
        lines.push(Line::from(seat(Side::Sheep)));
        lines.push(Line::from(seat(Side::Tiger)));
    }
    let board = screen.board();
    lines.push(Line::from(format!(
        "in hand {} · dead {} of 5 · {} moves",
        board.in_hand(),
        board.dead(),
        screen.moves().len()
    )));
    if let Some(side) = screen.draw_offer() {
        lines.push(Line::from(format!("the {} offer a draw", side_name::of(side))));
    }
    if let Some(side) = screen.rematch_offer() {
        lines.push(Line::from(format!("the {} ask for a rematch", side_name::of(side))));
    }
    if !screen.typed().is_empty() {
        lines.push(Line::from(format!("typed: {}", screen.typed())));
    }
    lines.push(Line::from(screen.message().to_string()));
    if let Some(invite) = screen.invite() {
        lines.push(Line::from("Send your friend this link:"));
        lines.push(Line::from(invite.to_string()));
    }
    lines.push(Line::from(format!("watch: {}", screen.watch_link())));
    lines
}
