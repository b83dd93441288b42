//! `tns-tune`: fits the heuristic's weights to the solved game (Texel tuning), and measures the
//! result where it counts: the moves the search keeps the value with, on the trainer's
//! held-out set.

use std::process::ExitCode;

use clap::Parser;
use tns_search::{Heuristic, Weights};
use tns_trainer::measures::compare_searches;
use tns_trainer::{HeldOutArgs, tune};

/// Fits the heuristic's weights so that a logistic curve of its score predicts the table's
/// result, on positions of games between players of every strength; then compares the old and
/// the new weights on the trainer's held-out set (the same seed gives the same set).
#[derive(Parser, Debug)]
#[command(name = "tns-tune", version)]
struct Cli {
    /// Games whose positions the weights are fitted on.
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: u32,
    /// The table, the held-out set and the threads (the fitting games use the same --epsilon,
    /// --max-plies and --seed).
    #[command(flatten)]
    held_out: HeldOutArgs,
}

fn run(cli: &Cli) -> anyhow::Result<()> {
    let h = &cli.held_out;
    let (teacher, validation) = h.load()?;
    let points = tune::points(
        &teacher,
        cli.games as usize,
        h.epsilon,
        h.max_plies(),
        h.seed,
        &validation.keys,
    );
    // A damaged block read while gathering the positions would fit other weights, silently.
    teacher.check()?;
    let start = Weights::DEFAULT;
    let (tuned, scale, after) = tune::tune(&points, start, 1000);
    let before = tune::error(&points, &start.to_array(), scale);
    println!("{} positions from {} games (none held out)", points.len(), cli.games);
    println!(
        "logistic scale {scale:.1}: error {before:.5} with the default weights, {after:.5} tuned"
    );
    println!("tuned: {tuned:?}");
    let lines = compare_searches(
        (&Heuristic::new(start), "with the default weights"),
        (&Heuristic::new(tuned), "tuned"),
        &validation,
        h.positions(),
    );
    for line in lines {
        println!("{line}");
    }
    teacher.check()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = tns_trainer::in_pool(cli.held_out.threads, || run(&cli));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tns-tune: {}", tns_file::one_line(e.as_ref()));
            ExitCode::FAILURE
        }
    }
}
