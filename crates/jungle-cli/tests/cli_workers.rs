//! A trainer and self-play workers that share only a store, as separate
//! processes (`jungle train --selfplay external`, `jungle worker`): a
//! worker stopped with SIGTERM finishes its batch and exits cleanly, one
//! killed with SIGKILL loses only its games in flight, a trainer killed with SIGKILL and restarted on an emptied root resumes
//! from the store, and the run ends with every generation's games played
//! once. Against the S3 server of `scripts/s3_server.sh` when
//! `JUNGLE_TEST_S3_URL` is set (as in CI), else against a folder store.

mod common;

use common::{jungle, temp_dir};
use jungle_rules::Rules;
use jungle_selfplay::{read_shard, shard_files};
use jungle_store::Store;
use std::collections::HashSet;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const TINY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/tiny.toml");

/// The store URL for this test: a fresh prefix of the test S3 bucket, or a
/// folder.
fn store_url(tag: &str) -> String {
    match std::env::var("JUNGLE_TEST_S3_URL") {
        Ok(base) => format!("{base}/{tag}-{}", std::process::id()),
        Err(_) => format!("file://{}", temp_dir(tag).display()),
    }
}

fn spawn(args: &[&str], log: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(args)
        .stdout(std::fs::File::create(log).unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run jungle")
}

/// Waits until `done` holds, up to two minutes.
fn wait_for(what: &str, done: impl Fn() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "waited too long for {what}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn as_strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn signal(child: &Child, name: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{name}");
}

#[test]
fn workers_feed_a_trainer_that_is_killed_and_restored_from_the_store() {
    // Long enough that the run cannot end before the second worker's
    // SIGTERM below, however fast the machine: the trainer is killed after
    // its first generation or soon after, and the SIGTERM goes out with at
    // least the last generation still to play.
    const GENERATIONS: u64 = 5;
    let generations = format!("run.generations={GENERATIONS}");
    let dir = temp_dir("workers");
    std::fs::create_dir_all(&dir).unwrap();
    let url = store_url("workers-store");
    let root = dir.join("root");
    let root_arg = root.to_str().unwrap().to_string();
    let train_args = [
        "train",
        "--config",
        TINY,
        "--set",
        &generations,
        "--root",
        &root_arg,
        "--run",
        "t",
        "--store",
        &url,
        "--selfplay",
        "external",
    ];
    let worker_args = |id: &'static str| {
        vec![
            "worker".to_string(),
            "--store".to_string(),
            url.clone(),
            "--run".to_string(),
            "t".to_string(),
            "--threads".to_string(),
            "1".to_string(),
            "--id".to_string(),
            id.to_string(),
        ]
    };
    let store = Store::open_url(&url).unwrap();
    // Whether the run has published generation `g` or a later one (a
    // restarted trainer with games waiting may pass several between two
    // looks).
    let published = || {
        store
            .get("checkpoints/t/latest.json")
            .unwrap()
            .map_or(0, |l| {
                let latest: serde_json::Value = serde_json::from_slice(&l.bytes).unwrap();
                latest["generation"].as_u64().unwrap_or(0)
            })
    };
    let latest_generation = |g: u64| published() >= g;
    let mut trainer = spawn(&train_args, &dir.join("train-1.log"));
    let mut first = spawn(&as_strs(&worker_args("w1")), &dir.join("w1.log"));
    let mut second = spawn(&as_strs(&worker_args("w2")), &dir.join("w2.log"));
    wait_for("the first generation in the store", || latest_generation(1));

    // SIGKILL one worker in the middle of its batch, and the trainer; the
    // trainer's machine is lost with its files: the restart on an empty
    // root restores the run from the store.
    signal(&first, "KILL");
    let _ = first.wait();
    signal(&trainer, "KILL");
    let _ = trainer.wait();
    let killed_at = published();
    std::fs::remove_dir_all(&root).unwrap();
    let restarted = Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(train_args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(
        killed_at < GENERATIONS,
        "the run ended before its trainer was killed"
    );
    wait_for("a generation after the restart", || {
        latest_generation((killed_at + 1).min(GENERATIONS - 1))
    });

    // SIGTERM: the worker finishes its batch, uploads it and says why it
    // stopped; a third worker carries the run to its end.
    signal(&second, "TERM");
    assert!(second.wait().unwrap().success());
    let log = std::fs::read_to_string(dir.join("w2.log")).unwrap();
    assert!(log.contains("stopped (it was asked to stop)"), "{log}");
    let mut third = spawn(&as_strs(&worker_args("w3")), &dir.join("w3.log"));
    let out = restarted.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("restored run `t`"), "{stdout}");
    assert!(
        stdout.contains(&format!("run `t`: {GENERATIONS} generations")),
        "{stdout}"
    );
    assert!(third.wait().unwrap().success());
    let log = std::fs::read_to_string(dir.join("w3.log")).unwrap();
    assert!(log.contains("stopped (the run finished)"), "{log}");

    // Every generation's games, each played once by a network of the run.
    let state: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("checkpoints/t/state.json")).unwrap(),
    )
    .unwrap();
    assert!(state["checkpoints"].as_array().unwrap().len() >= GENERATIONS as usize);
    let rules = Rules::load("standard").unwrap();
    let mut seeds = HashSet::new();
    for generation in 1..=GENERATIONS {
        let folder = root.join(format!("data/t/shards/gen-{generation:06}"));
        let mut games = 0;
        for path in shard_files(&folder).unwrap() {
            for game in read_shard(&path, Some(&rules)).unwrap().games {
                assert!(seeds.insert(game.seed), "game {} twice", game.seed);
                let step: u64 = game
                    .checkpoint
                    .strip_prefix("step:")
                    .and_then(|s| s.parse().ok())
                    .expect("names its network");
                assert!(
                    state["checkpoints"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|c| c["step"].as_u64() == Some(step)),
                    "{}",
                    game.checkpoint
                );
                games += 1;
            }
        }
        assert!(games >= 4, "generation {generation}: {games} games");
    }
    let latest = store.get("checkpoints/t/latest.json").unwrap().unwrap();
    assert!(String::from_utf8_lossy(&latest.bytes).contains("\"finished\": true"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_worker_arguments_are_named() {
    let (ok, _, stderr) = jungle(&["train", "--selfplay", "external", "--run", "x"]);
    assert!(!ok);
    assert!(stderr.contains("--store"), "{stderr}");
    let (ok, _, stderr) = jungle(&["worker", "--store", "memory://w", "--id", "a/b"]);
    assert!(!ok);
    assert!(stderr.contains("--id `a/b`"), "{stderr}");
    let (ok, _, stderr) = jungle(&["worker", "--store", "memory://w", "--max-minutes", "0"]);
    assert!(!ok);
    assert!(stderr.contains("--max-minutes"), "{stderr}");
    let (ok, _, stderr) = jungle(&["worker", "--store", "ftp://example.org/x"]);
    assert!(!ok);
    assert!(stderr.contains("ftp://example.org/x"), "{stderr}");
}

/// The `--flags` a deploy recipe passes to `jungle COMMAND`: on each line
/// that names the command and `--store`.
fn recipe_flags(text: &str, command: &str) -> Vec<String> {
    let mut flags = Vec::new();
    for line in text.lines().filter(|l| l.contains("--store")) {
        let words: Vec<&str> = line
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .filter(|w| !w.is_empty())
            .collect();
        if words.first().is_some_and(|w| *w == command)
            || words.windows(2).any(|w| w == ["jungle", command])
        {
            flags.extend(
                words
                    .iter()
                    .filter(|w| w.starts_with("--") && w.len() > 2)
                    .map(|w| w.to_string()),
            );
        }
    }
    flags
}

#[test]
fn the_deploy_recipes_pass_only_flags_jungle_knows() {
    let deploy = concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy");
    let recipes = [
        "compose.yaml",
        "kubernetes/jungle.yaml",
        "slurm/trainer.sbatch",
        "slurm/workers.sbatch",
    ];
    let mut seen = HashSet::new();
    for command in ["train", "worker"] {
        let (ok, help, _) = jungle(&[command, "--help"]);
        assert!(ok);
        for recipe in recipes {
            let text = std::fs::read_to_string(format!("{deploy}/{recipe}")).unwrap();
            for flag in recipe_flags(&text, command) {
                assert!(
                    help.contains(&flag),
                    "deploy/{recipe} passes {flag} to `jungle {command}`"
                );
                seen.insert((command, flag));
            }
        }
    }
    for needed in [
        ("train", "--selfplay"),
        ("train", "--store"),
        ("worker", "--run"),
    ] {
        assert!(
            seen.contains(&(needed.0, needed.1.to_string())),
            "{needed:?} in {seen:?}"
        );
    }
}

#[test]
fn bench_store_takes_every_generation_it_uploads() {
    let dir = temp_dir("bench-store");
    let url = format!("file://{}", dir.display());
    let out = common::json(&[
        "bench",
        "store",
        "--store",
        &url,
        "--shards",
        "30",
        "--per-generation",
        "10",
        "--writers",
        "3",
        "--json",
    ]);
    let rows = out.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(row["generation"], k as u64 + 1);
        assert_eq!(row["shards_ever"], 10 * (k as u64 + 1));
        assert!(row["intake_seconds"].as_f64().unwrap() > 0.0);
    }
    // The bench's own prefix is left empty.
    let store = Store::open_url(&url).unwrap();
    assert!(store.list("bench-store").unwrap().is_empty());
    let (ok, _, stderr) = jungle(&[
        "bench",
        "store",
        "--store",
        &url,
        "--shards",
        "5",
        "--per-generation",
        "10",
    ]);
    assert!(!ok);
    assert!(stderr.contains("--per-generation"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}
