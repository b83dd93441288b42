//! `compress`: a table of the uncompressed format converted in place.

use std::time::Instant;

use tns_tablebase::Tablebase;

use crate::cli::{Cli, gigabytes, megabytes, secs};

pub fn compress(cli: &Cli) -> Result<(), String> {
    let start = Instant::now();
    let files = Tablebase::convert(cli.kills, &cli.dir, |f| {
        let what = if f.converted { "converted" } else { "already compressed, checked" };
        say!("{}: {what} ({:.1} MB)", f.path.display(), megabytes(f.bytes));
    })
    .map_err(|e| e.to_string())?;
    if files.is_empty() {
        return Err(format!("no table files in {} (tns-tablebase build)", cli.dir.display()));
    }
    let bytes: u64 = files.iter().map(|f| f.bytes).sum();
    say!(
        "{} files, {:.2} GB in all ({} converted, {:.1} s)",
        files.len(),
        gigabytes(bytes),
        files.iter().filter(|f| f.converted).count(),
        secs(start.elapsed())
    );
    Ok(())
}
