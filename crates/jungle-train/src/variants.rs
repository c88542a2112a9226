//! `[run] variants`: the rule sets a run's self-play draws its games from.
//! Empty (the default) plays `[run] variant` alone; `"all"` is every preset
//! with equal weights; a list names rule sets (presets or toml files) with
//! weights, e.g. `variants = [{ variant = "standard", weight = 4 },
//! { variant = "bank-rats", weight = 1 }]`.

use jungle_rules::{InvalidKey, Rules};
use jungle_rules::{MixtureError, RuleMixture, RuleSet, WeightedRuleSet};
use serde::{Deserialize, Serialize};

/// The value of `[run] variants`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum VariantsSetting {
    /// A word: `"all"` (every preset, equal weights).
    Word(String),
    /// Rule sets with weights; empty: `[run] variant` alone.
    List(Vec<VariantWeight>),
}

impl Default for VariantsSetting {
    fn default() -> Self {
        VariantsSetting::List(Vec::new())
    }
}

/// One entry of `[run] variants`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantWeight {
    /// A preset name or a rule-set toml file.
    pub variant: String,
    /// Its share of the games, relative to the others' (1 if left out).
    #[serde(default = "one")]
    pub weight: f64,
}

fn one() -> f64 {
    1.0
}

impl VariantsSetting {
    /// Whether it names several rule sets (not the single `variant`).
    pub fn is_mixture(&self) -> bool {
        !matches!(self, VariantsSetting::List(list) if list.is_empty())
    }

    /// The mixture it names, with `variant` the rule set when it is empty;
    /// errors name the key (`variants[1].variant`) and what is expected.
    pub fn mixture(&self, variant: &str) -> Result<RuleMixture, InvalidKey> {
        let load = |key: String, name: &str| {
            Rules::load(name).map_err(|e| {
                InvalidKey::new(
                    key,
                    format!("{name:?}"),
                    format!("a preset name or a variant file that reads ({e})"),
                )
            })
        };
        let entries: Vec<WeightedRuleSet> = match self {
            VariantsSetting::List(list) if list.is_empty() => {
                return Ok(RuleMixture::single(RuleSet::new(
                    variant,
                    load("variant".to_string(), variant)?,
                )));
            }
            VariantsSetting::Word(word) if word == "all" => Rules::preset_names()
                .map(|name| {
                    let rules = Rules::preset(name).expect("a preset");
                    WeightedRuleSet::new(name, rules, 1.0)
                })
                .collect(),
            VariantsSetting::Word(word) => {
                return Err(InvalidKey::new(
                    "variants",
                    format!("{word:?}"),
                    "\"all\" or a list of { variant = NAME, weight = W }",
                ))
            }
            VariantsSetting::List(list) => list
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let rules = load(format!("variants[{i}].variant"), &e.variant)?;
                    Ok(WeightedRuleSet::new(e.variant.clone(), rules, e.weight))
                })
                .collect::<Result<_, InvalidKey>>()?,
        };
        RuleMixture::new(entries).map_err(|e| match e {
            MixtureError::Weight { index, weight, .. } => {
                InvalidKey::new(format!("variants[{index}].weight"), weight, "a number >= 0")
            }
            MixtureError::ZeroTotal => InvalidKey::new(
                "variants",
                "a list whose weights add up to 0",
                "a total weight above 0",
            ),
            MixtureError::Twice {
                index,
                name,
                earlier,
            } => InvalidKey::new(
                format!("variants[{index}].variant"),
                format!("{name:?}"),
                format!("a rule set not listed before (its switches are `{earlier}`'s)"),
            ),
            MixtureError::Empty => InvalidKey::new("variants", "[]", "at least one rule set"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(entries: &[(&str, f64)]) -> VariantsSetting {
        VariantsSetting::List(
            entries
                .iter()
                .map(|&(variant, weight)| VariantWeight {
                    variant: variant.to_string(),
                    weight,
                })
                .collect(),
        )
    }

    #[test]
    fn empty_all_and_lists_name_their_rule_sets() {
        let single = VariantsSetting::default().mixture("bank-rats").unwrap();
        assert_eq!((single.len(), single.name(0)), (1, "bank-rats"));
        assert!(!VariantsSetting::default().is_mixture());
        let all = VariantsSetting::Word("all".into())
            .mixture("standard")
            .unwrap();
        assert_eq!(all.len(), Rules::preset_names().count());
        let two = list(&[("standard", 4.0), ("bank-rats", 1.0)])
            .mixture("standard")
            .unwrap();
        assert_eq!((two.name(1), two.weight(0)), ("bank-rats", 4.0));
    }

    #[test]
    fn bad_mixtures_are_refused_with_the_key_named() {
        let e = list(&[("standard", 1.0), ("elefant", 1.0)])
            .mixture("standard")
            .unwrap_err();
        assert_eq!(e.key, "variants[1].variant");
        assert!(e.expected.contains("elephant-rat"), "{e}");
        let e = list(&[("standard", 0.0), ("bbdsq", 0.0)])
            .mixture("standard")
            .unwrap_err();
        assert_eq!(e.key, "variants");
        assert!(e.expected.contains("total weight above 0"), "{e}");
        let e = list(&[("standard", 1.0), ("bbdsq", -2.0)])
            .mixture("standard")
            .unwrap_err();
        assert_eq!(e.key, "variants[1].weight");
        let e = list(&[("standard", 1.0), ("standard", 2.0)])
            .mixture("standard")
            .unwrap_err();
        assert_eq!(e.key, "variants[1].variant");
        let e = VariantsSetting::Word("some".into())
            .mixture("standard")
            .unwrap_err();
        assert!(e.expected.contains("\"all\""), "{e}");
    }
}
