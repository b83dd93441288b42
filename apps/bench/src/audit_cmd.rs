//! `tns-bench audit`.

use std::path::PathBuf;

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

pub fn run(args: &Args) -> Result<(), String> {
    let text = tns_file::read_text(&args.records, crate::RECORDS_LIMIT)
        .map_err(|e| format!("{}: {e}", args.records.display()))?;
    let records =
        GameRecord::parse_all(&text).map_err(|e| format!("{}: {e}", args.records.display()))?;
    let table =
        Tablebase::load(KILLS_TO_WIN, &args.tablebase).map_err(|e| format!("--tablebase: {e}"))?;
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
    let audit = tns_bench::audit(&records, &table).map_err(|e| e.to_string())?;
    say!("{} games from {}\n", audit.games, args.records.display());
    say!("{}", audit.to_string().trim_end());
    Ok(())
}
