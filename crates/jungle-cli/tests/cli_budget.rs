//! A run budgeted in training samples makes the same run alone and beside
//! another: `jungle train` on the tiny config (one self-play worker) run
//! once alone, then again while a second `jungle train` process shares
//! the cores; generations, games, plies, steps, samples and learning
//! rates agree, the wall times do not.

mod common;

use common::temp_dir;
use std::process::{Command, Stdio};

const TINY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/tiny.toml");

/// `jungle train` on the tiny config budgeted in `samples`, with a
/// warm-up and two drops, as a child process.
fn start(root: &std::path::Path, run: &str, samples: u64, seed: u64) -> std::process::Child {
    let sets = [
        "run.generations=0".to_string(),
        format!("run.samples={samples}"),
        format!("run.seed={seed}"),
        "train.lr_warmup_steps=5".to_string(),
        "train.max_steps=8".to_string(),
        "train.lr_drops=[{ at = 0.4, factor = 0.3 }, { at = 0.8, factor = 0.1 }]".to_string(),
        "eval.every=100".to_string(),
    ];
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_jungle"));
    cmd.args([
        "train",
        "--config",
        TINY,
        "--root",
        root.to_str().unwrap(),
        "--run",
        run,
    ]);
    for s in &sets {
        cmd.args(["--set", s]);
    }
    cmd.stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn finish(child: std::process::Child) {
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn state(root: &std::path::Path, run: &str) -> serde_json::Value {
    let path = root.join("checkpoints").join(run).join("state.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// What must not depend on the machine: per generation its games, plies,
/// step, samples and learning rate.
fn course(s: &serde_json::Value) -> Vec<String> {
    let losses = s["losses"].as_array().unwrap();
    let selfplay = s["selfplay"].as_array().unwrap();
    let checkpoints = &s["checkpoints"].as_array().unwrap()[1..];
    losses
        .iter()
        .zip(selfplay)
        .zip(checkpoints)
        .map(|((l, sp), c)| {
            format!(
                "gen {} games {} plies {} step {} samples {} lr {}",
                l["generation"],
                sp["games"],
                sp["plies"],
                l["step"],
                c["samples_seen"],
                l["learning_rate"]
            )
        })
        .collect()
}

#[test]
fn a_run_budgeted_in_samples_is_the_same_alone_and_beside_another() {
    let root = temp_dir("budget");
    let samples = 1200;
    finish(start(&root, "alone", samples, 3));
    let other = start(&root, "other", 3000, 9);
    let shared = start(&root, "shared", samples, 3);
    finish(shared);
    finish(other);
    let (alone, shared, other) = (
        state(&root, "alone"),
        state(&root, "shared"),
        state(&root, "other"),
    );
    assert_eq!(course(&alone), course(&shared));
    assert!(course(&alone).len() >= 3, "{:?}", course(&alone));
    assert_ne!(course(&alone), course(&other));
    let samples_seen = alone["samples_seen"].as_u64().unwrap();
    assert!(
        (samples..samples + 32).contains(&samples_seen),
        "{samples_seen}"
    );
    assert_ne!(
        alone["seconds"], shared["seconds"],
        "the clock played no part"
    );
    assert_eq!(shared["budget"]["rules"], "samples");
    assert_eq!(shared["budget"]["progress"], 1.0);
    let _ = std::fs::remove_dir_all(&root);
}
