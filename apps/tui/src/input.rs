//! Terminal events mapped to actions.

use ratatui::crossterm::event::{Event, KeyEventKind, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

use crate::app::looking_back::Browse;

pub use crate::action::Action;
use crate::board_view::Geometry;
use crate::keymap::Keys;
use crate::screen::Screen;

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

/// The action for an event on this screen of the game, if any.
pub fn map_event(event: &Event, hit: &Hitmap, screen: &Screen) -> Option<Action> {
    // The board and the move list take clicks only where nothing is open over them.
    let clicks = matches!(screen, Screen::Play | Screen::LookingBack { .. });
    map_keys(event, hit, keys_of(screen), clicks)
}

/// The action for an event where the keys are read from `keys`, and clicks on the board and
/// the move list count or not.
pub fn map_keys(event: &Event, hit: &Hitmap, keys: Keys, clicks: bool) -> Option<Action> {
    let key = match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => Some(keys.action(*key)?),
        Event::Mouse(mouse) if clicks && !hit.too_small => return map_mouse(*mouse, hit),
        _ => None,
    }?;
    if hit.too_small {
        // Nothing can be seen: only the ways out work (q still asks before losing a game).
        return matches!(key, Action::Quit | Action::ForceQuit | Action::Answer(_)).then_some(key);
    }
    Some(key)
}

/// Which of the keymap's tables a screen reads its keys from.
pub fn keys_of(screen: &Screen) -> Keys {
    match screen {
        Screen::Help { .. } => Keys::Help,
        Screen::Ask { .. } => Keys::Ask,
        Screen::NewGame { form, .. } if form.opening && !form.typing() => Keys::Opening,
        Screen::NewGame { .. } => Keys::Form,
        // In review the game's keys are the same; its moves are refused when they arrive
        // (`apply`), saying how to get back to the game.
        Screen::Play | Screen::LookingBack { .. } => Keys::Game,
    }
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
