//! How the game takes an action: by the screen shown (the help, a question, looking back, the
//! form, the game), each action becomes one of the game's intents.

use crate::App;
use crate::input::Action;
use crate::new_game::NewGameForm;
use crate::screen::Screen;

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
        (&Screen::LookingBack { ply }, Action::Activate(p)) => {
            app.input.entry.cursor = p;
            app.refuse_while_looking_back(ply);
        }
        (
            &Screen::LookingBack { ply },
            Action::ActivateCursor
            | Action::Type(_)
            | Action::PlayHint
            | Action::Hint
            | Action::Redo
            | Action::Resign
            | Action::OfferDraw,
        ) => app.refuse_while_looking_back(ply),
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
        Action::Activate(p) => app.activate(p),
        Action::ActivateCursor => app.activate_cursor(),
        Action::Cursor(dx, dy) => app.move_cursor(dx, dy),
        Action::Type(c) => app.type_char(c),
        Action::Browse(to) => app.browse(to),
        Action::TakeBackHere => app.take_back_to_shown(),
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
        Action::ScrollHelp(_)
        | Action::ShowAnswer
        | Action::NextPuzzle
        | Action::PlayPuzzle
        | Action::ClaimWin
        | Action::Rematch => {}
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
