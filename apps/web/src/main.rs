//! `tns-web`: serves the API and the page until Ctrl+C or SIGTERM, letting requests in flight
//! finish.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use clap::Parser;
use tns_board::KILLS_TO_WIN;
use tns_match::limit;
use tns_tablebase::Tablebase;
use tns_web::{
    Analyst, AppState, ConnectionLimits, Games, OnlineLimits, OnlineSettings, RequestLimits,
    SearchBudget, router,
};

#[derive(Parser, Debug)]
#[command(name = "tns-web", version, about = "The solved game of Tigers and Sheep in a browser")]
struct Cli {
    /// The address to listen on (loopback unless you mean to serve others).
    #[arg(long, visible_alias = "addr", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// The tablebase's directory; without one, verdicts come from the engine's search.
    #[arg(long)]
    tablebase: Option<PathBuf>,
    /// The longest a player thinks for a `move` request, in seconds.
    #[arg(long, default_value_t = 1.0, value_parser = move_time)]
    max_move_time: f64,
    /// Another player to offer, besides the built-in levels: a player spec, e.g. a weights
    /// file (`weights/run/latest.bin`) or `hard:depth=6`. Repeat for more. Clients name
    /// players only from the server's list.
    #[arg(long, value_name = "SPEC")]
    offer: Vec<String>,
    /// Searches running at once (the rest wait); the table's answers never wait.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    searches: u16,
    /// The online games' database file, created on first start; by default games.sqlite in
    /// the user's data folder (`~/.local/share/tigers-and-sheep/` on Linux).
    #[arg(long, value_name = "PATH")]
    database: Option<PathBuf>,
    /// The address the online games' links start with (`https://example.org`), when players
    /// reach the server by another name than the one they ask it by.
    #[arg(long, value_name = "URL")]
    public_url: Option<String>,
    /// Seconds a side of an online game must be gone before its opponent may claim the win.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    abandon: u64,
    /// Minutes an online game in which both sides have not moved lasts before it ends unplayed.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=10_080))]
    expire: u64,
    /// Online games held at once (live, or just finished and waiting for a rematch).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_games: u64,
    /// Online games one client address may create a minute.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    games_per_minute: u32,
    /// Moves and other actions in online games one client address may take a second.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    actions_per_second: u32,
    /// Connections open at once (streams of online games count); more wait.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    connections: u64,
}

/// The longest `--max-move-time`: a client's request waits no longer than this for its move.
const MOST_MOVE_SECONDS: f64 = 60.0;

/// Seconds as every program reads them ([`limit::seconds`]), and at most [`MOST_MOVE_SECONDS`].
fn move_time(text: &str) -> anyhow::Result<f64> {
    match limit::seconds(text) {
        Ok(seconds) if seconds <= MOST_MOVE_SECONDS => Ok(seconds),
        _ => anyhow::bail!(
            "a number of seconds above 0 and at most {MOST_MOVE_SECONDS}, not {text:?}"
        ),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tns-web: {}", tns_file::one_line(e.as_ref()));
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> anyhow::Result<()> {
    let table = match &cli.tablebase {
        None => None,
        Some(dir) => Some(Arc::new(
            Tablebase::load(KILLS_TO_WIN, dir)
                .with_context(|| format!("--tablebase {}", dir.display()))?,
        )),
    };
    let analyst = Analyst {
        table,
        budget: SearchBudget {
            position: Duration::from_millis(100),
            per_move: Duration::from_millis(10),
        },
    };
    let limits = RequestLimits {
        max_move_time: Duration::from_secs_f64(cli.max_move_time),
        max_line_time: Duration::from_secs(5),
        searches: usize::from(cli.searches),
    };
    let mut state = AppState::new(analyst, limits);
    for spec in &cli.offer {
        state.offer(spec).with_context(|| format!("--offer {spec}"))?;
    }
    if let Some(url) = &cli.public_url {
        state.set_public_url(url);
    }
    let database = match &cli.database {
        Some(path) => path.clone(),
        None => default_database()?,
    };
    let store = tns_online::Store::open(&database)
        .with_context(|| format!("--database {}", database.display()))?;
    let connections = usize::try_from(cli.connections).unwrap_or(usize::MAX);
    let settings = OnlineSettings {
        abandon: Duration::from_secs(cli.abandon),
        expire: Duration::from_secs(cli.expire * 60),
        max_games: usize::try_from(cli.max_games).unwrap_or(usize::MAX),
        max_streams: connections,
        ..OnlineSettings::default()
    };
    let limits = OnlineLimits {
        games_per_minute: cli.games_per_minute,
        actions_per_second: cli.actions_per_second,
    };
    state.keep_games(Games::new(store, settings), limits);
    let state = Arc::new(state);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's threads")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(cli.listen)
            .await
            .with_context(|| format!("cannot listen on {}", cli.listen))?;
        let addr = listener.local_addr()?;
        tns_web::start_online(&state)
            .await
            .with_context(|| format!("the online games in {}", database.display()))?;
        let source = match &cli.tablebase {
            Some(dir) => format!("the tablebase in {}", dir.display()),
            None => "the engine's search (no --tablebase)".into(),
        };
        println!(
            "tns-web: http://{addr}/ (verdicts from {source}; games kept in {}; Ctrl+C stops)",
            database.display()
        );
        let limits = ConnectionLimits { connections, ..ConnectionLimits::default() };
        tns_web::serve(listener, router(state), limits, shutdown())
            .await
            .context("the server failed")
    })?;
    println!("tns-web: stopped");
    Ok(())
}

/// games.sqlite in the user's data folder, which is made if need be.
fn default_database() -> anyhow::Result<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "tigers-and-sheep")
        .context("no home folder to keep the games in: give --database PATH")?;
    let dir = dirs.data_dir();
    std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    Ok(dir.join("games.sqlite"))
}

/// Resolves on Ctrl+C or SIGTERM.
async fn shutdown() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let Ok(mut term) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        else {
            let _ = ctrl_c.await;
            return;
        };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}
