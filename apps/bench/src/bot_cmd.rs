//! `tns-bench bot`: any engine plays an online game through the API, as a person's seat
//! would (docs/online.md, "Programs as players"): it takes a seat by its link, or creates a
//! game and takes one side, follows the game's events with its token (so that it counts as
//! here), and moves whenever it is its turn, until the game ends.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, TryRecvError};
use std::time::Duration;

use anyhow::{Context as _, bail};
use tns_board::{Game, Move, Side};
use tns_match::{Budget, Player, PlayerSpec};
use tns_online::{
    Client, ClientError, ClockTimes, Event, EventKind, GameId, GameView, Link, NewGame, Seat,
    Token, side_name,
};

use crate::ctrl_c::on_ctrl_c;

#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("seat").required(true).args(["join", "server"]))]
pub struct Args {
    /// Play the seat of this link: `http://HOST[:PORT]/play/ID#TOKEN`, as the server gave it
    /// to the person invited.
    #[arg(long, value_name = "LINK", conflicts_with_all = ["server", "against", "clock"])]
    join: Option<String>,
    /// Create a game on the server at URL (`http://HOST[:PORT]`), the bot on --side and
    /// --against on the other, and play it.
    #[arg(long, value_name = "URL", requires = "side")]
    server: Option<String>,
    /// The engine: a level (`random`, `easy`, `medium`, `hard`, `strongest`, `perfect`), a
    /// player spec with its options (`hard:time=0.2`), a weights file, or `cmd:PROGRAM [ARGS]`
    /// for another program speaking the TSI protocol (docs/protocol.md, docs/players.md).
    #[arg(long, value_name = "SPEC")]
    engine: PlayerSpec,
    /// The bot's side, `sheep` or `tigers`: with --server, the side it takes; with --join, a
    /// check of the side the server says the link's seat plays.
    #[arg(long, value_parser = side_name::parse)]
    side: Option<Side>,
    /// Who plays the other side of a game the bot creates: `friend` (a person, or another
    /// bot, given the link printed) or one of the server's players (`easy`...).
    #[arg(long, value_name = "SEAT", default_value = "friend")]
    against: Seat,
    /// A clock for a game the bot creates: MINUTES+SECONDS (`5+3`). With a clock the bot
    /// thinks about a thirtieth of its time left on each move.
    #[arg(long, value_name = "TC")]
    clock: Option<String>,
    /// Seconds per move, without a clock, for an engine that sets no limit of its own.
    #[arg(long, default_value_t = 0.5, value_parser = tns_match::limit::seconds)]
    time: f64,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = tns_match::limit::threads)]
    threads: usize,
    /// Table size, in MiB.
    #[arg(long, default_value_t = 16, value_parser = tns_match::limit::hash_mb)]
    tt_mb: usize,
    /// The tablebase's directory, for the perfect player and those with `table=on`.
    #[arg(long, default_value = "tablebase")]
    tablebase: std::path::PathBuf,
}

/// How often the bot looks at Ctrl+C while it waits for the opponent.
const POLL: Duration = Duration::from_millis(200);

/// The part of a clock's time left the bot spends on a move.
const CLOCK_SHARE: u64 = 30;

/// How long a move the server refused as too fast waits before it goes again, and how many
/// times.
const RATE_WAIT: Duration = Duration::from_millis(250);
const RATE_TRIES: u32 = 40;

/// The least the bot thinks on a move, however short its clock.
const LEAST_THOUGHT: Duration = Duration::from_millis(20);

/// The game the bot plays: where, its seat, its side.
struct Seated {
    client: Client,
    id: GameId,
    token: Token,
    side: Side,
    view: GameView,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let defaults =
        Budget { time: Some(args.time), depth: None, threads: args.threads, tt_mb: args.tt_mb };
    let tablebase = if args.engine.needs_tablebase() {
        let table = tns_tablebase::Tablebase::load(tns_board::KILLS_TO_WIN, &args.tablebase)
            .context("--tablebase")?;
        Some(Arc::new(table))
    } else {
        None
    };
    let mut player = args.engine.build(defaults, tablebase.as_ref()).context("--engine")?;
    player.prepare().context("--engine")?;
    player.new_game(1);
    let seated = match (&args.join, &args.server) {
        (Some(link), _) => join(link, args.side)?,
        (None, Some(server)) => create(server, args)?,
        (None, None) => bail!("give a seat's link with --join, or a server with --server"),
    };
    say!(
        "bot: {} plays the {} in game {} (watch: {}/play/{})",
        args.engine,
        side_name::of(seated.side),
        seated.id,
        seated.client.base(),
        seated.id
    );
    let budget = args.engine.budget(defaults);
    play(&seated, player.as_mut(), budget)
}

/// The seat of a link, and its side as the server says it (`you`).
fn join(text: &str, side: Option<Side>) -> anyhow::Result<Seated> {
    let link = Link::parse(text).context("--join")?;
    let token =
        link.token.context("--join: a watch link; the bot needs a seat's link, with #TOKEN")?;
    let client = Client::for_link(&link)?;
    let view = client.game_as(link.game, Some(&token)).context("--join: the game")?;
    let Some(you) = view.you else {
        bail!("--join: the server did not say which side the link's seat plays");
    };
    if let Some(side) = side.filter(|&side| side != you) {
        bail!("--side {}: the link's seat plays the {}", side_name::of(side), side_name::of(you));
    }
    Ok(Seated { client, id: link.game, token, side: you, view })
}

/// A new game, the bot on `--side` and `--against` on the other; prints the friend's link.
fn create(server: &str, args: &Args) -> anyhow::Result<Seated> {
    let client = Client::new(server).context("--server")?;
    let side = args.side.context("--server needs --side")?;
    let (sheep, tigers) = match side {
        Side::Sheep => (Seat::Friend, args.against.clone()),
        Side::Tiger => (args.against.clone(), Seat::Friend),
    };
    let created = client
        .create(&NewGame { sheep, tigers, clock: args.clock.clone() })
        .with_context(|| format!("creating a game on {}", client.base()))?;
    let (mine, theirs) = match side {
        Side::Sheep => (created.seats.sheep, created.seats.tigers),
        Side::Tiger => (created.seats.tigers, created.seats.sheep),
    };
    let mine = mine.context("the server gave no seat for the bot's side")?;
    let token = mine.token.parse::<Token>().context("the server's token for the bot's seat")?;
    if let Some(theirs) = theirs {
        say!("the {} play at {}", side_name::of(!side), theirs.url);
    }
    // The bot's own seat: another program (or a person) may take it up where the bot left.
    say!("the bot's seat: {}", mine.url);
    let view = client.game(created.id).context("the game created")?;
    Ok(Seated { client, id: created.id, token, side, view })
}

/// Minutes and seconds, tenths under a minute.
fn clock_text(ms: u64) -> String {
    let (minutes, seconds) = (ms / 60_000, (ms % 60_000) / 1000);
    if minutes == 0 {
        format!("{seconds}.{}", (ms % 1000) / 100)
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

/// The game as the bot follows it: the position its events make, and the clocks.
struct Followed {
    game: Game,
    clock: Option<ClockTimes>,
}

impl Followed {
    /// Takes in `event`; `Some` with the result once the game is over.
    fn take(&mut self, event: &Event) -> anyhow::Result<Option<String>> {
        match &event.kind {
            EventKind::Move { side, mv, clock } => {
                let m: Move = mv.parse().with_context(|| format!("the server's move {mv:?}"))?;
                self.game.play(m).with_context(|| {
                    format!("the server's move {mv} after {} plies", self.game.len())
                })?;
                self.clock = clock.or(self.clock);
                let times = self.clock.map_or(String::new(), |c| {
                    format!("  [sheep {}, tigers {}]", clock_text(c.sheep), clock_text(c.tigers))
                });
                say!("{:>3}. {:<6} {mv}{times}", self.game.len(), side_name::of(*side));
            }
            EventKind::DrawOffer { side } => {
                say!("the {} offer a draw (a move declines it)", side_name::of(*side));
            }
            EventKind::Resumed { clock } => {
                self.clock = Some(*clock);
                say!("the server started again: its clocks go on");
            }
            EventKind::End { result, .. } => return Ok(Some(result.to_string())),
            EventKind::Created { .. }
            | EventKind::RematchOffer { .. }
            | EventKind::Rematch { .. } => {}
        }
        Ok(None)
    }
}

/// What the bot heard: an event, or the end of the stream.
type Heard = Option<Result<Event, ClientError>>;

/// Follows the game's events on a thread of their own, so that the bot hears Ctrl+C and the
/// game's end while it waits or thinks: the end raises `stop`, which ends its thinking.
fn follow(seated: &Seated, stop: &Arc<AtomicBool>) -> mpsc::Receiver<Heard> {
    let (tx, rx) = mpsc::channel();
    let events = seated.client.events(seated.id, 0, Some(seated.token));
    let stop = Arc::clone(stop);
    std::thread::spawn(move || {
        for event in events {
            let ends = matches!(&event, Ok(e) if e.kind.ends()) || event.is_err();
            if tx.send(Some(event)).is_err() {
                return;
            }
            if ends {
                stop.store(true, Ordering::SeqCst);
                return;
            }
        }
        let _ = tx.send(None);
    });
    rx
}

/// Plays the game to its end: moves on the bot's turns, prints each move and the result.
fn play(seated: &Seated, player: &mut dyn Player, budget: Budget) -> anyhow::Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    let interrupted = on_ctrl_c(&stop);
    let heard = follow(seated, &stop);
    let mut followed = Followed {
        game: Game::new(),
        clock: seated.view.clock.as_ref().map(|c| ClockTimes { sheep: c.sheep, tigers: c.tigers }),
    };
    // The ply the bot last moved at: it never moves twice in one position.
    let mut moved_at = None;
    loop {
        if interrupted.load(Ordering::SeqCst) {
            bail!(
                "stopped by Ctrl+C: game {} goes on without the bot (its seat's link plays on)",
                seated.id
            );
        }
        // A position that ends the game by the rules has its `end` event on the way.
        let my_turn = followed.game.board().side_to_move() == seated.side
            && moved_at != Some(followed.game.len())
            && followed.game.outcome().is_none();
        // On its turn, the bot takes in what has come and then thinks; else it waits.
        let next = if my_turn {
            match heard.try_recv() {
                Ok(next) => Some(next),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => Some(None),
            }
        } else {
            match heard.recv_timeout(POLL) {
                Ok(next) => Some(next),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => Some(None),
            }
        };
        match next {
            Some(Some(Ok(event))) => {
                if let Some(result) = followed.take(&event)? {
                    say!("result: {result}");
                    return Ok(());
                }
            }
            Some(Some(Err(e))) => {
                return Err(anyhow::Error::new(e).context(format!("following game {}", seated.id)));
            }
            Some(None) => bail!("the server ended game {}'s stream before its end", seated.id),
            None => {
                moved_at = Some(followed.game.len());
                think_and_move(seated, player, budget, &followed, &stop)?;
            }
        }
    }
}

/// Chooses a move in the followed position and sends it. A move the game's end overtook
/// (its stream will say) is no error.
fn think_and_move(
    seated: &Seated,
    player: &mut dyn Player,
    budget: Budget,
    followed: &Followed,
    stop: &AtomicBool,
) -> anyhow::Result<()> {
    let chosen = match followed.clock {
        Some(clock) => {
            let share =
                Duration::from_millis(clock.of(seated.side) / CLOCK_SHARE).max(LEAST_THOUGHT);
            let mut limits = budget.limits();
            limits.time = Some(limits.time.map_or(share, |own| own.min(share)));
            player.choose_watched(&followed.game, &limits, stop, &mut |_| {})
        }
        None => player.choose(&followed.game, stop),
    };
    // Ctrl+C, or the game ended while the bot thought: the loop says which, and a move cut
    // short is not sent.
    if stop.load(Ordering::SeqCst) {
        return Ok(());
    }
    let m = chosen.context("the engine found no move")?;
    let mut tries = 0;
    loop {
        match seated.client.play(seated.id, &seated.token, &m.to_string()) {
            Ok(_) => return Ok(()),
            // Faster than the server takes actions from this address (other bots on this
            // machine): the move waits and goes again.
            Err(ClientError::Refused { status: 429, .. })
                if tries < RATE_TRIES && !stop.load(Ordering::SeqCst) =>
            {
                tries += 1;
                std::thread::sleep(RATE_WAIT);
            }
            // The game ended (a flag, a resignation) before the move came: its stream says so.
            Err(ClientError::Refused { status: 409, .. })
                if seated.client.game(seated.id).is_ok_and(|view| view.result.is_some()) =>
            {
                return Ok(());
            }
            Err(e) => {
                let side = side_name::of(seated.side);
                return Err(anyhow::Error::new(e).context(format!("playing {m} for the {side}")));
            }
        }
    }
}
