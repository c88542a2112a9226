//! Why a training run stopped: each error names the file it met.

use crate::config::ConfigError;
use jungle_net::{CheckpointError, ValueTermsError};
use jungle_play::elo::EloError;
use jungle_play::SpecError;
use jungle_plot::PlotError;
use jungle_rules::RulesError;
use jungle_selfplay::ShardError;
use std::path::PathBuf;

/// Why a run could not go on.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// The position suite the run probes its network on is damaged.
    #[error(transparent)]
    Probe(#[from] jungle_probe::SuiteError),
    /// The config was refused.
    #[error(transparent)]
    Config(Box<ConfigError>),
    /// The rule set could not be loaded.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A file or folder could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A JSON file (`state.json`, a line of `matches.jsonl`) is malformed.
    #[error("{}{}: {source}", path.display(), line.map(|l| format!(" line {l}")).unwrap_or_default())]
    Json {
        /// The file.
        path: PathBuf,
        /// The line, for a JSON-lines file.
        line: Option<usize>,
        /// serde's message.
        source: serde_json::Error,
    },
    /// A resume asked to change keys of the run's config that a resumed
    /// run may not change.
    #[error(
        "run `{run}` was started with another config ({}): {}; a resumed run \
         may change only {}. Resume without --config to use the run's own \
         config, or start another --run",
        state.display(),
        changes.join(", "),
        crate::config::SAFE_ON_RESUME.join(", ")
    )]
    ConfigChanged {
        /// The run's name.
        run: String,
        /// Its `state.json`.
        state: PathBuf,
        /// The refused changes, `key old -> new`.
        changes: Vec<String>,
    },
    /// A run's name that cannot name its folders.
    #[error("run name `{name}`: {problem}; expected 1 to 100 letters, digits, `-`, `_` and `.`, not starting with `.`")]
    RunName {
        /// The name given.
        name: String,
        /// What is wrong with it.
        problem: String,
    },
    /// Another process has the run open.
    #[error("run `{run}` is open in another process (it holds {}); wait for it or use another --run name", lock.display())]
    Locked {
        /// The run's name.
        run: String,
        /// Its lock file.
        lock: PathBuf,
    },
    /// The training diverged: a loss or a weight is NaN or infinite.
    #[error(
        "run `{run}`: the training diverged at generation {generation}, step {step}: {what}; \
         nothing of this generation was saved ({}); lower [train] learning_rate or the \
         schedule's rates and start a new run, or resume from an earlier checkpoint",
        match last { Some(s) => format!("the newest checkpoint is step {s}"), None => "no checkpoint yet".to_string() }
    )]
    Diverged {
        /// The run's name.
        run: String,
        /// The generation being trained.
        generation: u32,
        /// The step at which it was found.
        step: u64,
        /// What was found: the losses, or the first tensor with such values.
        what: String,
        /// The newest checkpoint's step.
        last: Option<u64>,
    },
    /// A checkpoint could not be written or read.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// The optimiser's state could not be written or read.
    #[error("optimizer state `{}`: {message}", path.display())]
    Optimizer {
        /// The file.
        path: PathBuf,
        /// burn's message.
        message: String,
    },
    /// A shard could not be written or read.
    #[error(transparent)]
    Shard(#[from] ShardError),
    /// Self-play's evaluators could not be built.
    #[error("[selfplay] {0}")]
    ValueTerms(#[from] ValueTermsError),
    /// A player of the evaluation could not be loaded.
    #[error(transparent)]
    Player(#[from] SpecError),
    /// The Elo fit failed.
    #[error("{}: {source}", path.display())]
    Elo {
        /// `matches.jsonl`.
        path: PathBuf,
        /// Why.
        source: EloError,
    },
    /// A plot could not be written.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// The store the run is mirrored to failed.
    #[error(transparent)]
    Store(#[from] jungle_store::StoreError),
    /// The device of `[train] device` cannot be used.
    #[error("[train] {0}")]
    Device(#[from] jungle_net::DeviceError),
    /// Self-play by workers was asked for without a store.
    #[error("run `{run}`: self-play by workers needs the store they share: give --store URL")]
    NoStore {
        /// The run.
        run: String,
    },
    /// A run cannot be carried to another root (`jungle carry`).
    #[error("carry run `{run}`: {problem}")]
    Carry {
        /// The run.
        run: String,
        /// Why not.
        problem: String,
    },
    /// What the store holds of the run cannot be used.
    #[error("store `{url}`: `{key}`: {problem}")]
    Published {
        /// The store's URL.
        url: String,
        /// The object.
        key: String,
        /// What is wrong.
        problem: String,
    },
}

impl From<ConfigError> for TrainError {
    fn from(e: ConfigError) -> TrainError {
        TrainError::Config(Box::new(e))
    }
}

impl TrainError {
    /// An I/O error at `path`.
    pub fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> TrainError {
        let path = path.into();
        move |source| TrainError::Io { path, source }
    }
}
