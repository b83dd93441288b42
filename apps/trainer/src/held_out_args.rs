//! The command-line options that name the table and the trainer's held-out set, shared by the
//! programs that measure players on it (`tns-tune`, `tns-heldout`).

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context as _, bail};
use tns_tablebase::Tablebase;

use crate::held_out::held_out_seed;
use crate::measures::Validation;
use crate::teacher::Teacher;

/// The table, the held-out set's games (as the trainer's options of the same names make
/// them, so that the same seed gives the same set), how many of its critical positions the
/// searches are judged on, and the threads.
#[derive(clap::Args, Debug)]
pub struct HeldOutArgs {
    /// The tablebase folder (the whole game, built by `tns-tablebase build --placement`).
    #[arg(long, value_name = "DIR")]
    pub teacher: PathBuf,
    /// Games of the held-out set (as the trainer's --validation-games).
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub validation_games: u32,
    /// Critical positions the searches are judged on, the first of the held-out set's (as the
    /// trainer's --final-positions) [default: all of them].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub positions: Option<u32>,
    /// Probability of a random move in the games (as the trainer's --epsilon).
    #[arg(long, default_value_t = 0.05)]
    pub epsilon: f64,
    /// Plies after which a game ends (as the trainer's --max-plies).
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_plies: u64,
    /// The seed (as the trainer's --seed, for the same held-out set).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (all cores unless given).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
}

impl HeldOutArgs {
    /// How many of the critical positions the searches are judged on: `--positions`, else all.
    pub fn positions(&self) -> usize {
        self.positions.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX))
    }

    /// The plies after which a game ends, as a length.
    pub fn max_plies(&self) -> usize {
        usize::try_from(self.max_plies).unwrap_or(usize::MAX)
    }

    /// The table as teacher, and the held-out set it gives for these options.
    ///
    /// # Errors
    /// A bad `--epsilon`, or a table that does not load (missing, damaged, another variant).
    pub fn load(&self) -> anyhow::Result<(Teacher, Validation)> {
        if !(0.0..=1.0).contains(&self.epsilon) {
            bail!("--epsilon must lie between 0 and 1");
        }
        let table = Tablebase::load(tns_board::KILLS_TO_WIN, &self.teacher)
            .with_context(|| format!("the table in {}", self.teacher.display()))?;
        let teacher = Teacher::new(Arc::new(table));
        let validation = Validation::build(
            &teacher,
            self.validation_games as usize,
            self.epsilon,
            self.max_plies(),
            held_out_seed(self.seed),
        );
        // A damaged block read while building the set would leave it short: never silently.
        teacher.check()?;
        Ok((teacher, validation))
    }
}
