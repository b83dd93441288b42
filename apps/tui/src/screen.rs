//! What the screen shows, and so what the keys mean: the game, an earlier position, a question,
//! the new-game form or the help. A screen that opens over another holds the one it goes back
//! to, so that closing it finds things as they were.

use tns_board::Side;

use crate::new_game::NewGameForm;

/// What the screen shows, and so what the keys mean.
#[derive(Debug, Default)]
pub enum Screen {
    /// Playing: the board and the game's keys.
    #[default]
    Play,
    /// Looking at an earlier position, without changing the game: the game's keys but its
    /// moves.
    LookingBack {
        /// The position looked at, as the number of the game's moves it follows.
        ply: usize,
    },
    /// A yes/no question.
    Ask {
        /// What yes does.
        question: Question,
        /// What the screen goes back to on no.
        back: Box<Screen>,
    },
    /// The new-game form (`n`, or the start screen).
    NewGame {
        /// The form, as chosen so far.
        form: Box<NewGameForm>,
        /// What Esc goes back to.
        back: Box<Screen>,
    },
    /// The help, over the screen any key goes back to.
    Help {
        /// Rows the help is scrolled by, where it does not fit the screen.
        scroll: u16,
        /// What the help was opened over.
        back: Box<Screen>,
    },
}

/// What a yes/no question will do on yes.
#[derive(Debug)]
pub enum Question {
    /// Quit the program, with moves not saved.
    Quit,
    /// Start the game this form chose, with moves not saved; on no, the form is back.
    NewGame(Box<NewGameForm>),
    /// Resign the game for this side.
    Resign(Side),
    /// This side offers a draw; the other answers.
    Draw(Side),
}

impl Screen {
    /// The position looked at, looking back, here or under what is open over it.
    pub fn looking_back(&self) -> Option<usize> {
        match self {
            Screen::Play => None,
            Screen::LookingBack { ply } => Some(*ply),
            Screen::Ask { back, .. } | Screen::NewGame { back, .. } | Screen::Help { back, .. } => {
                back.looking_back()
            }
        }
    }

    /// The new-game form, open here, under the help, or waiting on a question.
    pub fn form(&self) -> Option<&NewGameForm> {
        match self {
            Screen::NewGame { form, .. }
            | Screen::Ask { question: Question::NewGame(form), .. } => Some(form),
            Screen::Ask { back, .. } | Screen::Help { back, .. } => back.form(),
            Screen::Play | Screen::LookingBack { .. } => None,
        }
    }

    /// Whether a question waits for its answer, here or under the help.
    pub fn asks(&self) -> bool {
        match self {
            Screen::Ask { .. } => true,
            Screen::Help { back, .. } => back.asks(),
            _ => false,
        }
    }

    /// Whether this is the start screen (the form before any game), or the help over it.
    pub fn opening(&self) -> bool {
        self.form().is_some_and(|f| f.opening)
    }

    /// The same screen with the game shown instead of an earlier position, wherever the
    /// looking back is (a take-back or a new game ends it).
    pub(crate) fn stop_looking_back(&mut self) {
        match self {
            Screen::LookingBack { .. } => *self = Screen::Play,
            Screen::Ask { back, .. } | Screen::NewGame { back, .. } | Screen::Help { back, .. } => {
                back.stop_looking_back();
            }
            Screen::Play => {}
        }
    }
}
