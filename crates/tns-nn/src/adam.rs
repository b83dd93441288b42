//! The Adam optimiser.

/// Adam: per-parameter step sizes from running means of the gradient and its square.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// The learning rate.
    pub learning_rate: f32,
    /// Decay of the mean gradient (0.9 by default).
    pub beta1: f32,
    /// Decay of the mean squared gradient (0.999 by default).
    pub beta2: f32,
    /// Added to the root mean square, against division by zero.
    pub epsilon: f32,
    m: Vec<f32>,
    v: Vec<f32>,
    steps: i32,
}

impl Adam {
    /// An optimiser for `parameters` parameters with the usual constants.
    pub fn new(parameters: usize, learning_rate: f32) -> Adam {
        Adam {
            learning_rate,
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            m: vec![0.0; parameters],
            v: vec![0.0; parameters],
            steps: 0,
        }
    }

    /// One step: moves `params` against `grad`.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32]) {
        self.steps = self.steps.saturating_add(1);
        let c1 = 1.0 - self.beta1.powi(self.steps);
        let c2 = 1.0 - self.beta2.powi(self.steps);
        for (((p, &g), m), v) in params.iter_mut().zip(grad).zip(&mut self.m).zip(&mut self.v) {
            *m = self.beta1 * *m + (1.0 - self.beta1) * g;
            *v = self.beta2 * *v + (1.0 - self.beta2) * g * g;
            let (m_hat, v_hat) = (*m / c1, *v / c2);
            *p -= self.learning_rate * m_hat / (v_hat.sqrt() + self.epsilon);
        }
    }
}
