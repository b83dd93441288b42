//! The pieces of `tns-train`: self-play games, TD(λ) targets, the generation loop and its log.

pub mod progress;
pub mod run;
pub mod selfplay;
pub mod state;

pub use run::{Settings, generation_path, newest_generation, train};
