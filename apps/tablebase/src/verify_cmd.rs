//! `verify`: every value against its moves, or with `--checksums` every block.

use std::time::Instant;

use anyhow::{Context as _, bail};
use tns_tablebase::Tablebase;

use crate::cli::{Cli, gigabytes, load, megabytes, secs};

pub fn verify(
    cli: &Cli,
    placement_only: bool,
    sample: Option<usize>,
    layers: Option<(u8, u8)>,
) -> anyhow::Result<()> {
    let table = load(cli)?;
    if !placement_only {
        let start = Instant::now();
        table.verify().context("verification failed")?;
        say!(
            "movement phase verified: every value agrees with its moves ({:.1} s)",
            secs(start.elapsed())
        );
    }
    match table.placement_from() {
        None if placement_only => bail!("no placement layer is built (build --placement)"),
        None => Ok(()),
        Some(from) if sample.is_some() => {
            let start = Instant::now();
            let n = sample.unwrap_or(0);
            let checked = table.verify_placement_sample(n, 1).context("verification failed")?;
            say!(
                "placement phase sampled from {from} placed: {checked} positions agree with \
                 their moves ({:.1} s)",
                secs(start.elapsed())
            );
            Ok(())
        }
        Some(from) => {
            let start = Instant::now();
            let (from, to) = layers.unwrap_or((from, 19));
            table
                .verify_placement_layers(from..=to, |placed| {
                    say!("layer {placed} placed verified ({:.1} s)", secs(start.elapsed()));
                })
                .context("verification failed")?;
            say!(
                "placement layers {from} to {to} placed verified: every value agrees with its \
                 moves ({:.1} s)",
                secs(start.elapsed())
            );
            Ok(())
        }
    }
}

pub fn checksums(cli: &Cli) -> anyhow::Result<()> {
    let start = Instant::now();
    let files = Tablebase::check_files(cli.kills, &cli.dir, |f| {
        say!("{}: every block checked ({:.1} MB)", f.path.display(), megabytes(f.bytes));
    })?;
    if files.is_empty() {
        bail!("no table files in {} (tns-tablebase build)", cli.dir.display());
    }
    let bytes: u64 = files.iter().map(|f| f.bytes).sum();
    say!(
        "{} files, {:.2} GB: every block agrees with its checksum ({:.1} s)",
        files.len(),
        gigabytes(bytes),
        secs(start.elapsed())
    );
    Ok(())
}
