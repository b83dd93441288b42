//! `verify`: every value against its moves, or with `--checksums` every block.

use std::time::Instant;

use anyhow::{Context as _, bail};
use tns_tablebase::{TablePart, Tablebase};

use crate::cli::{Cli, gigabytes, load, megabytes, secs};

/// Refuses a folder with a part of the table that no verification would reach: a movement
/// slice missing beside the others, or placement layers below a missing one (a layer is
/// verified, and probed, from the one above it). A verification that said "verified" of such a
/// folder would speak of files it never read.
fn check_whole(cli: &Cli) -> anyhow::Result<()> {
    let files = Tablebase::files(cli.kills, &cli.dir)?;
    let slices: Vec<u8> = files
        .iter()
        .filter_map(|f| match f.part {
            TablePart::Slice { dead } => Some(dead),
            _ => None,
        })
        .collect();
    let missing: Vec<String> =
        (0..cli.kills).filter(|d| !slices.contains(d)).map(|d| d.to_string()).collect();
    if !files.is_empty() && !missing.is_empty() {
        bail!(
            "{}: the movement phase's slices of {} dead are missing (tns-tablebase build makes \
             them)",
            cli.dir.display(),
            missing.join(", ")
        );
    }
    let layers: Vec<u8> = files
        .iter()
        .filter_map(|f| match f.part {
            TablePart::Layer { placed } => Some(placed),
            _ => None,
        })
        .collect();
    // The layers from 19 down without a gap are the ones a table uses.
    let mut from = 20;
    while from > 0 && layers.contains(&(from - 1)) {
        from -= 1;
    }
    let stranded: Vec<String> =
        layers.iter().filter(|&&p| p < from).map(ToString::to_string).collect();
    if !stranded.is_empty() {
        bail!(
            "{}: the placement layers of {} placed are there but cannot be verified or used: \
             the layer of {} placed above them is missing (tns-tablebase build --placement \
             makes it)",
            cli.dir.display(),
            stranded.join(", "),
            from - 1
        );
    }
    Ok(())
}

pub fn verify(
    cli: &Cli,
    placement_only: bool,
    sample: Option<usize>,
    layers: Option<(u8, u8)>,
) -> anyhow::Result<()> {
    check_whole(cli)?;
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
    // Before the blocks are read (gigabytes of them): a folder with a part missing fails at
    // once.
    check_whole(cli)?;
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
