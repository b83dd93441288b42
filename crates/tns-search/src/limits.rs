//! When a search stops, and the bounds every front end checks its settings against.

use std::time::Duration;

use tns_board::MoveList;

/// The most search threads a [`Search`](crate::Search) takes.
pub const MAX_THREADS: usize = 64;

/// The largest transposition table a [`Search`](crate::Search) takes, in MiB.
pub const MAX_TT_MB: usize = 4096;

/// The deepest iteration a search can be asked for, in plies.
pub const MAX_DEPTH: u32 = 120;

/// Limits on a search, and the root moves it may choose from. Any limit that is set can end
/// it; with none set it runs to the deepest depth (127 plies) or until its stop flag is raised.
/// The result is the last completed iteration's (or the stopped one's better move: see
/// [`SearchResult::best_move`](crate::SearchResult::best_move)).
///
/// How closely each limit is kept:
/// - `depth`: exactly; the search ends after that iteration.
/// - `time`: each thread looks at the clock every 1024 nodes (about a millisecond with the
///   slowest evaluator), so a search ends within about that of its time.
/// - `nodes`: each thread publishes its count and looks at the total every `nodes / (32 ×
///   threads)` nodes (at least 1, at most 1024). A thread can be that many nodes behind when the
///   total crosses the limit, and search that many more before it looks again, so a search stops
///   within `nodes / 16` nodes of its limit (2 a thread for the smallest limits, 2,048 a thread
///   for the largest). With one thread and 1,000 nodes it stops within 62 nodes of the limit.
/// - `target` (time management, see [`Clock`](crate::Clock)): no new iteration starts after
///   it; the search stops at half of it once its best move has held for three iterations and
///   goes on to 1.5 times it while its best move still changes, never past `time`.
///
/// ```
/// use std::time::Duration;
/// use tns_search::Limits;
///
/// let limits = Limits::depth(8).with_time(Duration::from_millis(50));
/// assert_eq!((limits.depth, limits.time), (Some(8), Some(Duration::from_millis(50))));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Wall-clock time from the start of the search: it ends there whatever it is doing.
    pub time: Option<Duration>,
    /// The time the search aims to use (from a clock); see the type's docs.
    pub target: Option<Duration>,
    /// Nodes searched, over all threads.
    pub nodes: Option<u64>,
    /// The root moves to choose from (UCI's `searchmoves`); `None` for every legal move. Moves
    /// that are not legal are ignored; if none is, every legal move is searched.
    pub moves: Option<MoveList>,
}

impl Limits {
    /// No limit: the search runs until its stop flag is raised.
    pub const fn none() -> Limits {
        Limits { depth: None, time: None, target: None, nodes: None, moves: None }
    }

    /// Search to a fixed depth.
    pub const fn depth(depth: u32) -> Limits {
        Limits::none().with_depth(depth)
    }

    /// Search for a fixed time.
    pub const fn time(time: Duration) -> Limits {
        Limits::none().with_time(time)
    }

    /// Search a fixed number of nodes.
    pub const fn nodes(nodes: u64) -> Limits {
        Limits::none().with_nodes(nodes)
    }

    /// These limits, and a depth.
    #[must_use]
    pub const fn with_depth(mut self, depth: u32) -> Limits {
        self.depth = Some(depth);
        self
    }

    /// These limits, and a time.
    #[must_use]
    pub const fn with_time(mut self, time: Duration) -> Limits {
        self.time = Some(time);
        self
    }

    /// These limits, and a target time (see the type's docs).
    #[must_use]
    pub const fn with_target(mut self, target: Duration) -> Limits {
        self.target = Some(target);
        self
    }

    /// These limits, and a node count.
    #[must_use]
    pub const fn with_nodes(mut self, nodes: u64) -> Limits {
        self.nodes = Some(nodes);
        self
    }

    /// These limits, choosing among `moves` only.
    #[must_use]
    pub fn with_moves(mut self, moves: MoveList) -> Limits {
        self.moves = Some(moves);
        self
    }

    /// Whether no limit is set (the moves aside): such a search runs until it is stopped.
    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none() && self.time.is_none() && self.target.is_none() && self.nodes.is_none()
    }
}
