//! Serving connections: at most so many at once, each closed when it sends no whole request
//! header within a time (a slow client, or an idle one between requests), and all finished
//! gracefully on shutdown.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;

/// How connections are held.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// Connections open at once; a connection beyond waits to be accepted.
    pub connections: usize,
    /// How long a client may take to send a request's whole header, and how long a kept-alive
    /// connection may wait for its next request.
    pub header_time: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits { connections: 512, header_time: Duration::from_secs(10) }
    }
}

/// Serves `app` on `listener` until `shutdown` resolves; then stops accepting, lets every
/// connection finish the request it is answering, and returns.
///
/// # Errors
/// An error accepting connections that is not one connection's own (the listener failed).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.connections.max(1)));
    let (stopping, stop) = watch::channel(false);
    let mut connections = JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        // A slot first, so that a full server leaves new connections in the kernel's queue.
        let slot = tokio::select! {
            slot = Arc::clone(&slots).acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // One connection's failure (reset before accepted): go on; out of files, after
                // a moment in which connections close.
                Err(e) if is_connection_error(&e) => {
                    if matches!(e.raw_os_error(), Some(23 | 24)) {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    continue;
                }
                Err(e) => return Err(e),
            },
            () = &mut shutdown => break,
        };
        // Each request knows its client's address (the per-address limits).
        let service = TowerToHyperService::new(
            app.clone().layer(axum::Extension(axum::extract::ConnectInfo(peer))),
        );
        let mut stop = stop.clone();
        connections.spawn(async move {
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_time)
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            let mut connection = std::pin::pin!(connection);
            let stopped = async move {
                // The guard `wait_for` returns is not held: only whether it came.
                stop.wait_for(|stopping| *stopping).await.is_ok()
            };
            tokio::select! {
                _ = connection.as_mut() => {}
                true = stopped => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
            drop(slot);
        });
        // Reap the finished ones as we go, so the set does not grow.
        while connections.try_join_next().is_some() {}
    }
    let _ = stopping.send(true);
    while connections.join_next().await.is_some() {}
    Ok(())
}

/// Whether an error from `accept` concerns one connection, not the listener.
fn is_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset, Interrupted};
    // Out of file descriptors (EMFILE, ENFILE) passes too: the slots make it rare, and
    // connections that close free them.
    matches!(e.kind(), ConnectionAborted | ConnectionRefused | ConnectionReset | Interrupted)
        || matches!(e.raw_os_error(), Some(23 | 24))
}
