//! What a run keeps to resume (`state.json`): its config, generation,
//! step, budget spent, checkpoints, and per generation its losses, probe
//! and self-play figures; read by the trainer, the reports and summaries,
//! the store's publisher and restore, and `jungle elo` / `shards export`.

use crate::budget::{BudgetStatus, Spent};
use crate::config::TrainConfig;
use crate::error::TrainError;
use crate::layout::{check_run_name, RunPaths};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// A checkpoint of the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointInfo {
    /// Generation that produced it (0 = the initial network).
    pub generation: u32,
    /// Training step.
    pub step: u64,
    /// Hours of run time when it was written.
    pub hours: f64,
    /// Self-play games played before it.
    pub games: u64,
    /// Training samples seen.
    pub samples_seen: u64,
}

/// Mean losses of one generation's training.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LossRecord {
    /// Generation.
    pub generation: u32,
    /// Step at its end.
    pub step: u64,
    /// Mean policy loss.
    pub policy: f32,
    /// Mean value loss.
    pub value: f32,
    /// Mean moves-left loss.
    pub moves_left: f32,
    /// Mean survival loss (0 without the head).
    #[serde(default)]
    pub survival: f32,
    /// Mean short-term value loss (0 without the head).
    #[serde(default)]
    pub short_term: f32,
    /// Learning rate of the generation's last step.
    #[serde(default)]
    pub learning_rate: f64,
    /// Norm of the convolution and dense weights after the generation's
    /// training ([`crate::decay::weight_norm`]; 0 in runs from before it
    /// was recorded).
    #[serde(default)]
    pub weight_norm: f64,
    /// Value loss of the best constant guess on the generation's batches
    /// (the entropy of their mean result target,
    /// [`crate::value_baseline::ValueBaseline`]); `None` when it trained no
    /// batch, and in runs from before it was recorded.
    #[serde(default)]
    pub value_baseline: Option<f32>,
    /// Policy loss on the generation's own new positions before any step
    /// trained on them (at most [`HELD_OUT_POSITIONS`], unmirrored): a
    /// held-out loss, measured free of the training's overfitting; `None`
    /// in runs from before it was recorded.
    #[serde(default)]
    pub held_out_policy: Option<f32>,
    /// Value loss on the same positions.
    #[serde(default)]
    pub held_out_value: Option<f32>,
}

/// The bare network's probe on the fixed sub-suite after one generation
/// ([`jungle_probe`]; `[eval] probe_every`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProbeRecord {
    /// Generation.
    pub generation: u32,
    /// Step of the checkpoint probed.
    pub step: u64,
    /// Positions probed.
    pub positions: usize,
    /// The probe's score: the mean of `policy_mass` and `value_sign`
    /// (docs/probe.md).
    #[serde(default)]
    pub score: Option<f64>,
    /// Share of positions where the move matters whose prior's top move is
    /// a good one.
    pub policy_top1: Option<f64>,
    /// Mean prior mass on the good moves there.
    pub policy_mass: Option<f64>,
    /// Share of won or lost positions whose value has the label's sign.
    pub value_sign: Option<f64>,
    /// Mean log-loss of the value head against the label's class.
    pub value_logloss: Option<f64>,
    /// Seconds the probe took.
    pub seconds: f64,
}

/// One generation's self-play games: how many, how many drawn, how long.
/// The share of draws is the quantity to watch in Jungle self-play: runs
/// whose games settle into repetitions learn little from them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SelfPlayRecord {
    /// Generation.
    pub generation: u32,
    /// Training step of the network that played them.
    pub step: u64,
    /// Games played.
    pub games: u64,
    /// Games drawn (repetition, quiet-move limit or ply cap).
    pub draws: u64,
    /// Plies played in all of them.
    pub plies: u64,
    /// Games per end reason (`den`, `repetition`, ...; see
    /// [`jungle_selfplay::ShardStats::reasons`]); empty in runs from before
    /// it was kept.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ended: BTreeMap<String, u64>,
}

impl SelfPlayRecord {
    /// Share of the games drawn (0 without games).
    pub fn draw_rate(&self) -> f64 {
        self.draws as f64 / self.games.max(1) as f64
    }

    /// Mean game length in plies (0 without games).
    pub fn mean_plies(&self) -> f64 {
        self.plies as f64 / self.games.max(1) as f64
    }
}

/// Everything needed to resume a run (`state.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunState {
    /// The config the run was started with.
    pub config: TrainConfig,
    /// Last finished generation.
    pub generation: u32,
    /// Training steps taken (names the current checkpoint).
    pub step: u64,
    /// Samples trained on.
    pub samples_seen: u64,
    /// Self-play games played.
    pub games: u64,
    /// Training positions ever generated.
    pub positions_ever: u64,
    /// Run time so far (finished phases, across resumes).
    pub seconds: f64,
    /// Every checkpoint.
    pub checkpoints: Vec<CheckpointInfo>,
    /// Losses per generation.
    pub losses: Vec<LossRecord>,
    /// Self-play games per generation (absent in runs from before it was kept).
    #[serde(default)]
    pub selfplay: Vec<SelfPlayRecord>,
    /// Which budget rules the run and how much of it is spent, as of the
    /// last save (absent in runs from before it was kept).
    #[serde(default)]
    pub budget: Option<BudgetStatus>,
    /// The bare network's probes, by generation (`[eval] probe_every`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub probes: Vec<ProbeRecord>,
}

impl RunState {
    /// What the run has spent of its budget.
    pub fn spent(&self) -> Spent {
        Spent {
            generations: self.generation,
            samples: self.samples_seen,
            seconds: self.seconds,
        }
    }
}

/// The config to open run `name` under `root` with: for a run that
/// exists and no `file`, the run's own config from its `state.json` (with
/// `sets` over it); otherwise `file` (or the embedded default) with `sets`
/// over it, as for a new run ([`TrainConfig::load`]).
pub fn run_config(
    root: &Path,
    name: &str,
    file: Option<&Path>,
    sets: &[String],
) -> Result<TrainConfig, TrainError> {
    check_run_name(name)?;
    let paths = RunPaths::new(root, name);
    if file.is_none() && paths.state().exists() {
        let state = read_state(&paths)?;
        let origin = format!("run `{name}`'s config ({})", paths.state().display());
        return Ok(state.config.with_sets(&origin, sets)?);
    }
    Ok(TrainConfig::load(file, sets)?)
}

/// The largest `state.json` [`read_state`] reads (a run's is some
/// kilobytes a generation).
const MAX_STATE_BYTES: u64 = 256 << 20;

/// Reads a run's `state.json`.
pub fn read_state(paths: &RunPaths) -> Result<RunState, TrainError> {
    let path = paths.state();
    let text =
        jungle_files::read_text_bounded(&path, MAX_STATE_BYTES).map_err(TrainError::io(&path))?;
    serde_json::from_str(&text).map_err(|source| TrainError::Json {
        path,
        line: None,
        source,
    })
}
