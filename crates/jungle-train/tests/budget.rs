//! Runs budgeted in training samples (`[run] samples`): a run ends on its
//! budget with the schedule read from the samples, and a budget raised on
//! resume extends the run (the same run alone and beside another process:
//! crates/jungle-cli/tests/cli_budget.rs).

use jungle_train::config::{TrainConfig, TINY_CONFIG};
use jungle_train::{Run, RunState};
use std::path::PathBuf;

fn root(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-budget-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The tiny config budgeted in samples, with a schedule that changes
/// within the run (a warm-up and two drops).
fn budgeted(samples: u64, seed: u64) -> TrainConfig {
    let sets: Vec<String> = [
        "run.generations=0".to_string(),
        format!("run.samples={samples}"),
        format!("run.seed={seed}"),
        "train.lr_warmup_steps=5".to_string(),
        "train.lr_drops=[{ at = 0.4, factor = 0.3 }, { at = 0.8, factor = 0.1 }]".to_string(),
        "train.max_steps=8".to_string(),
        "eval.every=100".to_string(),
    ]
    .to_vec();
    TrainConfig::layered(TINY_CONFIG, "tiny", &sets).unwrap()
}

fn train(root: &std::path::Path, name: &str, config: TrainConfig) -> RunState {
    let mut run = Run::open(root, name, config, true).unwrap();
    run.run().unwrap();
    run.state().clone()
}

#[test]
fn a_run_budgeted_in_samples_ends_on_its_budget_and_records_its_yardsticks() {
    // Alone and beside another process: crates/jungle-cli/tests/cli_budget.rs.
    let root = root("alone");
    let samples = 1200;
    let alone = train(&root, "alone", budgeted(samples, 3));
    assert!(alone.generation >= 3, "{} generations", alone.generation);
    // Exactly the budget, rounded up to a batch of 32.
    assert!(
        alone.samples_seen >= samples && alone.samples_seen < samples + 32,
        "{} samples trained",
        alone.samples_seen
    );
    // The schedule read the samples: the last generation ran at the last drop.
    let base = alone.config.train.learning_rate;
    let last = alone.losses.last().unwrap().learning_rate;
    assert!((last - 0.1 * base).abs() < 1e-12, "last rate {last}");
    let rates: Vec<f64> = alone.losses.iter().map(|l| l.learning_rate).collect();
    assert!(rates.windows(2).all(|w| w[1] <= w[0]), "{rates:?}");
    // Every generation has its held-out losses and its probe (the tiny run
    // plays the standard rules), and the plot of them is drawn.
    assert_eq!(alone.probes.len() as u32, alone.generation);
    assert!(alone
        .probes
        .iter()
        .all(|p| p.positions > 900 && p.score.is_some()));
    assert!(alone.losses.iter().all(|l| l.held_out_value.is_some()));
    assert!(root.join("checkpoints/alone/probe.png").is_file());
    let status = alone.budget.as_ref().expect("state.json says the budget");
    assert_eq!(status.rules, "samples");
    assert_eq!(status.limit, samples as f64);
    assert_eq!(status.progress, 1.0);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_budget_raised_on_resume_extends_the_run() {
    let root = root("raised");
    let first = train(&root, "r", budgeted(400, 5));
    let steps_before = first.step;
    let generations_before = first.generation;
    let more = train(&root, "r", budgeted(1000, 5));
    assert!(more.generation > generations_before);
    assert!(more.step > steps_before);
    assert!(more.samples_seen >= 1000 && more.samples_seen < 1032);
    // Nothing before the resume was redone.
    assert_eq!(&more.losses[..first.losses.len()], &first.losses[..]);
    let kept = |c: &[jungle_train::CheckpointInfo]| -> Vec<(u32, u64, u64, u64)> {
        c.iter()
            .map(|c| (c.generation, c.step, c.games, c.samples_seen))
            .collect()
    };
    assert_eq!(
        kept(&more.checkpoints[..first.checkpoints.len()]),
        kept(&first.checkpoints)
    );
    // The schedule read the new budget: the first run ended at the last
    // drop (416 of 400 samples); resumed, 416 of 1000 is past the first
    // drop only, and a generation (at most 8 steps of 32) stays before
    // the second.
    let base = more.config.train.learning_rate;
    let ended = first.losses.last().unwrap().learning_rate;
    assert!(
        (ended - 0.1 * base).abs() < 1e-12,
        "rate {ended} at the end"
    );
    let resumed = more.losses[first.losses.len()].learning_rate;
    assert!(
        (resumed - 0.3 * base).abs() < 1e-12,
        "rate {resumed} after the resume"
    );
    assert_eq!(more.budget.as_ref().unwrap().limit, 1000.0);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_untrained_networks_evaluation_does_not_eat_a_short_budget_in_minutes() {
    // A budget of 0.06 s, far less than the step-0 evaluation's 40 games:
    // the run still trains a generation (before, it ended untrained).
    let sets: Vec<String> = [
        "run.generations=0",
        "run.minutes=0.001",
        "eval.games_vs_anchors=20",
    ]
    .map(String::from)
    .to_vec();
    let root = root("minutes");
    let state = train(
        &root,
        "short",
        TrainConfig::layered(TINY_CONFIG, "tiny", &sets).unwrap(),
    );
    assert_eq!(state.generation, 1);
    assert!(state.step > 0, "{}", state.step);
    std::fs::remove_dir_all(root).unwrap();
}
