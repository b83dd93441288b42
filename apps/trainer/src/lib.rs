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

/// An error on one line, as the programs print it: `context: cause: its cause`, each cause
/// once. Many of the errors underneath name their cause in their own message as well as in
/// `source()` (each program here prints an error on one line), and `{:#}` would print such a
/// cause twice.
pub fn one_line(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if line.is_empty() {
            line = text;
        } else if !line.ends_with(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
    }
    line
}

pub use held_out::{held_out_seed, validation_set};
pub use held_out_args::HeldOutArgs;
pub use layout::{complete_generation, generation_path, newest_generation};
pub use run::train;
pub use settings::Settings;

#[cfg(test)]
mod tests {
    use anyhow::Context as _;

    use super::one_line;

    #[test]
    fn a_cause_its_error_already_names_is_printed_once() {
        let missing = tns_nn::Network::load(std::path::Path::new("/nonexistent/gen-001.bin"))
            .context("starting the run")
            .unwrap_err();
        let line = one_line(&missing);
        assert_eq!(line.matches("no such file").count(), 1, "{line}");
        assert!(line.starts_with("starting the run: /nonexistent/gen-001.bin: "), "{line}");
        let plain = anyhow::anyhow!("a cause").context("a context");
        assert_eq!(one_line(&plain), "a context: a cause");
    }
}
