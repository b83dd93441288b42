//! `tns-bench`: perft and, later, search benchmarks and engine matches.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod analyse;
mod perft;

#[derive(Parser, Debug)]
#[command(
    name = "tns-bench",
    version,
    about = "Benchmarks and tests for the Tigers and Sheep engine"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the legal-move tree, one line per depth up to DEPTH.
    Perft(perft::Args),
    /// Search one position and print each completed iteration, then the best move.
    Analyse(analyse::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Analyse(args) => analyse::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tns-bench: {message}");
            ExitCode::FAILURE
        }
    }
}
