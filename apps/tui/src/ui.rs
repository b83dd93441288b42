//! Drawing the whole screen from the app's state.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use tns_board::{Bitboard, Side};

use crate::app::{App, PlayerKind, bar_position, score_text};
use crate::board_view::{BoardView, Geometry};
use crate::input::Hitmap;

/// The smallest terminal the game draws in.
pub const MIN_SIZE: (u16, u16) = (40, 15);
const HISTORY_WIDTH: u16 = 18;
const STATUS_HEIGHT: u16 = 6;

/// Below this width the move list is left out, and below this height the panels lose their
/// borders, so that the smallest terminal still shows a whole board.
const ROOMY: (u16, u16) = (60, 20);

/// The status panel's height: one line more for the tablebase's verdict when a table is loaded;
/// two rows fewer without borders.
fn status_height(app: &App, compact: bool) -> u16 {
    STATUS_HEIGHT + u16::from(app.tablebase.is_some()) - if compact { 2 } else { 0 }
}

/// Every key, for the help overlay.
pub const KEYS: &[(&str, &str)] = &[
    ("click", "place a sheep, select a piece, move it"),
    ("arrows, hjkl", "move the cursor"),
    ("Enter, Space", "place / select / move at the cursor"),
    ("a5b4, c3", "type a move to play it"),
    ("Backspace", "delete the last typed character"),
    ("Esc", "cancel the selection, typed move or hint"),
    ("click a move", "go back to just before it"),
    ("u", "take back your last move"),
    ("n", "new game (asks if not saved)"),
    ("H", "hint: cursor on the best move"),
    ("Enter, Tab", "play the hinted move"),
    ("s", "save the game (in the games folder)"),
    ("y", "show and copy the position string"),
    ("?", "this help"),
    ("q", "quit (asks if not saved)"),
    ("Ctrl+C", "quit at once"),
];

/// Draws everything and returns where the board and history landed, for mapping clicks.
pub fn draw(frame: &mut Frame, app: &App) -> Hitmap {
    let area = frame.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let text = format!("Enlarge the terminal to at least {}x{}", MIN_SIZE.0, MIN_SIZE.1);
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return Hitmap::default();
    }
    let compact = area.height < ROOMY.1 || area.width < ROOMY.0;
    let [top, status] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(status_height(app, compact))])
            .areas(area);
    let history_width = if area.width < ROOMY.0 { 0 } else { HISTORY_WIDTH };
    let [board_area, history_area] =
        Layout::horizontal([Constraint::Min(0), Constraint::Length(history_width)]).areas(top);
    let mut hit = Hitmap::default();

    let inner = if compact {
        board_area
    } else {
        let board_block =
            Block::bordered().title(" Tigers and Sheep ").title_bottom(" ? help · q quit ");
        let inner = board_block.inner(board_area);
        frame.render_widget(board_block, board_area);
        inner
    };
    if let Some(geometry) = Geometry::fit(inner) {
        hit.board = Some(geometry);
        let last = app.game.moves().last().map_or(Bitboard::EMPTY, |m| {
            m.from().map_or(Bitboard::EMPTY, Bitboard::from_point).with(m.to())
        });
        let hinted = app.hint.map_or(Bitboard::EMPTY, |m| Bitboard::from_point(m.to()));
        let view = BoardView {
            board: app.board(),
            geometry,
            cursor: app.human_to_move().then_some(app.cursor),
            selected: app.selected.or(app.hint.and_then(tns_board::Move::from)),
            targets: app.targets() | hinted,
            last,
        };
        frame.render_widget(view, inner);
    } else {
        frame.render_widget(Paragraph::new("board too small"), inner);
    }

    if history_width > 0 {
        hit.history = Some(draw_history(frame, app, history_area));
    }
    draw_status(frame, app, status, compact);
    if app.show_help {
        draw_help(frame, area);
    }
    if app.no_color {
        // Keep the bold and reversed text, drop every colour.
        for cell in &mut frame.buffer_mut().content {
            cell.set_fg(Color::Reset);
            cell.set_bg(Color::Reset);
        }
    }
    hit
}

fn draw_history(frame: &mut Frame, app: &App, area: Rect) -> (Rect, usize) {
    let block = Block::bordered().title(" Moves ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let moves = app.game.moves();
    let rows = usize::from(inner.height);
    let first = moves.len().saturating_sub(rows);
    let start_side = app.game.start().side_to_move();
    let lines: Vec<Line> = moves[first..]
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let index = first + i;
            let side = if index % 2 == 0 { start_side } else { start_side.other() };
            let colour = if side == Side::Tiger { Color::Yellow } else { Color::White };
            Line::from(vec![
                Span::styled(format!("{:>3}. ", index + 1), Style::default().fg(Color::DarkGray)),
                Span::styled(format!("{} {m}", side.letter()), Style::default().fg(colour)),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
    (inner, first)
}

fn draw_status(frame: &mut Frame, app: &App, area: Rect, compact: bool) {
    let split = if compact { 100 } else { 60 };
    let [now, last] =
        Layout::horizontal([Constraint::Percentage(split), Constraint::Percentage(100 - split)])
            .areas(area);
    let board = app.board();
    let side = board.side_to_move();
    let mut lines = Vec::new();
    if let Some(outcome) = app.game.outcome() {
        // The result, once, in place of whose move it is.
        lines
            .push(Line::styled(outcome.to_string(), Style::default().add_modifier(Modifier::BOLD)));
    } else if *app.player(side) == PlayerKind::Human {
        lines.push(to_move_line(app));
        let typed =
            if app.typed.is_empty() { String::new() } else { format!("   typed: {}", app.typed) };
        lines.push(Line::from(format!("Your move: click, Enter, or type it{typed}")));
    } else if let Some(r) = app.live_report() {
        lines.push(to_move_line(app));
        lines.push(Line::from(format!(
            "Thinking… depth {}: {}",
            r.depth,
            score_text(r.score, side)
        )));
        let mut bar = score_bar(r.score, side);
        bar.push_span(Span::raw(format!(" expects {}", pv_text(&r.pv))));
        lines.push(bar);
    } else {
        lines.push(to_move_line(app));
        lines.push(Line::from(format!("Thinking… ({})", app.limit_text())));
    }
    if let Some(verdict) = app.verdict() {
        lines.push(Line::from(format!("Tablebase: {verdict}")));
    }
    lines.push(Line::styled(app.message.clone(), Style::default().fg(Color::Cyan)));
    let title = format!(" {}: {} ", side.plural(), app.player(side).name());
    let paragraph = Paragraph::new(lines).wrap(Wrap { trim: true });
    if compact {
        frame.render_widget(paragraph, now);
        return;
    }
    frame.render_widget(paragraph.block(Block::bordered().title(title)), now);

    let other = side.other();
    let text = match &app.last_turn[usize::from(other == Side::Tiger)] {
        Some(t) => vec![
            Line::from(format!("played {} (depth {})", t.mv, t.depth)),
            Line::from(t.score.clone()),
            Line::from(format!("expected {}", pv_text(&t.pv))),
        ],
        None => match app.game.moves().last() {
            Some(m) => vec![Line::from(format!("played {m}"))],
            None => vec![Line::from("—")],
        },
    };
    let title = format!(" Last turn: {} ", other.plural());
    frame.render_widget(Paragraph::new(text).block(Block::bordered().title(title)), last);
}

/// The first moves of a principal variation.
fn pv_text(pv: &[tns_board::Move]) -> String {
    let moves: Vec<String> = pv.iter().take(3).map(ToString::to_string).collect();
    if moves.is_empty() { "—".into() } else { moves.join(" ") }
}

/// A small bar for who stands better: the sheep's end on the left, the tigers' on the right.
fn score_bar(score: i32, side: Side) -> Line<'static> {
    const WIDTH: u16 = 11;
    let at = bar_position(score, side, WIDTH);
    let bar: String = (0..WIDTH).map(|i| if i == at.min(WIDTH - 1) { '┃' } else { '─' }).collect();
    Line::from(vec![
        Span::raw("Sheep "),
        Span::styled(bar, Style::default().fg(Color::Yellow)),
        Span::raw(" Tigers"),
    ])
}

/// Whose move it is, by whom, and the sheep in hand and dead.
fn to_move_line(app: &App) -> Line<'static> {
    let board = app.board();
    let side = board.side_to_move();
    Line::from(format!(
        "{} to move ({})   in hand {}   dead {}",
        side.plural(),
        app.player(side).name(),
        board.in_hand(),
        board.dead()
    ))
}

fn draw_help(frame: &mut Frame, area: Rect) {
    let key_width = KEYS.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(0);
    let what_width = KEYS.iter().map(|(_, w)| w.chars().count()).max().unwrap_or(0);
    let width = ((key_width + 2 + what_width + 2) as u16).min(area.width);
    let height = (KEYS.len() as u16 + 2).min(area.height);
    let popup = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    let lines: Vec<Line> = KEYS
        .iter()
        .map(|(k, what)| {
            Line::from(vec![
                Span::styled(format!("{k:>key_width$}  "), Style::default().fg(Color::Yellow)),
                Span::raw(*what),
            ])
        })
        .collect();
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" Keys (any key closes) ")),
        popup,
    );
}
