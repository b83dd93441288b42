//! Distillation's held-out set: fixed by the seed, never trained on, measured after each
//! generation and, with the search, at the end of the run.

use std::sync::Arc;

use tns_match::mix_seed;
use tns_nn::{Network, NeuralEvaluator};
use tns_search::Heuristic;

use crate::measures::{self, Validation};
use crate::settings::Settings;
use crate::teacher::Teacher;

/// The seed of the held-out set of a run seeded with `seed`.
pub fn held_out_seed(seed: u64) -> u64 {
    mix_seed(seed, 0, 0xE5A1)
}

/// Distillation's teacher (the table) and the held-out set it is measured on, when the run has
/// a teacher.
pub fn distillation(s: &Settings, log: &mut impl FnMut(&str)) -> Option<(Teacher, Validation)> {
    s.teacher.as_ref().map(|t| {
        let teacher = Teacher::new(Arc::clone(t));
        let v = validation_set(s, &teacher);
        log(&format!(
            "held-out set: {} positions ({} critical) from {} games, never trained on",
            v.held.len(),
            v.critical().count(),
            s.validation_games
        ));
        (teacher, v)
    })
}

/// The held-out set of a distillation run with these settings: fixed by the seed.
pub fn validation_set(s: &Settings, teacher: &Teacher) -> Validation {
    Validation::build(teacher, s.validation_games, s.epsilon, s.max_plies, held_out_seed(s.seed))
}

/// The end of a distillation run: the share of the held-out critical positions where the
/// search keeps the value, with the network and with the heuristic, at depth 4 and at 0.05 s a
/// move (one thread each).
pub fn final_measures(s: &Settings, net: &Network, validation: &Validation) -> Vec<String> {
    measures::compare_searches(
        (&NeuralEvaluator::new(net.clone()), "with the network"),
        (&Heuristic::default(), "with the heuristic"),
        validation,
        s.final_positions,
    )
}
