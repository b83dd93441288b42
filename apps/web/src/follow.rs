//! Following a game: its events after a number, then each new one as it is committed, none
//! lost and none twice, for the JSON-lines stream and the page's WebSocket alike.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use tns_board::Side;
use tns_online::{Event, EventKind};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{OwnedSemaphorePermit, broadcast};

use crate::games::{LiveGame, now_ms};

/// How long a stream waits without an event before it sends a line that says it is alive.
pub(crate) const KEEPALIVE: Duration = Duration::from_secs(20);

/// What a follower hears next.
#[derive(Debug)]
pub(crate) enum Heard {
    /// The next event.
    Event(Event),
    /// Nothing for a while: the connection is alive.
    Alive,
}

/// One follower of a game.
#[derive(Debug)]
pub(crate) struct Follower {
    game: Arc<LiveGame>,
    events: broadcast::Receiver<Event>,
    /// The number of the next event to send.
    next: u64,
    /// The seat whose presence this stream is, when its token came with it.
    seat: Option<Side>,
    /// Whether the stream has sent its last event.
    over: bool,
    /// Events heard but not yet sent, in order.
    pending: VecDeque<Event>,
    rematch_window: Duration,
    _slot: OwnedSemaphorePermit,
}

impl Follower {
    /// Follows `game` from the event after `since`, holding one of the server's stream slots.
    pub(crate) fn new(
        game: Arc<LiveGame>,
        since: u64,
        rematch_window: Duration,
        slot: OwnedSemaphorePermit,
    ) -> Follower {
        // Subscribed before the backlog is read, so an event committed in between is heard
        // (perhaps twice: the numbers drop the second).
        let events = game.events.subscribe();
        Follower {
            game,
            events,
            next: since.saturating_add(1),
            seat: None,
            over: false,
            pending: VecDeque::new(),
            rematch_window,
            _slot: slot,
        }
    }

    /// The game followed.
    pub(crate) fn game(&self) -> &Arc<LiveGame> {
        &self.game
    }

    /// Counts this stream as `side`'s presence while it is open.
    pub(crate) fn as_seat(&mut self, side: Side) {
        if self.seat.is_none() {
            self.seat = Some(side);
            self.game.streaming(side, true, now_ms());
        }
    }

    /// The events not yet sent that the game has already committed.
    async fn backlog(&self) -> (Vec<Event>, Option<Duration>) {
        let seated = self.game.seated.lock().await;
        let table = &seated.table;
        let missed = table.events_after(self.next - 1).to_vec();
        // A finished game's stream stays open for its rematch, while one may still come.
        let left = table.finish().map(|_| {
            if table.rematch().is_some() {
                Duration::ZERO
            } else {
                let window = u64::try_from(self.rematch_window.as_millis()).unwrap_or(u64::MAX);
                let ends = table.last_at().saturating_add(window);
                Duration::from_millis(ends.saturating_sub(now_ms()))
            }
        });
        (missed, left)
    }

    /// The next thing to send; `None` when the stream is over.
    pub(crate) async fn next(&mut self) -> Option<Heard> {
        loop {
            if self.over {
                return None;
            }
            if let Some(event) = self.pending.pop_front() {
                if event.version < self.next {
                    continue;
                }
                self.next = event.version + 1;
                if matches!(event.kind, EventKind::Rematch { .. }) {
                    self.over = true;
                }
                return Some(Heard::Event(event));
            }
            let (missed, left) = self.backlog().await;
            if !missed.is_empty() {
                self.pending.extend(missed);
                continue;
            }
            let wait = match left {
                Some(left) if left.is_zero() => return None,
                Some(left) => left.min(KEEPALIVE),
                None => KEEPALIVE,
            };
            match tokio::time::timeout(wait, self.events.recv()).await {
                Ok(Ok(event)) => {
                    if event.version == self.next {
                        self.pending.push_back(event);
                    }
                    // Any other number: the backlog, read again, has it in order.
                }
                // Fell behind the channel: the backlog has what was dropped.
                Ok(Err(RecvError::Lagged(_))) => {}
                // The game left memory: what it committed is in the backlog; then it is over.
                Ok(Err(RecvError::Closed)) => {
                    let (missed, _) = self.backlog().await;
                    if missed.is_empty() {
                        return None;
                    }
                    self.pending.extend(missed);
                }
                Err(_) => return Some(Heard::Alive),
            }
        }
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        if let Some(side) = self.seat {
            self.game.streaming(side, false, now_ms());
        }
    }
}
