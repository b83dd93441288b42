//! `tns-tablebase`: build the tablebase (the movement phase, then the placement phase), probe
//! it, count it and verify it.

use std::process::ExitCode;

use anyhow::Context as _;
use clap::Parser as _;

/// Prints a line to standard output; when the reader has gone (`| head`), ends quietly.
macro_rules! say {
    () => { $crate::say(format_args!("")) };
    ($($arg:tt)*) => { $crate::say(format_args!($($arg)*)) };
}

mod build_cmd;
mod cli;
mod examples_cmd;
mod line_cmd;
mod probe_cmd;
mod puzzles_cmd;
mod reach_cmd;
mod stats_cmd;
mod verify_cmd;

use crate::cli::{Cli, Command};

fn say(line: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    if let Err(e) = writeln!(std::io::stdout().lock(), "{line}")
        && e.kind() == std::io::ErrorKind::BrokenPipe
    {
        std::process::exit(0);
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = cli.threads {
        pool = pool.num_threads(n as usize);
    }
    let result =
        pool.build().context("cannot start threads").and_then(|pool| pool.install(|| run(&cli)));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tns-tablebase: {}", tns_file::one_line(e.as_ref()));
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> anyhow::Result<()> {
    match &cli.command {
        Command::Build { placement, from_placed } => {
            let mut table = build_cmd::build(cli)?;
            if *placement || from_placed.is_some() {
                build_cmd::build_placement(cli, &mut table, from_placed.unwrap_or(0))?;
            }
            Ok(())
        }
        Command::Probe { position } => probe_cmd::probe(cli, position),
        Command::Stats => stats_cmd::stats(cli),
        Command::Examples { placed, dead, side, result, count } => {
            examples_cmd::examples(cli, *placed, *dead, *side, *result, *count)
        }
        Command::Line { position, depth, plies } => line_cmd::line(cli, position, *depth, *plies),
        Command::Reach { plies } => reach_cmd::reach(cli, *plies),
        Command::Verify { checksums: true, .. } => verify_cmd::checksums(cli),
        Command::Verify { placement_only, sample, layers, .. } => {
            verify_cmd::verify(cli, *placement_only, *sample, *layers)
        }
        Command::Puzzles { out, count, games, seed, check: true } => {
            let _ = (count, games, seed);
            puzzles_cmd::check(cli, out)
        }
        Command::Puzzles { out, count, games, seed, check: false } => {
            puzzles_cmd::make(cli, out, *count, *games, *seed)
        }
    }
}
