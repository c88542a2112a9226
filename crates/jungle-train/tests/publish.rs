//! A run mirrored to a store (`jungle train --store`): each generation's
//! shards and checkpoint go up, `latest.json` names what is there, the
//! lease keeps a second trainer out, and a store ahead of the local run is
//! refused rather than overwritten.

use jungle_store::Store;
use jungle_train::config::{TrainConfig, TINY_CONFIG};
use jungle_train::Latest;
use jungle_train::TrainError;
use jungle_train::{carry_run, restore_run};
use jungle_train::{Run, RunPaths};
use std::path::PathBuf;

fn root(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-publish-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn tiny(sets: &[&str]) -> TrainConfig {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    TrainConfig::layered(TINY_CONFIG, "tiny", &sets).unwrap()
}

fn latest(store: &Store) -> Latest {
    serde_json::from_slice(
        &store
            .get("checkpoints/t/latest.json")
            .unwrap()
            .unwrap()
            .bytes,
    )
    .unwrap()
}

fn keys(store: &Store, prefix: &str) -> Vec<String> {
    store
        .list(prefix)
        .unwrap()
        .into_iter()
        .map(|l| l.key)
        .collect()
}

#[test]
fn each_generation_is_mirrored_and_latest_names_it() {
    let root = root("mirror");
    let url = "memory://publish-mirror";
    let mut run = Run::open(&root, "t", tiny(&["run.generations=1"]), true).unwrap();
    run.publish_to(Store::open_url(url).unwrap(), &root)
        .unwrap();
    run.run().unwrap();
    let state = run.state().clone();
    drop(run);

    let store = Store::open_url(url).unwrap();
    let l = latest(&store);
    assert_eq!((l.generation, l.step), (1, state.step));
    assert_eq!(l.config, state.config);
    // Everything latest.json names is there, byte for byte.
    for ext in ["bpk", "json"] {
        let key = format!("{}.{ext}", l.checkpoint);
        let local = root.join(format!("checkpoints/t/{:08}.{ext}", state.step));
        assert_eq!(
            store.get(&key).unwrap().expect("the checkpoint").bytes,
            std::fs::read(local).unwrap()
        );
    }
    let shards = keys(&store, "data/t/shards/gen-000001");
    let local: Vec<_> = std::fs::read_dir(root.join("data/t/shards/gen-000001"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(shards.len(), local.len());
    assert!(!shards.is_empty());
    let records = keys(&store, "checkpoints/t");
    for file in ["state.json", "matches.jsonl", "elo.csv"] {
        assert!(
            records.contains(&format!("checkpoints/t/{file}")),
            "{file} in {records:?}"
        );
    }
    assert!(!records.iter().any(|k| k.ends_with("run.lock")));

    // Resumed for a second generation: only its files are added, and the
    // lease given back at the end lets the next trainer in at once.
    let mut run = Run::open(&root, "t", tiny(&["run.generations=2"]), true).unwrap();
    run.publish_to(Store::open_url(url).unwrap(), &root)
        .unwrap();
    run.run().unwrap();
    assert_eq!(latest(&store).generation, 2);
    assert!(!keys(&store, "data/t/shards/gen-000002").is_empty());
    assert_eq!(keys(&store, "data/t/shards/gen-000001"), shards);
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_second_trainer_is_refused_while_the_first_holds_the_lease_and_a_restart_takes_it_back() {
    let url = "memory://publish-lease";
    let first_root = root("lease-1");
    let mut first = Run::open(&first_root, "t", tiny(&["run.generations=1"]), true).unwrap();
    first
        .publish_to(Store::open_url(url).unwrap(), &first_root)
        .unwrap();
    // Another machine (another root) starting the same run on the store.
    let second_root = root("lease-2");
    let mut second = Run::open(&second_root, "t", tiny(&["run.generations=1"]), true).unwrap();
    let err = second
        .publish_to(Store::open_url(url).unwrap(), &second_root)
        .expect_err("refused")
        .to_string();
    assert!(err.contains("is held by"), "{err}");
    assert!(err.contains(url), "{err}");
    // The first trainer killed (dropped without giving the lease back) and
    // restarted on its own folder takes its lease back at once.
    drop(first);
    let mut restarted = Run::open(&first_root, "t", tiny(&["run.generations=1"]), true).unwrap();
    restarted
        .publish_to(Store::open_url(url).unwrap(), &first_root)
        .unwrap();
    drop(restarted);
    drop(second);
    std::fs::remove_dir_all(first_root).unwrap();
    std::fs::remove_dir_all(second_root).unwrap();
}

#[test]
fn a_store_ahead_of_the_local_run_is_refused_not_overwritten() {
    let url = "memory://publish-ahead";
    let first_root = root("ahead-1");
    let mut run = Run::open(&first_root, "t", tiny(&["run.generations=1"]), true).unwrap();
    run.publish_to(Store::open_url(url).unwrap(), &first_root)
        .unwrap();
    run.run().unwrap();
    drop(run);
    let store = Store::open_url(url).unwrap();
    let before = latest(&store);
    // A fresh root: the run there is at generation 0.
    let fresh = root("ahead-2");
    let mut run = Run::open(&fresh, "t", tiny(&["run.generations=1"]), true).unwrap();
    match run.publish_to(Store::open_url(url).unwrap(), &fresh) {
        Err(TrainError::Published { problem, .. }) => {
            assert!(problem.contains("empty root"), "{problem}")
        }
        other => panic!("expected a refusal, got {:?}", other.err()),
    }
    assert_eq!(latest(&store), before, "the store was left as it was");
    drop(run);
    std::fs::remove_dir_all(first_root).unwrap();
    std::fs::remove_dir_all(fresh).unwrap();
}

#[test]
fn a_run_is_restored_from_its_store_onto_an_empty_root_and_goes_on() {
    let url = "memory://publish-restore";
    let first_root = root("restore-1");
    let mut run = Run::open(&first_root, "t", tiny(&["run.generations=2"]), true).unwrap();
    run.publish_to(Store::open_url(url).unwrap(), &first_root)
        .unwrap();
    run.run().unwrap();
    let before = run.state().clone();
    drop(run);
    let store = Store::open_url(url).unwrap();
    // The root that holds the run is not restored over.
    assert_eq!(restore_run(&store, &first_root, "t").unwrap(), None);
    // Nor is a run the store does not hold.
    let fresh = root("restore-2");
    assert_eq!(restore_run(&store, &fresh, "other").unwrap(), None);

    let restored = restore_run(&store, &fresh, "t").unwrap().unwrap();
    assert_eq!((restored.generation, restored.step), (2, before.step));
    assert_eq!(
        restored.generations, 2,
        "the tiny window holds both generations"
    );
    let paths = RunPaths::new(&fresh, "t");
    let first = RunPaths::new(&first_root, "t");
    for file in ["state.json", "matches.jsonl"] {
        assert_eq!(
            std::fs::read(paths.checkpoints.join(file)).unwrap(),
            std::fs::read(first.checkpoints.join(file)).unwrap(),
            "{file}"
        );
    }
    for generation in [1, 2] {
        let folder = |p: &RunPaths| jungle_train::generation_folder(&p.shards, generation);
        let names = |p: &RunPaths| -> Vec<_> {
            let mut n: Vec<_> = std::fs::read_dir(folder(p))
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .collect();
            n.sort();
            n
        };
        assert_eq!(names(&paths), names(&first), "generation {generation}");
    }
    // It resumes there: one more generation, mirrored back.
    let mut run = Run::open(&fresh, "t", tiny(&["run.generations=3"]), true).unwrap();
    assert_eq!(run.state().generation, 2);
    run.publish_to(Store::open_url(url).unwrap(), &fresh)
        .unwrap();
    run.run().unwrap();
    assert_eq!(run.state().generation, 3);
    assert_eq!(latest(&store).generation, 3);
    assert!(latest(&store).finished);
    drop(run);
    std::fs::remove_dir_all(first_root).unwrap();
    std::fs::remove_dir_all(fresh).unwrap();
}

/// Every file under `dir`, as paths relative to it, sorted.
fn files_under(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                found.push(path.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    found.sort();
    found
}

#[test]
fn a_stopped_run_is_carried_to_another_root_and_resumes_there() {
    let from = root("carry-1");
    let to = root("carry-2");
    let mut run = Run::open(&from, "t", tiny(&["run.generations=2"]), true).unwrap();
    run.run().unwrap();
    // A run still open in a process is not copied half-way.
    match carry_run(&from, "t", &to) {
        Err(TrainError::Locked { run, .. }) => assert_eq!(run, "t"),
        other => panic!("expected the run's lock to refuse, got {other:?}"),
    }
    let before = run.state().clone();
    drop(run);

    let carried = carry_run(&from, "t", &to).unwrap();
    assert_eq!((carried.generation, carried.step), (2, before.step));
    assert_eq!(carried.generations, 2, "the tiny window holds both");
    let copied = files_under(&to);
    assert_eq!(copied.len() as u64, carried.files);
    for file in &copied {
        assert_eq!(
            std::fs::read(to.join(file)).unwrap(),
            std::fs::read(from.join(file)).unwrap(),
            "{}",
            file.display()
        );
    }
    let current = format!("checkpoints/t/{:08}.optim.bpk", before.step);
    assert!(copied.contains(&PathBuf::from(&current)), "{copied:?}");
    assert!(
        copied.len() < files_under(&from).len(),
        "only the resume set, not every checkpoint: {copied:?}"
    );

    // A folder that holds the run already is not written over, and a run
    // that is not there is named by its state.json.
    let again = carry_run(&from, "t", &to).unwrap_err().to_string();
    assert!(again.contains("exists already"), "{again}");
    let missing = carry_run(&from, "other", &root("carry-3"))
        .unwrap_err()
        .to_string();
    assert!(missing.contains("other/state.json"), "{missing}");

    // It resumes from the carried root.
    let mut run = Run::open(&to, "t", tiny(&["run.generations=3"]), true).unwrap();
    assert_eq!(run.state().generation, 2);
    run.run().unwrap();
    assert_eq!(run.state().generation, 3);
    drop(run);
    std::fs::remove_dir_all(from).unwrap();
    std::fs::remove_dir_all(to).unwrap();
}

#[test]
fn a_foreign_latest_json_in_the_store_is_an_error_naming_it() {
    let url = "memory://publish-foreign";
    let store = Store::open_url(url).unwrap();
    store
        .put("checkpoints/t/latest.json", b"not json".to_vec())
        .unwrap();
    let root = root("foreign");
    let mut run = Run::open(&root, "t", tiny(&["run.generations=1"]), true).unwrap();
    let err = run
        .publish_to(Store::open_url(url).unwrap(), &root)
        .expect_err("refused")
        .to_string();
    assert!(
        err.contains(url)
            && err.contains("checkpoints/t/latest.json")
            && err.contains("not a latest.json"),
        "{err}"
    );
    drop(run);
    std::fs::remove_dir_all(root).unwrap();
}
