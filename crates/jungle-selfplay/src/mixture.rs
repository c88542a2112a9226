//! The rule sets a self-play job draws its games from: one rule set, or a
//! weighted mixture of several (`[run] variants` of the training config),
//! each game's rule set drawn from its seed so that a resumed job plays the
//! same games.

use jungle_net::{rules_name, CheckpointMeta};
use jungle_play::opening::derive_seed;
use jungle_rules::Rules;

/// A weighted list of rule sets, by name.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleMixture {
    names: Vec<String>,
    rules: Vec<Rules>,
    weights: Vec<f64>,
}

/// Why a mixture was refused: names the entry (`variants[i]`) and what was
/// expected.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MixtureError {
    /// No rule set at all.
    #[error("variants: an empty mixture; expected at least one rule set")]
    Empty,
    /// A weight that is negative, or not a number.
    #[error("variants[{index}].weight: {weight} for `{name}`; expected a number >= 0")]
    Weight {
        /// The entry's position in the list.
        index: usize,
        /// Its name.
        name: String,
        /// The weight given.
        weight: f64,
    },
    /// Every weight is 0.
    #[error("variants: the weights add up to 0; expected a total weight above 0")]
    ZeroTotal,
    /// The same switches twice (under one name or two).
    #[error(
        "variants[{index}]: `{name}` has the same switches as `{earlier}`; list each rule set once"
    )]
    Twice {
        /// The later entry's position.
        index: usize,
        /// Its name.
        name: String,
        /// The earlier entry's name.
        earlier: String,
    },
}

impl RuleMixture {
    /// A single rule set, weight 1.
    pub fn single(name: &str, rules: Rules) -> RuleMixture {
        RuleMixture {
            names: vec![name.to_string()],
            rules: vec![rules],
            weights: vec![1.0],
        }
    }

    /// The rule sets a checkpoint was trained under, with their weights
    /// (its `rules` alone when it was trained on one).
    pub fn of_checkpoint(meta: &CheckpointMeta) -> RuleMixture {
        if meta.trained_variants.is_empty() {
            return RuleMixture::single(&rules_name(&meta.rules), meta.rules.clone());
        }
        RuleMixture {
            names: meta
                .trained_variants
                .iter()
                .map(|v| v.variant.clone())
                .collect(),
            rules: meta
                .trained_variants
                .iter()
                .map(|v| v.rules.clone())
                .collect(),
            weights: meta.trained_variants.iter().map(|v| v.weight).collect(),
        }
    }

    /// A mixture of `(name, rules, weight)` entries, checked: weights >= 0
    /// with a total above 0, each rule set once.
    pub fn new(entries: Vec<(String, Rules, f64)>) -> Result<RuleMixture, MixtureError> {
        if entries.is_empty() {
            return Err(MixtureError::Empty);
        }
        let mut mixture = RuleMixture {
            names: Vec::new(),
            rules: Vec::new(),
            weights: Vec::new(),
        };
        for (index, (name, rules, weight)) in entries.into_iter().enumerate() {
            if !(weight.is_finite() && weight >= 0.0) {
                return Err(MixtureError::Weight {
                    index,
                    name,
                    weight,
                });
            }
            if let Some(earlier) = mixture.index_of(&rules) {
                return Err(MixtureError::Twice {
                    index,
                    name,
                    earlier: mixture.names[earlier].clone(),
                });
            }
            mixture.names.push(name);
            mixture.rules.push(rules);
            mixture.weights.push(weight);
        }
        if mixture.weights.iter().sum::<f64>() <= 0.0 {
            return Err(MixtureError::ZeroTotal);
        }
        Ok(mixture)
    }

    /// How many rule sets.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// Whether there are none (never, for a checked mixture).
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Rule set `i`'s switches.
    pub fn rules(&self, i: usize) -> &Rules {
        &self.rules[i]
    }

    /// Rule set `i`'s name.
    pub fn name(&self, i: usize) -> &str {
        &self.names[i]
    }

    /// Rule set `i`'s weight.
    pub fn weight(&self, i: usize) -> f64 {
        self.weights[i]
    }

    /// The position of the rule set with these switches, if it is in.
    pub fn index_of(&self, rules: &Rules) -> Option<usize> {
        self.rules.iter().position(|r| r == rules)
    }

    /// The rule set of the game seeded `game_seed`: drawn in proportion to
    /// the weights, the same for the same seed.
    pub fn pick(&self, game_seed: u64) -> usize {
        if self.rules.len() == 1 {
            return 0;
        }
        let total: f64 = self.weights.iter().sum();
        let unit = (derive_seed(game_seed, 4, 0) >> 11) as f64 / (1u64 << 53) as f64;
        let mut left = unit * total;
        for (i, &w) in self.weights.iter().enumerate() {
            if left < w {
                return i;
            }
            left -= w;
        }
        // Rounding at the very top: the last rule set with a weight.
        self.weights
            .iter()
            .rposition(|&w| w > 0.0)
            .expect("a checked mixture has a weight above 0")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preset(name: &str, weight: f64) -> (String, Rules, f64) {
        (name.to_string(), Rules::preset(name).unwrap(), weight)
    }

    #[test]
    fn games_are_drawn_in_proportion_to_the_weights() {
        let m = RuleMixture::new(vec![
            preset("standard", 4.0),
            preset("bank-rats", 1.0),
            preset("bbdsq", 0.0),
        ])
        .unwrap();
        let mut counts = [0usize; 3];
        for seed in 0..10_000 {
            counts[m.pick(seed)] += 1;
        }
        assert_eq!(counts[2], 0, "weight 0: never drawn");
        let share = counts[0] as f64 / 10_000.0;
        // 0.8 +- 4 standard errors (0.004 each).
        assert!((share - 0.8).abs() < 0.016, "{counts:?}");
        assert_eq!(m.pick(17), m.pick(17), "the same seed, the same rule set");
        assert_eq!(RuleMixture::single("standard", Rules::default()).pick(5), 0);
    }

    #[test]
    fn bad_mixtures_name_the_entry() {
        let e = RuleMixture::new(vec![preset("standard", 1.0), preset("bbdsq", -1.0)])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("variants[1].weight") && e.contains("bbdsq"),
            "{e}"
        );
        let e = RuleMixture::new(vec![preset("standard", 0.0), preset("bbdsq", 0.0)])
            .unwrap_err()
            .to_string();
        assert!(e.contains("add up to 0"), "{e}");
        let same = ("mine.toml".to_string(), Rules::default(), 1.0);
        let e = RuleMixture::new(vec![preset("standard", 1.0), same])
            .unwrap_err()
            .to_string();
        assert!(e.contains("variants[1]") && e.contains("`standard`"), "{e}");
        assert_eq!(RuleMixture::new(Vec::new()), Err(MixtureError::Empty));
    }
}
