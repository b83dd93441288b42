//! The pieces of `tns-train` and `tns-tune`: self-play games and TD(λ) targets, distillation of
//! the solved game (the teacher, where its positions come from, the exact measures), the
//! generation loop and its log, and Texel tuning of the heuristic.

pub mod calibration;
mod held_out_args;
mod lock;
pub mod measures;
pub mod progress;
pub mod recorded;
pub mod run;
pub mod sampling;
pub mod selfplay;
mod settings;
pub mod state;
pub mod teacher;
pub mod tune;

/// Runs `job` on a thread pool of `threads` threads (all cores when `None`), as each of the
/// trainer's programs does its work.
///
/// # Errors
/// The job's own error, or that the threads could not be started.
pub fn in_pool<T: Send>(
    threads: Option<u32>,
    job: impl FnOnce() -> Result<T, String> + Send,
) -> Result<T, String> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        pool = pool.num_threads(n as usize);
    }
    match pool.build() {
        Ok(pool) => pool.install(job),
        Err(e) => Err(format!("cannot start threads: {e}")),
    }
}

pub use held_out_args::HeldOutArgs;
pub use run::{
    complete_generation, generation_path, held_out_seed, newest_generation, train, validation_set,
};
pub use settings::Settings;
