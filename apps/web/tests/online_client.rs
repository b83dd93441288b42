//! tns-online's blocking client against the real server, in-process on a free loopback port:
//! games created, played, refused and followed only through `tns_online::Client`.

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tns_board::Side;
use tns_online::{Client, ClientError, Event, EventKind, GameId, Link, NewGame, Seat, Token};
use tns_web::{Analyst, AppState, ConnectionLimits, RequestLimits, SearchBudget, router};

/// How long a finished game's stream waits for a rematch here: short, so that a test sees the
/// stream end.
const REMATCH_WINDOW: Duration = Duration::from_secs(1);

/// A server keeping games in memory, as the program runs it (its own accept loop).
fn serve() -> SocketAddr {
    let analyst = Analyst {
        table: None,
        budget: SearchBudget {
            position: Duration::from_millis(20),
            per_move: Duration::from_millis(2),
        },
    };
    let limits = RequestLimits {
        max_move_time: Duration::from_millis(50),
        max_line_time: Duration::from_secs(30),
        searches: 2,
    };
    let mut state = AppState::new(analyst, limits);
    let settings = tns_web::OnlineSettings { rematch_window: REMATCH_WINDOW, ..Default::default() };
    state.keep_games(
        tns_web::Games::new(tns_online::Store::in_memory().unwrap(), settings),
        tns_web::OnlineLimits { games_per_minute: 1000, actions_per_second: 1000 },
    );
    let state = Arc::new(state);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            tns_web::start_online(&state).await.unwrap();
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let limits = ConnectionLimits::default();
            tns_web::serve(listener, router(state), limits, std::future::pending()).await.unwrap();
        });
    });
    rx.recv().unwrap()
}

fn client(addr: SocketAddr) -> Client {
    Client::new(&format!("http://{addr}")).unwrap()
}

/// A friend-against-friend game: its id and each side's token, read from the seats' links.
fn friends(client: &Client) -> (GameId, Token, Token) {
    let new = NewGame { sheep: Seat::Friend, tigers: Seat::Friend, clock: None };
    let created = client.create(&new).unwrap();
    let seat = |link: &str| {
        let link = Link::parse(link).unwrap();
        assert_eq!(link.game, created.id);
        assert_eq!(link.base, client.base());
        link.token.unwrap()
    };
    let sheep = seat(&created.seats.sheep.as_ref().unwrap().url);
    let tigers = seat(&created.seats.tigers.as_ref().unwrap().url);
    assert_eq!(Link::parse(&created.watch).unwrap().token, None);
    (created.id, sheep, tigers)
}

/// Plays `plies` legal moves (the first legal one each time), each side with its own token.
fn play(client: &Client, id: GameId, sheep: &Token, tigers: &Token, plies: usize) {
    play_from(client, id, sheep, tigers, 0, plies);
}

/// Plays the game's plies `from..plies`, the first ones as [`play`] played them.
fn play_from(
    client: &Client,
    id: GameId,
    sheep: &Token,
    tigers: &Token,
    from: usize,
    plies: usize,
) {
    let mut game = tns_board::Game::new();
    for ply in 0..from {
        game.play(game.legal_moves()[ply % 3]).unwrap();
    }
    for ply in from..plies {
        let mv = game.legal_moves()[ply % 3];
        let token = match game.board().side_to_move() {
            Side::Sheep => sheep,
            Side::Tiger => tigers,
        };
        let view = client.play(id, token, &mv.to_string()).unwrap();
        game.play(mv).unwrap();
        assert_eq!(view.moves.len(), ply + 1);
        assert_eq!(view.position, game.board().to_string());
    }
}

fn versions(events: &[Event]) -> Vec<u64> {
    events.iter().map(|e| e.version).collect()
}

fn status(error: &ClientError) -> u16 {
    match error {
        ClientError::Refused { status, .. } => *status,
        other => panic!("not a refusal: {other}"),
    }
}

#[test]
fn friends_play_and_are_refused_with_the_right_status() {
    let addr = serve();
    let client = client(addr);
    let (id, sheep, tigers) = friends(&client);
    // Each token's side, as the game shown to its seat says, either side to move.
    let you = |token: &Token| client.game_as(id, Some(token)).unwrap().you;
    assert_eq!((you(&sheep), you(&tigers)), (Some(Side::Sheep), Some(Side::Tiger)));
    assert_eq!(client.game_as(id, None).unwrap().you, None);
    play(&client, id, &sheep, &tigers, 1);
    assert_eq!((you(&sheep), you(&tigers)), (Some(Side::Sheep), Some(Side::Tiger)));
    let stranger = Token::random().unwrap();
    assert_eq!(status(&client.game_as(id, Some(&stranger)).unwrap_err()), 401);
    play_from(&client, id, &sheep, &tigers, 1, 4);
    let view = client.game(id).unwrap();
    assert_eq!(view.moves.len(), 4);
    // Version: created, then a move each.
    assert_eq!(view.version, 5);
    assert_eq!(view.turn, Side::Sheep);

    // The tigers when it is the sheep's turn.
    let legal = tns_board::Game::new().legal_moves()[0].to_string();
    let error = client.play(id, &tigers, "a1b1").unwrap_err();
    assert_eq!(status(&error), 409, "{error}");
    // Not a move, and a move against the rules.
    assert_eq!(status(&client.play(id, &sheep, "zz").unwrap_err()), 422);
    assert_eq!(status(&client.play(id, &sheep, "c3c4").unwrap_err()), 422);
    // A token that holds no seat here.
    assert_eq!(status(&client.play(id, &stranger, &legal).unwrap_err()), 401);
    // No such game.
    let nowhere = GameId::random().unwrap();
    assert_eq!(status(&client.game(nowhere).unwrap_err()), 404);
    assert_eq!(status(&client.play(nowhere, &sheep, &legal).unwrap_err()), 404);
    let mut events = client.events(nowhere, 0, None);
    assert_eq!(status(&events.next().unwrap().unwrap_err()), 404);
    assert!(events.next().is_none());
    // The server's reason comes with its status.
    let Err(ClientError::Refused { error, .. }) = client.play(id, &tigers, "a1b1") else {
        panic!("refused")
    };
    assert!(!error.is_empty());
    // An unknown player to play against.
    let new = NewGame { sheep: Seat::Friend, tigers: Seat::Server("nobody".into()), clock: None };
    assert_eq!(status(&client.create(&new).unwrap_err()), 422);

    // Offers: a draw offered, then declined by a move; a draw offered again and accepted.
    let view = client.draw(id, &sheep).unwrap();
    assert_eq!(view.draw_offer, Some(Side::Sheep));
    assert_eq!(status(&client.draw(id, &sheep).unwrap_err()), 409);
    assert_eq!(status(&client.claim(id, &sheep).unwrap_err()), 409);
    assert_eq!(status(&client.rematch(id, &sheep).unwrap_err()), 409);
    let view = client.draw(id, &tigers).unwrap();
    assert_eq!(view.result.unwrap().winner, None);
    assert_eq!(status(&client.resign(id, &tigers).unwrap_err()), 409);
    // Once over, a rematch is asked and made.
    assert_eq!(client.rematch(id, &sheep).unwrap().rematch_offer, Some(Side::Sheep));
    let rematch = client.rematch(id, &tigers).unwrap().rematch.unwrap();
    // The sides swap: the old tigers' token plays the sheep there.
    let legal = tns_board::Game::new().legal_moves()[0].to_string();
    assert_eq!(status(&client.play(rematch, &sheep, &legal).unwrap_err()), 409);
    assert_eq!(client.play(rematch, &tigers, &legal).unwrap().moves, [legal]);
}

#[test]
fn events_come_in_order_from_any_number_and_end_with_the_game() {
    let addr = serve();
    let client = client(addr);
    let (id, sheep, tigers) = friends(&client);
    play(&client, id, &sheep, &tigers, 6);
    let n = client.game(id).unwrap().version;
    assert_eq!(n, 7);
    let all: Vec<Event> = client.events(id, 0, None).take(7).collect::<Result<_, _>>().unwrap();
    assert_eq!(versions(&all), (1..=n).collect::<Vec<_>>());
    assert!(matches!(all[0].kind, EventKind::Created { sheep: Seat::Friend, .. }));
    assert!(matches!(&all[1].kind, EventKind::Move { side: Side::Sheep, .. }));
    for k in [1, 4, 6] {
        let count = usize::try_from(n - k).unwrap();
        let after: Vec<Event> =
            client.events(id, k, Some(sheep)).take(count).collect::<Result<_, _>>().unwrap();
        assert_eq!(versions(&after), (k + 1..=n).collect::<Vec<_>>(), "since {k}");
        assert_eq!(after, all[usize::try_from(k).unwrap()..]);
    }
    // Events after the last number: none yet. A follower waits; the resignation comes, then
    // the stream ends (after the rematch window).
    let follower = {
        let client = client.clone();
        std::thread::spawn(move || client.events(id, n, Some(tigers)).collect::<Vec<_>>())
    };
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let view = client.resign(id, &sheep).unwrap();
    assert_eq!(view.result.unwrap().winner, Some(Side::Tiger));
    let rest = follower.join().unwrap();
    let rest: Vec<Event> = rest.into_iter().collect::<Result<_, _>>().unwrap();
    assert_eq!(versions(&rest), [n + 1]);
    assert!(matches!(rest[0].kind, EventKind::End { .. }));
    assert!(started.elapsed() < REMATCH_WINDOW + Duration::from_secs(10));
    // From the start, the whole game, then the end.
    let whole: Vec<Event> = client.events(id, 0, None).collect::<Result<_, _>>().unwrap();
    assert_eq!(versions(&whole), (1..=n + 1).collect::<Vec<_>>());
}

/// A proxy to `server` that cuts the first stream through it after `cut` bytes of its answer;
/// and the count of the streams asked through it.
fn cutting_proxy(server: SocketAddr, cut: usize) -> (SocketAddr, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let cut_done = Arc::new(AtomicBool::new(false));
    let streams = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&streams);
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(mut client) = client else { continue };
            let Ok(mut upstream) = TcpStream::connect(server) else { continue };
            let cut_done = Arc::clone(&cut_done);
            let counted = Arc::clone(&counted);
            std::thread::spawn(move || {
                let mut first = [0u8; 4096];
                let Ok(n) = client.read(&mut first) else { return };
                let is_stream = String::from_utf8_lossy(&first[..n]).contains("/stream");
                if is_stream {
                    counted.fetch_add(1, Ordering::SeqCst);
                }
                let cut_this = is_stream && !cut_done.swap(true, Ordering::SeqCst);
                if upstream.write_all(&first[..n]).is_err() {
                    return;
                }
                let (mut up_read, mut client_write) =
                    (upstream.try_clone().unwrap(), client.try_clone().unwrap());
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut client, &mut upstream);
                });
                if cut_this {
                    let mut passed = vec![0u8; cut];
                    if up_read.read_exact(&mut passed).is_ok() {
                        let _ = client_write.write_all(&passed);
                    }
                    let _ = client_write.shutdown(std::net::Shutdown::Both);
                    let _ = up_read.shutdown(std::net::Shutdown::Both);
                } else {
                    let _ = std::io::copy(&mut up_read, &mut client_write);
                }
            });
        }
    });
    (addr, streams)
}

#[test]
fn a_dropped_stream_is_taken_up_again_with_no_event_lost_or_twice() {
    let addr = serve();
    let (id, sheep, tigers) = friends(&client(addr));
    play(&client(addr), id, &sheep, &tigers, 10);
    let n = client(addr).game(id).unwrap().version;
    // Cut inside the events: after the answer's head and some of its lines.
    for cut in [250, 400, 700] {
        let (proxy, streams) = cutting_proxy(addr, cut);
        let proxy = client(proxy);
        let count = usize::try_from(n).unwrap();
        let events: Vec<Event> =
            proxy.events(id, 0, None).take(count).collect::<Result<_, _>>().unwrap();
        assert_eq!(versions(&events), (1..=n).collect::<Vec<_>>(), "cut at {cut}");
        assert_eq!(streams.load(Ordering::SeqCst), 2, "cut at {cut}");
    }
}
