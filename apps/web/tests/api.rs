//! The API in-process: a server on a free loopback port, asked over real HTTP.

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tns_web::{Analyst, AppState, ConnectionLimits, RequestLimits, SearchBudget, router};

/// A server with `table` (or none: answering from the search).
fn server(table: Option<Arc<tns_tablebase::Tablebase>>) -> SocketAddr {
    serve(state(table))
}

fn state(table: Option<Arc<tns_tablebase::Tablebase>>) -> AppState {
    state_with(table, Duration::from_millis(50), 2)
}

fn state_with(
    table: Option<Arc<tns_tablebase::Tablebase>>,
    max_move_time: Duration,
    searches: usize,
) -> AppState {
    let analyst = Analyst {
        table,
        budget: SearchBudget {
            position: Duration::from_millis(20),
            per_move: Duration::from_millis(2),
        },
    };
    // A line's time is generous: the tests ask for a few plies, and a loaded machine running a
    // debug build must not cut the line short.
    let limits = RequestLimits { max_move_time, max_line_time: Duration::from_secs(30), searches };
    AppState::new(analyst, limits)
}

fn serve(state: AppState) -> SocketAddr {
    serve_with(state, ConnectionLimits::default())
}

/// A server as the program runs it (its own accept loop), with these connection limits.
fn serve_with(state: AppState, limits: ConnectionLimits) -> SocketAddr {
    let state = Arc::new(state);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            tns_web::serve(listener, router(state), limits, std::future::pending()).await.unwrap();
        });
    });
    rx.recv().unwrap()
}

/// `GET path` over a fresh connection: the status and the body.
fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
    (status, body)
}

/// `method path` over a fresh connection: the whole response, head and body.
fn request(addr: SocketAddr, method: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

/// The names of a `players` answer.
fn names(players: &Value) -> Vec<&str> {
    players["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect()
}

fn json(addr: SocketAddr, path: &str) -> (u16, Value) {
    let (status, body) = get(addr, path);
    (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}")))
}

#[test]
fn the_start_from_the_search() {
    let addr = server(None);
    let (status, v) = json(addr, "/api/v1/position");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["api"], 1);
    assert_eq!(v["position"], "T3T/5/5/5/T3T s 20");
    assert_eq!(v["source"], "search");
    assert_eq!(v["side_to_move"], "sheep");
    assert_eq!(v["phase"], "placement");
    assert_eq!(v["moves"].as_array().unwrap().len(), 21);
    assert!(v["outcome"].is_null());
    // Every verdict carries chances in permille that sum to 1,000.
    let sum =
        |w: &Value| ["win", "draw", "loss"].iter().map(|k| w[k].as_u64().unwrap()).sum::<u64>();
    assert_eq!(sum(&v["verdict"]["wdl"]), 1000, "{v}");
    for m in v["moves"].as_array().unwrap() {
        assert_eq!(sum(&m["verdict"]["wdl"]), 1000, "{m}");
    }
}

#[test]
fn without_a_table_the_list_and_the_verdict_come_from_one_search() {
    // The moves are ranked by one search of them all at one depth, and the position's verdict
    // is the first move's: the list and the header agree.
    let addr = server(None);
    let (status, v) = json(addr, "/api/v1/position?moves=c3");
    assert_eq!(status, 200, "{v}");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 12, "{v}");
    assert_eq!(moves[0]["verdict"], v["verdict"], "{v}");
    let scores: Vec<i64> = moves.iter().map(|m| m["verdict"]["score"].as_i64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
}

#[test]
fn moves_are_played_and_listed() {
    let addr = server(None);
    let (status, v) = json(addr, "/api/v1/position?moves=c3,a5b4");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["position"], "4T/1T3/2S2/5/T3T s 19");
    let played: Vec<&str> =
        v["played"].as_array().unwrap().iter().map(|p| p["move"].as_str().unwrap()).collect();
    assert_eq!(played, ["c3", "a5b4"]);
    // A position given in the query, escaped.
    let (status, v) = json(addr, "/api/v1/position?pos=T3T%2F5%2F2S2%2F5%2FT3T+t+19");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["side_to_move"], "tigers");
}

#[test]
fn bad_requests_get_400_with_the_reason() {
    let addr = server(None);
    for (path, starts) in [
        ("/api/v1/position?pos=T3T%2F5%2F5%2F5%2FT3T+q+20", "bad position"),
        ("/api/v1/position?moves=c3,c3", "move 2 c3: "),
        ("/api/v1/position?moves=zz", "move 1 \"zz\": "),
        ("/api/v1/position?bogus=1", "unknown parameter \"bogus\""),
        ("/api/v1/position?pos=%zz", "bad escape"),
        ("/api/v1/move?player=cmd:rm", "unknown player \"cmd:rm\""),
        ("/api/v1/move?player=weights/latest.bin", "unknown player"),
        ("/api/v1/move?player=perfect", "unknown player \"perfect\""),
        ("/api/v1/mainline?plies=0", "plies must be 1 to 500"),
    ] {
        let (status, v) = json(addr, path);
        assert_eq!(status, 400, "{path}: {v}");
        let error = v["error"].as_str().unwrap();
        assert!(error.starts_with(starts), "{path}: {error}");
    }
    let long = format!("/api/v1/position?moves={}", "c3,".repeat(3000));
    let (status, v) = json(addr, &long);
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("more than the"), "{v}");
    let (status, _) = get(addr, "/etc/passwd");
    assert_eq!(status, 404);
}

#[test]
fn a_malformed_query_is_a_400_naming_the_parameter() {
    let addr = server(None);
    for (path, expected) in [
        ("/api/v1/mainline?plies=abc", "plies must be 1 to 500, not \"abc\""),
        ("/api/v1/mainline?plies=501", "plies must be 1 to 500, not \"501\""),
        ("/api/v1/puzzle?seed=x", "seed must be a whole number, not \"x\""),
        ("/api/v1/puzzle?after=x&solved=true", "after must be a puzzle's number, not \"x\""),
        ("/api/v1/puzzle?solved=true", "solved goes with after, the puzzle it is about"),
        ("/api/v1/position?pos=start&pos=start", "pos is given twice"),
        ("/api/v1/move?player=easy&player=hard", "player is given twice"),
        ("/api/v1/review?ply=3", "unknown parameter \"ply\": expected pos, moves"),
        ("/api/v1/position?pos=%ff", "the query is not UTF-8 text"),
        ("/api/v1/position?pos=%f", "bad escape in \"pos=%f\""),
    ] {
        let (status, v) = json(addr, path);
        assert_eq!(status, 400, "{path}: {v}");
        assert_eq!(v["error"], expected, "{path}");
    }
    // A puzzle's number past the set's end is refused with the set's range.
    let (status, v) = json(addr, "/api/v1/puzzle?after=99999&solved=true");
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().starts_with("after must be a puzzle's number, 1 to "));
    // The longest query accepted, and one byte more.
    let at_most = format!("/api/v1/position?moves={}", "x".repeat(tns_web::MAX_QUERY - 6));
    let (_, v) = json(addr, &at_most);
    assert!(v["error"].as_str().unwrap().starts_with("move 1 "), "{v}");
    let (status, v) = json(addr, &format!("{at_most}x"));
    assert_eq!(status, 400, "{v}");
    assert_eq!(v["error"], "the query is 8193 bytes, more than the 8192 accepted");
}

#[test]
fn each_status_the_docs_give() {
    let addr = server(None);
    let (status, v) = json(addr, "/etc/passwd");
    assert_eq!(status, 404);
    assert_eq!(v["error"], "no such page: the API is under /api/v1/ (docs/web.md)");
    // Another method on a path that is served: 405, saying what is allowed, in JSON too.
    for path in ["/api/v1/position", "/"] {
        let response = request(addr, "POST", path);
        assert!(response.starts_with("HTTP/1.1 405"), "{response}");
        assert!(response.to_ascii_lowercase().contains("\r\nallow: get,head"), "{response}");
        assert!(
            response.ends_with(r#"{"error":"this method is not answered here"}"#),
            "{response}"
        );
    }
    // HEAD is answered as GET is, without the body.
    assert!(request(addr, "HEAD", "/api/v1/players").starts_with("HTTP/1.1 200"));
    // A URI past hyper's own limit never reaches the API: hyper answers 414 itself.
    let huge = format!("/api/v1/position?moves={}", "c3,".repeat(22_000));
    assert!(request(addr, "GET", &huge).starts_with("HTTP/1.1 414"));
}

#[test]
fn players_and_their_moves() {
    let addr = server(None);
    let (status, v) = json(addr, "/api/v1/players");
    assert_eq!(status, 200);
    let names = names(&v);
    assert_eq!(names, ["random", "easy", "medium", "hard", "strongest"], "the levels, in order");
    assert_eq!(v["default"], "strongest");
    assert!(!names.contains(&"perfect"), "no table, no perfect player: {names:?}");
    let (status, v) = json(addr, "/api/v1/move?moves=c3&player=heuristic:depth=2");
    assert_eq!(status, 200, "{v}");
    let m: tns_board::Move = v["move"].as_str().unwrap().parse().unwrap();
    let after_c3 = tns_board::Board::START.after_unchecked("c3".parse().unwrap());
    assert!(after_c3.check_move(m).is_ok(), "{m}");
    // A game that is over has no move to ask for.
    let (status, v) = json(addr, "/api/v1/move?pos=TSSST%2FSSSSS%2FS1SSS%2FSSSSS%2FTSSST+t+0");
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().starts_with("the game is over"), "{v}");
}

#[test]
fn a_finished_game_says_how_it_ended() {
    let addr = server(None);
    // The tigers cannot move: the sheep have won.
    let (status, v) = json(addr, "/api/v1/position?pos=TSSST%2FSSSSS%2FS1SSS%2FSSSSS%2FTSSST+t+0");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["outcome"]["winner"], "sheep");
    assert!(v["moves"].as_array().unwrap().is_empty());
}

#[test]
fn the_page_and_its_files() {
    let addr = server(None);
    let (status, page) = get(addr, "/");
    assert_eq!(status, 200);
    assert!(page.contains("<svg id=\"board\""), "{page}");
    let (status, script) = get(addr, "/app.js");
    assert_eq!(status, 200);
    assert!(script.contains("/api/v1/"));
    let (status, style) = get(addr, "/style.css");
    assert_eq!(status, 200);
    // The icon the page names, and the one browsers ask for by habit: no 404 in the console.
    assert!(page.contains("href=\"/favicon.svg\""), "{page}");
    let (status, icon) = get(addr, "/favicon.svg");
    assert_eq!(status, 200);
    assert!(icon.starts_with("<svg"), "{icon}");
    assert_eq!(get(addr, "/favicon.ico").0, 200);
    // The first load is these four files: under 200 KB.
    let first_load = page.len() + script.len() + style.len() + icon.len();
    assert!(first_load < 200 * 1024, "{first_load} bytes");
    // An online game is the same page, and its module (loaded only there) is served too.
    let (status, game_page) = get(addr, "/play/q7Rk2mWx9a");
    assert_eq!(status, 200);
    assert_eq!(game_page, page);
    let (status, online) = get(addr, "/online.js");
    assert_eq!(status, 200);
    assert!(online.contains("/socket?since="), "{online}");
    assert!(script.contains("import(\"/online.js\")"), "{script}");
}

#[test]
fn a_mainline_from_the_search() {
    let addr = server(None);
    let (status, v) = json(addr, "/api/v1/mainline?moves=c3&plies=4");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["source"], "search");
    assert_eq!(v["moves"].as_array().unwrap().len(), 4);
}

/// The real table, from `TNS_TABLEBASE_DIR` (CI builds the movement phase and the last
/// placement layers).
fn real_table() -> Arc<tns_tablebase::Tablebase> {
    let dir = std::env::var_os("TNS_TABLEBASE_DIR").expect("TNS_TABLEBASE_DIR names the table");
    Arc::new(tns_tablebase::Tablebase::load(5, std::path::Path::new(&dir)).unwrap())
}

#[test]
#[ignore = "needs the built tablebase (TNS_TABLEBASE_DIR)"]
fn a_forced_win_gives_its_distance_and_its_winning_move_first() {
    let table = real_table();
    // The tigers to move can take a fifth sheep at once... or in this movement position the
    // sheep to move are lost: find one with a single winning move from the table itself.
    let addr = server(Some(Arc::clone(&table)));
    let (status, v) = json(addr, "/api/v1/position?pos=SSSSS%2FS1TTS%2FSTS2%2FS1S1S%2FTSSSS+s+0");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["source"], "table");
    assert_eq!(v["verdict"]["result"], "loss");
    assert_eq!(v["verdict"]["winner"], "tigers");
    assert_eq!(v["verdict"]["plies"], 20);
    assert_eq!(v["verdict"]["wdl"]["loss"], 1000);
    // Best first: the slowest loss, in 20 like the position.
    assert_eq!(v["moves"][0]["move"], "c3d2");
    assert_eq!(v["moves"][0]["verdict"]["plies"], 20);
    // The tigers' side: after c3d2 the tigers win, and exactly the moves that keep the win
    // come first.
    let (status, v) =
        json(addr, "/api/v1/position?pos=SSSSS%2FS1TTS%2FSTS2%2FS1S1S%2FTSSSS+s+0&moves=c3d2");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["verdict"]["result"], "win");
    assert_eq!(v["verdict"]["plies"], 19);
    let moves = v["moves"].as_array().unwrap();
    let winning = moves.iter().filter(|m| m["verdict"]["result"] == "win").count();
    assert!(winning >= 1);
    assert_eq!(moves[0]["verdict"]["plies"], 19, "{}", moves[0]);
    assert_eq!(v["played"][0]["kept"], true);
    // The perfect player is offered only where the table solves the whole game.
    let (_, players) = json(addr, "/api/v1/players");
    let perfect = players["players"].as_array().unwrap().iter().any(|p| p["name"] == "perfect");
    assert_eq!(perfect, real_table().solves_whole_game(), "{players}");
}

#[test]
#[ignore = "needs the whole tablebase (every placement layer)"]
fn the_start_is_a_draw_with_21_drawing_moves() {
    let table = real_table();
    if table.placement_from() != Some(0) {
        eprintln!("skipped: the placement layers are not all built");
        return;
    }
    let addr = server(Some(table));
    let (status, v) = json(addr, "/api/v1/position");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["source"], "table");
    assert_eq!(v["verdict"]["result"], "draw");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 21);
    assert!(moves.iter().all(|m| m["verdict"]["result"] == "draw"), "{v}");
}

#[test]
fn the_operator_offers_players_and_no_programs() {
    let mut st = state(None);
    st.offer("heuristic:depth=3").unwrap();
    assert!(st.offer("cmd:/bin/sh").is_err());
    assert!(st.offer("no/such/weights.bin").is_err());
    let addr = serve(st);
    let (_, v) = json(addr, "/api/v1/players");
    let names = names(&v);
    assert_eq!(names.last(), Some(&"hard:depth=3"), "{names:?}");
    let (status, v) = json(addr, "/api/v1/move?player=heuristic%3Adepth%3D3");
    assert_eq!(status, 200, "{v}");
    // A spec not on the list is refused even when it would parse.
    let (status, _) = json(addr, "/api/v1/move?player=heuristic%3Adepth%3D5");
    assert_eq!(status, 400);
}

#[test]
fn a_search_stops_when_its_client_goes_away() {
    // One search at a time; a player may think for a minute.
    let addr = serve(state_with(None, Duration::from_secs(60), 1));
    let mut gone = TcpStream::connect(addr).unwrap();
    write!(gone, "GET /api/v1/move?player=heuristic HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    drop(gone);
    // The next search gets the one slot once the abandoned one has stopped: long before the
    // minute the player was allowed.
    let start = std::time::Instant::now();
    let (status, v) = json(addr, "/api/v1/move?moves=c3&player=random");
    assert_eq!(status, 200, "{v}");
    assert!(start.elapsed() < Duration::from_secs(30), "{:?}", start.elapsed());
}

#[test]
fn with_a_table_the_network_searches_with_it_and_is_the_default() {
    // The variant won by one kill builds in a moment; what is offered depends only on having a
    // table (the real one is CI's, below).
    let table = Arc::new(tns_tablebase::Tablebase::build(1, None, |_| {}).unwrap());
    let (_, v) = json(server(Some(table)), "/api/v1/players");
    let listed = names(&v);
    let at = |name: &str| listed.iter().position(|n| *n == name);
    assert_eq!(at("strongest:table=on"), at("strongest").map(|i| i + 1), "{listed:?}");
    assert_eq!(v["default"], "strongest:table=on");
    assert!(!listed.contains(&"perfect"), "the movement phase alone is no perfect player");
    let (_, v) = json(server(None), "/api/v1/players");
    assert!(!names(&v).contains(&"strongest:table=on"), "no table, not offered");
    // Offered again by the operator, under its spec, it is listed once.
    let mut st = state(Some(Arc::new(tns_tablebase::Tablebase::build(1, None, |_| {}).unwrap())));
    st.offer("network:table=on").unwrap();
    let (_, v) = json(serve(st), "/api/v1/players");
    assert_eq!(names(&v).iter().filter(|n| n.ends_with("table=on")).count(), 1, "{v}");
    // Without a table, the perfect player cannot be offered.
    assert!(state(None).offer("perfect").unwrap_err().to_string().contains("needs the tablebase"));
}

#[test]
#[ignore = "needs the built tablebase (TNS_TABLEBASE_DIR)"]
fn a_move_from_the_network_with_the_table_by_default() {
    let addr = server(Some(real_table()));
    // A movement position: the network's search takes the table's exact values there.
    let (status, v) = json(addr, "/api/v1/move?pos=SSSSS%2FSSSSS%2FSSSS1%2FS1TTS%2FTSSST+s+0");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["player"], "strongest:table=on", "{v}");
    let (status, v) = json(addr, "/api/v1/move?moves=c3&player=network%3Atable%3Don");
    assert_eq!(status, 200, "{v}");
    let (_, v) = json(server(None), "/api/v1/move?moves=c3");
    assert_eq!(v["player"], "strongest", "without a table: {v}");
}

/// Whether the server closes `stream` within `within`: a read that ends (0 bytes) or fails.
fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    stream.set_read_timeout(Some(within)).unwrap();
    let mut byte = [0u8; 1];
    match stream.read(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => {
            !matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut)
        }
    }
}

#[test]
fn idle_and_slow_connections_are_closed_and_the_connections_capped() {
    let limits = ConnectionLimits { connections: 2, header_time: Duration::from_millis(300) };
    let addr = serve_with(state(None), limits);
    // A connection that sends nothing is closed.
    let mut idle = TcpStream::connect(addr).unwrap();
    assert!(closed_within(&mut idle, Duration::from_secs(10)), "an idle connection stays open");
    // A header sent a byte at a time, slower than the time it has, is cut off.
    let mut slow = TcpStream::connect(addr).unwrap();
    let header = b"GET /api/v1/players HTTP/1.1\r\nHost: x\r\n\r\n";
    let mut cut = false;
    for byte in header {
        if slow.write_all(&[*byte]).is_err() {
            cut = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(cut || closed_within(&mut slow, Duration::from_secs(10)), "a slow header is served");
    // With both slots held by connections that send nothing, a third still gets its answer
    // once they are closed: the cap queues, it never drops or hangs.
    let _held = [TcpStream::connect(addr).unwrap(), TcpStream::connect(addr).unwrap()];
    let (status, _) = json(addr, "/api/v1/players");
    assert_eq!(status, 200);
}

#[test]
fn a_puzzle_comes_near_the_rating_and_the_last_one_moves_it() {
    let addr = server(None);
    let (status, first) = json(addr, "/api/v1/puzzle");
    assert_eq!(status, 200, "{first}");
    let puzzle = &first["puzzle"];
    assert!(!puzzle["solutions"].as_array().unwrap().is_empty(), "{first}");
    let rating = puzzle["rating"].as_f64().unwrap();
    assert!((rating - 1500.0).abs() < 150.0, "near the start's 1500: {first}");
    let (_, hard) = json(addr, "/api/v1/puzzle?rating=2300");
    assert!(hard["puzzle"]["rating"].as_f64().unwrap() > rating, "{hard}");
    let n = puzzle["number"].as_u64().unwrap();
    let (_, solved) = json(addr, &format!("/api/v1/puzzle?rating=1500&after={n}&solved=true"));
    assert!(solved["solver"]["rating"].as_f64().unwrap() > 1500.0, "{solved}");
    assert!(solved["solver"]["deviation"].as_f64().unwrap() < 350.0, "{solved}");
    assert_ne!(solved["puzzle"]["number"].as_u64(), Some(n), "not the same one again");
    let (_, failed) = json(addr, &format!("/api/v1/puzzle?rating=1500&after={n}&solved=false"));
    assert!(failed["solver"]["rating"].as_f64().unwrap() < 1500.0, "{failed}");
    for bad in [
        "/api/v1/puzzle?rating=abc",
        "/api/v1/puzzle?rating=99999",
        "/api/v1/puzzle?after=0&solved=true",
        "/api/v1/puzzle?after=1",
        "/api/v1/puzzle?solved=true",
        "/api/v1/puzzle?seed=-1",
        "/api/v1/puzzle?colour=blue",
    ] {
        let (status, body) = json(addr, bad);
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()), "{bad}: {body}");
    }
}

#[test]
fn the_review_marks_a_thrown_result_from_the_table() {
    let table = Arc::new(tns_tablebase::Tablebase::build(1, None, |_| {}).unwrap());
    let tns_puzzles::TurningPoint { board: start, keeps: best, loses: losing } =
        tns_puzzles::turning_point(&table, tns_board::Side::Sheep).expect("a turning point");
    let addr = server(Some(Arc::clone(&table)));
    let pos = start.to_string().replace(' ', "+").replace('/', "%2F");
    let (status, review) = json(addr, &format!("/api/v1/review?pos={pos}&moves={losing}"));
    assert_eq!(status, 200, "{review}");
    assert_eq!(review["plies"][0]["mark"], "??", "{review}");
    assert_eq!(review["plies"][0]["better"], best.to_string(), "{review}");
    assert_eq!(review["values"][1], -1.0, "the sheep lose after it: {review}");
    let (_, kept) = json(addr, &format!("/api/v1/review?pos={pos}&moves={best}"));
    assert!(kept["plies"][0]["mark"].is_null(), "{kept}");
    // Without a table nothing is judged: no marks, no values.
    let (status, blind) = json(server(None), &format!("/api/v1/review?pos={pos}&moves={losing}"));
    assert_eq!(status, 200, "{blind}");
    assert!(blind["plies"][0]["mark"].is_null() && blind["values"][0].is_null(), "{blind}");
}

#[test]
fn a_puzzle_request_s_errors_are_plain_words() {
    // The messages quote what was given, and never show the program's own notation for a
    // missing or wrapped value (`None`, `Some(...)`).
    let addr = server(None);
    for (path, expected) in [
        ("/api/v1/puzzle?after=1&solved=maybe", "solved must be true or false, not \"maybe\""),
        ("/api/v1/puzzle?after=1", "after needs solved=true or solved=false"),
        ("/api/v1/puzzle?after=1&solved=", "solved must be true or false, not \"\""),
    ] {
        let (status, v) = json(addr, path);
        assert_eq!(status, 400, "{path}: {v}");
        assert_eq!(v["error"], expected, "{path}");
    }
    // A long value is quoted short.
    let long = "y".repeat(2000);
    for path in [
        format!("/api/v1/puzzle?after=1&solved={long}"),
        format!("/api/v1/puzzle?seed={long}"),
        format!("/api/v1/puzzle?after={long}&solved=true"),
        format!("/api/v1/puzzle?rating={long}"),
    ] {
        let (status, v) = json(addr, &path);
        assert_eq!(status, 400, "{v}");
        assert!(v["error"].as_str().unwrap().len() < 120, "{v}");
    }
}

#[test]
fn a_rating_out_of_range_is_refused_and_one_in_range_kept_as_given() {
    // The ranges a rating keeps (tns_puzzles' Glicko-2): a value outside them is refused with
    // the range, never moved into it in silence.
    let addr = server(None);
    for (path, range) in [
        ("/api/v1/puzzle?volatility=0", "volatility must be a number from 0.01 to 0.2"),
        ("/api/v1/puzzle?volatility=0.5&after=1&solved=true", "from 0.01 to 0.2"),
        ("/api/v1/puzzle?deviation=1", "deviation must be a number from 45 to 350"),
        ("/api/v1/puzzle?deviation=351", "from 45 to 350"),
        ("/api/v1/puzzle?rating=99.5", "rating must be a number from 100 to 4000"),
        ("/api/v1/puzzle?rating=NaN", "from 100 to 4000"),
        ("/api/v1/puzzle?rating=inf", "from 100 to 4000"),
    ] {
        let (status, v) = json(addr, path);
        assert_eq!(status, 400, "{path}: {v}");
        let error = v["error"].as_str().unwrap();
        assert!(error.contains(range), "{path}: {error}");
    }
    // The ends of the ranges are taken, and given back exactly as they were given.
    let (status, v) = json(addr, "/api/v1/puzzle?rating=100&deviation=45&volatility=0.01");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["solver"]["rating"], 100.0, "{v}");
    assert_eq!(v["solver"]["deviation"], 45.0, "{v}");
    assert_eq!(v["solver"]["volatility"], 0.01, "{v}");
    let (status, v) = json(addr, "/api/v1/puzzle?rating=4000&deviation=350&volatility=0.2");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["solver"]["volatility"], 0.2, "{v}");
}

#[test]
fn a_score_is_one_unit_and_a_proven_result_has_its_own_field() {
    // `score` is the expected result in hundredths of a percent (as the engine's `cp`), never
    // a search's internal win score; a forced result gives its distance in `proven` (as the
    // engine's `score win N`).
    let addr = server(None);
    // The tigers take a fifth sheep at once (a5xc5 or e5xc5): a win in 1.
    let (status, v) = json(addr, "/api/v1/position?pos=TS1ST%2F5%2F5%2F5%2FT3T+t+14");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["verdict"]["result"], "win", "{v}");
    assert_eq!(v["verdict"]["plies"], 1, "{v}");
    assert_eq!(v["verdict"]["score"], 10_000, "{v}");
    assert_eq!(v["verdict"]["proven"], serde_json::json!({"result": "win", "plies": 1}), "{v}");
    let mut verdicts = vec![&v["verdict"]];
    verdicts.extend(v["moves"].as_array().unwrap().iter().map(|m| &m["verdict"]));
    for verdict in verdicts {
        let score = verdict["score"].as_i64().unwrap();
        assert!(score.abs() <= 10_000, "{verdict}");
        let proven = !verdict["proven"].is_null();
        assert_eq!(
            proven,
            ["win", "loss"].contains(&verdict["result"].as_str().unwrap()),
            "{verdict}"
        );
        if proven {
            assert_eq!(verdict["proven"]["result"], verdict["result"], "{verdict}");
            assert_eq!(verdict["proven"]["plies"], verdict["plies"], "{verdict}");
        }
    }
    // An estimate has no `proven`.
    let (_, v) = json(addr, "/api/v1/position?moves=c3");
    assert_eq!(v["verdict"]["result"], "unknown", "{v}");
    assert!(v["verdict"]["proven"].is_null(), "{v}");
}
