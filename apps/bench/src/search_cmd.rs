//! `tns-bench search`: the six bench positions searched to a fixed depth.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context as _, bail};
use tns_bench::BENCH_POSITIONS;
use tns_match::{PlayerKind, PlayerSpec};
use tns_search::{Evaluator, Limits, Parts, Search, SearchConfig};

/// A part of the search that `--without` can switch off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Part {
    /// The transposition table.
    Table,
    /// Jumps first in the move order.
    Jumps,
    /// Killer moves.
    Killers,
    /// The history heuristic.
    History,
    /// Principal variation search (null windows after the first move).
    Pvs,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Depth in plies.
    #[arg(default_value_t = 12, value_parser = tns_match::limit::depth)]
    depth: u32,
    /// The evaluator: `heuristic` (optionally with weights, `heuristic:dead=350`), `network` or
    /// a weights file; a network searches with the endgame built in unless `endgame=off`.
    #[arg(long, default_value = "heuristic")]
    evaluator: PlayerSpec,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = tns_match::limit::threads)]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = tns_match::limit::hash_mb)]
    tt_mb: usize,
    /// Switch parts of the search off, to measure what each is worth (comma-separated).
    #[arg(long, value_delimiter = ',')]
    without: Vec<Part>,
    /// Switch parts on that the engine leaves off (pvs), comma-separated.
    #[arg(long, value_delimiter = ',')]
    with: Vec<Part>,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let mut parts = Parts::DEFAULT;
    let switches =
        args.with.iter().map(|p| (p, true)).chain(args.without.iter().map(|p| (p, false)));
    for (part, on) in switches {
        match part {
            Part::Table => parts.tt = on,
            Part::Jumps => parts.jumps_first = on,
            Part::Killers => parts.killers = on,
            Part::History => parts.history = on,
            Part::Pvs => parts.pvs = on,
        }
    }
    let config =
        SearchConfig::default().with_threads(args.threads).with_tt_mb(args.tt_mb).with_parts(parts);
    if args.evaluator.table {
        bail!(
            "{}: the bench suite measures the evaluator alone, without the table (drop table=on)",
            args.evaluator
        );
    }
    // The evaluator the player searches with, as it plays: the endgame built in where it has
    // it (`network` and weights files unless `endgame=off`), read through its fitted chances
    // where it is calibrated (`network` unless `calibrated=off`).
    match &args.evaluator.kind {
        PlayerKind::Perfect { .. } => bail!(
            "perfect is the heuristic with the tablebase: bench the search with heuristic, and \
             the table with `cargo bench --bench tablebase`"
        ),
        _ => match args.evaluator.evaluator(None)? {
            Some(evaluator) => bench(evaluator, config, args.depth),
            None => {
                bail!("{} has no evaluator here: use heuristic or a weights file", args.evaluator)
            }
        },
    }
}

fn bench<E: Evaluator>(evaluator: E, config: SearchConfig, depth: u32) -> anyhow::Result<()> {
    let mut search = Search::new(evaluator, config)?;
    let stop = AtomicBool::new(false);
    say!(
        "{:15} {:>8} {:>12} {:>5} {:>12} {:>9} {:>10}",
        "position",
        "best",
        "score",
        "depth",
        "nodes",
        "time",
        "nodes/s"
    );
    let (mut nodes, mut time) = (0u64, Duration::ZERO);
    #[cfg(feature = "search-stats")]
    let mut stats = tns_search::Stats::default();
    for p in BENCH_POSITIONS {
        let board = p.board();
        // Each position starts from an empty table, so the figures do not depend on the order.
        search.clear();
        let r = search.search(board, &[], Limits::depth(depth), &stop, |_| {})?;
        let best = r.best_move.with_context(|| format!("{}: no legal move", p.name))?;
        say!(
            "{:15} {:>8} {:>12} {:>5} {:>12} {:>8.3}s {:>10}",
            p.name,
            best.to_string(),
            r.score.describe(board.side_to_move()),
            r.depth,
            r.nodes,
            r.time.as_secs_f64(),
            nps(r.nodes, r.time)
        );
        nodes += r.nodes;
        time += r.time;
        #[cfg(feature = "search-stats")]
        {
            stats += r.stats;
        }
    }
    say!(
        "{:15} {:>8} {:>12} {:>5} {:>12} {:>8.3}s {:>10}",
        "total",
        "",
        "",
        "",
        nodes,
        time.as_secs_f64(),
        nps(nodes, time)
    );
    #[cfg(feature = "search-stats")]
    say!(
        "stats tt_probes {} tt_hits {} tt_cutoffs {} cutoffs {} first_move_cutoff_rate {:.3} \
         evaluations {} evaluator_calls {}",
        stats.tt_probes,
        stats.tt_hits,
        stats.tt_cutoffs,
        stats.cutoffs,
        stats.first_move_cutoff_rate(),
        stats.evaluations,
        stats.evaluator_calls
    );
    Ok(())
}

#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "a rate for people: positive, far below 2^52 nodes, rounded down"
)]
fn nps(nodes: u64, time: Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64
}
