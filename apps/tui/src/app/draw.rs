//! Drawing the whole screen from the app's state.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use tns_board::{Bitboard, Move, Side};

use crate::app::timekeeping::ClockFace;
use crate::board_view::{BoardView, Geometry};
use crate::clock::clock_face;
use crate::form_view::NewGameView;
use crate::input::{HISTORY_COLUMNS, HistoryHit, Hitmap};
use crate::layout::{centred, wrap_words, wrapped_rows};
use crate::palette::Palette;
use crate::screen::Screen;
use crate::{App, Controller, bar_position, result_text};

/// The smallest terminal the game draws in.
pub const MIN_SIZE: (u16, u16) = (40, 15);
/// The move list: a border either side of a turn number and two moves.
const HISTORY_WIDTH: u16 = HISTORY_COLUMNS.0 + 2 * HISTORY_COLUMNS.1 + 2;
const STATUS_HEIGHT: u16 = 6;

/// Below this width the move list is left out, and below this height the panels lose their
/// borders, so that the smallest terminal still shows a whole board.
const ROOMY: (u16, u16) = (60, 20);

/// The status panel's height: one line more for the tablebase's verdict when a table is loaded,
/// or for the build's progress while one is built, and one for the moves' distances while the
/// analysis is on; two rows fewer without borders.
fn status_height(app: &App, compact: bool) -> u16 {
    let table_line = app.table.loaded.is_some() || app.jobs.table_build.is_some();
    let moves_line = app.table.loaded.is_some() && app.view.show_analysis;
    STATUS_HEIGHT + u16::from(table_line) + u16::from(moves_line) - if compact { 2 } else { 0 }
}

/// Every key of the game the help lists, from the keymap.
pub fn help_rows() -> impl Iterator<Item = (&'static str, &'static str)> {
    crate::keymap::GAME.iter().filter(|r| !r.what.is_empty()).map(|r| (r.keys, r.what))
}

/// Draws everything and returns where the board and history landed, for mapping clicks.
pub fn draw(frame: &mut Frame, app: &App) -> Hitmap {
    let area = frame.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let text = format!("Enlarge the terminal to at least {}x{}", MIN_SIZE.0, MIN_SIZE.1);
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return Hitmap { too_small: true, ..Hitmap::default() };
    }
    let compact = area.height < ROOMY.1 || area.width < ROOMY.0;
    let [top, status] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(status_height(app, compact))])
            .areas(area);
    let history_width = if area.width < ROOMY.0 { 0 } else { HISTORY_WIDTH };
    let [board_area, history_area] =
        Layout::horizontal([Constraint::Min(0), Constraint::Length(history_width)]).areas(top);
    let mut hit = Hitmap::default();
    // A review's chart under the board, where there is room.
    let chart_rows = if app.game_review().is_some() && board_area.height >= 14 { 4 } else { 0 };
    let [board_area, chart_area] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(chart_rows)]).areas(board_area);
    if chart_rows > 0 {
        draw_chart(frame, app, chart_area);
    }

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
        let last = app.shown_last_move().map_or(Bitboard::EMPTY, |m| {
            m.from().map_or(Bitboard::EMPTY, Bitboard::from_point).with(m.to())
        });
        let live = app.looking_back().is_none();
        let hinted = app.input.hinted().map_or(Bitboard::EMPTY, |m| Bitboard::from_point(m.to()));
        let view = BoardView {
            board: app.shown_board(),
            geometry,
            cursor: (live && app.human_to_move()).then_some(app.input.entry.cursor),
            selected: app
                .input
                .entry
                .selected
                .or(app.input.hinted().and_then(Move::from))
                .filter(|_| live),
            targets: if live { app.targets() | hinted } else { Bitboard::EMPTY },
            last,
            captured: app.shown_last_move().and_then(Move::captured),
            threatened: if app.view.show_threats {
                app.shown_board().capturable_sheep()
            } else {
                Bitboard::EMPTY
            },
            marks: app.analysis(),
            palette: app.palette(),
        };
        frame.render_widget(view, inner);
    } else {
        frame.render_widget(Paragraph::new("board too small"), inner);
    }

    if history_width > 0 {
        hit.history = Some(draw_history(frame, app, history_area));
    }
    draw_status(frame, app, status, compact);
    if let Some(form) = app.screen().form() {
        frame.render_widget(NewGameView { form, palette: app.palette() }, area);
    }
    if let Screen::Help { scroll, .. } = app.screen() {
        draw_help(frame, area, *scroll, &app.palette());
    }
    hit
}

fn draw_history(frame: &mut Frame, app: &App, area: Rect) -> HistoryHit {
    let palette = app.palette();
    let block = Block::bordered().title(" Moves ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let moves = app.game.moves();
    // A row per turn, the sheep's move first; a game from a position with the tigers to move
    // starts its first row with a gap.
    let offset = usize::from(app.game.start().side_to_move() == Side::Tiger);
    let turns = (moves.len() + offset).div_ceil(2);
    let rows = usize::from(inner.height).max(1);
    // Keep the shown move in view: the last rows while playing, the one looked at when looking back.
    let focus_turn = (app.shown_ply() + offset).saturating_sub(1) / 2;
    let first_turn = if app.looking_back().is_some() {
        focus_turn.saturating_sub(rows / 2).min(turns.saturating_sub(rows))
    } else {
        turns.saturating_sub(rows)
    };
    let shown = app.looking_back().and_then(|ply| ply.checked_sub(1));
    let (number_width, move_width) = HISTORY_COLUMNS;
    let lines: Vec<Line> = (first_turn..turns.min(first_turn + rows))
        .map(|turn| {
            let mut spans = vec![Span::styled(
                format!("{:>w$}. ", turn + 1, w = usize::from(number_width) - 2),
                palette.move_number,
            )];
            for slot in 0..2 {
                let Some(index) = (turn * 2 + slot).checked_sub(offset) else {
                    spans.push(Span::raw(format!("{:<w$}", "…", w = usize::from(move_width))));
                    continue;
                };
                let Some(&m) = moves.get(index) else { break };
                let mut style = if slot == 1 { palette.tiger_move } else { palette.sheep_move };
                if shown == Some(index) {
                    style = style.patch(palette.looked_at);
                }
                let text = m.to_string() + app.mark_of(index).map_or("", tns_puzzles::Mark::sign);
                spans.push(Span::styled(text.clone(), style));
                let pad = usize::from(move_width).saturating_sub(text.chars().count());
                spans.push(Span::raw(" ".repeat(pad)));
            }
            Line::from(spans)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
    HistoryHit { area: inner, first_turn, offset }
}

/// The review's chart: the value for the sheep along the plies, high where the sheep win, low
/// where the tigers do; the shown ply under a caret.
fn draw_chart(frame: &mut Frame, app: &App, area: Rect) {
    let Some(review) = app.game_review() else { return };
    let block = Block::bordered().title(" Review: sheep ▲ tigers ▼ · ! next mistake · g close ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let line = review.sparkline(usize::from(inner.width));
    let shown = app.shown_ply();
    let chart: String = line.iter().map(|&(_, bar)| bar).collect();
    let caret: String = line
        .iter()
        .enumerate()
        .map(|(c, &(ply, _))| {
            let next = line.get(c + 1).map_or(usize::MAX, |&(p, _)| p);
            if (ply..next).contains(&shown) { '^' } else { ' ' }
        })
        .collect();
    frame.render_widget(Paragraph::new(vec![Line::from(chart), Line::from(caret)]), inner);
}

fn draw_status(frame: &mut Frame, app: &App, area: Rect, compact: bool) {
    let palette = app.palette();
    // The last turn's panel needs room for a result's words: below 80 columns it gives way,
    // and the status takes the whole width.
    let alone = compact || area.width < 80;
    let split = if alone { 100 } else { 60 };
    let [now, last] =
        Layout::horizontal([Constraint::Percentage(split), Constraint::Percentage(100 - split)])
            .areas(area);
    let side = app.board().side_to_move();
    let opening = app.screen().opening();
    let lines = status_lines(app, &palette);
    let title = if opening {
        " New game ".to_string()
    } else {
        format!(" {}: {} ", side.plural(), app.player(side).name())
    };
    let inner = if compact {
        now
    } else {
        let block = Block::bordered().title(title);
        let inner = block.inner(now);
        frame.render_widget(block, now);
        inner
    };
    // The message (an error, a hint, "saved", a question) comes first: it gets the rows it
    // needs, wrapped at words, and what the search says gets what is left.
    let message_rows = wrapped_rows(&app.message, inner.width).min(inner.height);
    let [body, message] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(message_rows)]).areas(inner);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), body);
    let message_style = palette.message;
    frame.render_widget(
        Paragraph::new(Line::styled(app.message.clone(), message_style)).wrap(Wrap { trim: true }),
        message,
    );
    if alone {
        return;
    }

    let other = side.other();
    let text = match app.last_turn(other) {
        Some((_, Some(t))) => vec![
            Line::from(format!("played {} (depth {})", t.mv, t.depth)),
            Line::from(t.score.clone()),
            Line::from(format!("expected {}", pv_text(&t.pv))),
        ],
        Some((m, None)) => vec![Line::from(format!("played {m}"))],
        None => vec![Line::from("—")],
    };
    let title = format!(" Last turn: {} ", other.plural());
    let block = Block::bordered().title(title);
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }).block(block), last);
}

/// The status panel's lines, what matters most first, as the rows run out from the bottom:
/// whose move it is, the clocks, the table's verdict, then what the keys do or what the search
/// thinks.
fn status_lines(app: &App, palette: &Palette) -> Vec<Line<'static>> {
    let board = app.board();
    let side = board.side_to_move();
    let mut lines = Vec::new();
    let mut details = Vec::new();
    let opening = app.screen().opening();
    if opening {
        // The start screen: no game yet, so nobody thinks and nobody's player is named.
        lines.push(Line::from(format!(
            "{} to move   in hand {}   dead {}",
            side.plural(),
            board.in_hand(),
            board.dead()
        )));
    } else if app.looking_back().is_some() {
        let shown = app.shown_board();
        lines.push(Line::styled(
            format!(
                "Looking back: {} to move, in hand {}, dead {}",
                shown.side_to_move().plural(),
                shown.in_hand(),
                shown.dead()
            ),
            palette.emphasis,
        ));
        details.push(Line::from("← → step · End: the game · t: take back to here"));
    } else if let Some(outcome) = app.outcome() {
        // The result, once, in place of whose move it is, with the dead as every other state
        // shows them.
        lines.push(Line::styled(format!("{outcome}   dead {}", board.dead()), palette.emphasis));
    } else if *app.player(side) == Controller::Human {
        lines.push(to_move_line(app));
        details.push(Line::from(if app.input.entry.typed.is_empty() {
            "Your move: click, Enter, or type it".to_string()
        } else {
            format!("Your move · typed: {}", app.input.entry.typed)
        }));
    } else if let Some(r) = app.live_report() {
        lines.push(to_move_line(app));
        details.push(Line::from(format!(
            "Thinking… depth {}: {}",
            r.depth,
            result_text(r.score, r.chances, side)
        )));
        let mut bar = score_bar(r.chances, side, palette);
        bar.push_span(Span::raw(format!(" expects {}", pv_text(&r.pv))));
        details.push(bar);
    } else {
        lines.push(to_move_line(app));
        details.push(Line::from(format!("Thinking… ({})", app.limit_text(side))));
    }
    if let Some(faces) = app.clock_faces() {
        lines.push(clock_line(faces, palette));
    }
    if let Some(verdict) = app.verdict() {
        lines.push(Line::from(format!("Tablebase: {verdict}")));
    }
    if let Some(moves) = app.analysis_line() {
        lines.push(Line::from(format!("Moves: {moves}")));
    }
    if let Some(building) = app.table_build_text() {
        lines.push(Line::from(building));
    }
    lines.extend(details);
    lines
}

/// The first moves of a principal variation.
fn pv_text(pv: &[tns_board::Move]) -> String {
    let moves: Vec<String> = pv.iter().take(3).map(ToString::to_string).collect();
    if moves.is_empty() { "—".into() } else { moves.join(" ") }
}

/// A small bar for who stands better: the sheep's end on the left, the tigers' on the right.
fn score_bar(chances: tns_search::Chances, side: Side, palette: &Palette) -> Line<'static> {
    const WIDTH: u16 = 11;
    let at = bar_position(chances, side, WIDTH);
    let bar: String = (0..WIDTH).map(|i| if i == at.min(WIDTH - 1) { '┃' } else { '─' }).collect();
    Line::from(vec![Span::raw("Sheep "), Span::styled(bar, palette.bar), Span::raw(" Tigers")])
}

/// Both clocks, `Sheep [4:58]   Tigers 5:00`: the running one in brackets and its style, one
/// under ten seconds in tenths and the warning style.
fn clock_line(faces: [ClockFace; 2], palette: &Palette) -> Line<'static> {
    let mut spans = Vec::new();
    for face in faces {
        if !spans.is_empty() {
            spans.push(Span::raw("   "));
        }
        spans.push(Span::raw(format!("{} ", face.side.plural())));
        let text = clock_face(face.left);
        let mut style = if face.running { palette.clock_running } else { Style::new() };
        if face.low {
            style = style.patch(palette.clock_low);
        }
        let text = if face.running { format!("[{text}]") } else { text };
        spans.push(Span::styled(text, style));
    }
    Line::from(spans)
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

fn draw_help(frame: &mut Frame, area: Rect, scroll: u16, palette: &Palette) {
    let key_width = help_rows().map(|(k, _)| k.chars().count()).max().unwrap_or(0);
    let what_width = help_rows().map(|(_, w)| w.chars().count()).max().unwrap_or(0);
    #[expect(
        clippy::cast_possible_truncation,
        reason = "the help's widest line, under 100 columns"
    )]
    let width = ((key_width + 2 + what_width + 2) as u16).min(area.width);
    // Where a key and its words do not fit on a line, the words go under the key, wrapped at
    // words; where the keys do not all fit, ↑ and ↓ scroll them, and the title says so.
    let inner_width = width.saturating_sub(2);
    let key_style = palette.key;
    let mut lines: Vec<Line> = Vec::new();
    for (k, what) in help_rows() {
        if usize::from(inner_width) >= key_width + 2 + what.chars().count() {
            lines.push(Line::from(vec![
                Span::styled(format!("{k:>key_width$}  "), key_style),
                Span::raw(what),
            ]));
        } else {
            lines.push(Line::styled(k, key_style));
            for part in wrap_words(what, inner_width.saturating_sub(2)) {
                lines.push(Line::from(format!("  {part}")));
            }
        }
    }
    let rows = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let height = rows.saturating_add(2).min(area.height);
    let popup = centred(area, width, height);
    let fits = rows + 2 <= height;
    let scroll = if fits { 0 } else { scroll.min(rows + 2 - height) };
    let title =
        if fits { " Keys (any key closes) " } else { " Keys (↑ ↓ more, other keys close) " };
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).scroll((scroll, 0)).block(Block::bordered().title(title)),
        popup,
    );
}
