//! `puzzles`: make a puzzle set from the solved game, or check one against it.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context as _;
use rayon::prelude::*;
use tns_puzzles::{CheckError, Event, Settings, check as check_puzzle, generate, parse};
use tns_tablebase::TablebaseError;

use crate::cli::{Cli, load, megabytes, secs};

/// The largest set file read.
const MAX_SET_BYTES: u64 = 64 * 1024 * 1024;

pub fn make(cli: &Cli, out: &Path, count: usize, games: usize, seed: u64) -> anyhow::Result<()> {
    let table = Arc::new(load(cli)?);
    match table.placement_from() {
        Some(0) => {}
        Some(from) => eprintln!(
            "the placement layers are built from {from} placed: placement puzzles come only from \
             positions with at least {from} sheep placed"
        ),
        None => eprintln!("no placement layers: the puzzles come from the movement phase only"),
    }
    let start = Instant::now();
    let settings = Settings { count, games, seed, ..Settings::default() };
    let on_event = |event: Event| match event {
        Event::Games { done, total } => eprint!("\rgames {done}/{total}   "),
        Event::Judged { done, total } => eprint!("\rpositions judged {done}/{total}   "),
        Event::Rated { done, total } => eprint!("\rcandidates rated {done}/{total}   "),
        _ => {}
    };
    let made = generate(&table, settings, &on_event)?;
    eprintln!();
    // The generator's own check: every answer is exactly what the table says keeps the value.
    made.puzzles
        .par_iter()
        .try_for_each(|p| check_puzzle(p, &table).with_context(|| p.to_string()))?;
    let mut header = vec![
        format!(
            "Tigers and Sheep puzzles, made by `tns-tablebase puzzles --count {count} --games {games} \
             --seed {seed}` from the solved game (kills {})",
            table.kills()
        ),
        "columns, separated by tabs: position, solutions (space-separated), value kept, rating, \
         themes, further moves (reply, next move, ...)"
            .to_string(),
        "ladder (spec, fitted rating, share of these puzzles solved):".to_string(),
    ];
    for rung in &made.ladder {
        header.push(format!("  {:20} {:5.0} {:5.1}%", rung.spec, rung.rating, 100.0 * rung.solved));
    }
    let text = tns_puzzles::write(&header, &made.puzzles);
    tns_file::save(out, text.as_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    say!(
        "{} games, {} positions, {} candidates: {} puzzles written to {} ({:.2} MB) in {:.0} s",
        made.games,
        made.positions,
        made.candidates,
        made.puzzles.len(),
        out.display(),
        megabytes(text.len() as u64),
        secs(start.elapsed())
    );
    for rung in &made.ladder {
        say!("  {:20} rating {:5.0}  solves {:5.1}%", rung.spec, rung.rating, 100.0 * rung.solved);
    }
    Ok(())
}

pub fn check(cli: &Cli, file: &Path) -> anyhow::Result<()> {
    let text = tns_file::read_text(file, MAX_SET_BYTES)
        .with_context(|| format!("cannot read {}", file.display()))?;
    let puzzles = parse(&text).with_context(|| file.display().to_string())?;
    let table = load(cli)?;
    // Every result kept in order, so the error told is the first puzzle's that fails.
    let results: Vec<anyhow::Result<bool>> = puzzles
        .par_iter()
        .map(|p| match check_puzzle(p, &table) {
            Ok(()) => Ok(true),
            Err(CheckError::Table(TablebaseError::NoLayer(_))) => Ok(false),
            Err(e) => Err(anyhow::Error::new(e).context(p.to_string())),
        })
        .collect();
    let mut checked = 0;
    for result in results {
        if result? {
            checked += 1;
        }
    }
    say!(
        "{checked} of {} puzzles checked against the table: every answer is exactly the moves \
         that keep the value; {} need placement layers that are not built",
        puzzles.len(),
        puzzles.len() - checked
    );
    Ok(())
}
