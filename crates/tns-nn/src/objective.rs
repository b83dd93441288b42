//! What training minimises: the squared error or the cross-entropy of the output.

use crate::NameError;

/// What training minimises for each sample, the output `y = tanh(z)` against its target `t`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Objective {
    /// `(y - t)²`. Its gradient at the output's pre-activation, `2 (y - t) (1 - y²)`, vanishes
    /// where the output saturates, right or wrong.
    #[default]
    Squared,
    /// The cross-entropy of the outcome's share `p = (1 + y) / 2` against `q = (1 + t) / 2`
    /// (`t` may lie anywhere in [-1, 1]: a soft target). Its gradient at the pre-activation is
    /// `y - t`, which does not vanish where a confident output is wrong.
    CrossEntropy,
}

impl Objective {
    /// Every objective, in the order of [`Objective::name`]'s list.
    pub const ALL: [Objective; 2] = [Objective::Squared, Objective::CrossEntropy];

    /// The objective's name on command lines: `squared` or `cross-entropy`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Objective::Squared => "squared",
            Objective::CrossEntropy => "cross-entropy",
        }
    }

    /// The objective of one output `y` against its target `t`, both in [-1, 1]. The
    /// cross-entropy, `-q ln p - (1 - q) ln(1 - p)`, is 0 at a saturated right output and
    /// infinite at a saturated wrong one (a term whose weight is 0 counts nothing).
    #[must_use]
    pub fn of(self, y: f32, t: f32) -> f32 {
        match self {
            Objective::Squared => (y - t) * (y - t),
            Objective::CrossEntropy => {
                let (p, q) = (f32::midpoint(1.0, y), f32::midpoint(1.0, t));
                let term = |weight: f32, share: f32| {
                    if weight == 0.0 { 0.0 } else { -weight * share.ln() }
                };
                term(q, p) + term(1.0 - q, 1.0 - p)
            }
        }
    }

    /// The derivative of the objective at the output's pre-activation, for `y = tanh(z)`.
    pub(crate) fn delta(self, y: f32, t: f32) -> f32 {
        match self {
            Objective::Squared => 2.0 * (y - t) * (1.0 - y * y),
            Objective::CrossEntropy => y - t,
        }
    }
}

impl std::fmt::Display for Objective {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Objective {
    type Err = NameError;

    fn from_str(s: &str) -> Result<Objective, NameError> {
        const NAMES: [&str; 2] = [Objective::Squared.name(), Objective::CrossEntropy.name()];
        Objective::ALL
            .into_iter()
            .find(|o| o.name() == s)
            .ok_or_else(|| NameError::new("objective", s, &NAMES))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_others_are_refused() {
        for objective in Objective::ALL {
            assert_eq!(objective.name().parse::<Objective>(), Ok(objective));
        }
        let error = "xent".parse::<Objective>().unwrap_err().to_string();
        assert!(error.contains("\"xent\"") && error.contains("cross-entropy"), "{error}");
    }

    #[test]
    fn the_values_are_the_formulas() {
        assert!((Objective::Squared.of(0.5, -0.5) - 1.0).abs() < 1e-6);
        // An output of 0 against a draw's 0: ln 2, a coin's entropy.
        assert!((Objective::CrossEntropy.of(0.0, 0.0) - std::f32::consts::LN_2).abs() < 1e-6);
        // Against a certain target it is -ln p: y = 0.6 gives p = 0.8.
        assert!((Objective::CrossEntropy.of(0.6, 1.0) + 0.8f32.ln()).abs() < 1e-5);
        assert!((Objective::CrossEntropy.of(0.6, -1.0) + 0.2f32.ln()).abs() < 1e-5);
        // Saturated outputs: nothing when right, infinite when wrong, never NaN.
        for y in [-1.0f32, 1.0] {
            assert!(Objective::CrossEntropy.of(y, y).abs() < f32::EPSILON);
            assert!(Objective::CrossEntropy.of(y, -y).is_infinite());
        }
    }

    #[test]
    fn a_soft_target_is_the_minimum() {
        for objective in [Objective::Squared, Objective::CrossEntropy] {
            for t in [-0.6f32, 0.0, 0.3] {
                let at = objective.of(t, t);
                assert!(objective.delta(t, t).abs() < 1e-7);
                assert!(objective.of(t - 0.05, t) > at && objective.of(t + 0.05, t) > at);
            }
        }
    }

    #[test]
    fn only_the_cross_entropy_pulls_a_saturated_wrong_output() {
        let (y, t) = (0.999, -1.0);
        assert!(Objective::Squared.delta(y, t) < 0.01);
        assert!((Objective::CrossEntropy.delta(y, t) - 1.999).abs() < 1e-6);
    }
}
