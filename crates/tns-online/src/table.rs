//! An online game's state, folded from its events, and the rules that turn a player's action
//! into new events. Nothing here reads a clock: every time is given, in milliseconds since
//! 1970, so a game replays the same from its events whenever it is read.

use std::time::Duration;

use tns_board::{Game, Move, Side};
use tns_match::TimeControl;

use crate::error::OnlineError;
use crate::event::{ClockTimes, Event, EventKind};
use crate::finish::{Finish, Reason};
use crate::refusal::Refusal;
use crate::seat::Seat;
use crate::token::GameId;
use crate::view::{ClockView, GameView};

/// A game's state: who sits where, the moves, the clocks, the offers, and every event so far.
#[derive(Clone, Debug)]
pub struct Table {
    id: GameId,
    sheep: Seat,
    tigers: Seat,
    control: Option<TimeControl>,
    created_at: u64,
    game: Game,
    /// Each side's time left as of `turn_started` (in a game with a clock).
    clock: Option<ClockTimes>,
    /// When the running clock started: `None` before the first move and after the end.
    turn_started: Option<u64>,
    finish: Option<Finish>,
    draw_offer: Option<Side>,
    rematch_offer: Option<Side>,
    rematch: Option<GameId>,
    events: Vec<Event>,
}

/// What a rematch request comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RematchStep {
    /// The side asks; the other has yet to.
    Ask(EventKind),
    /// Both asked (or the opponent is the server's, which always accepts): the caller makes the
    /// new game with the sides swapped, then records [`EventKind::Rematch`].
    Make,
}

/// The online clock of a time control, or why it cannot be one.
///
/// # Errors
/// Not a time control, or one with periods (`40/5+3`): online clocks are a base and an increment.
pub fn online_control(text: &str) -> Result<TimeControl, Refusal> {
    let control: TimeControl =
        text.parse().map_err(|e: tns_match::TimeControlError| Refusal::BadClock(e.to_string()))?;
    if control.moves.is_some() {
        return Err(Refusal::BadClock(format!(
            "{text:?} has periods; an online clock is a base and an increment (5+3)"
        )));
    }
    Ok(control)
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl Table {
    /// A new game's first event: the seats and the clock, checked.
    ///
    /// # Errors
    /// Two sides that are both the server's, or a clock that is not an online one.
    pub fn created(sheep: Seat, tigers: Seat, clock: Option<&str>) -> Result<EventKind, Refusal> {
        if !sheep.is_friend() && !tigers.is_friend() {
            return Err(Refusal::NoFriend);
        }
        let clock = match clock {
            Some(text) => Some(online_control(text)?.to_string()),
            None => None,
        };
        Ok(EventKind::Created { sheep, tigers, clock })
    }

    /// The game `id` from its events, each checked against the rules and the numbering.
    ///
    /// # Errors
    /// The first event is not a creation, or an event does not follow.
    pub fn replay(id: GameId, events: Vec<Event>) -> Result<Table, OnlineError> {
        let mut events = events.into_iter();
        let fail =
            |version, why: String| OnlineError::Replay { game: id.to_string(), version, why };
        let Some(first) = events.next() else {
            return Err(fail(1, "a game with no events".into()));
        };
        let EventKind::Created { sheep, tigers, clock } = &first.kind else {
            return Err(fail(first.version, "the first event is not the game's creation".into()));
        };
        if first.version != 1 {
            return Err(fail(first.version, "the first event is not number 1".into()));
        }
        let control = match clock {
            Some(text) => Some(online_control(text).map_err(|e| fail(1, e.to_string()))?),
            None => None,
        };
        let mut table = Table {
            id,
            sheep: sheep.clone(),
            tigers: tigers.clone(),
            control,
            created_at: first.at,
            game: Game::new(),
            clock: control.map(|c| ClockTimes { sheep: ms(c.base), tigers: ms(c.base) }),
            turn_started: None,
            finish: None,
            draw_offer: None,
            rematch_offer: None,
            rematch: None,
            events: vec![first],
        };
        for event in events {
            table.apply(event)?;
        }
        Ok(table)
    }

    /// Adds the next event, checked.
    ///
    /// # Errors
    /// Its number is not the next, or it does not follow the rules from here.
    pub fn apply(&mut self, event: Event) -> Result<(), OnlineError> {
        let version = event.version;
        let fail = |why: String| OnlineError::Replay { game: self.id.to_string(), version, why };
        if version != self.version() + 1 {
            return Err(fail(format!("expected event {}", self.version() + 1)));
        }
        if self.rematch.is_some() {
            return Err(fail("an event after the rematch".into()));
        }
        let over = self.finish.is_some();
        match &event.kind {
            EventKind::Created { .. } => return Err(fail("a second creation".into())),
            EventKind::Move { side, mv, clock } => {
                if over || *side != self.turn() {
                    return Err(fail(format!("{mv} out of turn or after the end")));
                }
                let m: Move = mv.parse().map_err(|e| fail(format!("{mv:?}: {e}")))?;
                self.game.play(m).map_err(|e| fail(format!("{mv}: {e}")))?;
                if self.control.is_some() {
                    self.clock = *clock;
                    self.turn_started = Some(event.at);
                }
                if self.draw_offer == Some(side.other()) {
                    self.draw_offer = None;
                }
            }
            EventKind::DrawOffer { side } => {
                if over {
                    return Err(fail("a draw offered after the end".into()));
                }
                self.draw_offer = Some(*side);
            }
            EventKind::End { result, clock } => {
                if over {
                    return Err(fail("a second end".into()));
                }
                self.finish = Some(*result);
                if self.control.is_some() {
                    self.clock = *clock;
                }
                self.turn_started = None;
                self.draw_offer = None;
            }
            EventKind::Resumed { clock } => {
                if self.control.is_some() && !over {
                    self.clock = Some(*clock);
                    if self.turn_started.is_some() {
                        self.turn_started = Some(event.at);
                    }
                }
            }
            EventKind::RematchOffer { side } => {
                if !over {
                    return Err(fail("a rematch asked for before the end".into()));
                }
                self.rematch_offer = Some(*side);
            }
            EventKind::Rematch { game } => {
                if !over {
                    return Err(fail("a rematch before the end".into()));
                }
                self.rematch = Some(*game);
            }
        }
        self.events.push(event);
        Ok(())
    }

    /// The game's id.
    pub fn id(&self) -> GameId {
        self.id
    }

    /// The number of the last event.
    pub fn version(&self) -> u64 {
        self.events.last().map_or(0, |e| e.version)
    }

    /// Every event, the creation first.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The events after number `since`.
    pub fn events_after(&self, since: u64) -> &[Event] {
        let start = usize::try_from(since).unwrap_or(usize::MAX).min(self.events.len());
        &self.events[start..]
    }

    /// The seat of `side`.
    pub fn seat(&self, side: Side) -> &Seat {
        match side {
            Side::Sheep => &self.sheep,
            Side::Tiger => &self.tigers,
        }
    }

    /// The game on the board.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        self.game.board().side_to_move()
    }

    /// How it ended, once it has.
    pub fn finish(&self) -> Option<Finish> {
        self.finish
    }

    /// The rematch's id, once it is made.
    pub fn rematch(&self) -> Option<GameId> {
        self.rematch
    }

    /// When it was created.
    pub fn created_at(&self) -> u64 {
        self.created_at
    }

    /// When the last event happened.
    pub fn last_at(&self) -> u64 {
        self.events.last().map_or(self.created_at, |e| e.at)
    }

    /// Whether the server is to move for the side to move now.
    pub fn server_to_move(&self) -> bool {
        self.finish.is_none() && !self.seat(self.turn()).is_friend()
    }

    /// Each side's time left at `now` (the running clock counted down), in a game with a clock.
    pub fn clock_at(&self, now: u64) -> Option<ClockTimes> {
        let mut times = self.clock?;
        if let Some(started) = self.turn_started {
            let side = self.turn();
            let left = times.of(side).saturating_sub(now.saturating_sub(started));
            *times.of_mut(side) = left;
        }
        Some(times)
    }

    fn running(&self) -> Result<(), Refusal> {
        match self.finish {
            Some(finish) => Err(Refusal::Over { result: finish.to_string() }),
            None => Ok(()),
        }
    }

    /// What happens by itself at `now`: the running side's flag falls, or a game that nobody
    /// played in `expire` ends with no winner. The caller records it before any action.
    pub fn due(&self, now: u64, expire: Duration) -> Option<EventKind> {
        if self.finish.is_some() {
            return None;
        }
        let clock = self.clock_at(now);
        if clock.is_some_and(|c| self.turn_started.is_some() && c.of(self.turn()) == 0) {
            let result = Finish { winner: Some(self.turn().other()), reason: Reason::TimeForfeit };
            return Some(EventKind::End { result, clock });
        }
        if self.game.len() < 2 && now.saturating_sub(self.created_at) >= ms(expire) {
            let result = Finish { winner: None, reason: Reason::Expired };
            return Some(EventKind::End { result, clock });
        }
        None
    }

    /// The event that restarts the clocks after the server was down: the side to move is
    /// charged up to `last_beat` (the server's last heartbeat before it stopped), and its clock
    /// runs again from the event's time. `None` when no clock runs.
    pub fn resume(&self, last_beat: u64) -> Option<EventKind> {
        let (Some(started), None) = (self.turn_started, self.finish) else { return None };
        let mut clock = self.clock?;
        let side = self.turn();
        *clock.of_mut(side) = clock.of(side).saturating_sub(last_beat.saturating_sub(started));
        Some(EventKind::Resumed { clock })
    }

    /// `side` plays the move written `text` at `now`: the move's event, and the end's where it
    /// ends the game. Call [`Table::due`] first: a fallen flag is not checked here.
    ///
    /// # Errors
    /// The game is over, it is the other side's turn, the text is not a move or the move is
    /// not legal.
    pub fn play(&self, side: Side, text: &str, now: u64) -> Result<Vec<EventKind>, Refusal> {
        self.running()?;
        if side != self.turn() {
            return Err(Refusal::NotYourTurn { turn: self.turn() });
        }
        let m: Move = text.parse().map_err(|e: tns_board::ParseMoveError| Refusal::NotAMove {
            text: text.chars().take(16).collect(),
            reason: e.to_string(),
        })?;
        if !self.game.is_legal(m) {
            let position = self.game.board().to_string();
            return Err(Refusal::Illegal { mv: m.to_string(), position });
        }
        let clock = match (self.control, self.clock) {
            (Some(control), Some(mut times)) => {
                if let Some(started) = self.turn_started {
                    let left = times.of(side).saturating_sub(now.saturating_sub(started));
                    *times.of_mut(side) = left.saturating_add(ms(control.increment));
                }
                Some(times)
            }
            _ => None,
        };
        let mut after = self.game.clone();
        after.play_unchecked(m);
        let mut events = vec![EventKind::Move { side, mv: m.to_string(), clock }];
        if let Some(outcome) = after.outcome() {
            events.push(EventKind::End { result: outcome.into(), clock });
        }
        Ok(events)
    }

    /// `side` resigns at `now`.
    ///
    /// # Errors
    /// The game is over.
    pub fn resign(&self, side: Side, now: u64) -> Result<EventKind, Refusal> {
        self.running()?;
        let result = Finish { winner: Some(side.other()), reason: Reason::Resignation };
        Ok(EventKind::End { result, clock: self.clock_at(now) })
    }

    /// `side` offers a draw, or accepts the opponent's offer (the game is drawn).
    ///
    /// # Errors
    /// The game is over, or `side` already offers.
    pub fn draw(&self, side: Side, now: u64) -> Result<EventKind, Refusal> {
        self.running()?;
        if self.draw_offer == Some(side.other()) {
            let result = Finish { winner: None, reason: Reason::Agreement };
            Ok(EventKind::End { result, clock: self.clock_at(now) })
        } else if self.draw_offer == Some(side) {
            Err(Refusal::AlreadyOffered)
        } else {
            Ok(EventKind::DrawOffer { side })
        }
    }

    /// `side` claims the win, its opponent having been gone for `gone` (`None`: here now).
    ///
    /// # Errors
    /// The game is over, the opponent is the server's, or it has not been gone for `abandon`.
    pub fn claim(
        &self,
        side: Side,
        gone: Option<Duration>,
        abandon: Duration,
        now: u64,
    ) -> Result<EventKind, Refusal> {
        self.running()?;
        if !self.seat(side.other()).is_friend() {
            return Err(Refusal::NotAPerson);
        }
        match gone {
            Some(gone) if gone >= abandon => {
                let result = Finish { winner: Some(side), reason: Reason::Abandoned };
                Ok(EventKind::End { result, clock: self.clock_at(now) })
            }
            _ => {
                let left = abandon.saturating_sub(gone.unwrap_or_default());
                Err(Refusal::NotGone { seconds: ms(left).div_ceil(1000) })
            }
        }
    }

    /// `side` asks for a rematch.
    ///
    /// # Errors
    /// The game is not over, the rematch is made, or `side` already asks.
    pub fn ask_rematch(&self, side: Side) -> Result<RematchStep, Refusal> {
        if self.finish.is_none() {
            return Err(Refusal::NotOver);
        }
        if let Some(game) = self.rematch {
            return Err(Refusal::RematchMade { game });
        }
        let opponent_is_server = !self.seat(side.other()).is_friend();
        if opponent_is_server || self.rematch_offer == Some(side.other()) {
            Ok(RematchStep::Make)
        } else if self.rematch_offer == Some(side) {
            Err(Refusal::AlreadyOffered)
        } else {
            Ok(RematchStep::Ask(EventKind::RematchOffer { side }))
        }
    }

    /// The rematch's first event: the seats swapped, the same clock.
    pub fn rematch_created(&self) -> EventKind {
        EventKind::Created {
            sheep: self.tigers.clone(),
            tigers: self.sheep.clone(),
            clock: self.control.map(|c| c.to_string()),
        }
    }

    /// The game as the API answers it, at `now`.
    pub fn view(&self, now: u64) -> GameView {
        let running = self.finish.is_none() && self.turn_started.is_some();
        GameView {
            api: crate::API_VERSION,
            id: self.id,
            sheep: self.sheep.clone(),
            tigers: self.tigers.clone(),
            moves: self.game.moves().iter().map(ToString::to_string).collect(),
            position: self.game.board().to_string(),
            turn: self.turn(),
            result: self.finish,
            version: self.version(),
            clock: self.control.zip(self.clock_at(now)).map(|(control, times)| ClockView {
                control: control.to_string(),
                sheep: times.sheep,
                tigers: times.tigers,
                running: running.then(|| self.turn()),
            }),
            draw_offer: self.draw_offer,
            rematch_offer: self.rematch_offer,
            rematch: self.rematch,
            you: None,
        }
    }
}
