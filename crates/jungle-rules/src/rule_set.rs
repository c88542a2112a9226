//! A rule set with the name it goes by (a preset name or a rule-set file),
//! and a weighted mixture of them: what a run trains under, what a network
//! was trained under, what `jungle variants` compares.

use crate::rules::{Rules, RulesError};

/// The name [`rules_name`] gives a rule set that is no preset.
pub const OWN_RULES_NAME: &str = "a rule set of its own";

/// The preset name of `rules`, or `a rule set of its own` (for messages).
pub fn rules_name(rules: &Rules) -> String {
    Rules::preset_names()
        .find(|name| Rules::preset(name).as_ref() == Some(rules))
        .map_or_else(|| OWN_RULES_NAME.to_string(), str::to_string)
}

/// A rule set and the name it was given by.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleSet {
    /// A preset name or a rule-set file's path, as given.
    pub name: String,
    /// Its switches.
    pub rules: Rules,
}

impl RuleSet {
    /// `rules` under `name`.
    pub fn new(name: impl Into<String>, rules: Rules) -> RuleSet {
        RuleSet {
            name: name.into(),
            rules,
        }
    }

    /// The preset `name`, or the rule-set file at that path
    /// ([`Rules::load`]).
    pub fn load(name: &str) -> Result<RuleSet, RulesError> {
        Ok(RuleSet::new(name, Rules::load(name)?))
    }

    /// `rules` under its preset name, or `a rule set of its own`.
    pub fn named(rules: Rules) -> RuleSet {
        RuleSet::new(rules_name(&rules), rules)
    }
}

/// A rule set and its share of the games.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightedRuleSet {
    /// The rule set.
    pub set: RuleSet,
    /// Its weight, relative to the others' (games are drawn in proportion).
    pub weight: f64,
}

impl WeightedRuleSet {
    /// `rules` under `name` with `weight`.
    pub fn new(name: impl Into<String>, rules: Rules, weight: f64) -> WeightedRuleSet {
        WeightedRuleSet {
            set: RuleSet::new(name, rules),
            weight,
        }
    }
}

/// A weighted list of rule sets, checked: weights >= 0 with a total above
/// 0, each rule set (by its switches) once.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleMixture {
    entries: Vec<WeightedRuleSet>,
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
    pub fn single(set: RuleSet) -> RuleMixture {
        RuleMixture {
            entries: vec![WeightedRuleSet { set, weight: 1.0 }],
        }
    }

    /// A mixture of `entries`, checked.
    pub fn new(entries: Vec<WeightedRuleSet>) -> Result<RuleMixture, MixtureError> {
        if entries.is_empty() {
            return Err(MixtureError::Empty);
        }
        let mut mixture = RuleMixture {
            entries: Vec::with_capacity(entries.len()),
        };
        for (index, entry) in entries.into_iter().enumerate() {
            let weight = entry.weight;
            if !(weight.is_finite() && weight >= 0.0) {
                return Err(MixtureError::Weight {
                    index,
                    name: entry.set.name,
                    weight,
                });
            }
            if let Some(earlier) = mixture.index_of(&entry.set.rules) {
                return Err(MixtureError::Twice {
                    index,
                    name: entry.set.name,
                    earlier: mixture.name(earlier).to_string(),
                });
            }
            mixture.entries.push(entry);
        }
        if mixture.entries.iter().map(|e| e.weight).sum::<f64>() <= 0.0 {
            return Err(MixtureError::ZeroTotal);
        }
        Ok(mixture)
    }

    /// The entries, in order.
    pub fn entries(&self) -> &[WeightedRuleSet] {
        &self.entries
    }

    /// How many rule sets.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none (never, for a checked mixture).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Rule set `i`'s switches.
    pub fn rules(&self, i: usize) -> &Rules {
        &self.entries[i].set.rules
    }

    /// Rule set `i`'s name.
    pub fn name(&self, i: usize) -> &str {
        &self.entries[i].set.name
    }

    /// Rule set `i`'s weight.
    pub fn weight(&self, i: usize) -> f64 {
        self.entries[i].weight
    }

    /// The names, comma separated.
    pub fn names(&self) -> String {
        let names: Vec<&str> = self.entries.iter().map(|e| e.set.name.as_str()).collect();
        names.join(", ")
    }

    /// The position of the rule set with these switches, if it is in.
    pub fn index_of(&self, rules: &Rules) -> Option<usize> {
        self.entries.iter().position(|e| &e.set.rules == rules)
    }

    /// Whether the rule set with these switches is in (by whatever name).
    pub fn covers(&self, rules: &Rules) -> bool {
        self.index_of(rules).is_some()
    }

    /// The rule set at `unit` (in `[0, 1)`) of the weights laid end to
    /// end: drawn in proportion to the weights when `unit` is uniform.
    pub fn at(&self, unit: f64) -> usize {
        if self.entries.len() == 1 {
            return 0;
        }
        let total: f64 = self.entries.iter().map(|e| e.weight).sum();
        let mut left = unit * total;
        for (i, entry) in self.entries.iter().enumerate() {
            if left < entry.weight {
                return i;
            }
            left -= entry.weight;
        }
        // Rounding at the very top: the last rule set with a weight.
        self.entries
            .iter()
            .rposition(|e| e.weight > 0.0)
            .expect("a checked mixture has a weight above 0")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preset(name: &str, weight: f64) -> WeightedRuleSet {
        WeightedRuleSet::new(name, Rules::preset(name).unwrap(), weight)
    }

    #[test]
    fn names_of_presets_and_of_rule_sets_of_their_own() {
        assert_eq!(RuleSet::named(Rules::default()).name, "standard");
        let own = Rules {
            quiet_plies_limit: 77,
            ..Rules::default()
        };
        assert_eq!(rules_name(&own), OWN_RULES_NAME);
        assert_eq!(
            RuleSet::load("bank-rats").unwrap().rules,
            Rules::preset("bank-rats").unwrap()
        );
        assert!(RuleSet::load("no-such-rules").is_err());
    }

    #[test]
    fn weights_lay_the_rule_sets_end_to_end() {
        let m = RuleMixture::new(vec![
            preset("standard", 3.0),
            preset("bank-rats", 1.0),
            preset("bbdsq", 0.0),
        ])
        .unwrap();
        assert_eq!(m.at(0.0), 0);
        assert_eq!(m.at(0.74), 0);
        assert_eq!(m.at(0.76), 1);
        assert_eq!(m.at(0.999_999), 1, "weight 0 is never drawn");
        assert_eq!(m.at(1.0), 1, "rounding at the top: the last with a weight");
        assert_eq!(m.names(), "standard, bank-rats, bbdsq");
        assert!(m.covers(&Rules::preset("bbdsq").unwrap()));
        assert!(!RuleMixture::single(RuleSet::named(Rules::default()))
            .covers(&Rules::preset("bbdsq").unwrap()));
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
        let same = WeightedRuleSet::new("mine.toml", Rules::default(), 1.0);
        let e = RuleMixture::new(vec![preset("standard", 1.0), same])
            .unwrap_err()
            .to_string();
        assert!(e.contains("variants[1]") && e.contains("`standard`"), "{e}");
        assert_eq!(RuleMixture::new(Vec::new()), Err(MixtureError::Empty));
    }
}
