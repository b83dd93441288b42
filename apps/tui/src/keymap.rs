//! The one table of keys: for each place the keys are read (the game, the help, a question, the
//! new-game form, the puzzles), the rows that say what each key does. The dispatch finds a key's
//! action here, the help screen, the form's and the puzzles' key lines are drawn from the same
//! rows, and a test holds docs/playing.md to them, so that a key is named and bound in one place.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::action::Action;
use crate::app::looking_back::Browse;

/// Where the keys are read, and so which rows apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keys {
    /// The game, or an earlier position of it.
    Game,
    /// The help, over anything.
    Help,
    /// A yes/no question.
    Ask,
    /// The new-game form over a game.
    Form,
    /// The new-game form as the start screen, with no position being typed.
    Opening,
    /// The puzzles.
    Puzzles,
    /// An online game.
    Online,
}

/// A key, as a row binds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// This character, whatever the modifiers (an upper-case letter comes with Shift).
    Char(char),
    /// This key without Shift.
    Code(KeyCode),
    /// This key with Shift.
    Shift(KeyCode),
    /// Ctrl and this character.
    Ctrl(char),
    /// A character of a move: a to e, 1 to 5, and the x of a kill, either case.
    MoveChar,
    /// Any character.
    AnyChar,
    /// Any key at all.
    Any,
}

/// What a key does: one action, or one made from the character typed.
#[derive(Clone, Copy, Debug)]
pub enum Bind {
    /// This action.
    Do(Action),
    /// The action for the character typed.
    Typed(fn(char) -> Action),
}

/// One row of the table: the keys as people read them, what they do, and their bindings. A row
/// with no words is bound but not listed; a row with no bindings (a click, or keys another row
/// binds) is listed only.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// The keys, as the help and the key lines write them.
    pub keys: &'static str,
    /// What they do.
    pub what: &'static str,
    /// The keys and what each does.
    pub binds: &'static [(Key, Bind)],
}

const fn row(keys: &'static str, what: &'static str, binds: &'static [(Key, Bind)]) -> Row {
    Row { keys, what, binds }
}

const fn bound(binds: &'static [(Key, Bind)]) -> Row {
    Row { keys: "", what: "", binds }
}

use Action as A;
use Bind::{Do, Typed};
use Key::{Char, Code, Ctrl, Shift};

/// Ctrl+C: out at once, wherever the keys are read.
const QUIT_AT_ONCE: Row = row("Ctrl+C", "quit at once", &[(Ctrl('c'), Do(A::ForceQuit))]);

/// The game's keys, in the order the help lists them.
pub const GAME: &[Row] = &[
    row("click", "place a sheep, select a piece, move it", &[]),
    row(
        "hjkl, ↑ ↓, Shift+← →",
        "move the cursor",
        &[
            (Char('h'), Do(A::Cursor(-1, 0))),
            (Char('l'), Do(A::Cursor(1, 0))),
            (Char('k'), Do(A::Cursor(0, -1))),
            (Char('j'), Do(A::Cursor(0, 1))),
            (Code(KeyCode::Up), Do(A::Cursor(0, -1))),
            (Code(KeyCode::Down), Do(A::Cursor(0, 1))),
            (Shift(KeyCode::Left), Do(A::Cursor(-1, 0))),
            (Shift(KeyCode::Right), Do(A::Cursor(1, 0))),
        ],
    ),
    row(
        "Enter, Space",
        "place / select / move at the cursor",
        &[(Code(KeyCode::Enter), Do(A::ActivateCursor)), (Char(' '), Do(A::ActivateCursor))],
    ),
    row(
        "c3, a5b4, a5xc3",
        "type a move to play it (a kill with or without its x)",
        &[(Key::MoveChar, Typed(A::Type))],
    ),
    row(
        "Backspace",
        "delete the last typed character",
        &[(Code(KeyCode::Backspace), Do(A::Backspace))],
    ),
    row("Esc", "cancel the selection, typed move or hint", &[(Code(KeyCode::Esc), Do(A::Cancel))]),
    row(
        "← → Home End",
        "look through the game (it goes on)",
        &[
            (Code(KeyCode::Left), Do(A::Browse(Browse::Back))),
            (Code(KeyCode::Right), Do(A::Browse(Browse::Forward))),
            (Code(KeyCode::Home), Do(A::Browse(Browse::First))),
            (Code(KeyCode::End), Do(A::Browse(Browse::Last))),
        ],
    ),
    row("click a move", "look at the position after it", &[]),
    row("End, Esc", "back to the game", &[]),
    row(
        "t, u, r",
        "take back: to the move looked at / your last move; redo",
        &[(Char('t'), Do(A::TakeBackHere)), (Char('u'), Do(A::Undo)), (Char('r'), Do(A::Redo))],
    ),
    row("n", "new game: sides, time, start (asks if not saved)", &[(Char('n'), Do(A::NewGame))]),
    row(
        "R, =",
        "resign (asks); offer a draw (two people)",
        &[(Char('R'), Do(A::Resign)), (Char('='), Do(A::OfferDraw))],
    ),
    row(
        "H",
        "hint: cursor on the best move; Enter or Tab plays it",
        &[(Char('H'), Do(A::Hint)), (Code(KeyCode::Tab), Do(A::PlayHint))],
    ),
    row("s", "save the game (in the games folder)", &[(Char('s'), Do(A::Save))]),
    row("y", "show and copy the position string", &[(Char('y'), Do(A::CopyPosition))]),
    row("P", "save the position as an SVG picture", &[(Char('P'), Do(A::SavePicture))]),
    row(
        "v, m",
        "marks: sheep open to a jump / moves by table result",
        &[(Char('v'), Do(A::ToggleThreats)), (Char('m'), Do(A::ToggleAnalysis))],
    ),
    row(
        "g, !",
        "review the game against the table / the next mistake",
        &[(Char('g'), Do(A::ReviewGame)), (Char('!'), Do(A::NextMistake))],
    ),
    row("B", "build the endgame table (about a minute)", &[(Char('B'), Do(A::BuildTable))]),
    row("?", "this help", &[(Char('?'), Do(A::ToggleHelp))]),
    row("q", "quit (asks if not saved)", &[(Char('q'), Do(A::Quit))]),
    QUIT_AT_ONCE,
];

/// The help's keys: it scrolls, and any other key closes it.
pub const HELP: &[Row] = &[
    QUIT_AT_ONCE,
    row("q", "quit", &[(Char('q'), Do(A::Quit))]),
    row(
        "↑ ↓",
        "more",
        &[
            (Code(KeyCode::Down), Do(A::ScrollHelp(1))),
            (Char('j'), Do(A::ScrollHelp(1))),
            (Code(KeyCode::Up), Do(A::ScrollHelp(-1))),
            (Char('k'), Do(A::ScrollHelp(-1))),
        ],
    ),
    row("other keys", "close", &[(Key::Any, Do(A::ToggleHelp))]),
];

/// A question's keys (the question says what yes does).
pub const ASK: &[Row] = &[
    QUIT_AT_ONCE,
    row("y", "yes", &[(Char('y'), Do(A::Answer(true))), (Char('Y'), Do(A::Answer(true)))]),
    row(
        "n, Esc",
        "no",
        &[
            (Char('n'), Do(A::Answer(false))),
            (Char('N'), Do(A::Answer(false))),
            (Code(KeyCode::Esc), Do(A::Answer(false))),
        ],
    ),
    row(
        "s",
        "save, then yes",
        &[(Char('s'), Do(A::SaveAndConfirm)), (Char('S'), Do(A::SaveAndConfirm))],
    ),
];

/// The form's row and choice keys, the same over a game and on the start screen.
const FORM_MOVES: [Row; 2] = [
    row(
        "↑ ↓",
        "row",
        &[
            (Code(KeyCode::Up), Do(A::FormRow(-1))),
            (Code(KeyCode::BackTab), Do(A::FormRow(-1))),
            (Code(KeyCode::Down), Do(A::FormRow(1))),
            (Code(KeyCode::Tab), Do(A::FormRow(1))),
        ],
    ),
    row(
        "← →",
        "change",
        &[
            (Code(KeyCode::Left), Do(A::FormChange(-1))),
            (Code(KeyCode::Right), Do(A::FormChange(1))),
        ],
    ),
];

/// Typing a position into the form.
const FORM_TYPING: Row =
    bound(&[(Code(KeyCode::Backspace), Do(A::FormBackspace)), (Key::AnyChar, Typed(A::FormChar))]);

/// The new-game form over a game, in the order its key line lists them.
pub const FORM: &[Row] = &[
    QUIT_AT_ONCE,
    FORM_MOVES[0],
    FORM_MOVES[1],
    row("Enter", "start", &[(Code(KeyCode::Enter), Do(A::FormStart))]),
    row("Esc", "cancel", &[(Code(KeyCode::Esc), Do(A::FormClose))]),
    FORM_TYPING,
];

/// The start screen, where there is no game to go back to: `q` and Esc quit, `p` opens the
/// puzzles, `?` the help (until a position is being typed, when they are its characters).
pub const OPENING: &[Row] = &[
    QUIT_AT_ONCE,
    FORM_MOVES[0],
    FORM_MOVES[1],
    row("Enter", "play", &[(Code(KeyCode::Enter), Do(A::FormStart))]),
    row("p", "puzzles", &[(Char('p'), Do(A::OpenPuzzles))]),
    row("Esc", "quit", &[(Code(KeyCode::Esc), Do(A::FormClose))]),
    bound(&[(Char('q'), Do(A::ForceQuit)), (Char('?'), Do(A::ToggleHelp))]),
    FORM_TYPING,
];

/// The puzzles' keys, in the order the board's frame lists them.
pub const PUZZLES: &[Row] = &[
    QUIT_AT_ONCE,
    row("H", "answer", &[(Char('H'), Do(A::ShowAnswer))]),
    row("n", "next", &[(Char('n'), Do(A::NextPuzzle))]),
    row("g", "play it", &[(Char('g'), Do(A::PlayPuzzle))]),
    row("q", "quit", &[(Char('q'), Do(A::ForceQuit))]),
    bound(&[
        (Code(KeyCode::Esc), Do(A::Cancel)),
        (Code(KeyCode::Enter), Do(A::ActivateCursor)),
        (Code(KeyCode::Backspace), Do(A::Backspace)),
        (Key::MoveChar, Typed(A::Type)),
    ]),
];

/// An online game's keys, in the order the board's frame lists them: the moves as in a game,
/// the offers the server takes.
pub const ONLINE: &[Row] = &[
    QUIT_AT_ONCE,
    row("R", "resign", &[(Char('R'), Do(A::Resign))]),
    row("=", "draw", &[(Char('='), Do(A::OfferDraw))]),
    row("w", "claim the win", &[(Char('w'), Do(A::ClaimWin))]),
    row("n", "rematch", &[(Char('n'), Do(A::Rematch))]),
    row("q", "leave", &[(Char('q'), Do(A::ForceQuit))]),
    bound(&[
        (Code(KeyCode::Esc), Do(A::Cancel)),
        (Code(KeyCode::Enter), Do(A::ActivateCursor)),
        (Code(KeyCode::Backspace), Do(A::Backspace)),
        (Code(KeyCode::Up), Do(A::Cursor(0, -1))),
        (Code(KeyCode::Down), Do(A::Cursor(0, 1))),
        (Code(KeyCode::Left), Do(A::Cursor(-1, 0))),
        (Code(KeyCode::Right), Do(A::Cursor(1, 0))),
        (Key::MoveChar, Typed(A::Type)),
    ]),
];

impl Keys {
    /// The rows read here.
    pub fn rows(self) -> &'static [Row] {
        match self {
            Keys::Game => GAME,
            Keys::Help => HELP,
            Keys::Ask => ASK,
            Keys::Form => FORM,
            Keys::Opening => OPENING,
            Keys::Puzzles => PUZZLES,
            Keys::Online => ONLINE,
        }
    }

    /// The action of a key pressed here, if it has one. Ctrl+C is bound first everywhere, and
    /// no other key with Ctrl does anything.
    pub fn action(self, key: KeyEvent) -> Option<Action> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let shift = key.modifiers.contains(KeyModifiers::SHIFT);
        let binds = || self.rows().iter().flat_map(|r| r.binds.iter());
        // A key bound by name wins over one that stands for many (`B` builds, `b` is typed).
        let named = binds().find(|&&(k, _)| match (k, key.code) {
            (Ctrl(c), KeyCode::Char(t)) => ctrl && c == t,
            _ if ctrl => false,
            (Char(c), KeyCode::Char(t)) => c == t,
            // Shift+Tab arrives as BackTab, with Shift or without depending on the terminal.
            (Code(KeyCode::BackTab), KeyCode::BackTab) => true,
            (Code(c), code) => c == code && !shift,
            (Shift(c), code) => c == code && shift,
            _ => false,
        });
        let (_, bind) = named.or_else(|| {
            binds().find(|&&(k, _)| match (k, key.code) {
                _ if ctrl => false,
                (Key::MoveChar, KeyCode::Char(t)) => is_move_char(t),
                (Key::AnyChar, KeyCode::Char(_)) | (Key::Any, _) => true,
                _ => false,
            })
        })?;
        Some(match *bind {
            Do(action) => action,
            Typed(make) => match key.code {
                KeyCode::Char(c) => make(c),
                _ => return None,
            },
        })
    }

    /// The rows listed here, as a key line: `↑ ↓ row · ← → change · Enter start`.
    pub fn line(self) -> String {
        let listed = self.rows().iter().filter(|r| !r.what.is_empty() && r.keys != "Ctrl+C");
        listed.map(|r| format!("{} {}", r.keys, r.what)).collect::<Vec<_>>().join(" · ")
    }
}

/// Whether `c` is a character of a move as typed: a to e, 1 to 5, and the x of a kill (a5xc3).
fn is_move_char(c: char) -> bool {
    matches!(c, 'a'..='e' | 'A'..='E' | '1'..='5' | 'x' | 'X')
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyEventKind, KeyEventState};

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent { code, modifiers, kind: KeyEventKind::Press, state: KeyEventState::NONE }
    }

    #[test]
    fn shift_moves_the_cursor_and_the_plain_arrow_browses() {
        let left = key(KeyCode::Left, KeyModifiers::NONE);
        let shift_left = key(KeyCode::Left, KeyModifiers::SHIFT);
        assert_eq!(Keys::Game.action(left), Some(A::Browse(Browse::Back)));
        assert_eq!(Keys::Game.action(shift_left), Some(A::Cursor(-1, 0)));
        assert_eq!(Keys::Game.action(key(KeyCode::Char('H'), KeyModifiers::SHIFT)), Some(A::Hint));
        assert_eq!(
            Keys::Game.action(key(KeyCode::Char('X'), KeyModifiers::SHIFT)),
            Some(A::Type('X'))
        );
        assert_eq!(Keys::Game.action(key(KeyCode::Char('f'), KeyModifiers::NONE)), None);
    }

    #[test]
    fn ctrl_c_quits_everywhere_and_no_other_ctrl_key_acts() {
        let ctrl = |c| key(KeyCode::Char(c), KeyModifiers::CONTROL);
        for keys in [
            Keys::Game,
            Keys::Help,
            Keys::Ask,
            Keys::Form,
            Keys::Opening,
            Keys::Puzzles,
            Keys::Online,
        ] {
            assert_eq!(keys.action(ctrl('c')), Some(A::ForceQuit), "{keys:?}");
            assert_eq!(keys.action(ctrl('q')), None, "{keys:?}");
        }
    }

    #[test]
    fn the_start_screen_takes_q_p_and_help_where_the_form_types_them() {
        let plain = |c| key(KeyCode::Char(c), KeyModifiers::NONE);
        assert_eq!(Keys::Opening.action(plain('p')), Some(A::OpenPuzzles));
        assert_eq!(Keys::Opening.action(plain('q')), Some(A::ForceQuit));
        assert_eq!(Keys::Opening.action(plain('?')), Some(A::ToggleHelp));
        assert_eq!(Keys::Form.action(plain('p')), Some(A::FormChar('p')));
        assert_eq!(Keys::Opening.action(plain('T')), Some(A::FormChar('T')));
    }

    #[test]
    fn the_key_lines_are_drawn_from_the_rows() {
        assert_eq!(Keys::Form.line(), "↑ ↓ row · ← → change · Enter start · Esc cancel");
        assert_eq!(
            Keys::Opening.line(),
            "↑ ↓ row · ← → change · Enter play · p puzzles · Esc quit"
        );
        assert_eq!(Keys::Puzzles.line(), "H answer · n next · g play it · q quit");
        assert_eq!(
            Keys::Online.line(),
            "R resign · = draw · w claim the win · n rematch · q leave"
        );
    }

    /// Every key the help lists for the game is in docs/playing.md's table of keys, and every
    /// key that table (and the README's) names is bound: the pages and the program cannot
    /// drift apart unseen.
    #[test]
    fn docs_playing_lists_the_games_keys() {
        let page = include_str!("../../../docs/playing.md");
        let section = page.split("\n## Keys").nth(1).expect("a Keys section");
        let section = section.split("\n## ").next().unwrap_or(section);
        let documented: Vec<&str> = section
            .lines()
            .filter_map(|l| l.strip_prefix("| "))
            .filter_map(|l| l.split(" |").next())
            .collect();
        let named = |k: &str| documented.iter().any(|d| d.contains(&format!("`{k}`")));
        for r in GAME.iter().filter(|r| r.binds.iter().any(|(k, _)| matches!(k, Char(_)))) {
            for (k, _) in r.binds {
                if let Char(c) = k {
                    let c = if *c == ' ' { "Space".to_string() } else { c.to_string() };
                    assert!(
                        named(&c) || documented.iter().any(|d| d.contains(&c)),
                        "`{c}` ({}) is not in docs/playing.md's keys",
                        r.what
                    );
                }
            }
        }
        let readme = include_str!("../../../README.md");
        let play = readme.split("\n## How to play").nth(1).expect("a How to play section");
        let play = play.split("\n## ").next().unwrap_or(play);
        let in_readme =
            play.lines().filter_map(|l| l.strip_prefix("| ")).filter_map(|l| l.split(" |").next());
        for (page, d) in documented
            .iter()
            .map(|d| ("docs/playing.md", *d))
            .chain(in_readme.map(|d| ("README.md", d)))
        {
            for k in d.split('`').skip(1).step_by(2) {
                if k.chars().count() == 1 {
                    let c = k.chars().next().unwrap_or(' ');
                    let bound = Keys::Game.action(key(KeyCode::Char(c), KeyModifiers::NONE));
                    assert!(bound.is_some(), "{page} names `{k}`, which does nothing");
                }
            }
        }
    }

    /// The puzzles' keys their frame lists are the ones docs/puzzles.md names.
    #[test]
    fn docs_puzzles_names_the_puzzles_keys() {
        let page = include_str!("../../../docs/puzzles.md");
        for r in PUZZLES.iter().filter(|r| !r.what.is_empty() && r.keys != "Ctrl+C") {
            assert!(page.contains(&format!("`{}`", r.keys)), "docs/puzzles.md: `{}`", r.keys);
        }
    }
}
