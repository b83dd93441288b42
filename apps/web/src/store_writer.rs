//! The store's one writer: a thread that owns the database and runs what the server asks of
//! it in order, committing the events that arrive together in one transaction (a group
//! commit), so that a busy server wakes it once for many moves instead of a thread for each.

use std::sync::mpsc;

use tns_online::{Event, GameId, OnlineError, Store};
use tokio::sync::oneshot;

use crate::error::ApiError;

/// Events committed together at most.
const MOST_TOGETHER: usize = 256;

type Work = Box<dyn FnOnce(&mut Store) + Send>;

/// What the writer is asked.
enum Job {
    /// A game's events to append; the answer says whether they are committed.
    Append {
        id: GameId,
        events: Vec<Event>,
        finished: bool,
        done: oneshot::Sender<Result<(), OnlineError>>,
    },
    /// Anything else (a game created, read, the heartbeat), in its turn.
    Run(Work),
}

/// The handle the server keeps: jobs go to the writer's thread.
#[derive(Debug, Clone)]
pub(crate) struct StoreWriter {
    jobs: mpsc::Sender<Job>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Job::Append { .. } => "Append",
            Job::Run(_) => "Run",
        })
    }
}

impl StoreWriter {
    /// Starts the writer's thread over `store`.
    pub(crate) fn start(store: Store) -> StoreWriter {
        let (jobs, queue) = mpsc::channel();
        std::thread::Builder::new()
            .name("tns-web store".into())
            .spawn(move || write(store, &queue))
            // Without a thread for it the server cannot keep games at all; the jobs sent then
            // find the channel closed and fail as internal errors.
            .ok();
        StoreWriter { jobs }
    }

    /// Commits `events` of game `id` (`finished`: they end it); returns once they are in
    /// the database.
    pub(crate) async fn append(
        &self,
        id: GameId,
        events: Vec<Event>,
        finished: bool,
    ) -> Result<(), ApiError> {
        let (done, answer) = oneshot::channel();
        self.jobs.send(Job::Append { id, events, finished, done }).map_err(|e| {
            ApiError::internal("the store's writer is gone", std::io::Error::other(e.to_string()))
        })?;
        answer
            .await
            .map_err(|e| ApiError::internal("the store's writer is gone", e))?
            .map_err(|e| ApiError::internal("storing a game's event", e))
    }

    /// Runs `work` on the store in its turn.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        what: &'static str,
        work: impl FnOnce(&mut Store) -> Result<T, OnlineError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let (done, answer) = oneshot::channel();
        let job: Work = Box::new(move |store| {
            let _ = done.send(work(store));
        });
        self.jobs.send(Job::Run(job)).map_err(|e| {
            ApiError::internal("the store's writer is gone", std::io::Error::other(e.to_string()))
        })?;
        answer
            .await
            .map_err(|e| ApiError::internal("the store's writer is gone", e))?
            .map_err(|e| ApiError::internal(what, e))
    }
}

/// The writer's loop: each job in order, the appends that wait together in one transaction.
fn write(mut store: Store, queue: &mpsc::Receiver<Job>) {
    let mut appends = Vec::new();
    while let Ok(first) = queue.recv() {
        let mut next = Some(first);
        while let Some(job) = next.take() {
            match job {
                Job::Append { id, events, finished, done } => {
                    appends.push((id, events, finished, done));
                    if appends.len() >= MOST_TOGETHER {
                        commit(&mut store, &mut appends);
                    }
                }
                Job::Run(work) => {
                    // What came before it is committed first: jobs keep their order.
                    commit(&mut store, &mut appends);
                    work(&mut store);
                }
            }
            next = queue.try_recv().ok();
        }
        commit(&mut store, &mut appends);
    }
}

type Pending = (GameId, Vec<Event>, bool, oneshot::Sender<Result<(), OnlineError>>);

/// Commits the waiting appends together and answers each; if the database refuses them
/// together, each is tried alone, so that one game's failure is not every game's.
fn commit(store: &mut Store, appends: &mut Vec<Pending>) {
    if appends.is_empty() {
        return;
    }
    let batch: Vec<(GameId, &[Event], bool)> = appends
        .iter()
        .map(|(id, events, finished, _)| (*id, events.as_slice(), *finished))
        .collect();
    let together = store.append_all(&batch);
    for (id, events, finished, done) in appends.drain(..) {
        let result = match &together {
            Ok(()) => Ok(()),
            Err(_) => store.append(id, &events, finished),
        };
        // A caller that went away needs no answer.
        let _ = done.send(result);
    }
}
