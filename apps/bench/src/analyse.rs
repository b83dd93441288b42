//! `tns-bench analyse`.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context as _, bail};
use tns_board::{Board, Game, KILLS_TO_WIN, Move};
use tns_match::{Budget, PlayerSpec};
use tns_tablebase::{Tablebase, TablebaseError};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position to analyse, in position notation (e.g. "T3T/5/5/5/T3T s 20").
    position: String,
    /// Search to this depth in plies.
    #[arg(long, conflicts_with = "time", value_parser = tns_match::limit::depth)]
    depth: Option<u32>,
    /// Search for this many seconds (the default is 1 when no depth is given).
    #[arg(long, value_parser = tns_match::limit::seconds)]
    time: Option<f64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = tns_match::limit::threads)]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = tns_match::limit::hash_mb)]
    tt_mb: usize,
    /// Moves played from POSITION before the search, separated by spaces; the search starts
    /// after them and treats their positions as the game's history (for repetitions).
    #[arg(long, default_value = "")]
    history: String,
    /// The tablebase's directory: when a table is there, its exact verdicts on the position and
    /// each move are printed first.
    #[arg(long, default_value = "tablebase")]
    tablebase: PathBuf,
    /// The player whose search is shown, as a match names players (`hard:depth=8`, a
    /// weights file, `perfect`) [default: the strongest there is: perfect where the table holds
    /// the position, else the network, with the table's movement phase when there is a table
    /// (`strongest:table=on`)].
    #[arg(long)]
    player: Option<PlayerSpec>,
}

/// The table in `dir`, if one is built there; a table that is there but damaged is an error.
fn load_table(dir: &std::path::Path) -> anyhow::Result<Option<Arc<Tablebase>>> {
    if !dir.exists() {
        return Ok(None);
    }
    match Tablebase::load(KILLS_TO_WIN, dir) {
        Ok(t) => Ok(Some(Arc::new(t))),
        Err(e) if e.is_missing() => Ok(None),
        Err(e) => Err(e).context("--tablebase"),
    }
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let start: Board =
        args.position.parse().with_context(|| format!("bad position {:?}", args.position))?;
    let mut game = Game::from_position(start);
    for (i, text) in args.history.split_whitespace().enumerate() {
        let m: Move = text.parse().with_context(|| format!("bad history move {}", i + 1))?;
        game.play(m).with_context(|| format!("history move {} ({m}) cannot be played", i + 1))?;
    }
    let time = match (args.depth, args.time) {
        (None, None) => Some(Duration::from_secs(1)),
        (_, t) => t.map(Duration::from_secs_f64),
    };
    let board = game.board();
    if let Some(outcome) = game.outcome() {
        bail!("the game is over: {outcome}");
    }
    let table = load_table(&args.tablebase)?;
    let side = board.side_to_move();
    if let Some(table) = &table {
        match table.verdicts(board) {
            Ok(moves) => {
                let verdict = table.verdict(board)?.describe(side);
                say!("table {verdict}");
                let list: Vec<String> =
                    moves.iter().map(|(m, v)| format!("{m} ({})", v.describe(side))).collect();
                say!("table moves {}", list.join(", "));
            }
            Err(e @ TablebaseError::NoLayer(_)) => say!("table does not hold this position: {e}"),
            Err(e) => return Err(e.into()),
        }
    }
    let spec = match &args.player {
        Some(spec) => spec.clone(),
        None => PlayerSpec::strongest_at(board, table.as_ref())?,
    };
    let defaults = Budget {
        time: time.map(|t| t.as_secs_f64()),
        depth: args.depth,
        threads: args.threads,
        tt_mb: args.tt_mb,
    };
    let mut search = spec
        .searcher(defaults, table.as_ref())
        .map_err(|e| match e {
            tns_match::PlayerError::NoTablebase => anyhow::anyhow!(
                "{e}, and there is none in {} (build it with `tns-tablebase build`, or name its \
                 folder with --tablebase)",
                args.tablebase.display()
            ),
            e => e.into(),
        })
        .with_context(|| format!("--player {spec}"))?
        .with_context(|| format!("--player {spec} does not search: choose one that does"))?;
    let limits = spec.budget(defaults).limits();
    say!("player {spec}");
    let result = search.search(board, game.previous(), limits, &AtomicBool::new(false), |r| {
        let pv: Vec<String> = r.pv.iter().map(ToString::to_string).collect();
        say!(
            "depth {} score {}{} ({}) nodes {} nps {} time {:.3} pv {}",
            r.depth,
            r.score.shown(r.chances).describe(side),
            if r.lower_bound { " lowerbound" } else { "" },
            r.chances.describe(side),
            r.nodes,
            r.nps,
            r.time.as_secs_f64(),
            pv.join(" ")
        );
    })?;
    #[cfg(feature = "search-stats")]
    {
        let s = result.stats;
        say!(
            "stats tt_probes {} tt_hits {} tt_cutoffs {} cutoffs {} first_move_cutoff_rate {:.3}",
            s.tt_probes,
            s.tt_hits,
            s.tt_cutoffs,
            s.cutoffs,
            s.first_move_cutoff_rate()
        );
    }
    let best = result.best_move.context("no legal move")?;
    say!(
        "bestmove {best} score {} ({})",
        result.score.shown(result.chances).describe(side),
        result.chances.describe(side)
    );
    Ok(())
}
