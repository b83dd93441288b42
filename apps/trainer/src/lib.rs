//! The pieces of `tns-train` and `tns-tune`: self-play games and TD(λ) targets, distillation of
//! the solved game (the teacher, where its positions come from, the exact measures), the
//! generation loop and its log, and Texel tuning of the heuristic.

mod lock;
pub mod measures;
pub mod progress;
pub mod run;
pub mod sampling;
pub mod selfplay;
pub mod state;
pub mod teacher;
pub mod tune;

pub use run::{
    Settings, complete_generation, generation_path, held_out_seed, newest_generation, train,
    validation_set,
};
