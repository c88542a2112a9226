//! The probe's metrics: per-position observations gathered into means, by
//! phase and over the whole suite, each with its bootstrap standard error
//! over positions (the probe's own noise).

use crate::suite::Phase;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::BTreeMap;

/// Bootstrap resamples behind each standard error.
pub const BOOTSTRAP_RESAMPLES: usize = 200;

/// What the probe measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Bare network, positions where the move matters: the prior's top move
    /// is one of the label's good moves.
    PolicyTop1,
    /// Bare network, the same positions: the prior's mass on the good moves.
    PolicyMass,
    /// Bare network, positions labelled won or lost: the value's sign
    /// (win minus loss probability) agrees.
    ValueSign,
    /// Bare network, every position: minus the log of the probability its
    /// win/draw/loss head gives the label's class (lower is better).
    ValueLogLoss,
    /// Bare network, positions with a forced win: the prior's top move
    /// keeps it.
    ForcedTop1,
    /// A player, positions where the move matters: its move is a good one.
    MovesFound,
    /// A player, positions with a forced win: its move keeps it.
    ForcedFound,
}

impl Metric {
    /// Its name in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Metric::PolicyTop1 => "policy_top1",
            Metric::PolicyMass => "policy_mass",
            Metric::ValueSign => "value_sign",
            Metric::ValueLogLoss => "value_logloss",
            Metric::ForcedTop1 => "forced_top1",
            Metric::MovesFound => "moves_found",
            Metric::ForcedFound => "forced_found",
        }
    }

    /// Whether a larger value is a stronger player.
    pub fn higher_is_better(self) -> bool {
        self != Metric::ValueLogLoss
    }
}

/// One observation: a metric's value at one position of a phase.
pub type Observation = (Metric, Phase, f64);

/// A mean with its bootstrap standard error.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The mean over the positions.
    pub mean: f64,
    /// Its standard error (bootstrap over positions).
    pub stderr: f64,
    /// How many positions it is over.
    pub positions: usize,
}

/// Every metric's estimate over the suite (`all`) and by phase.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MetricTable {
    /// Metric name -> `all` or a phase's name -> estimate.
    pub metrics: BTreeMap<&'static str, BTreeMap<&'static str, Estimate>>,
}

impl MetricTable {
    /// Gathers observations; `seed` fixes the bootstrap.
    pub fn gather(observations: &[Observation], seed: u64) -> MetricTable {
        let mut groups: BTreeMap<(Metric, Option<Phase>), Vec<f64>> = BTreeMap::new();
        for &(metric, phase, x) in observations {
            groups.entry((metric, None)).or_default().push(x);
            groups.entry((metric, Some(phase))).or_default().push(x);
        }
        let mut table = MetricTable::default();
        for ((metric, phase), xs) in groups {
            table
                .metrics
                .entry(metric.name())
                .or_default()
                .insert(phase.map_or("all", Phase::name), estimate(&xs, seed));
        }
        table
    }

    /// A metric's estimate over the whole suite, if the probe measured it.
    pub fn all(&self, metric: Metric) -> Option<Estimate> {
        self.metrics.get(metric.name())?.get("all").copied()
    }
}

/// The mean of `xs` and its bootstrap standard error.
pub fn estimate(xs: &[f64], seed: u64) -> Estimate {
    let n = xs.len();
    let mean = xs.iter().sum::<f64>() / n.max(1) as f64;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let means: Vec<f64> = (0..BOOTSTRAP_RESAMPLES)
        .map(|_| (0..n).map(|_| xs[rng.random_range(0..n)]).sum::<f64>() / n as f64)
        .collect();
    let m = means.iter().sum::<f64>() / means.len() as f64;
    let var = means.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (means.len() - 1) as f64;
    Estimate {
        mean,
        stderr: if n > 1 { var.sqrt() } else { 0.0 },
        positions: n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bootstrap_error_is_near_the_binomial_one() {
        // 400 positions, a quarter of them right: sqrt(p(1-p)/n) = 0.0217.
        let xs: Vec<f64> = (0..400).map(|i| f64::from(i % 4 == 0)).collect();
        let e = estimate(&xs, 1);
        assert_eq!(e.mean, 0.25);
        assert!((e.stderr - 0.0217).abs() < 0.004, "{}", e.stderr);
        let table = MetricTable::gather(
            &[
                (Metric::ValueSign, Phase::Opening, 1.0),
                (Metric::ValueSign, Phase::Ending, 0.0),
            ],
            0,
        );
        assert_eq!(table.all(Metric::ValueSign).unwrap().mean, 0.5);
        assert_eq!(table.metrics["value_sign"]["ending"].mean, 0.0);
        assert!(table.all(Metric::PolicyTop1).is_none());
    }
}
