//! Terminal events mapped to actions.

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use tns_board::Point;

use crate::review::Browse;

use crate::board_view::Geometry;
use crate::screen::Screen;

/// Something the user asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Quit the program (asking first when the game has moves not saved).
    Quit,
    /// Quit at once, whatever is unsaved (Ctrl+C).
    ForceQuit,
    /// Cancel the selection, the typed move, the hint or the question (Esc).
    Cancel,
    /// Delete the last typed character.
    Backspace,
    /// Play the hinted move.
    PlayHint,
    /// The answer to a question: yes or no.
    Answer(bool),
    /// Save the game, then do what the question asked.
    SaveAndConfirm,
    /// Place, select or move on a point (a click, or Enter/Space at the cursor).
    Activate(Point),
    /// Activate the point under the cursor.
    ActivateCursor,
    /// Move the cursor.
    Cursor(i8, i8),
    /// A character of a typed move.
    Type(char),
    /// Look at another position of the game, without changing it.
    Browse(Browse),
    /// Take the game back to the position looked at.
    TakeBackHere,
    /// Take back the human's last move.
    Undo,
    /// Play again what was taken back.
    Redo,
    /// Open the new-game form.
    NewGame,
    /// In the form: the row above (`-1`) or below (`1`).
    FormRow(i8),
    /// In the form: the previous (`-1`) or next (`1`) choice on the row.
    FormChange(i8),
    /// In the form: a character (of a typed position, or `hjkl`).
    FormChar(char),
    /// In the form: delete the typed position's last character.
    FormBackspace,
    /// In the form: start the game it chose.
    FormStart,
    /// In the form: close it.
    FormClose,
    /// Show the engine's suggestion.
    Hint,
    /// Mark, or stop marking, the sheep a tiger could jump.
    ToggleThreats,
    /// Mark, or stop marking, each move by the table's verdict.
    ToggleAnalysis,
    /// Resign (asks first).
    Resign,
    /// Offer a draw (between two people).
    OfferDraw,
    /// Save the game record.
    Save,
    /// Open or close the help.
    ToggleHelp,
    /// Scroll the help by this many rows (when it does not fit the screen).
    ScrollHelp(i8),
    /// Show the position string and copy it to the clipboard.
    CopyPosition,
    /// Save the shown position as an SVG picture.
    SavePicture,
    /// Build the movement phase's table.
    BuildTable,
    /// Review the game against the table, or close the review.
    ReviewGame,
    /// Show the next move the review marked.
    NextMistake,
}

/// Where things are on screen, from the last draw, to map clicks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hitmap {
    /// Whether the screen was too small to draw the game ("Enlarge the terminal"): then no key
    /// plays, unseen, but quitting.
    pub too_small: bool,
    /// The board's geometry, if it was drawn.
    pub board: Option<Geometry>,
    /// The move list, if it was drawn.
    pub history: Option<HistoryHit>,
}

/// Where the move list landed: a row per turn, the sheep's move then the tigers'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryHit {
    /// The list's inner area.
    pub area: Rect,
    /// The turn (from 0) on its first row.
    pub first_turn: usize,
    /// 1 when the game started with the tigers to move (the first turn has no sheep move).
    pub offset: usize,
}

/// Why a move was refused, for the message line: the rules' reason, after the move unless the
/// reason already names it (`b3 is occupied`, not `b3: b3 is occupied`).
pub(crate) fn refusal(m: tns_board::Move, e: &impl std::fmt::Display) -> String {
    let why = e.to_string();
    let named = m.to_string();
    if why.split(|c: char| !c.is_ascii_alphanumeric()).any(|word| word == named) {
        why
    } else {
        format!("{named}: {why}")
    }
}

/// Whether `typed` is a whole move in `board`'s notation, so that it is played without Enter:
/// a placement is two characters, a step four, a kill four or five (`a5c3`, `a5xc3`).
pub fn typed_move_complete(board: tns_board::Board, typed: &str) -> bool {
    let kill_x = typed.as_bytes().get(2) == Some(&b'x');
    match typed.len() {
        2 => board.side_to_move() == tns_board::Side::Sheep && board.in_hand() > 0,
        4 => !kill_x,
        5 => true,
        _ => false,
    }
}

/// Columns of a move-list row: the turn number, then the two moves.
pub const HISTORY_COLUMNS: (u16, u16) = (5, 7);

impl HistoryHit {
    /// The number of moves played up to and including the move at a screen cell, if a move is
    /// there.
    pub fn ply_at(&self, column: u16, row: u16) -> Option<usize> {
        if !self.area.contains((column, row).into()) {
            return None;
        }
        let x = column - self.area.x;
        let (number, width) = HISTORY_COLUMNS;
        let slot = usize::from(x >= number + width);
        let turn = self.first_turn + usize::from(row - self.area.y);
        (turn * 2 + slot + 1).checked_sub(self.offset).filter(|&p| p > 0)
    }
}

/// The action for an event on this screen, if any.
pub fn map_event(event: &Event, hit: &Hitmap, screen: &Screen) -> Option<Action> {
    if hit.too_small {
        // Nothing can be seen: only the ways out work (q still asks before losing a game).
        return match map_key_event(event, screen)? {
            action @ (Action::Quit | Action::ForceQuit | Action::Answer(_)) => Some(action),
            _ => None,
        };
    }
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => map_key(*key, screen),
        // The board and the move list take clicks only where nothing is open over them.
        Event::Mouse(mouse) if matches!(screen, Screen::Play | Screen::Review { .. }) => {
            map_mouse(*mouse, hit)
        }
        _ => None,
    }
}

/// The action of a key event (not a release), if any.
fn map_key_event(event: &Event, screen: &Screen) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => map_key(*key, screen),
        _ => None,
    }
}

fn map_key(key: KeyEvent, screen: &Screen) -> Option<Action> {
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return (key.code == KeyCode::Char('c')).then_some(Action::ForceQuit);
    }
    match screen {
        Screen::Help { .. } => {
            return Some(match key.code {
                KeyCode::Char('q') => Action::Quit,
                KeyCode::Down | KeyCode::Char('j') => Action::ScrollHelp(1),
                KeyCode::Up | KeyCode::Char('k') => Action::ScrollHelp(-1),
                _ => Action::ToggleHelp,
            });
        }
        Screen::Ask { .. } => {
            return match key.code {
                KeyCode::Char('y' | 'Y') => Some(Action::Answer(true)),
                KeyCode::Char('n' | 'N') | KeyCode::Esc => Some(Action::Answer(false)),
                KeyCode::Char('s' | 'S') => Some(Action::SaveAndConfirm),
                _ => None,
            };
        }
        Screen::NewGame { .. } => {
            return Some(match key.code {
                KeyCode::Up | KeyCode::BackTab => Action::FormRow(-1),
                KeyCode::Down | KeyCode::Tab => Action::FormRow(1),
                KeyCode::Left => Action::FormChange(-1),
                KeyCode::Right => Action::FormChange(1),
                KeyCode::Enter => Action::FormStart,
                KeyCode::Esc => Action::FormClose,
                KeyCode::Backspace => Action::FormBackspace,
                KeyCode::Char(c) => Action::FormChar(c),
                _ => return None,
            });
        }
        // In review the game's keys are the same; its moves are refused when they arrive
        // (`apply`), saying how to get back to the game.
        Screen::Play | Screen::Review { .. } => {}
    }
    Some(match key.code {
        KeyCode::Char('q') => Action::Quit,
        KeyCode::Esc => Action::Cancel,
        KeyCode::Backspace => Action::Backspace,
        KeyCode::Tab => Action::PlayHint,
        KeyCode::Char('?') => Action::ToggleHelp,
        // ← → step through the game (as on analysis boards); the cursor goes sideways with h l
        // or Shift+← →, so the hint is on H (Shift+h).
        KeyCode::Left if key.modifiers.contains(KeyModifiers::SHIFT) => Action::Cursor(-1, 0),
        KeyCode::Right if key.modifiers.contains(KeyModifiers::SHIFT) => Action::Cursor(1, 0),
        KeyCode::Char('h') => Action::Cursor(-1, 0),
        KeyCode::Char('l') => Action::Cursor(1, 0),
        KeyCode::Left => Action::Browse(Browse::Back),
        KeyCode::Right => Action::Browse(Browse::Forward),
        KeyCode::Home => Action::Browse(Browse::First),
        KeyCode::End => Action::Browse(Browse::Last),
        KeyCode::Char('t') => Action::TakeBackHere,
        KeyCode::Char('r') => Action::Redo,
        KeyCode::Up | KeyCode::Char('k') => Action::Cursor(0, -1),
        KeyCode::Down | KeyCode::Char('j') => Action::Cursor(0, 1),
        KeyCode::Enter | KeyCode::Char(' ') => Action::ActivateCursor,
        KeyCode::Char('u') => Action::Undo,
        KeyCode::Char('n') => Action::NewGame,
        KeyCode::Char('H') => Action::Hint,
        KeyCode::Char('s') => Action::Save,
        KeyCode::Char('y') => Action::CopyPosition,
        KeyCode::Char('P') => Action::SavePicture,
        KeyCode::Char('B') => Action::BuildTable,
        KeyCode::Char('g') => Action::ReviewGame,
        KeyCode::Char('!') => Action::NextMistake,
        KeyCode::Char('v') => Action::ToggleThreats,
        KeyCode::Char('m') => Action::ToggleAnalysis,
        KeyCode::Char('R') => Action::Resign,
        KeyCode::Char('=') => Action::OfferDraw,
        // The x of a kill typed as the move list writes it (a5xc3).
        KeyCode::Char(c @ ('a'..='e' | 'A'..='E' | '1'..='5' | 'x' | 'X')) => Action::Type(c),
        _ => return None,
    })
}

fn map_mouse(mouse: MouseEvent, hit: &Hitmap) -> Option<Action> {
    if mouse.kind != MouseEventKind::Down(MouseButton::Left) {
        return None;
    }
    if let Some(g) = hit.board
        && let Some(p) = g.point_at(mouse.column, mouse.row)
    {
        return Some(Action::Activate(p));
    }
    let ply = hit.history?.ply_at(mouse.column, mouse.row)?;
    Some(Action::Browse(Browse::At(ply)))
}

#[cfg(test)]
mod refusals {
    use tns_board::Board;

    #[test]
    fn a_reason_that_names_the_move_is_not_said_twice() {
        let board: Board = "T3T/5/1S3/5/T3T s 19".parse().unwrap();
        let placed = "b3".parse().unwrap();
        let e = board.check_move(placed).unwrap_err();
        assert_eq!(super::refusal(placed, &e), "b3 is occupied");
        let step = "a5b4".parse().unwrap();
        let e = board.check_move(step).unwrap_err();
        assert!(super::refusal(step, &e).starts_with("a5b4: "), "{}", super::refusal(step, &e));
    }
}
