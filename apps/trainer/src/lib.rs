//! The pieces of `tns-train` and `tns-tune`: self-play games and TD(λ) targets, distillation of
//! the solved game (the teacher, where its positions come from, the exact measures), the
//! generation loop and its log, and Texel tuning of the heuristic.

mod bars;
pub mod calibration;
mod held_out;
mod held_out_args;
mod layout;
mod lock;
mod matches;
pub mod measures;
pub mod progress;
pub mod recorded;
mod resume;
pub mod run;
mod run_log;
mod samples;
pub mod sampling;
mod schedule;
pub mod selfplay;
mod settings;
pub mod state;
pub mod teacher;
pub mod tune;

use anyhow::Context as _;

/// Runs `job` on a thread pool of `threads` threads (all cores when `None`), as each of the
/// trainer's programs does its work.
///
/// # Errors
/// The job's own error, or that the threads could not be started.
pub fn in_pool<T: Send>(
    threads: Option<u32>,
    job: impl FnOnce() -> anyhow::Result<T> + Send,
) -> anyhow::Result<T> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        pool = pool.num_threads(n as usize);
    }
    pool.build().context("cannot start threads")?.install(job)
}

pub use held_out::{held_out_seed, validation_set};
pub use held_out_args::HeldOutArgs;
pub use layout::{complete_generation, generation_path, newest_generation};
pub use run::train;
pub use settings::Settings;
