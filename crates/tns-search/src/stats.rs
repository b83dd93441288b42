//! Counters for the `search-stats` feature.

use std::ops::AddAssign;

/// What the search counted, with the `search-stats` feature (all zero without it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Transposition table probes.
    pub tt_probes: u64,
    /// Probes that found an entry for the position.
    pub tt_hits: u64,
    /// Probes whose entry ended the node at once.
    pub tt_cutoffs: u64,
    /// Beta cutoffs.
    pub cutoffs: u64,
    /// Beta cutoffs by the first move tried.
    pub first_move_cutoffs: u64,
    /// Positions scored by the evaluator at the horizon.
    pub evaluations: u64,
    /// Of those, the ones the evaluator was asked for: the others were in the thread's table of
    /// evaluations ([`Evaluator::worth_caching`](crate::Evaluator::worth_caching)).
    pub evaluator_calls: u64,
}

impl Stats {
    /// The share of cutoffs made by the first move tried, 0 to 1.
    #[expect(
        clippy::cast_precision_loss,
        reason = "a ratio: counts beyond 2^52 lose digits no rate shows"
    )]
    pub fn first_move_cutoff_rate(&self) -> f64 {
        if self.cutoffs == 0 { 0.0 } else { self.first_move_cutoffs as f64 / self.cutoffs as f64 }
    }
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.tt_cutoffs += o.tt_cutoffs;
        self.cutoffs += o.cutoffs;
        self.first_move_cutoffs += o.first_move_cutoffs;
        self.evaluations += o.evaluations;
        self.evaluator_calls += o.evaluator_calls;
    }
}

/// Adds one to a counter, only with the `search-stats` feature.
macro_rules! count {
    ($stats:expr, $field:ident) => {
        #[cfg(feature = "search-stats")]
        {
            $stats.$field += 1;
        }
    };
}
pub(crate) use count;
