//! What a person can ask of the program, whatever key or click asked it: the keymap
//! (`keymap.rs`) and the clicks (`input.rs`) make actions, the modes take them.

use tns_board::Point;

use crate::app::looking_back::Browse;

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
    /// Leave the start screen for the puzzles.
    OpenPuzzles,
    /// In the puzzles: show the answer (the puzzle counts as failed).
    ShowAnswer,
    /// In the puzzles: the next puzzle.
    NextPuzzle,
    /// In the puzzles: play the puzzle's position as a game.
    PlayPuzzle,
    /// Online: claim the win, the opponent being gone.
    ClaimWin,
    /// Online: ask for a rematch, or accept the opponent's request.
    Rematch,
    /// Review the game against the table, or close the review.
    ReviewGame,
    /// Show the next move the review marked.
    NextMistake,
}
