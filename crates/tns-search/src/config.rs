//! The settings of a searcher, and the parts of the search that can be switched off to be
//! measured.

/// Settings of a [`Search`](crate::Search), built from the default: `SearchConfig::default().with_threads(2)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchConfig {
    /// Threads searching together (lazy SMP), 1 to [`MAX_THREADS`](crate::MAX_THREADS).
    pub threads: usize,
    /// The transposition table's size in MiB, 1 to [`MAX_TT_MB`](crate::MAX_TT_MB).
    pub tt_mb: usize,
    /// Which parts of the search are on (all, unless you are measuring one).
    pub parts: Parts,
}

impl SearchConfig {
    /// These settings with `threads` threads.
    #[must_use]
    pub const fn with_threads(mut self, threads: usize) -> SearchConfig {
        self.threads = threads;
        self
    }

    /// These settings with a transposition table of `tt_mb` MiB.
    #[must_use]
    pub const fn with_tt_mb(mut self, tt_mb: usize) -> SearchConfig {
        self.tt_mb = tt_mb;
        self
    }

    /// These settings with these parts of the search.
    #[must_use]
    pub const fn with_parts(mut self, parts: Parts) -> SearchConfig {
        self.parts = parts;
        self
    }
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig { threads: 1, tt_mb: 64, parts: Parts::DEFAULT }
    }
}

/// Switches for the parts of the search that only make it faster, so each one's worth can be
/// measured by turning it off (`tns-bench search --without ...`). None of them changes the
/// value a fixed-depth search finds, only how many nodes it takes and, where moves score alike,
/// which of them is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(clippy::struct_excessive_bools)]
#[non_exhaustive]
pub struct Parts {
    /// The transposition table: cutoffs from stored bounds, and the stored move tried first.
    /// (`tt`, not `table`: in this project the table is the solution, the tablebase.)
    pub tt: bool,
    /// Jumps (kills) tried before quiet moves.
    pub jumps_first: bool,
    /// Killer moves: quiet moves that caused a cutoff at the same ply, tried early.
    pub killers: bool,
    /// The history heuristic: quiet moves ordered by how often they caused cutoffs.
    pub history: bool,
    /// Principal variation search: after the first move, each move is searched with a null
    /// window (can it beat the best so far?) and again with the whole window only when it can.
    /// The value is the same; the node count and the choice among equal scores move.
    pub pvs: bool,
    /// Time management by the best move's stability: with a target time, stop early when the
    /// best move holds and go on when it changes. Off, the search stops at the target. (It
    /// changes only how a clock's time is spent, not what a search finds.)
    pub stability: bool,
}

impl Parts {
    /// Every part on.
    pub const ALL: Parts = Parts {
        tt: true,
        jumps_first: true,
        killers: true,
        history: true,
        pvs: true,
        stability: true,
    };

    /// The parts the engine uses: all but principal variation search. Each of the two switched
    /// parts was decided by a match at equal time with SPRT: killer moves held their own and are
    /// on, principal variation search gained nothing measurable and is off
    /// (docs/results.md, "Killers and principal variation search at equal time").
    pub const DEFAULT: Parts = Parts { pvs: false, ..Parts::ALL };
}

impl Default for Parts {
    fn default() -> Parts {
        Parts::DEFAULT
    }
}
