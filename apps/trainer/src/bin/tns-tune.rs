//! `tns-tune`: fits the heuristic's weights to the solved game (Texel tuning), and measures the
//! result where it counts: the moves the search keeps the value with, on the trainer's
//! held-out set.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use tns_search::{Heuristic, Weights};
use tns_tablebase::Tablebase;
use tns_trainer::measures::{Validation, compare_searches};
use tns_trainer::teacher::Teacher;
use tns_trainer::{held_out_seed, tune};

/// Fits the heuristic's weights so that a logistic curve of its score predicts the table's
/// result, on positions of games between players of every strength; then compares the old and
/// the new weights on the trainer's held-out set (the same seed gives the same set).
#[derive(Parser, Debug)]
#[command(name = "tns-tune", version)]
struct Cli {
    /// The tablebase folder (the whole game, built by `tns-tablebase build --placement`).
    #[arg(long, value_name = "DIR")]
    teacher: PathBuf,
    /// Games whose positions the weights are fitted on.
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: u32,
    /// Games of the held-out set (as the trainer's --validation-games).
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    validation_games: u32,
    /// Critical positions the searches are judged on.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    positions: u32,
    /// Probability of a random move in the games.
    #[arg(long, default_value_t = 0.05)]
    epsilon: f64,
    /// The seed (as the trainer's --seed, for the same held-out set).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (all cores unless given).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
}

fn run(cli: &Cli) -> Result<(), String> {
    if !(0.0..=1.0).contains(&cli.epsilon) {
        return Err("--epsilon must lie between 0 and 1".into());
    }
    let table = Tablebase::load(tns_board::KILLS_TO_WIN, &cli.teacher)
        .map_err(|e| format!("the table in {}: {e}", cli.teacher.display()))?;
    let teacher = Teacher::new(Arc::new(table));
    let validation = Validation::build(
        &teacher,
        cli.validation_games as usize,
        cli.epsilon,
        300,
        held_out_seed(cli.seed),
    );
    let points =
        tune::points(&teacher, cli.games as usize, cli.epsilon, 300, cli.seed, &validation.keys);
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
        cli.positions as usize,
    );
    for line in lines {
        println!("{line}");
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = tns_trainer::in_pool(cli.threads, || run(&cli));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tns-tune: {e}");
            ExitCode::FAILURE
        }
    }
}
