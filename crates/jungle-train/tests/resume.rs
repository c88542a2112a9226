//! Resuming a killed run: a generation's self-play belongs to it (a partial
//! generation keeps its games and plays only the missing ones, a bad shard
//! is quarantined), and a run resumes with its own config.

use jungle_play::opening::derive_seed;
use jungle_rules::Rules;
use jungle_selfplay::{game_seed, read_shard, shard_files, write_shard, GameRecord};
use jungle_train::config::{TrainConfig, TINY_CONFIG};
use jungle_train::TrainError;
use jungle_train::{generation_folder, partial_folder};
use jungle_train::{run_config, Run, RunPaths};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn root(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-resume-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn tiny(sets: &[&str]) -> TrainConfig {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    TrainConfig::layered(TINY_CONFIG, "tiny", &sets).unwrap()
}

fn games_in(folder: &Path) -> Vec<GameRecord> {
    shard_files(folder)
        .unwrap()
        .iter()
        .flat_map(|p| read_shard(p, None).unwrap().games)
        .collect()
}

#[test]
fn a_killed_generation_keeps_its_games_and_plays_only_the_missing_ones() {
    let root = root("partial");
    let one = tiny(&["run.generations=1"]);
    Run::open(&root, "t", one.clone(), true)
        .unwrap()
        .run()
        .unwrap();
    let paths = RunPaths::new(&root, "t");
    let per_generation = one.run.games_per_generation;
    assert_eq!(
        games_in(&generation_folder(&paths.shards, 1)).len() as u64,
        per_generation
    );

    // What a kill in generation 2's self-play leaves: a shard with two of
    // its games (numbers 0 and 2), and a damaged shard.
    let seed2 = derive_seed(one.run.seed, 2, 1);
    let mut kept = games_in(&generation_folder(&paths.shards, 1));
    kept.truncate(2);
    kept[0].seed = game_seed(seed2, 0);
    kept[1].seed = game_seed(seed2, 2);
    let partial = partial_folder(&paths.shards, 2);
    std::fs::create_dir_all(&partial).unwrap();
    write_shard(&partial.join("shard-000000.bin"), &Rules::default(), &kept).unwrap();
    std::fs::write(partial.join("shard-000001.bin"), b"JZSHARD\0 torn").unwrap();

    let mut run = Run::open(&root, "t", tiny(&[]), true).unwrap();
    run.run().unwrap();
    let state = run.state().clone();
    drop(run);
    let played = games_in(&generation_folder(&paths.shards, 2));
    assert!(!partial.exists(), "the partial folder was published");
    assert_eq!(played.len() as u64, per_generation);
    // Every game of generation 2 once, the kept ones as they were.
    let seeds: HashSet<u64> = played.iter().map(|g| g.seed).collect();
    let expected: HashSet<u64> = (0..per_generation).map(|i| game_seed(seed2, i)).collect();
    assert_eq!(seeds, expected);
    for game in &kept {
        assert!(
            played.contains(game),
            "kept game {} was replayed",
            game.seed
        );
    }
    assert_eq!(state.games, 2 * per_generation);
    assert_eq!(state.selfplay[1].games, per_generation);
    // Each generation records the norm of the weights it trained and the
    // value loss of the constant guess on its batches (at most ln 3).
    assert_eq!(state.losses.len(), 2);
    assert!(
        state.losses.iter().all(|l| l.weight_norm > 0.0
            && l.value_baseline
                .is_some_and(|b| (0.0..=3f32.ln() + 1e-6).contains(&b))),
        "{:?}",
        state.losses
    );
    let quarantined: Vec<_> = std::fs::read_dir(&paths.quarantine)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert_eq!(quarantined, ["gen-000002.partial-shard-000001.bin"]);
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_damaged_shard_in_the_window_is_quarantined_and_training_goes_on() {
    let root = root("quarantine");
    Run::open(&root, "t", tiny(&["run.generations=1"]), true)
        .unwrap()
        .run()
        .unwrap();
    let paths = RunPaths::new(&root, "t");
    let shard = shard_files(&generation_folder(&paths.shards, 1)).unwrap()[0].clone();
    let mut bytes = std::fs::read(&shard).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&shard, bytes).unwrap();
    let mut run = Run::open(&root, "t", tiny(&[]), true).unwrap();
    run.run().unwrap();
    assert_eq!(run.state().generation, 2);
    assert!(!shard.exists());
    let moved = paths.quarantine.join("gen-000001-shard-000000.bin");
    assert!(moved.exists(), "{}", moved.display());
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_run_resumes_with_its_own_config_and_refuses_other_changes() {
    let root = root("config");
    let started = tiny(&["run.generations=1", "train.learning_rate=0.004"]);
    drop(Run::open(&root, "t", started.clone(), true).unwrap());

    // No --config: the run's own config, with --set over it.
    let config = run_config(&root, "t", None, &["run.generations=3".to_string()]).unwrap();
    assert_eq!(config.train.learning_rate, 0.004);
    assert_eq!(config.run.generations, 3);
    let run = Run::open(&root, "t", config, true).unwrap();
    assert_eq!(run.state().config.run.generations, 3, "the change is kept");
    drop(run);
    let config = run_config(&root, "t", None, &[]).unwrap();
    assert_eq!(config.run.generations, 3);

    // A config that changes more than the run's length is refused, naming
    // each key with both values.
    let Err(e) = Run::open(&root, "t", tiny(&["selfplay.workers=2"]), true) else {
        panic!("a different learning rate was accepted on resume");
    };
    assert!(matches!(e, TrainError::ConfigChanged { .. }));
    let e = e.to_string();
    assert!(
        e.contains("train.learning_rate 0.004 -> 0.002")
            && !e.contains("selfplay.workers 1")
            && !e.contains("run.generations 3")
            && e.contains("state.json"),
        "{e}"
    );
    let Err(e) = Run::open(
        &root,
        "t",
        tiny(&["run.seed=9", "train.learning_rate=0.004"]),
        true,
    ) else {
        panic!("a different seed was accepted on resume");
    };
    assert!(e.to_string().contains("run.seed"), "{e}");
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_run_from_before_a_key_existed_resumes_with_the_key_s_default() {
    let root = root("older");
    drop(Run::open(&root, "t", tiny(&["run.generations=1"]), true).unwrap());
    // state.json as a binary from before `net.short_term_head` wrote it.
    let path = RunPaths::new(&root, "t").state();
    let mut state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let net = state["config"]["net"].as_object_mut().unwrap();
    assert_eq!(net.remove("short_term_head"), Some(false.into()));
    std::fs::write(&path, serde_json::to_string(&state).unwrap()).unwrap();

    let config = run_config(&root, "t", None, &["run.generations=2".to_string()]).unwrap();
    assert_eq!(config.net.short_term_head, Some(false));
    drop(Run::open(&root, "t", config, true).unwrap());
    // The same with the config given again, as `--config` does.
    drop(Run::open(&root, "t", tiny(&["run.generations=2"]), true).unwrap());
    // A real change is still refused.
    let Err(e) = Run::open(
        &root,
        "t",
        tiny(&["run.generations=2", "experimental.short_term_head=true"]),
        true,
    ) else {
        panic!("a new head was accepted on resume");
    };
    assert!(e.to_string().contains("net.short_term_head"), "{e}");
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_moving_average_is_checkpointed_and_a_resumed_run_trains_on_the_raw_weights() {
    let tensors = |prefix: &Path| {
        let ck = jungle_net::load_checkpoint(prefix, &jungle_net::cpu_device()).unwrap();
        jungle_net::average::float_tensors(&ck.net)
    };
    let average = "experimental.weight_average_decay=0.5";
    // Two generations at once, and one then another after a restart.
    let whole = root("average-whole");
    let mut run = Run::open(&whole, "t", tiny(&[average, "run.generations=2"]), true).unwrap();
    run.run().unwrap();
    let step = run.state().step;
    drop(run);
    let split = root("average-split");
    for generations in ["run.generations=1", "run.generations=2"] {
        Run::open(&split, "t", tiny(&[average, generations]), true)
            .unwrap()
            .run()
            .unwrap();
    }
    let (paths, split_paths) = (RunPaths::new(&whole, "t"), RunPaths::new(&split, "t"));
    // The checkpoint is the average, not the trained weights beside it.
    let (played, raw) = (
        tensors(&paths.checkpoint(step)),
        tensors(&paths.raw_checkpoint(step)),
    );
    assert_ne!(played, raw);
    // Only the newest step's raw weights are kept.
    let kept: Vec<_> = std::fs::read_dir(paths.checkpoints.join("raw"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(kept.len(), 2, "{kept:?}");
    // The restarted run resumed from the raw weights and the average: it
    // ends where the uninterrupted one does.
    assert_eq!(tensors(&split_paths.checkpoint(step)), played);
    assert_eq!(tensors(&split_paths.raw_checkpoint(step)), raw);
    std::fs::remove_dir_all(whole).unwrap();
    std::fs::remove_dir_all(split).unwrap();
}
