//! Replays every input kept under `tests/data/fuzz/<target>/` (the
//! fuzzers' findings and seeds) and every file of the malformed-input
//! corpus `tests/data/malformed/` through the readers: none may panic.

use jungle_fuzz::Target;
use std::path::{Path, PathBuf};

fn data(folder: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(folder)
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs `target` on every file of `dir`; the panics, each naming its file.
fn replay(target: Target, dir: &Path) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let files = files(dir);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        if std::panic::catch_unwind(|| target(&bytes)).is_err() {
            failures.push(path.display().to_string());
        }
    }
    (files.len(), failures)
}

#[test]
fn every_kept_fuzz_input_is_handled_without_a_panic() {
    let mut failures = Vec::new();
    for (name, target) in jungle_fuzz::TARGETS {
        let (count, mut failed) = replay(target, &data("fuzz").join(name));
        assert!(count > 0, "no inputs kept for target {name}");
        failures.append(&mut failed);
    }
    assert!(failures.is_empty(), "panicked on: {failures:#?}");
}

#[test]
fn the_malformed_corpus_is_handled_without_a_panic() {
    // Each corpus folder and the reader its files go to.
    let readers: [(&str, Target); 8] = [
        ("fen", jungle_fuzz::fen),
        ("moves", jungle_fuzz::moves),
        ("specs", jungle_fuzz::player_spec),
        ("configs", jungle_fuzz::config),
        ("variants", jungle_fuzz::variant),
        ("shards", jungle_fuzz::shard),
        ("checkpoints", jungle_fuzz::checkpoint_json),
        ("engine", jungle_fuzz::engine),
    ];
    let mut failures = Vec::new();
    for (folder, reader) in readers {
        let (count, mut failed) = replay(reader, &data("malformed").join(folder));
        assert!(count > 0, "tests/data/malformed/{folder} is empty");
        failures.append(&mut failed);
    }
    assert!(failures.is_empty(), "panicked on: {failures:#?}");
}
