//! The terminal game: state ([`App`]), input mapping, drawing, and the game loop.

mod action;
mod analysis;
pub mod app;
pub mod board_view;
pub mod clock;
mod endings;
pub mod engine;
mod folders;
mod form_view;
mod game_review;
mod hint;
pub mod input;
pub mod keymap;
pub mod layout;
mod leave;
mod move_entry;
pub mod new_game;
mod notes;
mod players;
mod program;
pub mod puzzle_view;
pub mod puzzles;
mod review;
mod saving;
pub mod screen;
mod starting;
pub mod table_build;
mod table_finding;
pub mod table_job;
pub mod theme;
mod timekeeping;
mod turns;
pub mod ui;
mod wording;

pub use app::App;
pub use folders::Folders;
pub use leave::Leave;
pub use players::{Controller, DEFAULT_TIME, TurnInfo};
pub use program::{Mode, run};
pub use review::Browse;
pub use saving::{clock_of, ending_of, limits_of_tag, utc_now, utc_of};
pub use screen::{Question, Screen};
pub use table_finding::{find_tablebase, offer_table_build, partial_table_note};
pub use theme::Theme;
pub use timekeeping::ClockFace;
pub use wording::{bar_position, result_text};

use crate::input::Action;
use crate::new_game::NewGameForm;

/// The workspace README's Rust examples, compiled and run as doctests here, in a crate that is
/// never packaged: a library's packaged crate holds only its own README.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct WorkspaceReadme;

/// Applies one action to the app, as the screen shown takes it.
pub fn apply(app: &mut App, action: Action, save_dir: &std::path::Path) {
    match (&app.screen, action) {
        // The ways out are the same on every screen.
        (_, Action::Quit) => app.request_quit(),
        (_, Action::ForceQuit) => app.force_quit(),
        (Screen::Help { .. }, Action::ScrollHelp(rows)) => app.scroll_help(rows),
        // Any other key closes the help, and does nothing else.
        (Screen::Help { .. }, _) => app.close_help(),
        // Looking back, the game's moves are refused, saying how to get back to the game.
        (&Screen::Review { ply }, Action::Activate(p)) => {
            app.input.entry.cursor = p;
            app.refuse_in_review(ply);
        }
        (
            &Screen::Review { ply },
            Action::ActivateCursor
            | Action::Type(_)
            | Action::PlayHint
            | Action::Hint
            | Action::Redo
            | Action::Resign
            | Action::OfferDraw,
        ) => app.refuse_in_review(ply),
        (_, action) => act(app, action, save_dir),
    }
}

/// Applies an action that means the same on the screens where it arrives.
fn act(app: &mut App, action: Action, save_dir: &std::path::Path) {
    match action {
        Action::Quit => app.request_quit(),
        Action::ForceQuit => app.force_quit(),
        Action::Cancel => app.cancel(),
        Action::Backspace => app.backspace(),
        Action::PlayHint => app.play_hint(),
        Action::Answer(yes) => app.answer(yes),
        Action::SaveAndConfirm => {
            app.save(save_dir);
            if app.unsaved() {
                // Saving failed: the message says why, and the question stands.
                return;
            }
            let saved = std::mem::take(&mut app.message);
            app.answer(true);
            // Where the game went stays said, before what the answer did.
            app.message =
                if app.message.is_empty() { saved } else { format!("{saved} · {}", app.message) };
        }
        Action::Activate(p) => {
            // A click is on a point: whatever was being typed is dropped.
            app.input.entry.typed.clear();
            app.activate(p);
        }
        Action::ActivateCursor => app.activate_cursor(),
        Action::Cursor(dx, dy) => app.move_cursor(dx, dy),
        Action::Type(c) => app.type_char(c),
        Action::Browse(to) => app.browse(to),
        Action::TakeBackHere => app.take_back_to_review(),
        Action::Undo => app.undo(),
        Action::Redo => app.redo(),
        Action::NewGame => app.request_new_game(),
        Action::FormRow(by) => form(app, |f| f.move_row(by)),
        Action::FormChange(by) => form(app, |f| f.change(by)),
        Action::FormChar(c) => form(app, |f| f.type_char(c)),
        Action::OpenPuzzles => app.open_puzzles(),
        Action::FormBackspace => form(app, NewGameForm::backspace),
        Action::FormStart => app.submit_new_game(),
        Action::FormClose => app.close_new_game(),
        Action::Hint => app.hint(),
        Action::ToggleThreats => app.toggle_threats(),
        Action::ToggleAnalysis => app.toggle_analysis(),
        Action::ReviewGame => app.toggle_game_review(),
        Action::NextMistake => app.next_mistake(),
        Action::Resign => app.request_resign(),
        Action::OfferDraw => app.offer_draw(),
        Action::Save => app.save(save_dir),
        Action::ToggleHelp => app.open_help(),
        // The help scrolls only while it is open, and the puzzles' keys are read only there.
        Action::ScrollHelp(_) | Action::ShowAnswer | Action::NextPuzzle | Action::PlayPuzzle => {}
        Action::CopyPosition => app.copy_position(),
        Action::SavePicture => app.save_picture(save_dir),
        Action::BuildTable => app.build_table(),
    }
}

/// Applies a key to the new-game form, if it is open.
fn form(app: &mut App, f: impl FnOnce(&mut NewGameForm)) {
    if let Screen::NewGame { form, .. } = &mut app.screen {
        f(form);
    }
}

/// Standard base64 with padding, for the clipboard escape sequence.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
