//! `build`: the movement phase, then the placement layers.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use tns_tablebase::{BuildEvent, PlacementEvent, SliceProgress, TablePart, Tablebase};

use crate::cli::{Cli, gigabytes, megabytes, secs};

pub fn build(cli: &Cli) -> anyhow::Result<Tablebase> {
    let start = Instant::now();
    // The bar counts slots (both sides of each slice), so a slice weighs what it holds; a
    // slice already built counts at once.
    let slots: Vec<(u8, usize)> = Tablebase::slice_slots(cli.kills)?;
    let weight =
        |dead: u8| slots.iter().find(|&&(d, _)| d == dead).map_or(0, |&(_, s)| 2 * s as u64);
    let bar = ProgressBar::new(slots.iter().map(|&(d, _)| weight(d)).sum());
    bar.set_style(ProgressStyle::with_template(
        "{bar:30} {percent:>3}% [{elapsed_precise}<{eta_precise}] {msg}",
    )?);
    bar.enable_steady_tick(Duration::from_millis(200));
    let table = Tablebase::build(cli.kills, Some(&cli.dir), |event| match event {
        BuildEvent::Loaded { dead } => {
            bar.inc(weight(dead));
            bar.suspend(|| say!("slice {dead} dead: already built, every block checked"));
        }
        BuildEvent::Damaged { dead } => {
            bar.suspend(|| say!("slice {dead} dead: damaged; building it again"));
        }
        BuildEvent::Outdated { dead } => {
            bar.suspend(|| say!("slice {dead} dead: an earlier format; building it again"));
        }
        BuildEvent::Started { dead, slots } => {
            bar.set_message(format!("slice {dead} dead ({slots} slots a side): first pass"));
        }
        BuildEvent::Progress { dead, step: SliceProgress::Initialised } => {
            bar.set_message(format!("slice {dead} dead: first pass done"));
        }
        BuildEvent::Progress { dead, step: SliceProgress::Distance(n) } => {
            bar.set_message(format!("slice {dead} dead: distance {n} done"));
        }
        BuildEvent::Finished { dead, time } => {
            bar.inc(weight(dead));
            bar.suspend(|| say!("slice {dead} dead: built in {:.1} s", secs(time)));
        }
    })?;
    bar.finish_and_clear();
    let size = bytes_of(cli, |part| matches!(part, TablePart::Slice { .. }))?;
    say!(
        "movement phase: {} slices in {} ({:.1} MB of slice files); this run took {:.1} s",
        slots.len(),
        cli.dir.display(),
        megabytes(size),
        secs(start.elapsed())
    );
    Ok(table)
}

pub fn build_placement(cli: &Cli, table: &mut Tablebase, from: u8) -> anyhow::Result<()> {
    let start = Instant::now();
    let bar = ProgressBar::new(1);
    bar.set_style(ProgressStyle::with_template(
        "layer {msg} {wide_bar} {percent:>3}% [{elapsed_precise}, about {eta} to go]",
    )?);
    let sizes = std::sync::Mutex::new(Vec::new());
    table.build_placement(&cli.dir, from, &|event| match event {
        PlacementEvent::Found { placed } => {
            bar.suspend(|| say!("layer {placed} placed: already built, every block checked"));
        }
        PlacementEvent::Outdated { placed } => {
            bar.suspend(|| say!("layer {placed} placed: an earlier format; building it again"));
        }
        PlacementEvent::Damaged { placed, error } => {
            bar.suspend(|| say!("layer {placed} placed: damaged ({error}); building it again"));
        }
        PlacementEvent::Started { placed, work } => {
            bar.reset();
            bar.set_length(work);
            bar.set_message(format!("{placed:>2} placed"));
        }
        PlacementEvent::Progress { done, .. } => bar.set_position(done),
        PlacementEvent::Finished { placed, time, path, bytes } => {
            bar.suspend(|| {
                say!(
                    "layer {placed} placed: built in {:.1} s, {} ({:.1} MB)",
                    secs(time),
                    path.display(),
                    megabytes(bytes)
                );
            });
            if let Ok(mut sizes) = sizes.lock() {
                sizes.push(bytes);
            }
        }
    })?;
    bar.finish_and_clear();
    let total = bytes_of(cli, |part| matches!(part, TablePart::Layer { .. }))?;
    say!(
        "placement layers {from} to 19 placed are in {} ({:.2} GB of layer files); this run took {:.1} s",
        cli.dir.display(),
        gigabytes(total),
        secs(start.elapsed())
    );
    Ok(())
}

/// The bytes of the table's files in the options' directory whose part is `wanted`.
fn bytes_of(cli: &Cli, wanted: impl Fn(TablePart) -> bool) -> anyhow::Result<u64> {
    let files = Tablebase::files(cli.kills, &cli.dir)?;
    Ok(files.iter().filter(|f| wanted(f.part)).map(|f| f.bytes).sum())
}
