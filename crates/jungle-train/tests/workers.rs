//! Self-play by workers (`jungle worker`, `jungle train --selfplay
//! external`): a trainer and workers that share only a store. Every game a
//! worker uploads is trained on once or dropped for its network's age,
//! never lost or taken twice, also when the trainer is killed between
//! taking a shard and deleting it.

use jungle_rules::{RuleMixture, RuleSet, Rules};
use jungle_selfplay::{read_shard, shard_files, shard_files_within, write_shard, GameRecord};
use jungle_store::Store;
use jungle_train::config::{TrainConfig, TINY_CONFIG};
use jungle_train::read_latest;
use jungle_train::Intake;
use jungle_train::RunLayout;
use jungle_train::TrainError;
use jungle_train::{run_worker, StopReason, WorkerSettings};
use jungle_train::{CheckpointInfo, Run, RunPaths};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn temp(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-workers-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn standard() -> Rules {
    Rules::load("standard").unwrap()
}

fn tiny(sets: &[&str]) -> TrainConfig {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    TrainConfig::layered(TINY_CONFIG, "tiny", &sets).unwrap()
}

fn settings(id: &str, work: &Path) -> WorkerSettings {
    WorkerSettings {
        run: "t".to_string(),
        max_games: None,
        max_minutes: Some(5.0),
        threads: Some(1),
        work: work.to_path_buf(),
        poll: Duration::from_millis(50),
        id: id.to_string(),
        compute: jungle_net::Compute::cpu(),
    }
}

#[test]
fn two_workers_feed_a_trainer_and_every_uploaded_game_is_accounted_for() {
    let root = temp("run");
    let url = "memory://workers-run";
    let mut run = Run::open(&root, "t", tiny(&["run.generations=3"]), true).unwrap();
    run.publish_to(Store::open_url(url).unwrap(), &root)
        .unwrap();
    run.play_external(Duration::from_millis(50)).unwrap();
    let stop = AtomicBool::new(false);
    let (state, reports) = std::thread::scope(|scope| {
        let workers: Vec<_> = ["w-a", "w-b"]
            .into_iter()
            .map(|id| {
                let stop = &stop;
                let work = temp(id);
                scope.spawn(move || {
                    let store = Store::open_url(url).unwrap();
                    run_worker(&store, &settings(id, &work), stop, &|_| {}).unwrap()
                })
            })
            .collect();
        run.run().unwrap();
        let state = run.state().clone();
        let reports: Vec<_> = workers.into_iter().map(|w| w.join().unwrap()).collect();
        (state, reports)
    });
    assert_eq!(state.generation, 3);
    let store = Store::open_url(url).unwrap();
    assert!(read_latest(&store, "t").unwrap().unwrap().finished);
    for report in &reports {
        assert_eq!(report.stopped, StopReason::RunFinished);
        assert!(report.games > 0, "each worker played");
    }
    // Each generation holds at least its quota, all played by known
    // networks no more than max_net_age (2) generations old.
    let paths = RunPaths::new(&root, "t");
    let rules = standard();
    let mut seeds = HashSet::new();
    let mut trained_keys = HashSet::new();
    for info in state.checkpoints.iter().filter(|c| c.generation >= 1) {
        let folder = jungle_train::generation_folder(&paths.shards, info.generation);
        let mut games = 0;
        for path in shard_files(&folder).unwrap() {
            let shard = read_shard(&path, Some(&rules)).unwrap();
            for g in &shard.games {
                assert!(seeds.insert(g.seed), "game {} taken twice", g.seed);
                let step: u64 = g.checkpoint.strip_prefix("step:").unwrap().parse().unwrap();
                let made_by = state.checkpoints.iter().find(|c| c.step == step).unwrap();
                assert!(made_by.generation + 2 >= info.generation - 1);
            }
            games += shard.games.len() as u64;
            trained_keys.insert(path.file_name().unwrap().to_string_lossy().into_owned());
        }
        assert!(
            games >= 4,
            "generation {} holds {games} games",
            info.generation
        );
    }
    // Every uploaded shard is in a generation or still waiting in incoming
    // (none was stale in a run this short).
    let waiting: HashSet<String> = store
        .list(&RunLayout::new("t").incoming())
        .unwrap()
        .into_iter()
        .map(|l| l.key.rsplit('/').next().unwrap().to_string())
        .collect();
    for key in reports.iter().flat_map(|r| &r.shards) {
        let name = key.rsplit('/').next().unwrap();
        assert!(
            trained_keys.contains(name) != waiting.contains(name),
            "{key} is in exactly one place"
        );
    }
    // And the store's copy of each generation is what the trainer holds.
    for name in &trained_keys {
        let found = store
            .list("data/t/shards")
            .unwrap()
            .into_iter()
            .any(|l| l.key.ends_with(name));
        assert!(found, "{name} mirrored");
    }
    let _ = std::fs::remove_dir_all(root);
}

/// A shard of two (unfinished, empty) games played by the network of `step`.
fn shard_bytes(dir: &Path, step: u64, first_seed: u64) -> Vec<u8> {
    let rules = standard();
    let games: Vec<GameRecord> = (0..2)
        .map(|k| GameRecord {
            start_fen: jungle_rules::START_FEN.to_string(),
            moves: Vec::new(),
            winner: None,
            reason: None,
            checkpoint: format!("step:{step}"),
            seed: first_seed + k,
        })
        .collect();
    let path = dir.join(format!("made-{step}-{first_seed}.bin"));
    write_shard(&path, &rules, &games).unwrap();
    std::fs::read(&path).unwrap()
}

fn checkpoints(generations: &[(u32, u64)]) -> Vec<CheckpointInfo> {
    generations
        .iter()
        .map(|&(generation, step)| CheckpointInfo {
            generation,
            step,
            hours: 0.0,
            games: 0,
            samples_seen: 0,
        })
        .collect()
}

#[test]
fn the_intake_drops_old_networks_quarantines_bad_shards_and_survives_a_kill() {
    let dir = temp("intake");
    let partial = dir.join("gen-000005.partial");
    let quarantine = dir.join("quarantine");
    std::fs::create_dir_all(&partial).unwrap();
    let store = Store::open_url("memory://workers-intake").unwrap();
    let prefix = RunLayout::new("t").incoming();
    // Generation g's network is step 10 g; the current one is generation 4.
    let known = checkpoints(&[(0, 0), (1, 10), (2, 20), (3, 30), (4, 40)]);
    store
        .put(
            &format!("{prefix}/a-000000.bin"),
            shard_bytes(&dir, 10, 100),
        )
        .unwrap(); // 3 old: dropped
    store
        .put(
            &format!("{prefix}/a-000001.bin"),
            shard_bytes(&dir, 20, 200),
        )
        .unwrap(); // 2 old: kept
    store
        .put(
            &format!("{prefix}/a-000002.bin"),
            shard_bytes(&dir, 99, 300),
        )
        .unwrap(); // unknown: dropped
    store
        .put(&format!("{prefix}/b-000000.bin"), b"not a shard".to_vec())
        .unwrap();
    store
        .put(
            &format!("{prefix}/b-000001.bin"),
            shard_bytes(&dir, 40, 400),
        )
        .unwrap();
    store
        .put(
            &format!("{prefix}/c-000000.bin"),
            shard_bytes(&dir, 40, 500),
        )
        .unwrap();
    // A shard taken before a kill, not yet deleted from the store.
    std::fs::copy(dir.join("made-40-500.bin"), partial.join("c-000000.bin")).unwrap();
    let mixture = RuleMixture::single(RuleSet::new("standard", standard()));
    let intake = Intake {
        store: &store,
        prefix: prefix.clone(),
        partial: &partial,
        quarantine: &quarantine,
        mixture: &mixture,
        checkpoints: &known,
        max_net_age: 2,
    };
    let taken = intake.take(100).unwrap();
    assert_eq!((taken.games, taken.shards, taken.stale_games), (4, 2, 4));
    assert_eq!(taken.quarantined.len(), 1);
    assert!(taken.quarantined[0].reason.contains("b-000000.bin"));
    assert!(
        store.list(&prefix).unwrap().is_empty(),
        "every upload was handled once"
    );
    let names: Vec<String> = shard_files(&partial)
        .unwrap()
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["a-000001.bin", "b-000001.bin", "c-000000.bin"]);
    assert_eq!(shard_files_within(&quarantine).unwrap().len(), 1);

    // A quota stops the intake at the shard that fills it.
    store
        .put(
            &format!("{prefix}/d-000000.bin"),
            shard_bytes(&dir, 40, 600),
        )
        .unwrap();
    store
        .put(
            &format!("{prefix}/d-000001.bin"),
            shard_bytes(&dir, 40, 700),
        )
        .unwrap();
    let taken = intake.take(1).unwrap();
    assert_eq!(taken.games, 2);
    assert_eq!(store.list(&prefix).unwrap().len(), 1);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn self_play_by_workers_needs_a_store_and_a_worker_waits_for_the_trainer() {
    let root = temp("nostore");
    let mut run = Run::open(&root, "t", tiny(&[]), true).unwrap();
    let err = run.play_external(Duration::from_millis(10)).unwrap_err();
    assert!(matches!(err, TrainError::NoStore { .. }), "{err}");
    assert!(err.to_string().contains("--store"), "{err}");

    // No trainer published run `t` here: the worker waits, then stops at
    // --max-minutes with nothing played.
    // Its work folder holds a file of the user's and what an earlier worker
    // of that name left: the worker empties only its own folder.
    let store = Store::open_url("memory://workers-empty").unwrap();
    let work = temp("waiting");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("keep.txt"), "the user's").unwrap();
    let own = jungle_train::worker_folder(&work, "w");
    std::fs::create_dir_all(own.join("shards")).unwrap();
    std::fs::write(own.join("shards/left-over.bin"), "x").unwrap();
    let mut s = settings("w", &work);
    s.max_minutes = Some(0.01);
    let report = run_worker(&store, &s, &AtomicBool::new(false), &|_| {}).unwrap();
    assert_eq!(report.stopped, StopReason::MaxMinutes);
    assert_eq!(report.games, 0);
    assert_eq!(
        std::fs::read_to_string(work.join("keep.txt")).unwrap(),
        "the user's"
    );
    assert!(!own.join("shards/left-over.bin").exists());
    // Asked to stop, it stops before playing.
    let report = run_worker(&store, &s, &AtomicBool::new(true), &|_| {}).unwrap();
    assert_eq!(report.stopped, StopReason::Signal);
    let _ = std::fs::remove_dir_all(root);
}
