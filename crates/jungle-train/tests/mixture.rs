//! Training over a mixture of rule sets (`[run] variants`): self-play draws
//! each game's rule set, shards hold one rule set each, the window trains on
//! all of them, and the checkpoint lists them; bad mixtures are refused with
//! the key named.

use jungle_net::read_meta;
use jungle_rules::Rules;
use jungle_selfplay::{read_shard, shard_files};
use jungle_train::config::{TrainConfig, TINY_CONFIG};
use jungle_train::generation_folder;
use jungle_train::read_matches;
use jungle_train::{Run, RunPaths};
use std::collections::HashMap;

fn tiny(sets: &[&str]) -> Result<TrainConfig, String> {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    TrainConfig::layered(TINY_CONFIG, "tiny", &sets).map_err(|e| e.to_string())
}

#[test]
fn a_mixture_run_plays_and_trains_on_every_rule_set_of_it() {
    let root = std::env::temp_dir().join(format!("jungle-mixture-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let config = tiny(&[
        "run.generations=1",
        "run.games_per_generation=8",
        r#"run.variants=[{ variant = "standard" }, { variant = "bank-rats", weight = 1.5 }]"#,
    ])
    .unwrap();
    let mut run = Run::open(&root, "m", config, true).unwrap();
    let ratings = run.run().unwrap();
    let step = run.state().step;
    drop(run);
    assert!(step > 0, "it trained");
    let paths = RunPaths::new(&root, "m");
    // Shards of both rule sets, each holding games of one.
    let mut games: HashMap<String, usize> = HashMap::new();
    for path in shard_files(&generation_folder(&paths.shards, 1)).unwrap() {
        let shard = read_shard(&path, None).unwrap();
        *games.entry(shard.rules.to_toml()).or_default() += shard.games.len();
    }
    let of = |name: &str| games.get(&Rules::preset(name).unwrap().to_toml()).copied();
    assert_eq!(games.len(), 2, "{games:?}");
    assert_eq!(of("standard").unwrap() + of("bank-rats").unwrap(), 8);
    // Nothing was set aside: the window read both.
    assert!(
        !paths.quarantine.exists() || std::fs::read_dir(&paths.quarantine).unwrap().count() == 0
    );
    // The checkpoint names its training's rule sets.
    let meta = read_meta(&paths.checkpoint(step)).unwrap();
    let names: Vec<&str> = meta
        .trained_variants
        .iter()
        .map(|v| v.variant.as_str())
        .collect();
    assert_eq!(names, ["standard", "bank-rats"]);
    assert_eq!(meta.trained_variants[1].weight, 1.5);
    assert!(meta.trained_on(&Rules::preset("bank-rats").unwrap()));
    assert!(!meta.trained_on(&Rules::preset("bbdsq").unwrap()));
    // Evaluated under each rule set: every line names its rule set, both
    // have games, and each has its own Elo table, columns and plots.
    let (lines, _) = read_matches(&paths.matches()).unwrap();
    for name in ["standard", "bank-rats"] {
        assert!(
            lines.iter().any(|m| m.variant.as_deref() == Some(name)),
            "{name}"
        );
        assert!(paths
            .checkpoints
            .join("variants")
            .join(name)
            .join("elo.png")
            .exists());
    }
    assert!(lines.iter().all(|m| m.variant.is_some()));
    let names: Vec<&str> = ratings.by_variant.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["standard", "bank-rats"]);
    let csv = std::fs::read_to_string(paths.checkpoints.join("elo.csv")).unwrap();
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .ends_with("elo[bank-rats],stderr[bank-rats]"),
        "{csv}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn bad_mixtures_are_refused_with_the_key_named() {
    let e =
        tiny(&[r#"run.variants=[{ variant = "standard" }, { variant = "elefant" }]"#]).unwrap_err();
    assert!(
        e.contains("variants[1].variant") && e.contains("elefant"),
        "{e}"
    );
    let e = tiny(&[
        r#"run.variants=[{ variant = "standard", weight = 0 }, { variant = "bbdsq", weight = 0 }]"#,
    ])
    .unwrap_err();
    assert!(
        e.contains("variants") && e.contains("total weight above 0"),
        "{e}"
    );
    let e = tiny(&[r#"run.variants="most""#]).unwrap_err();
    assert!(e.contains("variants") && e.contains("\"all\""), "{e}");
    let all = tiny(&[r#"run.variants="all""#]).unwrap();
    assert_eq!(all.mixture().unwrap().len(), Rules::preset_names().count());
}
