//! Why a searcher could not be made, or a search could not run.

use crate::eval::EvalError;
use crate::limits::{MAX_THREADS, MAX_TT_MB};

/// Why [`Search::new`](crate::Search::new) or [`Search::search`](crate::Search::search) failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// A thread count outside 1 to [`MAX_THREADS`].
    #[error("threads must be a whole number from 1 to {MAX_THREADS}, not {given}")]
    Threads {
        /// The count asked for.
        given: usize,
    },
    /// A transposition table size outside 1 to [`MAX_TT_MB`] MiB.
    #[error("the transposition table must be from 1 to {MAX_TT_MB} MiB, not {given}")]
    TableSize {
        /// The size asked for, in MiB.
        given: usize,
    },
    /// The transposition table's memory could not be had.
    #[error("cannot allocate a transposition table of {mib} MiB: not enough memory")]
    Memory {
        /// The size asked for, in MiB.
        mib: usize,
    },
    /// The threads' tables of evaluations could not be had
    /// ([`Evaluator::worth_caching`](crate::Evaluator::worth_caching)).
    #[error(
        "cannot allocate a search thread's table of evaluations ({bytes} bytes): not enough memory"
    )]
    EvalCacheMemory {
        /// The size asked for, in bytes: one thread's table.
        bytes: usize,
    },
    /// A search thread could not be started (the system's limit on threads, say).
    #[error("cannot start search thread {thread} of {threads}: {source}")]
    Spawn {
        /// Which thread, from 1 (the first helper is 2).
        thread: usize,
        /// The threads the search wanted.
        threads: usize,
        /// The system's error.
        source: std::io::Error,
    },
    /// The evaluator could not answer (a damaged tablebase file).
    #[error(transparent)]
    Evaluator(#[from] EvalError),
}
