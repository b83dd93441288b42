//! The learning rate over a run.

use crate::settings::Settings;

/// The learning rate of `generation`: from `s.learning_rate` in the first to
/// `s.final_learning_rate` in the last, geometrically. A function of the generation alone, so a
/// resumed run trains with the rates an unbroken one would.
pub fn learning_rate_at(s: &Settings, generation: u32) -> f32 {
    if s.generations <= 1 || s.final_learning_rate.to_bits() == s.learning_rate.to_bits() {
        return s.learning_rate;
    }
    let t = f64::from(generation.saturating_sub(1)) / f64::from(s.generations - 1);
    let ratio = f64::from(s.final_learning_rate) / f64::from(s.learning_rate);
    #[expect(clippy::cast_possible_truncation, reason = "a rate between two f32 rates")]
    let rate = (f64::from(s.learning_rate) * ratio.powf(t.min(1.0))) as f32;
    rate
}
