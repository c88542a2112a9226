//! Which rule sets to compare: preset names or toml files.

use jungle_rules::{RuleSet, Rules, RulesError};

/// Why a list of rule sets was refused.
#[derive(Debug, thiserror::Error)]
pub enum VariantListError {
    /// An entry is empty.
    #[error("empty variant name in `{list}`; known presets: {known}")]
    Empty {
        /// The list given.
        list: String,
        /// The preset names.
        known: String,
    },
    /// An entry comes twice.
    #[error("variant `{0}` is listed twice")]
    Twice(String),
    /// An entry is neither a preset nor a readable rule-set file.
    #[error("{source}{}", known.as_ref().map(|k| format!(" (known presets: {k})")).unwrap_or_default())]
    Load {
        /// Why it did not load.
        source: RulesError,
        /// The preset names, where the error does not list them itself.
        known: Option<String>,
    },
}

/// The index of the baseline of a comparison: `standard` when it is
/// compared, else the first rule set listed.
pub fn baseline_index(variants: &[RuleSet]) -> usize {
    variants
        .iter()
        .position(|v| v.name == "standard")
        .unwrap_or(0)
}

/// Resolves a comma-separated list of preset names and toml paths (`all`
/// alone means every preset). Errors name the entry and list the presets.
pub fn resolve_variants(list: &str) -> Result<Vec<RuleSet>, VariantListError> {
    let known = || Rules::preset_names().collect::<Vec<_>>().join(", ");
    let names: Vec<&str> = if list.trim() == "all" {
        Rules::preset_names().collect()
    } else {
        list.split(',').map(str::trim).collect()
    };
    let mut variants: Vec<RuleSet> = Vec::new();
    for name in names {
        if name.is_empty() {
            return Err(VariantListError::Empty {
                list: list.to_string(),
                known: known(),
            });
        }
        if variants.iter().any(|v| v.name == name) {
            return Err(VariantListError::Twice(name.to_string()));
        }
        let rules = Rules::load(name).map_err(|source| VariantListError::Load {
            known: (!matches!(source, RulesError::Unknown { .. })).then(known),
            source,
        })?;
        variants.push(RuleSet {
            name: name.to_string(),
            rules,
        });
    }
    Ok(variants)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_all_resolve() {
        let v = resolve_variants("standard, elephant-rat").unwrap();
        assert_eq!(v.len(), 2);
        assert!(v[1].rules.elephant_captures_rat);
        assert_eq!(
            resolve_variants("all").unwrap().len(),
            Rules::preset_names().count()
        );
    }

    #[test]
    fn bad_names_list_the_presets() {
        let error = |list: &str| resolve_variants(list).unwrap_err().to_string();
        let e = error("standard,elefant");
        assert!(e.contains("elefant") && e.contains("trap-attack"), "{e}");
        let e = error("standard,,trap-attack");
        assert!(e.contains("empty") && e.contains("bank-rats"), "{e}");
        let e = error("standard,standard");
        assert!(e.contains("twice"), "{e}");
    }
}
