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

/// The observations of one position.
pub type PositionObservations = Vec<Observation>;

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

/// The probe's score, the metric adopted as the first screen
/// (docs/probe.md): the mean of [`Metric::PolicyMass`] and
/// [`Metric::ValueSign`], the policy's and the value's agreement with the
/// reference.
pub const PROBE_SCORE: &str = "probe_score";

/// Every metric's estimate over the suite (`all`) and by phase, and the
/// probe's score ([`PROBE_SCORE`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MetricTable {
    /// Metric name -> `all` or a phase's name -> estimate.
    pub metrics: BTreeMap<&'static str, BTreeMap<&'static str, Estimate>>,
}

/// Sums and counts of each metric over (a resample of) the positions, by
/// `all` or phase.
type Sums = BTreeMap<(&'static str, &'static str), (f64, usize)>;

fn add(sums: &mut Sums, position: &[Observation], times: usize) {
    for &(metric, phase, x) in position {
        for group in ["all", phase.name()] {
            let e = sums.entry((metric.name(), group)).or_default();
            e.0 += x * times as f64;
            e.1 += times;
        }
    }
}

/// The means of the sums, with the probe's score where both its parts are.
fn means(sums: &Sums) -> BTreeMap<(&'static str, &'static str), f64> {
    let mut out: BTreeMap<_, _> = sums
        .iter()
        .filter(|(_, (_, n))| *n > 0)
        .map(|(&k, &(sum, n))| (k, sum / n as f64))
        .collect();
    let groups: Vec<&'static str> = out.keys().map(|k| k.1).collect();
    for group in groups {
        let mass = out.get(&(Metric::PolicyMass.name(), group)).copied();
        let sign = out.get(&(Metric::ValueSign.name(), group)).copied();
        if let (Some(mass), Some(sign)) = (mass, sign) {
            out.insert((PROBE_SCORE, group), (mass + sign) / 2.0);
        }
    }
    out
}

impl MetricTable {
    /// Gathers the observations of each position; `seed` fixes the
    /// bootstrap, which resamples whole positions (so the probe's score,
    /// made of two metrics, keeps their covariance).
    pub fn gather(positions: &[PositionObservations], seed: u64) -> MetricTable {
        let mut sums = Sums::new();
        for p in positions {
            add(&mut sums, p, 1);
        }
        let point = means(&sums);
        let counts: BTreeMap<_, usize> = sums.iter().map(|(&k, &(_, n))| (k, n)).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let n = positions.len();
        let mut resampled: BTreeMap<(&'static str, &'static str), Vec<f64>> = BTreeMap::new();
        for _ in 0..BOOTSTRAP_RESAMPLES {
            let mut times = vec![0usize; n];
            for _ in 0..n {
                times[rng.random_range(0..n)] += 1;
            }
            let mut sums = Sums::new();
            for (p, &t) in positions.iter().zip(&times) {
                if t > 0 {
                    add(&mut sums, p, t);
                }
            }
            for (k, m) in means(&sums) {
                resampled.entry(k).or_default().push(m);
            }
        }
        let mut table = MetricTable::default();
        for (&(metric, group), &mean) in &point {
            let stderr = resampled.get(&(metric, group)).map_or(0.0, |xs| sd(xs));
            let count = if metric == PROBE_SCORE {
                counts
                    .get(&(Metric::PolicyMass.name(), group))
                    .copied()
                    .unwrap_or(0)
                    + counts
                        .get(&(Metric::ValueSign.name(), group))
                        .copied()
                        .unwrap_or(0)
            } else {
                counts[&(metric, group)]
            };
            table.metrics.entry(metric).or_default().insert(
                group,
                Estimate {
                    mean,
                    stderr,
                    positions: count,
                },
            );
        }
        table
    }

    /// A metric's estimate over the whole suite, if the probe measured it.
    pub fn all(&self, metric: Metric) -> Option<Estimate> {
        self.named(metric.name())
    }

    /// An estimate by name ([`Metric::name`] or [`PROBE_SCORE`]) over the
    /// whole suite.
    pub fn named(&self, name: &str) -> Option<Estimate> {
        self.metrics.get(name)?.get("all").copied()
    }
}

/// The sample standard deviation (0 for fewer than two values).
fn sd(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = xs.iter().sum::<f64>() / xs.len() as f64;
    (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (xs.len() - 1) as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bootstrap_error_is_near_the_binomial_one() {
        // 400 positions, a quarter of them right: sqrt(p(1-p)/n) = 0.0217.
        let positions: Vec<PositionObservations> = (0..400)
            .map(|i| vec![(Metric::ValueSign, Phase::Middle, f64::from(i % 4 == 0))])
            .collect();
        let table = MetricTable::gather(&positions, 1);
        let e = table.all(Metric::ValueSign).unwrap();
        assert_eq!(e.mean, 0.25);
        assert_eq!(e.positions, 400);
        assert!((e.stderr - 0.0217).abs() < 0.004, "{}", e.stderr);
        assert_eq!(table.metrics["value_sign"]["middle"].mean, 0.25);
        assert!(table.all(Metric::PolicyTop1).is_none());
        assert!(
            table.named(PROBE_SCORE).is_none(),
            "no policy mass: no score"
        );
    }

    #[test]
    fn the_score_is_the_mean_of_policy_mass_and_value_sign() {
        let positions: Vec<PositionObservations> = (0..100)
            .map(|i| {
                vec![
                    (Metric::PolicyMass, Phase::Ending, 0.4),
                    (Metric::ValueSign, Phase::Ending, f64::from(i % 5 != 0)),
                ]
            })
            .collect();
        let table = MetricTable::gather(&positions, 2);
        let score = table.named(PROBE_SCORE).unwrap();
        assert!((score.mean - 0.6).abs() < 1e-12, "(0.4 + 0.8) / 2");
        assert!(
            score.stderr > 0.0 && score.stderr < 0.04,
            "{}",
            score.stderr
        );
        assert_eq!(table.metrics[PROBE_SCORE]["ending"].mean, score.mean);
    }
}
