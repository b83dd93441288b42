//! `tns-bench review`: a game's value along its plies, and every move that threw a result away.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::Context as _;
use tns_board::{GameRecord, KILLS_TO_WIN};
use tns_match::{Budget, PlayerSpec};
use tns_search::Limits;
use tns_tablebase::Tablebase;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A game record (the first game of the file is reviewed), as the game saves it.
    record: PathBuf,
    /// The tablebase's directory: where it holds a position, the value is exact and the moves
    /// that gave a result up are marked (?? to a loss, ? a win to a draw).
    #[arg(long, default_value = "tablebase")]
    tablebase: PathBuf,
    /// The player whose chances stand in where the table does not hold the position.
    #[arg(long, default_value = "strongest")]
    player: String,
    /// Its search depth for each position.
    #[arg(long, default_value_t = 6, value_parser = tns_match::limit::depth)]
    depth: u32,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let text = tns_file::read_text(&args.record, crate::RECORDS_LIMIT)
        .with_context(|| args.record.display().to_string())?;
    let records =
        GameRecord::parse_all(&text).with_context(|| args.record.display().to_string())?;
    let record = records
        .first()
        .with_context(|| format!("{}: no game record in it", args.record.display()))?;
    let game = record.replay().with_context(|| args.record.display().to_string())?;
    let table = match Tablebase::load(KILLS_TO_WIN, &args.tablebase) {
        Ok(table) => Some(std::sync::Arc::new(table)),
        Err(e) if e.is_missing() => {
            say!(
                "note: no table in {} (--tablebase names one): no move is marked, the values are \
                 the strongest player's estimates\n",
                args.tablebase.display()
            );
            None
        }
        Err(e) => return Err(e).context("--tablebase"),
    };
    let spec: PlayerSpec = args.player.parse().context("--player")?;
    let defaults = Budget { time: None, depth: Some(args.depth), threads: 1, tt_mb: 16 };
    let mut searcher = spec.searcher(defaults, table.as_ref()).context("--player")?;
    let stop = AtomicBool::new(false);
    let mut estimate = |board| {
        let search = searcher.as_mut()?;
        search.search(board, &[], Limits::depth(args.depth), &stop, |_| {}).ok().map(|r| r.chances)
    };
    let review = tns_puzzles::review(&game, table.as_deref(), &mut estimate)?;
    say!("{}", review.to_string().trim_end());
    let chart: String = review.sparkline(usize::MAX).into_iter().map(|(_, bar)| bar).collect();
    say!(
        "\nthe value for the sheep, ply by ply (low: the tigers win, high: the sheep win):\n{chart}"
    );
    Ok(())
}
