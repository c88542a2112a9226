//! The value loss of the best constant guess: what a value head that knew
//! nothing of the position would score on the same targets. The win/draw/
//! loss cross-entropy of a constant prediction `q` over targets `t_i` is
//! `-sum_c tbar_c ln q_c`, least at `q = tbar`, the mean target, where it is
//! the entropy of `tbar`. A value loss read against it separates the two
//! reasons it can rise: games that are harder to call (more draws beside
//! wins and losses raise the entropy) and a head that calls them worse.

/// Sums of the win/draw/loss targets seen, and the loss of the best
/// constant guess on them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ValueBaseline {
    mass: [f64; 3],
}

impl ValueBaseline {
    /// Adds a batch's `[n, 3]` win/draw/loss targets.
    pub fn add(&mut self, wdl: &[f32]) {
        for target in wdl.chunks_exact(3) {
            for (m, t) in self.mass.iter_mut().zip(target) {
                *m += f64::from(*t);
            }
        }
    }

    /// The mean target (win, draw, loss), or `None` before any was added.
    pub fn mean_target(&self) -> Option<[f64; 3]> {
        let total: f64 = self.mass.iter().sum();
        (total > 0.0).then(|| self.mass.map(|m| m / total))
    }

    /// The cross-entropy of the best constant guess (the mean target) on
    /// the targets added: the entropy of their mean, in nats; `None` before
    /// any was added.
    pub fn loss(&self) -> Option<f32> {
        self.mean_target().map(|p| {
            let entropy: f64 = p
                .iter()
                .filter(|&&x| x > 0.0)
                .map(|x| x * (1.0 / x).ln())
                .sum();
            entropy as f32
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn baseline(targets: &[[f32; 3]]) -> ValueBaseline {
        let mut b = ValueBaseline::default();
        b.add(&targets.concat());
        b
    }

    #[test]
    fn a_single_outcome_costs_nothing_to_guess() {
        assert_eq!(ValueBaseline::default().loss(), None);
        assert_eq!(baseline(&[[0.0, 1.0, 0.0]; 5]).loss(), Some(0.0));
    }

    #[test]
    fn wins_and_losses_in_equal_shares_cost_ln_2_and_all_three_ln_3() {
        let even = baseline(&[[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
            .loss()
            .unwrap();
        assert!((even - 2f32.ln()).abs() < 1e-6, "{even}");
        let three = baseline(&[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
        let three = three.loss().unwrap();
        assert!((three - 3f32.ln()).abs() < 1e-6, "{three}");
    }

    #[test]
    fn it_is_the_mean_cross_entropy_of_guessing_the_mean_target() {
        // Soft targets too (a value target blended with the search's).
        let targets = [
            [1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0],
            [0.8, 0.1, 0.1],
            [1.0, 0.0, 0.0],
        ];
        let mut b = ValueBaseline::default();
        for t in &targets {
            b.add(t);
        }
        let q = b.mean_target().unwrap();
        assert!((q[0] - 0.56).abs() < 1e-6, "{q:?}");
        let cross_entropy = |guess: [f64; 3]| {
            targets
                .iter()
                .map(|t| -(0..3).map(|c| f64::from(t[c]) * guess[c].ln()).sum::<f64>())
                .sum::<f64>()
                / targets.len() as f64
        };
        let loss = f64::from(b.loss().unwrap());
        assert!((cross_entropy(q) - loss).abs() < 1e-6);
        // Any other guess does worse.
        assert!(cross_entropy([0.4, 0.3, 0.3]) > loss + 0.01);
    }
}
