//! Online mode: a game on a server, played from its link (`--join`) or created there
//! (`--online`). The server holds the game and its clocks; this screen follows its events on a
//! thread, shows the board as a local game does, and sends the player's moves and offers.
//! Nothing here judges a move but the rules the board shows: the server decides.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use tns_board::{Bitboard, Board, Game, Move, Point, Side};
use tns_online::{
    Client, ClientError, ClockTimes, Event, EventKind, Finish, GameId, GameView, Link, Token,
    side_name,
};

use crate::input::Action;
use crate::leave::Leave;
use crate::move_entry::{Entered, MoveEntry};

/// What reaches the screen from its threads: an event of the game followed, the answer to a
/// request, or the end of the stream. Each names its game, so that news of a game left behind
/// (before a rematch) is dropped.
#[derive(Debug)]
enum News {
    Event(GameId, Event),
    Answer(GameId, Result<GameView, ClientError>),
    StreamEnded(GameId, Option<ClientError>),
}

/// The clocks as the server last told them, and when.
#[derive(Clone, Copy, Debug)]
struct Clocks {
    times: ClockTimes,
    running: Option<Side>,
    at: Instant,
}

/// The online screen's state.
#[derive(Debug)]
pub struct OnlineScreen {
    client: Client,
    id: GameId,
    /// The seat's token; `None` when watching.
    token: Option<Token>,
    /// The side this seat plays; `None` when watching.
    you: Option<Side>,
    /// Who sits on each side, as the server names them.
    names: [String; 2],
    game: Game,
    version: u64,
    control: Option<String>,
    clocks: Option<Clocks>,
    finish: Option<Finish>,
    draw_offer: Option<Side>,
    rematch_offer: Option<Side>,
    /// The friend's link to send, for a game made here.
    invite: Option<String>,
    entry: MoveEntry,
    message: String,
    /// A resignation asked for once: the second `R` sends it.
    resigning: bool,
    news: Receiver<News>,
    sender: Sender<News>,
    leaving: Option<Leave>,
}

fn side_index(side: Side) -> usize {
    match side {
        Side::Sheep => 0,
        Side::Tiger => 1,
    }
}

impl OnlineScreen {
    /// Joins the game of `link` (a seat's link plays; a watch link watches).
    ///
    /// # Errors
    /// The server cannot be reached, or refuses the link (no such game, a token that holds no
    /// seat).
    pub fn join(link: &Link) -> Result<OnlineScreen, ClientError> {
        let client = Client::for_link(link)?;
        OnlineScreen::open(client, link.game, link.token, None)
    }

    /// Creates a game on the server at `base` (this seat on `side`, a friend on the other,
    /// `clock` if any) and joins it, showing the friend's link to send.
    ///
    /// # Errors
    /// The server cannot be reached or refuses the game.
    pub fn create(
        base: &str,
        side: Side,
        clock: Option<String>,
    ) -> Result<OnlineScreen, ClientError> {
        let client = Client::new(base)?;
        let asked = tns_online::NewGame {
            sheep: tns_online::Seat::Friend,
            tigers: tns_online::Seat::Friend,
            clock,
        };
        let created = client.create(&asked)?;
        let (mine, theirs) = match side {
            Side::Sheep => (created.seats.sheep, created.seats.tigers),
            Side::Tiger => (created.seats.tigers, created.seats.sheep),
        };
        let token = mine.and_then(|seat| seat.token.parse::<Token>().ok());
        OnlineScreen::open(client, created.id, token, theirs.map(|seat| seat.url))
    }

    fn open(
        client: Client,
        id: GameId,
        token: Option<Token>,
        invite: Option<String>,
    ) -> Result<OnlineScreen, ClientError> {
        let view = client.game_as(id, token.as_ref())?;
        let (sender, news) = channel();
        let mut screen = OnlineScreen {
            client,
            id,
            token,
            you: view.you,
            names: [String::new(), String::new()],
            game: Game::new(),
            version: 0,
            control: None,
            clocks: None,
            finish: None,
            draw_offer: None,
            rematch_offer: None,
            invite,
            entry: MoveEntry::default(),
            message: String::new(),
            resigning: false,
            news,
            sender,
            leaving: None,
        };
        screen.adopt(&view);
        screen.follow();
        screen.message = match screen.you {
            Some(side) => format!("you play the {}", side_name::of(side)),
            None => "watching".into(),
        };
        Ok(screen)
    }

    /// Follows the game's events from the last one known, on a thread.
    fn follow(&self) {
        let events = self.client.events(self.id, self.version, self.token);
        let sender = self.sender.clone();
        let id = self.id;
        std::thread::spawn(move || {
            for event in events {
                let news = match event {
                    Ok(event) => News::Event(id, event),
                    Err(e) => News::StreamEnded(id, Some(e)),
                };
                if sender.send(news).is_err() {
                    return;
                }
            }
            let _ = sender.send(News::StreamEnded(id, None));
        });
    }

    /// Takes the game as the server answered it, when it is newer than what is shown.
    fn adopt(&mut self, view: &GameView) {
        if view.version < self.version || view.id != self.id {
            return;
        }
        let mut game = Game::new();
        for text in &view.moves {
            if !matches!(text.parse::<Move>().map(|m| game.play(m)), Ok(Ok(()))) {
                self.message = format!("the server sent a move that does not play: {text}");
                return;
            }
        }
        self.game = game;
        self.version = view.version;
        self.names = [view.sheep.to_string(), view.tigers.to_string()];
        self.control = view.clock.as_ref().map(|c| c.control.clone());
        self.clocks = view.clock.as_ref().map(|c| Clocks {
            times: ClockTimes { sheep: c.sheep, tigers: c.tigers },
            running: c.running,
            at: Instant::now(),
        });
        self.finish = view.result;
        self.draw_offer = view.draw_offer;
        self.rematch_offer = view.rematch_offer;
    }

    /// Takes one event: the next is applied; one after a gap has the game read again.
    fn take(&mut self, event: Event) {
        if event.version <= self.version {
            return;
        }
        if event.version > self.version + 1 {
            return self.resync();
        }
        self.version = event.version;
        let now = Instant::now();
        match event.kind {
            EventKind::Created { .. } => {}
            EventKind::Move { side, mv, clock } => {
                match mv.parse::<Move>().map(|m| self.game.play(m)) {
                    Ok(Ok(())) => {}
                    _ => return self.resync(),
                }
                if let Some(times) = clock {
                    self.clocks = Some(Clocks { times, running: Some(side.other()), at: now });
                }
                if self.draw_offer == Some(side.other()) {
                    self.draw_offer = None;
                }
                self.entry.clear();
                if Some(side) != self.you {
                    self.message = format!("{} played {mv}", side_name::of(side));
                }
            }
            EventKind::DrawOffer { side } => {
                self.draw_offer = Some(side);
                self.message = if Some(side) == self.you {
                    "you offer a draw".into()
                } else {
                    format!("the {} offer a draw: = to accept", side_name::of(side))
                };
            }
            EventKind::End { result, clock } => {
                self.finish = Some(result);
                self.draw_offer = None;
                if let Some(times) = clock {
                    self.clocks = Some(Clocks { times, running: None, at: now });
                }
                self.message = format!("the game is over: {result}");
            }
            EventKind::Resumed { clock } => {
                let running = self.clocks.and_then(|c| c.running);
                self.clocks = Some(Clocks { times: clock, running, at: now });
                self.message = "the server started again; the game goes on".into();
            }
            EventKind::RematchOffer { side } => {
                self.rematch_offer = Some(side);
                if Some(side) != self.you {
                    self.message =
                        format!("the {} ask for a rematch: n to accept", side_name::of(side));
                }
            }
            EventKind::Rematch { game } => self.rematch(game),
        }
    }

    /// Moves to the rematch: the same seat's token plays the other side there.
    fn rematch(&mut self, game: GameId) {
        match self.client.game_as(game, self.token.as_ref()) {
            Ok(view) => {
                self.id = game;
                self.version = 0;
                self.you = view.you;
                self.invite = None;
                self.adopt(&view);
                self.follow();
                self.message = format!("the rematch: {}", self.message_for_seat());
            }
            Err(e) => self.message = format!("the rematch {game}: {e}"),
        }
    }

    fn message_for_seat(&self) -> String {
        match self.you {
            Some(side) => format!("you play the {}", side_name::of(side)),
            None => "watching".into(),
        }
    }

    /// Reads the game again on a thread; the answer comes back as news.
    fn resync(&self) {
        let (client, id, token, sender) =
            (self.client.clone(), self.id, self.token, self.sender.clone());
        std::thread::spawn(move || {
            let _ = sender.send(News::Answer(id, client.game_as(id, token.as_ref())));
        });
    }

    /// Sends a move on a thread.
    fn send_move(&mut self, m: Move) {
        let (Some(token), Some(you)) = (self.token, self.you) else { return };
        if self.finish.is_some() || self.board().side_to_move() != you {
            self.message = "not your turn".into();
            return;
        }
        let (client, id, sender) = (self.client.clone(), self.id, self.sender.clone());
        std::thread::spawn(move || {
            let answer = client.play(id, &token, &m.to_string());
            let _ = sender.send(News::Answer(id, answer));
        });
        self.message = format!("{m} sent");
    }

    /// Takes in what the threads sent: events, answers, a stream's end.
    pub fn tick(&mut self) {
        while let Ok(news) = self.news.try_recv() {
            match news {
                News::Event(id, event) if id == self.id => self.take(event),
                News::Answer(id, Ok(view)) if id == self.id => {
                    let had = self.version;
                    self.adopt(&view);
                    if let Some(game) = view.rematch.filter(|_| self.version > had) {
                        self.rematch(game);
                    }
                }
                News::Answer(id, Err(e)) if id == self.id => {
                    self.message = match e {
                        ClientError::Refused { error, .. } => error,
                        e => e.to_string(),
                    };
                }
                News::StreamEnded(id, Some(e)) if id == self.id => {
                    self.message = format!("the connection to the server is lost: {e}");
                }
                _ => {}
            }
        }
    }

    /// Applies one action, as the online game takes it.
    pub fn apply(&mut self, action: Action) {
        if action != Action::Resign {
            self.resigning = false;
        }
        let playing = self.you.is_some() && self.finish.is_none();
        let entered = match action {
            Action::Quit | Action::ForceQuit => {
                self.leaving = Some(Leave::Quit);
                return;
            }
            Action::Resign if playing && self.resigning => {
                self.resigning = false;
                return self.act(Client::resign);
            }
            Action::Resign if playing => {
                self.resigning = true;
                self.message = "R again to resign".into();
                return;
            }
            Action::OfferDraw if playing => return self.act(Client::draw),
            Action::ClaimWin if playing => return self.act(Client::claim),
            Action::Rematch if self.you.is_some() && self.finish.is_some() => {
                return self.act(Client::rematch);
            }
            Action::Cancel if !self.entry.typed.is_empty() => return self.entry.drop_typed(),
            Action::Cancel => {
                self.entry.selected = None;
                return;
            }
            Action::Backspace => return self.entry.backspace(),
            Action::Cursor(dx, dy) => return self.entry.move_cursor(dx, dy),
            Action::Activate(p) => self.entry.click(self.board(), p, self.my_turn()),
            Action::ActivateCursor if self.entry.typed.is_empty() => return,
            Action::ActivateCursor => self.entry.enter(self.board(), self.my_turn()),
            Action::Type(c) => self.entry.type_char(self.board(), c, self.my_turn()),
            _ => return,
        };
        match entered {
            Entered::Nothing => {}
            Entered::Say(text) => self.message = text,
            Entered::Move(m) => {
                if let Err(e) = self.board().check_move(m) {
                    self.message = crate::move_entry::refusal(m, &e);
                    self.entry.typed_played(false);
                } else {
                    self.send_move(m);
                    self.entry.typed_played(true);
                }
            }
        }
    }

    /// Sends a seat's request on a thread; its answer comes back as news.
    fn act(
        &self,
        ask: impl FnOnce(&Client, GameId, &Token) -> Result<GameView, ClientError> + Send + 'static,
    ) {
        let Some(token) = self.token else { return };
        let (client, id, sender) = (self.client.clone(), self.id, self.sender.clone());
        std::thread::spawn(move || {
            let _ = sender.send(News::Answer(id, ask(&client, id, &token)));
        });
    }

    /// Whether the player may move now.
    pub fn my_turn(&self) -> bool {
        self.finish.is_none() && self.you == Some(self.board().side_to_move())
    }

    /// The position shown.
    pub fn board(&self) -> Board {
        self.game.board()
    }

    /// The game's moves.
    pub fn moves(&self) -> &[Move] {
        self.game.moves()
    }

    /// The game's id.
    pub fn id(&self) -> GameId {
        self.id
    }

    /// The side this seat plays; `None` when watching.
    pub fn you(&self) -> Option<Side> {
        self.you
    }

    /// Who plays `side`, as the server names them (`friend`, `easy`...).
    pub fn name(&self, side: Side) -> &str {
        &self.names[side_index(side)]
    }

    /// How the game ended, once it has.
    pub fn finish(&self) -> Option<Finish> {
        self.finish
    }

    /// The time control, in a game with a clock.
    pub fn control(&self) -> Option<&str> {
        self.control.as_deref()
    }

    /// Each side's time left now, counted down from the server's last word; and the side whose
    /// clock runs.
    pub fn clock(&self, now: Instant) -> Option<(Duration, Duration, Option<Side>)> {
        let c = self.clocks?;
        let passed = u64::try_from(now.saturating_duration_since(c.at).as_millis()).unwrap_or(0);
        let left = |side: Side| {
            let ms = c.times.of(side);
            Duration::from_millis(if c.running == Some(side) {
                ms.saturating_sub(passed)
            } else {
                ms
            })
        };
        Some((left(Side::Sheep), left(Side::Tiger), c.running))
    }

    /// The side offering a draw.
    pub fn draw_offer(&self) -> Option<Side> {
        self.draw_offer
    }

    /// The side asking for a rematch.
    pub fn rematch_offer(&self) -> Option<Side> {
        self.rematch_offer
    }

    /// The friend's link to send, for a game made here.
    pub fn invite(&self) -> Option<&str> {
        self.invite.as_deref()
    }

    /// The watch link.
    pub fn watch_link(&self) -> String {
        format!("{}/play/{}", self.client.base(), self.id)
    }

    /// The line that says what happened last.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The last move, for the sheep it killed.
    pub fn last(&self) -> Option<Move> {
        self.game.moves().last().copied()
    }

    /// The keyboard cursor, while the player may move.
    pub fn cursor(&self) -> Option<Point> {
        self.my_turn().then_some(self.entry.cursor)
    }

    /// The piece picked up.
    pub fn selected(&self) -> Option<Point> {
        self.entry.selected
    }

    /// Where the piece picked up can go.
    pub fn targets(&self) -> Bitboard {
        self.entry.targets(self.board())
    }

    /// The move text being typed.
    pub fn typed(&self) -> &str {
        &self.entry.typed
    }

    /// The last move's points, to mark.
    pub fn last_move(&self) -> Bitboard {
        self.game.moves().last().map_or(Bitboard::EMPTY, |m| {
            m.from().map_or(Bitboard::EMPTY, Bitboard::from_point).with(m.to())
        })
    }

    /// How the player leaves, once they do.
    pub fn leaving(&self) -> Option<Leave> {
        self.leaving
    }
}
