//! Which rule sets to compare: preset names or toml files.

use jungle_rules::Rules;

/// A rule set under comparison.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The name it was given by (a preset name or a file path).
    pub name: String,
    /// Its rules.
    pub rules: Rules,
}

/// Resolves a comma-separated list of preset names and toml paths (`all`
/// alone means every preset). Errors name the entry and list the presets.
pub fn resolve_variants(list: &str) -> Result<Vec<Variant>, String> {
    let known = || Rules::preset_names().collect::<Vec<_>>().join(", ");
    let names: Vec<&str> = if list.trim() == "all" {
        Rules::preset_names().collect()
    } else {
        list.split(',').map(str::trim).collect()
    };
    let mut variants: Vec<Variant> = Vec::new();
    for name in names {
        if name.is_empty() {
            return Err(format!(
                "empty variant name in `{list}`; known presets: {}",
                known()
            ));
        }
        if variants.iter().any(|v| v.name == name) {
            return Err(format!("variant `{name}` is listed twice"));
        }
        let rules = Rules::load(name).map_err(|e| match e {
            jungle_rules::RulesError::Unknown { .. } => e.to_string(),
            other => format!("{other} (known presets: {})", known()),
        })?;
        variants.push(Variant {
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
        let e = resolve_variants("standard,elefant").unwrap_err();
        assert!(e.contains("elefant") && e.contains("trap-attack"), "{e}");
        let e = resolve_variants("standard,,trap-attack").unwrap_err();
        assert!(e.contains("empty") && e.contains("bank-rats"), "{e}");
        let e = resolve_variants("standard,standard").unwrap_err();
        assert!(e.contains("twice"), "{e}");
    }
}
