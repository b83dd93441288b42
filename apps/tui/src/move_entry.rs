//! How a person enters a move on the board, the same in a game and in the puzzles: a click (or
//! Enter at the keyboard cursor) places a sheep or picks a piece up and puts it down, and a move
//! typed in notation is played as soon as it is whole.

use tns_board::{Bitboard, Board, Move, Point, Side};

/// The centre point, c3, where the cursor starts.
const CENTRE: Point = match Point::new(2, 2) {
    Some(p) => p,
    None => panic!("c3 is on the board"),
};

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
pub(crate) fn typed_move_complete(board: tns_board::Board, typed: &str) -> bool {
    let kill_x = typed.as_bytes().get(2) == Some(&b'x');
    match typed.len() {
        2 => board.side_to_move() == tns_board::Side::Sheep && board.in_hand() > 0,
        4 => !kill_x,
        5 => true,
        _ => false,
    }
}

/// The cursor, the piece picked up and the text typed.
#[derive(Debug)]
pub(crate) struct MoveEntry {
    /// The keyboard cursor.
    pub(crate) cursor: Point,
    /// The piece picked up.
    pub(crate) selected: Option<Point>,
    /// Move text being typed.
    pub(crate) typed: String,
    /// Whether `typed` is a whole move that was refused (shown until the next key, so that an
    /// Enter after it does not act on the cursor instead).
    pub(crate) typed_refused: bool,
}

/// What an entry comes to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Entered {
    /// Nothing to play yet (a piece picked up, a character typed).
    Nothing,
    /// This move, to play (the rules still judge it).
    Move(Move),
    /// Nothing to play, and this to say why.
    Say(String),
}

impl Default for MoveEntry {
    fn default() -> MoveEntry {
        MoveEntry { cursor: CENTRE, selected: None, typed: String::new(), typed_refused: false }
    }
}

impl MoveEntry {
    /// What a move, a take-back or an ending leaves behind: nothing picked up, nothing typed.
    pub(crate) fn clear(&mut self) {
        self.selected = None;
        self.drop_typed();
    }

    /// Where the piece picked up can go.
    pub(crate) fn targets(&self, board: Board) -> Bitboard {
        let Some(from) = self.selected else { return Bitboard::EMPTY };
        board.legal_moves().iter().filter(|m| m.from() == Some(from)).map(|m| m.to()).collect()
    }

    /// Drops the text typed, and the refusal shown beside it.
    pub(crate) fn drop_typed(&mut self) {
        self.typed.clear();
        self.typed_refused = false;
    }

    /// A click or Enter on `p`, where the person may move or not: put the piece picked up
    /// there, pick up a piece of the side to move, or place a sheep. Whatever was being typed is
    /// dropped: the click is what the person meant.
    pub(crate) fn click(&mut self, board: Board, p: Point, may_move: bool) -> Entered {
        self.drop_typed();
        self.cursor = p;
        if !may_move {
            return Entered::Nothing;
        }
        let side = board.side_to_move();
        if let Some(from) = self.selected {
            if from == p {
                self.selected = None;
                return Entered::Nothing;
            }
            if let Some(&m) =
                board.legal_moves().iter().find(|m| m.from() == Some(from) && m.to() == p)
            {
                return Entered::Move(m);
            }
        }
        if board.piece_at(p) == Some(side) {
            self.selected = Some(p);
            if self.targets(board).is_empty() {
                return Entered::Say(format!("the piece on {p} cannot move"));
            }
            Entered::Nothing
        } else if side == Side::Sheep && board.in_hand() > 0 {
            Entered::Move(Move::Place(p))
        } else {
            self.selected = None;
            Entered::Nothing
        }
    }

    /// Moves the keyboard cursor.
    pub(crate) fn move_cursor(&mut self, dx: i8, dy: i8) {
        #[expect(
            clippy::cast_possible_wrap,
            clippy::cast_sign_loss,
            reason = "the cursor's coordinates, 0 to 4, between u8 and i8"
        )]
        let (x, y) = (
            (self.cursor.x() as i8 + dx).clamp(0, 4) as u8,
            (self.cursor.y() as i8 + dy).clamp(0, 4) as u8,
        );
        if let Some(p) = Point::new(x, y) {
            self.cursor = p;
        }
    }

    /// A typed character of a move: the move once it is whole. The caller plays it and says
    /// with [`MoveEntry::typed_played`] whether it stood.
    pub(crate) fn type_char(&mut self, board: Board, c: char, may_move: bool) -> Entered {
        if std::mem::take(&mut self.typed_refused) {
            self.typed.clear();
        }
        let c = c.to_ascii_lowercase();
        if c == 'x' && self.typed.len() != 2 {
            // An x belongs only between a kill's two points.
            return Entered::Say("x goes between a kill's points: a5xc3".into());
        }
        self.typed.push(c);
        // A placement is two characters, a step four, a kill four or five (`a5c3`, `a5xc3`).
        let complete = typed_move_complete(board, &self.typed);
        if self.typed.len() == 2
            && !complete
            && may_move
            && let Ok(p) = self.typed.parse::<Point>()
            && board.piece_at(p) == Some(board.side_to_move())
        {
            // The piece a typed move starts from is picked up, its moves shown, as a click does.
            self.cursor = p;
            self.selected = Some(p);
        }
        if complete {
            let entered = match self.typed.parse::<Move>() {
                Ok(Move::Place(p)) if may_move && board.piece_at(p).is_some() => {
                    // A sheep's move while sheep are in hand is a placement: typing a piece's
                    // point (to move it, as later in the game) cannot be one.
                    Entered::Say(format!(
                        "{p} is taken: while sheep are in hand ({} now), each sheep move places \
                         one on an empty point",
                        board.in_hand()
                    ))
                }
                Ok(m) => return Entered::Move(m),
                Err(e) => Entered::Say(e.to_string()),
            };
            self.typed_played(false);
            entered
        } else {
            if self.typed.len() > 5 {
                self.typed.clear();
            }
            Entered::Nothing
        }
    }

    /// Whether the move typed was played: if so the text goes, else it stays on screen beside
    /// the reason until the next key.
    pub(crate) fn typed_played(&mut self, played: bool) {
        if played {
            self.typed.clear();
        } else {
            self.typed_refused = true;
        }
    }

    /// Enter or Space, from the keyboard: with a move being typed, it does not act on the
    /// cursor (the typed text is what the person is busy with).
    pub(crate) fn enter(&mut self, board: Board, may_move: bool) -> Entered {
        if self.typed.is_empty() {
            self.click(board, self.cursor, may_move)
        } else if self.typed_refused {
            // The message already says why the typed move was refused.
            Entered::Nothing
        } else {
            Entered::Say(format!("typing {}: finish the move, or Esc to drop it", self.typed))
        }
    }

    /// Backspace: deletes the last typed character.
    pub(crate) fn backspace(&mut self) {
        self.typed.pop();
        self.typed_refused = false;
    }
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
