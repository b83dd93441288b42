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
use tns_web::{Analyst, AppState, ConnectionLimits, RequestLimits, SearchBudget, router};

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
        let source = match &cli.tablebase {
            Some(dir) => format!("the tablebase in {}", dir.display()),
            None => "the engine's search (no --tablebase)".into(),
        };
        println!("tns-web: http://{addr}/ (verdicts from {source}; Ctrl+C stops)");
        tns_web::serve(listener, router(state), ConnectionLimits::default(), shutdown())
            .await
            .context("the server failed")
    })?;
    println!("tns-web: stopped");
    Ok(())
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
