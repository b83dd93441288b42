//! Puzzle mode: one puzzle at a time near the player's rating, the move judged against the
//! puzzle's exact answers, the rating (Glicko-2) and the streak kept in the data folder.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use tns_board::{Bitboard, Board, Move, Point, Side};
use tns_puzzles::{Progress, Puzzle, Theme};
use tns_tablebase::{Tablebase, Verdict, Wdl};

use crate::input::Action;
use crate::leave::Leave;
use crate::move_entry::{Entered, MoveEntry};

/// Where the player is with the puzzle on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// Looking for the move of step `step` (0 the first).
    Solving {
        /// The move to find, from 0.
        step: usize,
    },
    /// Every move found.
    Solved,
    /// A move that gives the value up; the puzzle counts as failed.
    Failed {
        /// The move played.
        played: Move,
        /// Why it is wrong, from the table where there is one.
        why: String,
    },
    /// The answer was asked for (`H`) before a move was played: failed, and shown.
    Shown,
}

/// The puzzle screen's state.
#[derive(Debug)]
pub struct PuzzleScreen {
    set: Vec<Puzzle>,
    progress: Progress,
    /// Where the progress is written after each puzzle, if anywhere.
    path: Option<PathBuf>,
    table: Option<Arc<Tablebase>>,
    /// The puzzle on the board, an index into the set.
    current: usize,
    /// The position shown.
    board: Board,
    attempt: Attempt,
    /// The piece picked up, the text typed: entered as in a game.
    entry: MoveEntry,
    /// A line for the player: what happened last.
    message: String,
    /// Drawn from for the next puzzle; moves on with every puzzle.
    seed: u64,
    /// How the player leaves, once they do: the program ends, or the puzzle's position is
    /// played as a game (`g`).
    leaving: Option<Leave>,
}

impl PuzzleScreen {
    /// The screen over `set` with the player's `progress` (written to `path` after each puzzle),
    /// the first puzzle drawn by `seed`; `None` for an empty set.
    pub fn new(
        set: Vec<Puzzle>,
        progress: Progress,
        path: Option<PathBuf>,
        table: Option<Arc<Tablebase>>,
        seed: u64,
    ) -> Option<PuzzleScreen> {
        let current = progress.next(&set, seed)?;
        let board = set[current].position;
        Some(PuzzleScreen {
            set,
            progress,
            path,
            table,
            current,
            board,
            attempt: Attempt::Solving { step: 0 },
            entry: MoveEntry::default(),
            message: String::new(),
            seed,
            leaving: None,
        })
    }

    /// The puzzle on the board.
    pub fn puzzle(&self) -> &Puzzle {
        &self.set[self.current]
    }

    /// Its place in the set, from 1.
    pub fn number(&self) -> usize {
        self.current + 1
    }

    /// The position shown.
    pub fn board(&self) -> Board {
        self.board
    }

    /// Where the player is.
    pub fn attempt(&self) -> &Attempt {
        &self.attempt
    }

    /// The player's record.
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// What the player is asked, in words.
    pub fn task(&self) -> String {
        let puzzle = self.puzzle();
        let side = if puzzle.position.side_to_move() == Side::Sheep { "Sheep" } else { "Tigers" };
        let kept = if puzzle.has(Theme::Win) { "the win" } else { "the draw" };
        match puzzle.moves_to_find() {
            1 => format!("{side} to move: find the move that keeps {kept}"),
            n => format!("{side} to move: find {n} moves in a row that keep {kept}"),
        }
    }

    /// Plays `m` if it is legal where the puzzle stands and the puzzle is still being solved.
    pub fn play(&mut self, m: Move) {
        let Attempt::Solving { step } = self.attempt else {
            self.message = "n: the next puzzle".into();
            return;
        };
        if let Err(e) = self.board.check_move(m) {
            self.message = crate::move_entry::refusal(m, &e);
            return;
        }
        self.entry.clear();
        let puzzle = self.puzzle().clone();
        if !puzzle.solutions_at(step).contains(&m) {
            let why = self.why_wrong(m);
            self.board = self.board.after_unchecked(m);
            self.message.clone_from(&why);
            self.attempt = Attempt::Failed { played: m, why };
            self.finish(false);
            return;
        }
        self.board = self.board.after_unchecked(m);
        if let Some(reply) = puzzle.reply_after(step) {
            self.board = self.board.after_unchecked(reply);
            self.attempt = Attempt::Solving { step: step + 1 };
            self.message = format!("{m} is right; they answer {reply}. Your move");
        } else {
            self.attempt = Attempt::Solved;
            self.message = format!("{m} is right: it {}", kept(puzzle.value));
            self.finish(true);
        }
    }

    /// Why `m` is wrong: the table's verdict after it where there is a table, else what it
    /// gives up.
    fn why_wrong(&self, m: Move) -> String {
        let side = self.board.side_to_move();
        let verdict = self.table.as_ref().and_then(|t| {
            let child = self.board.after_unchecked(m);
            if child.dead() >= t.kills() {
                return Some(Verdict::from(Wdl::Win));
            }
            t.verdict(child).ok().map(Verdict::before)
        });
        match verdict {
            Some(v) if v.wdl == Wdl::Loss => format!("{m} loses: {}", v.describe(side)),
            Some(v) if v.wdl == Wdl::Draw => format!("{m} lets the win go: it is a draw"),
            Some(v) => format!("{m} is no better: {}", v.describe(side)),
            None if self.puzzle().has(Theme::Win) => format!("{m} lets the win go"),
            None => format!("{m} loses"),
        }
    }

    /// Shows the answer (`H`): a puzzle not yet solved counts as failed. The answer is from
    /// the puzzle's position, so the board goes back there (after a wrong move too, which
    /// would otherwise stay on the board beside an answer for the position before it).
    pub fn show_answer(&mut self) {
        self.board = self.puzzle().position;
        self.entry.clear();
        let answer: Vec<String> = self.puzzle().solutions.iter().map(Move::to_string).collect();
        let line: Vec<String> = self.puzzle().line.iter().map(Move::to_string).collect();
        let mut text = format!("The answer, from the puzzle's position: {}", answer.join(" or "));
        if !line.is_empty() {
            let _ = write!(text, ", then {}", line.join(" "));
        }
        if let Attempt::Solving { .. } = self.attempt {
            self.attempt = Attempt::Shown;
            self.finish(false);
        }
        self.message = format!("{text} ({})", kept(self.puzzle().value));
    }

    /// The next puzzle near the rating.
    pub fn next(&mut self) {
        self.seed = self
            .seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        if let Some(next) = self.progress.next(&self.set, self.seed >> 16) {
            self.current = next;
        }
        self.board = self.puzzle().position;
        self.attempt = Attempt::Solving { step: 0 };
        self.entry.clear();
        self.message.clear();
    }

    /// The line that says what happened last.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The piece picked up.
    pub fn selected(&self) -> Option<Point> {
        self.entry.selected
    }

    /// Where the piece picked up can go.
    pub fn targets(&self) -> Bitboard {
        self.entry.targets(self.board)
    }

    /// The move text being typed.
    pub fn typed(&self) -> &str {
        &self.entry.typed
    }

    /// How the player leaves, once they do.
    pub fn leaving(&self) -> Option<Leave> {
        self.leaving
    }

    /// Applies one action, as the puzzles take it; the game's own actions do nothing here.
    pub fn apply(&mut self, action: Action) {
        let entered = match action {
            Action::Quit | Action::ForceQuit => {
                self.leaving = Some(Leave::Quit);
                return;
            }
            Action::PlayPuzzle => {
                self.leaving = Some(Leave::Game(self.puzzle().position));
                return;
            }
            Action::ShowAnswer => return self.show_answer(),
            Action::NextPuzzle => return self.next(),
            Action::Cancel if !self.entry.typed.is_empty() => return self.entry.drop_typed(),
            Action::Cancel => {
                self.entry.selected = None;
                return;
            }
            Action::Backspace => return self.entry.backspace(),
            Action::Activate(p) => self.entry.click(self.board, p, true),
            Action::ActivateCursor if self.entry.typed.is_empty() => return,
            Action::ActivateCursor => self.entry.enter(self.board, true),
            Action::Type(c) => self.entry.type_char(self.board, c, true),
            _ => return,
        };
        match entered {
            Entered::Nothing => {}
            Entered::Say(text) => self.message = text,
            Entered::Move(m) => {
                let before = self.board;
                self.play(m);
                self.entry.typed_played(self.board != before);
            }
        }
    }

    /// Counts the puzzle and writes the record.
    fn finish(&mut self, solved: bool) {
        let before = self.progress.rating.rating;
        self.progress.record(self.current, self.puzzle().rating, solved);
        let change = self.progress.rating.rating - before;
        let _ = write!(self.message, " · rating {change:+.0}");
        if let Some(path) = &self.path
            && let Err(e) = save(path, &self.progress)
        {
            self.message = format!("{} (the rating could not be saved: {e})", self.message);
        }
    }
}

/// What the puzzle's answers keep, in words: "keeps the win in 7", "keeps the draw".
fn kept(value: Verdict) -> String {
    match (value.wdl, value.value) {
        (Wdl::Win, Some(v)) => format!("keeps the {v}"),
        (Wdl::Win, None) => "keeps the win".into(),
        _ => "keeps the draw".into(),
    }
}

/// Writes the record whole or not at all.
fn save(path: &std::path::Path, progress: &Progress) -> Result<(), tns_file::FileError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    tns_file::save(path, progress.to_text().as_bytes())
}

/// The record in `path`; a fresh one where there is none.
///
/// # Errors
/// A file that is there and cannot be read or understood.
pub fn load_progress(path: &std::path::Path) -> anyhow::Result<Progress> {
    let text = match tns_file::read_text(path, tns_puzzles::MAX_PROGRESS_TEXT as u64) {
        Ok(text) => text,
        Err(tns_file::FileError::Missing) => return Ok(Progress::default()),
        Err(e) => return Err(e).with_context(|| path.display().to_string()),
    };
    Progress::from_text(&text).with_context(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen() -> PuzzleScreen {
        let set = tns_puzzles::shipped().unwrap();
        PuzzleScreen::new(set, Progress::default(), None, None, 1).unwrap()
    }

    #[test]
    fn the_right_move_solves_and_raises_the_rating() {
        let mut s = screen();
        let mut step = 0;
        loop {
            let m = s.puzzle().solutions_at(step)[0];
            s.play(m);
            match s.attempt() {
                Attempt::Solving { step: next } => step = *next,
                Attempt::Solved => break,
                other => panic!("{other:?}"),
            }
        }
        assert!(s.progress().rating.rating > 1500.0, "{}", s.message());
        assert_eq!(s.progress().streak, 1);
        assert!(s.message().contains("is right"), "{}", s.message());
    }

    /// A legal move that is not one of the puzzle's answers.
    fn wrong_move(s: &PuzzleScreen) -> Move {
        let moves = s.board().legal_moves();
        moves.iter().copied().find(|m| !s.puzzle().solutions.contains(m)).unwrap()
    }

    #[test]
    fn a_wrong_move_fails_and_says_what_it_gives_up() {
        let mut s = screen();
        let wrong = wrong_move(&s);
        s.play(wrong);
        assert!(matches!(s.attempt(), Attempt::Failed { .. }));
        assert!(s.message().starts_with(&wrong.to_string()), "{}", s.message());
        assert!(s.progress().rating.rating < 1500.0);
        assert_eq!(s.progress().streak, 0);
        // Moves after the end only point to the next puzzle.
        let first = s.number();
        s.next();
        assert_ne!(s.number(), first, "a puzzle tried is not offered again");
        assert_eq!(s.attempt(), &Attempt::Solving { step: 0 });
    }

    #[test]
    fn the_answer_shown_counts_as_failed_and_names_every_solution() {
        let mut s = screen();
        s.show_answer();
        assert_eq!(s.attempt(), &Attempt::Shown);
        for m in &s.puzzle().solutions {
            assert!(s.message().contains(&m.to_string()), "{}", s.message());
        }
        assert_eq!(s.progress().tried, 1);
        assert_eq!(s.progress().solved, 0);
    }

    #[test]
    fn the_answer_after_a_wrong_move_is_shown_on_the_position_it_answers() {
        let mut s = screen();
        let start = s.puzzle().position;
        let wrong = wrong_move(&s);
        s.play(wrong);
        assert_ne!(s.board(), start, "the wrong move is on the board");
        s.show_answer();
        assert_eq!(s.board(), start, "the board is back where the answer applies");
        assert!(s.message().contains("from the puzzle's position"), "{}", s.message());
        // One pair of brackets: "(keeps the win in 7)", never "(keeps the win (win in 7))".
        let inner = s.message().split_once('(').map_or("", |(_, rest)| rest);
        assert!(!inner.split(')').next().unwrap_or("").contains('('), "{}", s.message());
        assert!(s.message().contains("(keeps the "), "{}", s.message());
    }

    #[test]
    fn what_an_answer_keeps_reads_without_nested_brackets() {
        let win = Verdict::from(tns_tablebase::Value::Win(7));
        assert_eq!(kept(win), "keeps the win in 7");
        assert_eq!(kept(Verdict::from(Wdl::Draw)), "keeps the draw");
    }

    #[test]
    fn an_illegal_move_is_refused_without_saying_its_point_twice() {
        let mut s = screen();
        let board = s.board();
        let Some(occupied) = tns_board::Point::all().find(|&p| board.piece_at(p).is_some()) else {
            panic!("a piece on the board")
        };
        s.play(Move::Place(occupied));
        let twice = format!("{occupied}: {occupied}");
        assert!(!s.message().contains(&twice), "{}", s.message());
        assert!(s.message().contains(&occupied.to_string()), "{}", s.message());
    }

    #[test]
    fn the_record_is_written_and_read_back() {
        let dir = std::env::temp_dir().join(format!("tns-tui-puzzles-{}", std::process::id()));
        let path = dir.join("puzzles.txt");
        let set = tns_puzzles::shipped().unwrap();
        let mut s =
            PuzzleScreen::new(set, Progress::default(), Some(path.clone()), None, 3).unwrap();
        s.show_answer();
        let back = load_progress(&path).unwrap();
        assert_eq!(back.tried, 1);
        assert!(back.has_seen(s.number() - 1));
        std::fs::write(&path, "colour blue\n").unwrap();
        let error = load_progress(&path).unwrap_err();
        assert!(tns_file::one_line(error.as_ref()).contains("line 1"), "{error:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
