//! The terminal game: state ([`App`]), input mapping, drawing, and the game loop.

mod action;
pub mod app;
pub mod board_view;
pub mod clock;
mod folders;
mod form_view;
mod hint_search;
pub mod input;
pub mod keymap;
pub mod layout;
mod leave;
mod move_entry;
pub mod new_game;
mod notes;
pub mod online;
pub mod online_view;
pub mod palette;
mod players;
mod program;
pub mod puzzle_view;
pub mod puzzles;
pub mod screen;
mod table_finding;
pub mod table_job;
mod thinking;
mod wording;

pub use app::App;
pub use app::actions::apply;
pub use app::draw::{MIN_SIZE, draw, help_rows};
pub use app::looking_back::Browse;
pub use app::saving::{clock_of, ending_of, limits_of_tag, utc_now, utc_of};
pub use app::timekeeping::ClockFace;
pub use folders::Folders;
pub use leave::Leave;
pub use palette::Palette;
pub use players::{Controller, DEFAULT_TIME, TurnInfo};
pub use program::{Mode, run};
pub use screen::{Question, Screen};
pub use table_finding::{find_tablebase, offer_table_build, partial_table_note};
pub use wording::{bar_position, result_text};

/// The workspace README's Rust examples, compiled and run as doctests here, in a crate that is
/// never packaged: a library's packaged crate holds only its own README.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct WorkspaceReadme;

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
