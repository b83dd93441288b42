//! `tns-bench audit`.

use std::path::PathBuf;

use anyhow::{Context as _, bail};
use tns_board::{GameRecord, KILLS_TO_WIN};
use tns_tablebase::Tablebase;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A file of game records, as `tns-bench match --records` writes them.
    records: PathBuf,
    /// The tablebase's directory; with every placement layer built, every move is judged.
    #[arg(long, default_value = "tablebase")]
    tablebase: PathBuf,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let text = tns_file::read_text(&args.records, crate::RECORDS_LIMIT)
        .with_context(|| args.records.display().to_string())?;
    let records =
        GameRecord::parse_all(&text).with_context(|| args.records.display().to_string())?;
    check_records(&records).with_context(|| args.records.display().to_string())?;
    let table = Tablebase::load(KILLS_TO_WIN, &args.tablebase).context("--tablebase")?;
    match table.placement_from() {
        Some(0) => {}
        Some(from) => say!(
            "note: the placement layers are built from {from} placed; moves before that are not \
             judged\n"
        ),
        None => say!(
            "note: no placement layer is built (tns-tablebase build --placement); only the \
             movement phase is judged\n"
        ),
    }
    let audit = tns_bench::audit(&records, &table)?;
    say!("{} games from {}\n", audit.games, args.records.display());
    say!("{}", audit.to_string().trim_end());
    Ok(())
}

/// What must hold of the records before their moves are judged: there is at least one; each
/// replays by the rules; its `Opening` tag, if any, counts some of its moves; its
/// `Termination` tag, if it names an ending by the rules, is the ending its moves reach.
fn check_records(records: &[GameRecord]) -> anyhow::Result<()> {
    if records.is_empty() {
        bail!("no game record in it");
    }
    for (i, record) in records.iter().enumerate() {
        let game = i + 1;
        let played = record.replay().with_context(|| format!("game {game}"))?;
        if let Some(tag) = record.tag("Opening") {
            let moves = record.moves.len();
            if !tag.parse::<usize>().is_ok_and(|n| n <= moves) {
                bail!("game {game}: its Opening tag {tag:?} is not a number of its {moves} moves");
            }
        }
        let by_rules = tns_board::EndReason::ALL
            .iter()
            .filter(|r| {
                matches!(
                    r,
                    tns_board::EndReason::FiveDead
                        | tns_board::EndReason::NoMoves
                        | tns_board::EndReason::Repetition
                )
            })
            .find(|r| record.tag("Termination") == Some(r.to_string().as_str()));
        if let Some(&reason) = by_rules
            && played.outcome().map(|o| o.reason) != Some(reason)
        {
            bail!("game {game}: its Termination tag says {reason}, which its moves do not reach");
        }
    }
    Ok(())
}
