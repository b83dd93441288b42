//! `tns-web`: serves the API and the page until Ctrl+C or SIGTERM, letting requests in flight
//! finish.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use tns_board::KILLS_TO_WIN;
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
    #[arg(long, default_value_t = 1.0, value_parser = seconds)]
    max_move_time: f64,
    /// Another player to offer, besides the built-in levels: a player spec, e.g. a weights
    /// file (`weights/run/latest.bin`) or `heuristic:depth=6`. Repeat for more. Clients name
    /// players only from the server's list.
    #[arg(long, value_name = "SPEC")]
    offer: Vec<String>,
    /// Searches running at once (the rest wait); the table's answers never wait.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    searches: u16,
}

fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 && t <= 60.0 => Ok(t),
        _ => Err(format!("expected seconds above 0 and at most 60, not {text:?}")),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tns-web: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> Result<(), String> {
    let table = match &cli.tablebase {
        None => None,
        Some(dir) => Some(Arc::new(
            Tablebase::load(KILLS_TO_WIN, dir)
                .map_err(|e| format!("--tablebase {}: {e}", dir.display()))?,
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
        state.offer(spec).map_err(|e| format!("--offer {spec}: {e}"))?;
    }
    let state = Arc::new(state);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's threads: {e}"))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(cli.listen)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", cli.listen))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let source = match &cli.tablebase {
            Some(dir) => format!("the tablebase in {}", dir.display()),
            None => "the engine's search (no --tablebase)".into(),
        };
        println!("tns-web: http://{addr}/ (verdicts from {source}; Ctrl+C stops)");
        tns_web::serve(listener, router(state), ConnectionLimits::default(), shutdown())
            .await
            .map_err(|e| format!("the server failed: {e}"))
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
