//! The new-game form (`n`): each side's player, the time, and the start position, chosen
//! without leaving the game.

use std::time::Duration;

use anyhow::{Context as _, bail};
use tns_board::Board;
use tns_match::TimeControl;

/// How long the computer may think: a time a move, or clocks for both sides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeChoice {
    /// Seconds a computer player may think per move; no clocks.
    PerMove(f64),
    /// Clocks: minutes for each side, and seconds each move adds.
    Clock(f64, f64),
}

impl TimeChoice {
    /// `2 s a move`, `clock 5+3`.
    pub fn label(self) -> String {
        match self {
            TimeChoice::PerMove(t) => format!("{t} s a move"),
            TimeChoice::Clock(m, s) => format!("clock {m}+{s}"),
        }
    }

    /// The clocks this choice plays on, if it is a clock.
    pub fn control(self) -> Option<TimeControl> {
        match self {
            TimeChoice::PerMove(_) => None,
            TimeChoice::Clock(m, s) => Some(TimeControl {
                base: Duration::from_secs_f64(m * 60.0),
                increment: Duration::from_secs_f64(s),
                moves: None,
            }),
        }
    }
}

/// The times offered, from quick to slow, then the clocks lichess players know.
pub const TIMES: [TimeChoice; 10] = [
    TimeChoice::PerMove(0.2),
    TimeChoice::PerMove(0.5),
    TimeChoice::PerMove(1.0),
    TimeChoice::PerMove(2.0),
    TimeChoice::PerMove(5.0),
    TimeChoice::Clock(1.0, 0.0),
    TimeChoice::Clock(3.0, 2.0),
    TimeChoice::Clock(5.0, 3.0),
    TimeChoice::Clock(10.0, 5.0),
    TimeChoice::Clock(15.0, 10.0),
];

/// Where the new game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartChoice {
    /// The usual start: four tigers in the corners, twenty sheep in hand.
    Usual,
    /// The position on the board now.
    Shown,
    /// A position typed into the form, in position notation.
    Typed,
}

impl StartChoice {
    const ALL: [StartChoice; 3] = [StartChoice::Usual, StartChoice::Shown, StartChoice::Typed];

    fn label(self) -> &'static str {
        match self {
            StartChoice::Usual => "the usual start",
            StartChoice::Shown => "the position on the board",
            StartChoice::Typed => "a position typed below",
        }
    }
}

/// The form's rows, top to bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    /// Who plays the sheep.
    Sheep,
    /// Who plays the tigers.
    Tiger,
    /// The time.
    Time,
    /// The start position.
    Start,
}

impl Row {
    const ALL: [Row; 4] = [Row::Sheep, Row::Tiger, Row::Time, Row::Start];
}

/// What the form has chosen, ready to start.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The sheep's player: `human` or a player spec.
    pub sheep: String,
    /// The tigers' player.
    pub tiger: String,
    /// The time.
    pub time: TimeChoice,
    /// The start position.
    pub start: Board,
}

/// The state of the new-game form.
#[derive(Clone, Debug, PartialEq)]
pub struct NewGameForm {
    /// The players offered: `human`, then the levels from weakest to strongest.
    pub players: Vec<String>,
    /// The row the keys change.
    pub row: Row,
    /// The sheep's player, an index into `players`.
    pub sheep: usize,
    /// The tigers' player, likewise.
    pub tiger: usize,
    /// The times offered: [`TIMES`], and this game's time if it is none of them.
    pub times: Vec<TimeChoice>,
    /// The time, an index into `times`.
    pub time: usize,
    /// Where the game starts.
    pub start: StartChoice,
    /// The position typed, for [`StartChoice::Typed`].
    pub typed: String,
    /// The position on the board when the form was opened, for [`StartChoice::Shown`].
    pub shown: Board,
    /// Why the last Enter could not start (a typed position that does not parse).
    pub error: Option<String>,
    /// Whether this is the start screen, shown before any game: Esc then quits, as there is
    /// no game behind it to go back to.
    pub opening: bool,
}

/// The player that makes the game an online one: a friend, on a server, with a link.
pub const ONLINE_FRIEND: &str = "friend online";

/// The longest position text the form takes: a position is under 40 characters.
const MAX_TYPED: usize = 60;

impl NewGameForm {
    /// The form with these players offered and chosen (a chosen one not offered is added), the
    /// time nearest `time`, and the usual start.
    pub fn new(
        mut players: Vec<String>,
        sheep: &str,
        tiger: &str,
        time: TimeChoice,
        shown: Board,
    ) -> NewGameForm {
        let mut index = |name: &str| {
            let name = tns_match::level_name(name);
            players.iter().position(|p| *p == name).unwrap_or_else(|| {
                players.push(name.clone());
                players.len() - 1
            })
        };
        let (sheep, tiger) = (index(sheep), index(tiger));
        let mut times = TIMES.to_vec();
        let time = times.iter().position(|&t| t == time).unwrap_or_else(|| {
            times.push(time);
            times.len() - 1
        });
        NewGameForm {
            players,
            row: Row::Sheep,
            sheep,
            tiger,
            times,
            time,
            start: StartChoice::Usual,
            typed: String::new(),
            shown,
            error: None,
            opening: false,
        }
    }

    /// Moves to the row above (`-1`) or below (`1`), around at the ends.
    pub fn move_row(&mut self, by: i8) {
        self.row = step(&Row::ALL, self.row, by);
    }

    /// Changes the value of the current row to the previous (`-1`) or next (`1`) choice.
    pub fn change(&mut self, by: i8) {
        self.error = None;
        let players = self.players.len();
        // One back is n - 1 forward: around at the ends.
        let cycle = |i: usize, n: usize| if by < 0 { (i + n - 1) % n } else { (i + 1) % n };
        match self.row {
            Row::Sheep => self.sheep = cycle(self.sheep, players),
            Row::Tiger => self.tiger = cycle(self.tiger, players),
            Row::Time => self.time = cycle(self.time, self.times.len()),
            Row::Start => self.start = step(&StartChoice::ALL, self.start, by),
        }
    }

    /// Whether keys type into the position (the start row, with a typed position chosen).
    pub fn typing(&self) -> bool {
        self.row == Row::Start && self.start == StartChoice::Typed
    }

    /// A character: `hjkl` move between rows and choices as the arrows do (no position holds
    /// those letters), anything else is part of the typed position where one is being typed.
    pub fn type_char(&mut self, c: char) {
        if self.typing() && !matches!(c, 'h' | 'j' | 'k' | 'l') {
            if self.typed.chars().count() < MAX_TYPED && !c.is_control() {
                self.typed.push(c);
                self.error = None;
            }
            return;
        }
        match c {
            'k' => self.move_row(-1),
            'j' => self.move_row(1),
            'h' => self.change(-1),
            'l' => self.change(1),
            _ => {}
        }
    }

    /// Backspace: deletes the typed position's last character.
    pub fn backspace(&mut self) {
        if self.typing() {
            self.typed.pop();
            self.error = None;
        }
    }

    /// Each row's name and chosen value, for drawing.
    pub fn rows(&self) -> [(Row, &'static str, String); 4] {
        [
            (Row::Sheep, "Sheep", label(&self.players[self.sheep])),
            (Row::Tiger, "Tigers", label(&self.players[self.tiger])),
            (Row::Time, "Time", self.times[self.time].label()),
            (Row::Start, "Start", self.start.label().to_string()),
        ]
    }

    /// What is chosen, or why it cannot start: a typed position that does not parse, or a
    /// position whose game is already over.
    ///
    /// # Errors
    /// The position parser's message, or that the game is over there.
    pub fn choice(&self) -> anyhow::Result<Choice> {
        let start = match self.start {
            StartChoice::Usual => Board::START,
            StartChoice::Shown => self.shown,
            StartChoice::Typed => {
                let text = self.typed.trim();
                // The text is on the line above: the error says only what is wrong with it.
                text.parse::<Board>().context("not a position")?
            }
        };
        if let Some(outcome) = tns_board::Outcome::of_board(start) {
            bail!("the game is over in that position: {outcome}");
        }
        let (sheep, tiger) = (&self.players[self.sheep], &self.players[self.tiger]);
        if sheep == ONLINE_FRIEND || tiger == ONLINE_FRIEND {
            if !(sheep == "human" || tiger == "human") || sheep == tiger {
                bail!(
                    "a game with a friend online is you against them: choose you for the other side"
                );
            }
            if start != Board::START {
                bail!("an online game starts from the usual start");
            }
        }
        Ok(Choice {
            sheep: self.players[self.sheep].clone(),
            tiger: self.players[self.tiger].clone(),
            time: self.times[self.time],
            start,
        })
    }
}

/// How the form shows a player: `you` for a person, a level with the spec it stands for.
pub fn label(name: &str) -> String {
    if name == "human" {
        return "you".to_string();
    }
    if name == ONLINE_FRIEND {
        return "a friend online (a link to send)".to_string();
    }
    let (head, options) = name.split_once(':').unwrap_or((name, ""));
    match tns_match::Level::named(head) {
        Some(level) if level.name() == head && level.spec() != head => {
            let joint = if options.is_empty() { "" } else { ":" };
            format!("{name} ({}{joint}{options})", level.spec())
        }
        _ => name.to_string(),
    }
}

/// The item `by` places from `now` in `all`, around at the ends.
fn step<T: Copy + PartialEq>(all: &[T], now: T, by: i8) -> T {
    let i = all.iter().position(|&x| x == now).unwrap_or(0);
    let n = all.len();
    let next = if by < 0 { (i + n - 1) % n } else { (i + 1) % n };
    all[next]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> NewGameForm {
        let players = ["human", "random", "hard", "strongest"].map(String::from).to_vec();
        NewGameForm::new(players, "human", "network", TimeChoice::PerMove(2.0), Board::START)
    }

    #[test]
    fn a_friend_online_is_played_by_you_from_the_usual_start() {
        let players = ["human", "hard", ONLINE_FRIEND].map(String::from).to_vec();
        let mut f = NewGameForm::new(players, "human", ONLINE_FRIEND, TIMES[7], Board::START);
        let choice = f.choice().unwrap();
        assert_eq!((choice.sheep.as_str(), choice.tiger.as_str()), ("human", ONLINE_FRIEND));
        assert_eq!(choice.time.control().map(|c| c.to_string()).as_deref(), Some("5+3"));
        // Against the computer, or from another position: refused, saying why.
        f.sheep = 1;
        let refused = f.choice().unwrap_err().to_string();
        assert!(refused.contains("choose you for the other side"), "{refused}");
        f.sheep = 0;
        f.start = StartChoice::Typed;
        f.typed = "T3T/5/2S2/5/T3T t 19".into();
        let refused = f.choice().unwrap_err().to_string();
        assert!(refused.contains("from the usual start"), "{refused}");
        assert_eq!(label(ONLINE_FRIEND), "a friend online (a link to send)");
    }

    #[test]
    fn rows_and_choices_go_around() {
        let mut f = form();
        assert_eq!((f.sheep, f.tiger, f.time), (0, 3, 3));
        f.change(-1);
        assert_eq!(f.players[f.sheep], "strongest", "before the first is the last");
        f.move_row(-1);
        assert_eq!(f.row, Row::Start, "above the first row is the last");
        f.change(1);
        assert_eq!(f.start, StartChoice::Shown);
        f.move_row(1);
        f.move_row(1);
        f.move_row(1);
        assert_eq!(f.row, Row::Time);
        for _ in 0..5 {
            f.type_char('l');
        }
        assert_eq!(f.times[f.time].label(), "clock 10+5");
        assert_eq!(f.times[f.time].control().unwrap().base, Duration::from_secs(600));
    }

    #[test]
    fn a_player_not_offered_is_added_and_kept() {
        let players = vec!["human".to_string()];
        let f = NewGameForm::new(
            players,
            "heuristic:dead=350",
            "human",
            TimeChoice::PerMove(9.0),
            Board::START,
        );
        assert_eq!(f.choice().unwrap().sheep, "hard:dead=350", "named as its level");
        assert_eq!(f.times[f.time], TimeChoice::PerMove(9.0), "a time not offered is kept");
        assert_eq!(f.choice().unwrap().time, TimeChoice::PerMove(9.0));
    }

    #[test]
    fn levels_are_offered_by_name_with_their_spec_beside() {
        let f = form();
        assert_eq!(f.tiger, 3, "the network is the strongest level");
        let rows = f.rows();
        assert_eq!(rows[0].2, "you");
        assert_eq!(rows[1].2, "strongest (network)");
        assert_eq!(label("easy"), "easy (heuristic:depth=2)");
        assert_eq!(label("strongest:table=on"), "strongest:table=on (network:table=on)");
        assert_eq!(label("heuristic:dead=350"), "heuristic:dead=350");
        assert_eq!(tns_match::level_name("network:table=on"), "strongest:table=on");
        assert_eq!(tns_match::level_name("heuristic:depth=4"), "medium");
        assert_eq!(tns_match::level_name("my.bin"), "my.bin");
    }

    #[test]
    fn a_typed_start_is_checked() {
        let mut f = form();
        f.row = Row::Start;
        f.change(1);
        f.change(1);
        assert!(f.typing());
        for c in "T3T/5/5/5/T3T s 20".chars() {
            f.type_char(c);
        }
        assert_eq!(f.choice().unwrap().start, Board::START);
        f.backspace();
        f.backspace();
        f.type_char('x');
        let err = tns_file::one_line(f.choice().unwrap_err().as_ref());
        assert!(err.starts_with("not a position: ") && err.len() > 20, "{err}");
        // A finished game is no start.
        f.typed = "T3T/5/5/5/T3T s 15".into();
        let err = f.choice().unwrap_err().to_string();
        assert!(err.contains("over"), "{err}");
    }
}
