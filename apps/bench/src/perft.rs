//! `tns-bench perft`.

use std::time::Instant;

use anyhow::Context as _;
use rayon::prelude::*;
use tns_board::{Board, perft, perft_divide};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The deepest depth to count, 1 to 10; every depth from 1 up to it gets a line. The
    /// counts grow about fifteenfold a ply: depth 10 from the start takes hours, deeper ones
    /// would not end.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=10))]
    depth: u32,
    /// The position to start from, in position notation.
    #[arg(long, default_value = "T3T/5/5/5/T3T s 20")]
    position: String,
    /// Print each root move's count at the deepest depth.
    #[arg(long)]
    divide: bool,
    /// Split the root moves over this many threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let board: Board =
        args.position.parse().with_context(|| format!("bad position {:?}", args.position))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads as usize)
        .build()
        .with_context(|| format!("cannot start {} threads", args.threads))?;
    for depth in 1..=args.depth {
        let start = Instant::now();
        let parts: Vec<_> = if args.threads == 1 {
            perft_divide(board, depth)
        } else {
            let moves = board.legal_moves();
            pool.install(|| {
                moves.par_iter().map(|&m| (m, perft(board.after_unchecked(m), depth - 1))).collect()
            })
        };
        let nodes: u64 = parts.iter().map(|p| p.1).sum();
        let secs = start.elapsed().as_secs_f64();
        if args.divide && depth == args.depth {
            for (m, n) in &parts {
                say!("{m} {n}");
            }
        }
        #[expect(clippy::cast_precision_loss, reason = "a rate: digits past 2^52 nodes not shown")]
        let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
        say!("depth {depth} nodes {nodes} time {secs:.3} nps {nps:.0}");
    }
    Ok(())
}
