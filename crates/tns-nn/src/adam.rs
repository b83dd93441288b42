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

    /// The running state a resumed training run needs to go on exactly as if never stopped:
    /// the mean gradient, the mean squared gradient, and the number of steps taken.
    pub fn state(&self) -> (&[f32], &[f32], i32) {
        (&self.m, &self.v, self.steps)
    }

    /// An optimiser with the usual constants, resumed from a saved [`state`](Adam::state).
    ///
    /// # Errors
    /// [`NetworkError::ParameterCount`](crate::NetworkError::ParameterCount) when the two means
    /// are not of one length.
    pub fn resume(
        learning_rate: f32,
        m: Vec<f32>,
        v: Vec<f32>,
        steps: i32,
    ) -> Result<Adam, crate::NetworkError> {
        if m.len() != v.len() {
            return Err(crate::NetworkError::ParameterCount { expected: m.len(), found: v.len() });
        }
        Ok(Adam { m, v, steps, ..Adam::new(0, learning_rate) })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resumed_optimiser_steps_exactly_as_the_original() {
        let grad = [0.5, -1.0, 0.25];
        let mut a = Adam::new(3, 0.01);
        let mut pa = [1.0f32, 2.0, 3.0];
        a.step(&mut pa, &grad);
        let (m, v, steps) = a.state();
        let mut b = Adam::resume(0.01, m.to_vec(), v.to_vec(), steps).unwrap();
        let mut pb = pa;
        a.step(&mut pa, &grad);
        b.step(&mut pb, &grad);
        assert_eq!(pa.map(f32::to_bits), pb.map(f32::to_bits));
        assert_eq!(a, b);
        assert!(Adam::resume(0.01, vec![0.0; 2], vec![0.0; 3], 1).is_err());
    }
}
