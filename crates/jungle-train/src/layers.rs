//! Config layers: the embedded default, then the user's file (only the keys
//! it changes), then `--set SECTION.KEY=VALUE` overrides, merged into one
//! toml table before it is read. Tables merge key by key; any other value
//! (a number, a string, an array such as `lr_drops` or `anchors`) replaces
//! the one below it whole.

use toml::{Table, Value};

/// Why a layer could not be applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayerError {
    /// The text is not toml.
    #[error("{place}{message}")]
    Syntax {
        /// `line N (`text`): ` where known.
        place: String,
        /// toml's message.
        message: String,
    },
    /// A `--set` is not `SECTION.KEY=VALUE`.
    #[error("--set `{text}`: expected SECTION.KEY=VALUE, e.g. train.learning_rate=0.001")]
    SetSyntax {
        /// The text given.
        text: String,
    },
    /// A value of the wrong type.
    #[error("key `{key}`: {message}")]
    Type {
        /// The key's dotted path (`run.generations`).
        key: String,
        /// serde's message.
        message: String,
    },
    /// A key that no layer below knows.
    #[error("unknown key `{key}`; expected one of {known}{elsewhere}")]
    UnknownKey {
        /// The dotted path of the key.
        key: String,
        /// The keys known at that place, comma-separated.
        known: String,
        /// Where a key of that name lives instead (` (it is a key of
        /// [train])`), or nothing.
        elsewhere: String,
    },
}

/// Parses toml text, naming the line of a syntax error.
pub fn parse(text: &str) -> Result<Table, LayerError> {
    text.parse::<Table>().map_err(|e| LayerError::Syntax {
        place: place(text, &e),
        message: e.message().trim().to_string(),
    })
}

/// `line N (`text`): ` for the place of `error` in `text`, or nothing.
pub fn place(text: &str, error: &toml::de::Error) -> String {
    error.span().map_or(String::new(), |span| {
        let start = span.start.min(text.len());
        let number = text[..start].matches('\n').count() + 1;
        let line = text.lines().nth(number - 1).unwrap_or("").trim();
        format!("line {number} (`{line}`): ")
    })
}

/// Reads the merged `table` as a `T`, straight from the table (no text in
/// between); a value of the wrong type is named by its dotted path.
pub fn deserialize<T: serde::de::DeserializeOwned>(table: &Table) -> Result<T, LayerError> {
    serde_path_to_error::deserialize(Value::Table(table.clone())).map_err(
        |e: serde_path_to_error::Error<toml::de::Error>| LayerError::Type {
            key: e.path().to_string(),
            message: e
                .inner()
                .message()
                .trim()
                .replace("expected a boolean", "expected true or false"),
        },
    )
}

/// Merges `top` over `base`: tables key by key, other values replaced.
pub fn merge(base: &mut Table, top: Table) {
    for (key, value) in top {
        match (base.get_mut(&key), value) {
            (Some(Value::Table(below)), Value::Table(above)) => merge(below, above),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

/// Applies one `SECTION.KEY=VALUE` (the path may be deeper:
/// `selfplay.search.cpuct=2`). The value is read as a toml value, or as a
/// string when it is not one (`run.variant=bank-rats`).
pub fn set(table: &mut Table, text: &str) -> Result<(), LayerError> {
    let syntax = || LayerError::SetSyntax {
        text: text.to_string(),
    };
    let (path, value) = text.split_once('=').ok_or_else(syntax)?;
    let keys: Vec<&str> = path.trim().split('.').collect();
    if keys.len() < 2 || keys.iter().any(|k| k.is_empty()) {
        return Err(syntax());
    }
    let value = value.trim();
    let parsed = format!("v = {value}")
        .parse::<Table>()
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| Value::String(value.to_string()));
    let (last, sections) = keys.split_last().expect("at least two keys");
    let here = table_at(table, sections).ok_or_else(syntax)?;
    here.insert(last.to_string(), parsed);
    Ok(())
}

/// The table at `sections` below `table`, made where missing; `None`
/// when a value that is not a table is in the way.
fn table_at<'a>(table: &'a mut Table, sections: &[&str]) -> Option<&'a mut Table> {
    let mut here = table;
    for section in sections {
        here = match here
            .entry(section.to_string())
            .or_insert_with(|| Value::Table(Table::new()))
        {
            Value::Table(t) => t,
            _ => return None,
        };
    }
    Some(here)
}

/// Sets the value at `path` (tables made where missing), for paths that
/// lead through tables.
pub fn insert(table: &mut Table, path: &[&str], value: Value) {
    let (last, sections) = path.split_last().expect("a path has a key");
    table_at(table, sections)
        .expect("the path leads through tables")
        .insert(last.to_string(), value);
}

/// Removes and returns the value at `path`, if the path leads to one.
pub fn remove(table: &mut Table, path: &[&str]) -> Option<Value> {
    let (last, sections) = path.split_last()?;
    let mut here = table;
    for section in sections {
        here = match here.get_mut(*section)? {
            Value::Table(t) => t,
            _ => return None,
        };
    }
    here.remove(*last)
}

/// The dotted keys whose values differ between `old` and `new`, with both
/// values (`None` where a side lacks the key): tables are compared key by
/// key, other values (arrays too) whole.
pub fn changes(old: &Table, new: &Table) -> Vec<(String, Option<Value>, Option<Value>)> {
    let mut found = Vec::new();
    changes_below(old, new, "", &mut found);
    found
}

fn changes_below(
    old: &Table,
    new: &Table,
    prefix: &str,
    found: &mut Vec<(String, Option<Value>, Option<Value>)>,
) {
    let mut keys: Vec<&String> = old.keys().chain(new.keys()).collect();
    keys.sort();
    keys.dedup();
    for key in keys {
        let path = format!("{prefix}{key}");
        match (old.get(key), new.get(key)) {
            (Some(Value::Table(o)), Some(Value::Table(n))) => {
                changes_below(o, n, &format!("{path}."), found)
            }
            (o, n) if o != n => found.push((path, o.cloned(), n.cloned())),
            _ => {}
        }
    }
}

/// The first key of `given` (depth first, in order) that `known` lacks:
/// tables are compared key by key, other values not looked into.
pub fn unknown_key(given: &Table, known: &Table) -> Option<LayerError> {
    unknown_below(given, known, known, "")
}

fn unknown_below(given: &Table, known: &Table, root: &Table, prefix: &str) -> Option<LayerError> {
    for (key, value) in given {
        let path = format!("{prefix}{key}");
        match (known.get(key), value) {
            (None, _) => {
                let elsewhere = section_of(root, key, "")
                    .map_or(String::new(), |s| format!(" (`{key}` is a key of [{s}])"));
                return Some(LayerError::UnknownKey {
                    key: path,
                    known: known
                        .keys()
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                        .join(", "),
                    elsewhere,
                });
            }
            (Some(Value::Table(k)), Value::Table(g)) => {
                if let Some(e) = unknown_below(g, k, root, &format!("{path}.")) {
                    return Some(e);
                }
            }
            _ => {}
        }
    }
    None
}

/// The section (dotted) of `table` that holds a plain key named `key`, the
/// first in key order; `None` if none does.
fn section_of(table: &Table, key: &str, prefix: &str) -> Option<String> {
    for (name, value) in table {
        if let Value::Table(inner) = value {
            let path = format!("{prefix}{name}");
            if inner.get(key).is_some_and(|v| !v.is_table()) {
                return Some(path);
            }
            if let Some(found) = section_of(inner, key, &format!("{path}.")) {
                return Some(found);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> Table {
        parse(text).unwrap()
    }

    #[test]
    fn tables_merge_and_other_values_replace() {
        let mut base = table("[a]\nx = 1\ny = [1, 2]\n[b]\nz = \"s\"\n");
        merge(&mut base, table("[a]\ny = [3]\n"));
        assert_eq!(base, table("[a]\nx = 1\ny = [3]\n[b]\nz = \"s\"\n"));
    }

    #[test]
    fn sets_read_toml_values_or_strings() {
        let mut t = table("[train]\nlearning_rate = 0.002\n");
        set(&mut t, "train.learning_rate=0.001").unwrap();
        set(&mut t, "run.variant = bank-rats").unwrap();
        set(&mut t, "selfplay.search.solver=true").unwrap();
        set(&mut t, "eval.anchors=[\"random\"]").unwrap();
        assert_eq!(
            t,
            table(
                "[train]\nlearning_rate = 0.001\n[run]\nvariant = \"bank-rats\"\n\
                 [selfplay.search]\nsolver = true\n[eval]\nanchors = [\"random\"]\n"
            )
        );
        for bad in [
            "learning_rate=1",
            "train.learning_rate",
            ".x=1",
            "train..x=1",
        ] {
            let e = set(&mut t, bad).unwrap_err().to_string();
            assert!(e.contains(bad) && e.contains("SECTION.KEY=VALUE"), "{e}");
        }
        // A key below a value that is not a table.
        assert!(set(&mut t, "train.learning_rate.x=1").is_err());
    }

    #[test]
    fn values_of_the_wrong_type_are_named_by_their_path() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Inner {
            generations: u64,
            solver: bool,
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Outer {
            run: Inner,
        }
        let ok: Outer = deserialize(&table("[run]\ngenerations = 3\nsolver = true\n")).unwrap();
        assert_eq!(ok.run.generations, 3);
        for (text, key, expected) in [
            (
                "[run]\ngenerations = \"many\"\nsolver = true\n",
                "run.generations",
                "u64",
            ),
            (
                "[run]\ngenerations = -1\nsolver = true\n",
                "run.generations",
                "u64",
            ),
            (
                "[run]\ngenerations = 1\nsolver = 1\n",
                "run.solver",
                "true or false",
            ),
        ] {
            let e = deserialize::<Outer>(&table(text)).unwrap_err();
            let message = e.to_string();
            assert!(
                matches!(&e, LayerError::Type { key: k, .. } if k == key)
                    && message.contains(expected),
                "{text}: {message}"
            );
        }
    }

    #[test]
    fn unknown_keys_are_named_with_their_path() {
        let known =
            table("[train]\nlearning_rate = 1\nbatch_size = 2\n[selfplay.search]\ncpuct = 1\n");
        assert_eq!(
            unknown_key(&table("[train]\nbatch_size = 3\n"), &known),
            None
        );
        let e = unknown_key(&table("[train]\nlearnin_rate = 3\n"), &known)
            .unwrap()
            .to_string();
        assert!(
            e.contains("`train.learnin_rate`")
                && e.contains("learning_rate")
                && e.contains("batch_size"),
            "{e}"
        );
        let e = unknown_key(&table("[selfplay.search]\ncpuctt = 3\n"), &known)
            .unwrap()
            .to_string();
        assert!(e.contains("`selfplay.search.cpuctt`"), "{e}");
        let e = unknown_key(&table("[trian]\nx = 1\n"), &known)
            .unwrap()
            .to_string();
        assert!(e.contains("`trian`"), "{e}");
    }

    #[test]
    fn changes_name_each_differing_key_and_remove_takes_one_out() {
        let old = table("[run]\nseed = 1\nminutes = 5\n[eval]\nanchors = [\"a\"]\n");
        let mut new = table("[run]\nseed = 2\nminutes = 5\n[eval]\nanchors = [\"a\", \"b\"]\n");
        let found: Vec<String> = changes(&old, &new).into_iter().map(|c| c.0).collect();
        assert_eq!(found, ["eval.anchors", "run.seed"]);
        assert_eq!(remove(&mut new, &["run", "seed"]), Some(Value::Integer(2)));
        assert_eq!(remove(&mut new, &["run", "seed"]), None);
        assert_eq!(remove(&mut new, &["eval", "anchors", "x"]), None);
        let found = changes(&old, &new);
        assert_eq!(
            found[1],
            ("run.seed".to_string(), Some(Value::Integer(1)), None)
        );
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let e = parse("[run]\nminutes = = 5\n").unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("minutes = = 5"), "{e}");
    }
}
