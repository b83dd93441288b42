//! When a search stops.

use std::time::Duration;

/// Limits on a search. Any that is set can end it; with none set it runs to the deepest depth
/// (127 plies) or until its stop flag is raised. The result is always the last completed
/// iteration's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Wall-clock time from the start of the search.
    pub time: Option<Duration>,
    /// Nodes searched, over all threads.
    pub nodes: Option<u64>,
}

impl Limits {
    /// Search to a fixed depth.
    pub const fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), time: None, nodes: None }
    }

    /// Search for a fixed time.
    pub const fn time(time: Duration) -> Limits {
        Limits { depth: None, time: Some(time), nodes: None }
    }

    /// Search a fixed number of nodes.
    pub const fn nodes(nodes: u64) -> Limits {
        Limits { depth: None, time: None, nodes: Some(nodes) }
    }
}
