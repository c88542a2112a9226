//! The training config: `[run]`, `[net]`, `[selfplay]`, `[train]`, `[eval]`.
//! `configs/default.toml` is embedded in the binary and is the bottom
//! layer of every config: a user's file names only the keys it changes,
//! and `--set SECTION.KEY=VALUE` overrides single keys over both
//! ([`crate::layers`]). `configs/tiny.toml` is for smoke runs and tests.

use crate::decay::{WeightDecay, WeightDecayKind};
use crate::layers::{self, LayerError};
use crate::variants::VariantsSetting;
use jungle_net::{DeviceChoice, NetConfig};
use jungle_play::{PlayerSpec, SpecError};
use jungle_rules::InvalidKey;
use jungle_selfplay::{SelfPlayConfig, SelfPlayConfigError};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The embedded default config (`configs/default.toml`).
pub const DEFAULT_CONFIG: &str = include_str!("../../../configs/default.toml");
/// The embedded tiny config (`configs/tiny.toml`).
pub const TINY_CONFIG: &str = include_str!("../../../configs/tiny.toml");

/// How long a run goes and under which rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSection {
    /// Stop after this many generations (0 = no limit).
    pub generations: u32,
    /// Stop after this many minutes of wall-clock time, counted across
    /// resumed runs (0 = no limit); the generation under way is finished.
    pub minutes: f64,
    /// Stop after training on this many samples (0 = no limit): the budget
    /// in compute rather than time. The learning-rate schedule then reads
    /// the share of these samples trained, so a run makes the same
    /// generations, games and steps however fast or busy the machine is
    /// (`minutes` must be 0 with it). The last generation trains only the
    /// samples left.
    #[serde(default)]
    pub samples: u64,
    /// Self-play games per generation.
    pub games_per_generation: u64,
    /// Rule set: a preset name or a toml path (when `variants` is empty).
    pub variant: String,
    /// Self-play over several rule sets ([`crate::variants`]): `"all"`, or
    /// a list of `{ variant, weight }`; empty: `variant` alone.
    #[serde(default)]
    pub variants: VariantsSetting,
    /// Seed of everything (each generation's seeds derive from it).
    pub seed: u64,
    /// With self-play by workers (`jungle train --selfplay external`): a
    /// worker's shard whose games were played by a network more than this
    /// many generations older than the current one is dropped.
    #[serde(default = "default_max_net_age")]
    pub max_net_age: u32,
}

fn default_max_net_age() -> u32 {
    2
}

/// The optimiser and the replay window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainSection {
    /// Positions per step.
    pub batch_size: usize,
    /// Adam learning rate.
    pub learning_rate: f64,
    /// Weight decay rate.
    pub weight_decay: f32,
    /// How the decay is applied ([`crate::decay`]): `l2` (added to every
    /// parameter's gradient, the default) or `decoupled` (AdamW, on
    /// convolution and dense weights only).
    #[serde(default)]
    pub weight_decay_kind: WeightDecayKind,
    /// Smallest replay window, in positions.
    pub window_min_positions: usize,
    /// The window grows by this share of every position ever generated
    /// (KataGo-style), up to `window_max_positions`.
    pub window_growth: f64,
    /// Largest replay window, in positions.
    pub window_max_positions: usize,
    /// Each new position is trained on this many times on average: steps per
    /// generation = new positions x reuse / batch size.
    pub sample_reuse: f64,
    /// Share of the search's own win/draw/loss in the value target (0 to
    /// 1): the target is `(1 - w) x game result + w x (win, draw, loss)` of
    /// the search's root value and draw probability
    /// (`TrainingPosition::blend_search_value`). The search's view is known
    /// at every move, so it is a less noisy (if biased) signal than a
    /// result decided many moves later.
    #[serde(default)]
    pub value_search_weight: f64,
    /// TD(lambda) of the value target (0 to 1): 1 trains on the game's
    /// result alone; lower values bootstrap from the win/draw/loss of the
    /// searches that followed the position (`samples::td_returns`), a
    /// target with less noise than a result decided many moves later.
    #[serde(default = "one_f64")]
    pub value_td_lambda: f64,
    /// Weight of the value (win/draw/loss) loss in the total, beside the
    /// policy's 1 (`[experimental]`; 1 by default, and in configs from
    /// before the key): below 1 the value head fits its window less
    /// closely.
    #[serde(default = "one_f64")]
    pub value_loss_weight: f64,
    /// Policy-surprise weighting (KataGo): positions are drawn in
    /// proportion to `1 - w + w x surprise / mean surprise`, the surprise
    /// being the KL divergence of the search's target from the network's
    /// prior; 0 draws uniformly (as before the key existed), 0.5 is
    /// KataGo's.
    #[serde(default)]
    pub surprise_weight: f64,
    /// Decay of the exponential moving average of the weights (0 to
    /// 0.9999; 0: off): after each step the average moves `1 - d` of the
    /// way to the trained weights, and each checkpoint (the network that
    /// self-play and evaluation use) is the average with its batch norms
    /// recomputed on fresh positions ([`crate::weight_average`]); training
    /// goes on from the raw weights, kept in `checkpoints/RUN/raw/`.
    #[serde(default)]
    pub weight_average_decay: f64,
    /// Where the network trains and self-play evaluates: `auto` (a GPU
    /// when the binary has its backend and one answers, else the CPU),
    /// `cpu`, `cuda` or `wgpu` (docs/gpu.md).
    #[serde(default)]
    pub device: DeviceChoice,
    /// Fewest and most steps per generation.
    pub min_steps: usize,
    /// Most steps per generation.
    pub max_steps: usize,
    /// The learning rate rises linearly from 0 over this many first steps.
    #[serde(default)]
    pub lr_warmup_steps: u64,
    /// Learning-rate drops: from the point `at` of the run (the share of
    /// its budget spent, [`RunSection::progress`]) the rate is
    /// `learning_rate x factor`; the last drop reached applies.
    #[serde(default)]
    pub lr_drops: Vec<LrDrop>,
    /// A cosine schedule instead of the drops when above 0 (`[experimental]`):
    /// after the warm-up the rate falls from `learning_rate` along half a
    /// cosine of the run's progress to `learning_rate x lr_cosine_floor`
    /// at its end; `lr_drops` is then not read. 0 (off): the drops.
    #[serde(default)]
    pub lr_cosine_floor: f64,
}

/// One step of the learning-rate schedule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LrDrop {
    /// Share of the run (0 to 1) from which it applies.
    pub at: f64,
    /// Multiplier of the base learning rate.
    pub factor: f64,
}

impl TrainSection {
    /// The weights of the loss's parts this config trains with.
    pub fn loss_weights(&self) -> crate::losses::LossWeights {
        crate::losses::LossWeights::with_value(self.value_loss_weight as f32)
    }

    /// The weight decay: rate and kind.
    pub fn weight_decay(&self) -> WeightDecay {
        WeightDecay {
            rate: self.weight_decay,
            kind: self.weight_decay_kind,
        }
    }

    /// The learning rate of training step `step` (0-based) when the run is
    /// `progress` (0 to 1) of the way through.
    pub fn learning_rate_at(&self, step: u64, progress: f64) -> f64 {
        let factor = if self.lr_cosine_floor > 0.0 {
            let floor = self.lr_cosine_floor;
            let half_cosine = 0.5 * (1.0 + (std::f64::consts::PI * progress.clamp(0.0, 1.0)).cos());
            floor + (1.0 - floor) * half_cosine
        } else {
            self.lr_drops
                .iter()
                .filter(|d| progress >= d.at)
                .max_by(|a, b| a.at.total_cmp(&b.at))
                .map_or(1.0, |d| d.factor)
        };
        let warmup = if step < self.lr_warmup_steps {
            (step + 1) as f64 / self.lr_warmup_steps as f64
        } else {
            1.0
        };
        self.learning_rate * factor * warmup
    }
}

/// Evaluation matches after each generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalSection {
    /// Games against the previous checkpoint.
    pub games_vs_previous: u32,
    /// Games against each anchor.
    pub games_vs_anchors: u32,
    /// Fixed players, any player spec (`random` is the Elo anchor at 0 and
    /// must be listed).
    pub anchors: Vec<String>,
    /// Simulations per move of the network players.
    pub simulations: u32,
    /// Random plies before the players take over.
    pub opening_plies: u32,
    /// Games of each pairing of the anchors among themselves, played once
    /// per anchor set and rule set, cached under `ROOT/anchors/` and
    /// included in every Elo fit ([`crate::anchors`]); 0: the anchors
    /// meet only the checkpoints.
    #[serde(default)]
    pub anchor_games: u32,
    /// Evaluate every n-th generation's checkpoint (and always the first
    /// and the last); 1 = every generation. Evaluation games cost as much
    /// as self-play, so a larger value leaves more of the run to training.
    #[serde(default = "one")]
    pub every: u32,
    /// Weight of the material term in the network players' value (as
    /// `[selfplay] material_weight`); 0 plays the network's value alone.
    #[serde(default)]
    pub material_weight: f32,
    /// Weight of the quiescence term in the network players' value (as
    /// `[selfplay] qsearch_weight`, `net:...:qsearch=W`); 0 leaves it out.
    #[serde(default)]
    pub qsearch_weight: f32,
    /// Probe the bare network on a fixed sub-suite of the standard position
    /// suite (jungle-probe) every n-th generation; 0 never. Runs under
    /// other rules than `standard` are not probed.
    #[serde(default = "one")]
    pub probe_every: u32,
}

fn one() -> u32 {
    1
}

/// A whole training config.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainConfig {
    /// Length, rules, seed.
    pub run: RunSection,
    /// Architecture.
    pub net: NetConfig,
    /// Self-play.
    pub selfplay: SelfPlayConfig,
    /// Optimiser and window.
    pub train: TrainSection,
    /// Evaluation.
    pub eval: EvalSection,
}

const GIB: f64 = (1u64 << 30) as f64;

/// The machine's memory in bytes (`MemTotal` of `/proc/meminfo`), where it
/// can be read.
fn machine_memory() -> Option<u64> {
    let text = jungle_files::read_text_bounded(Path::new("/proc/meminfo"), 1 << 20).ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// 1: `value_td_lambda`'s value in configs from before it existed (the
/// game's result alone), and `value_loss_weight`'s default.
fn one_f64() -> f64 {
    1.0
}

/// The keys of `[experimental]`: switches that experiments tried and the
/// default did not adopt (each page under `experiments/` says what
/// it measured), and where each is read.
pub const EXPERIMENTAL: [(&str, &[&str]); 9] = [
    ("draw_value", &["selfplay", "search", "draw_value"]),
    (
        "win_in_two_check",
        &["selfplay", "search", "win_in_two_check"],
    ),
    ("minimax_weight", &["selfplay", "search", "minimax_weight"]),
    ("value_search_weight", &["train", "value_search_weight"]),
    ("weight_average_decay", &["train", "weight_average_decay"]),
    ("lr_cosine_floor", &["train", "lr_cosine_floor"]),
    ("value_loss_weight", &["train", "value_loss_weight"]),
    ("exchange_planes", &["net", "exchange_planes"]),
    ("short_term_head", &["net", "short_term_head"]),
];

/// The keys a resumed run may change from the config it was started with:
/// how long it goes and how self-play's work is spread over threads and
/// files. Any other change (rules, network, optimiser, window, search,
/// evaluation, seed) would make one run out of two different ones, so a
/// resume that asks for it is refused ([`TrainConfig::changes`]).
pub const SAFE_ON_RESUME: [&str; 12] = [
    "run.generations",
    "run.minutes",
    "run.samples",
    "run.max_net_age",
    "train.device",
    "selfplay.workers",
    "selfplay.games_in_flight",
    "selfplay.gpu_games_in_flight",
    "selfplay.games_per_shard",
    "selfplay.eval_cache",
    "eval.anchor_games",
    "eval.probe_every",
];

/// One key that differs between two configs.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigChange {
    /// The dotted key, as `--set` names it (`train.learning_rate`).
    pub key: String,
    /// Its value in the first config (`None`: absent).
    pub old: Option<toml::Value>,
    /// Its value in the second.
    pub new: Option<toml::Value>,
}

impl ConfigChange {
    /// Whether a resumed run may make this change ([`SAFE_ON_RESUME`]).
    pub fn is_safe_on_resume(&self) -> bool {
        SAFE_ON_RESUME.contains(&self.key.as_str())
    }
}

impl std::fmt::Display for ConfigChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show =
            |v: &Option<toml::Value>| v.as_ref().map_or("(none)".to_string(), |v| v.to_string());
        write!(f, "{} {} -> {}", self.key, show(&self.old), show(&self.new))
    }
}

/// Why a config was refused; names the config and the key.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("config `{}`: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The text, a `--set` or a key is not accepted before the values are
    /// read (syntax, unknown key).
    #[error("config `{origin}`: {source}")]
    Layer {
        /// The config's name.
        origin: String,
        /// What was wrong.
        source: LayerError,
    },
    /// A value is out of range, or keys disagree.
    #[error("config `{origin}`: [{section}] {source}")]
    Value {
        /// The config's name.
        origin: String,
        /// The table of the key.
        section: &'static str,
        /// Which key, what value, what is expected.
        source: InvalidKey,
    },
    /// `[selfplay]` is refused.
    #[error("config `{origin}`: [selfplay] {source}")]
    SelfPlay {
        /// The config's name.
        origin: String,
        /// Why.
        source: SelfPlayConfigError,
    },
    /// An anchor is not a player.
    #[error("config `{origin}`: [eval] anchors: {source}")]
    Anchor {
        /// The config's name.
        origin: String,
        /// Why.
        source: Box<SpecError>,
    },
}

impl TrainConfig {
    /// Reads `text` as the layer over the embedded default, then the
    /// `sets` (`SECTION.KEY=VALUE`) over both, and validates the result;
    /// `origin` names the config in errors.
    pub fn layered(text: &str, origin: &str, sets: &[String]) -> Result<TrainConfig, ConfigError> {
        // An error may come from a `--set`: the origin names them too.
        let with_sets;
        let origin = if sets.is_empty() {
            origin
        } else {
            with_sets = format!("{origin} with --set {}", sets.join(" --set "));
            &with_sets
        };
        let layer_error = |source| ConfigError::Layer {
            origin: origin.to_string(),
            source,
        };
        let mut table = layers::parse(DEFAULT_CONFIG).expect("the default config is toml");
        // Every key the default names is a key there is (it names them all).
        let known = table.clone();
        layers::merge(&mut table, layers::parse(text).map_err(layer_error)?);
        for s in sets {
            layers::set(&mut table, s).map_err(layer_error)?;
        }
        let simulations = table
            .get("selfplay")
            .and_then(|t| t.get("search"))
            .and_then(|t| t.get("simulations"));
        if let Some(v) = simulations {
            return Err(ConfigError::Value {
                origin: origin.to_string(),
                section: "selfplay.search",
                source: InvalidKey::new(
                    "simulations",
                    v,
                    "no such key here: each move's simulations come from [selfplay] \
                     `full_simulations` and `cheap_simulations`",
                ),
            });
        }
        if let Some(e) = layers::unknown_key(&table, &known) {
            return Err(layer_error(e));
        }
        // The experiments' keys go to where the code reads them.
        if let Some(toml::Value::Table(experimental)) = table.remove("experimental") {
            for (key, value) in experimental {
                let path = EXPERIMENTAL
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, path)| *path)
                    .expect("the unknown-key check passed");
                layers::insert(&mut table, path, value);
            }
        }
        let cfg: TrainConfig = layers::deserialize(&table).map_err(layer_error)?;
        cfg.validate(origin)?;
        Ok(cfg)
    }

    /// Parses config text over the embedded default; `origin` names it in
    /// errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<TrainConfig, ConfigError> {
        TrainConfig::layered(text, origin, &[])
    }

    /// Reads a config file (over the embedded default; `None`: the default
    /// alone), then applies `sets`.
    pub fn load(path: Option<&Path>, sets: &[String]) -> Result<TrainConfig, ConfigError> {
        match path {
            Some(path) => {
                let text = jungle_files::read_text_bounded(path, jungle_files::MAX_SETTINGS_BYTES)
                    .map_err(|source| ConfigError::Read {
                        path: path.to_path_buf(),
                        source,
                    })?;
                TrainConfig::layered(&text, &path.display().to_string(), sets)
            }
            None => TrainConfig::layered("", "configs/default.toml (embedded)", sets),
        }
    }

    /// The config as a layer ([`TrainConfig::layered`]'s text): every key,
    /// the experiments' under `[experimental]` where a user's file names them.
    pub fn to_layer(&self) -> String {
        let mut table = toml::Table::try_from(self).expect("a config serialises to toml");
        // Not a key of a config file: self-play sets each search's budget.
        layers::remove(&mut table, &["selfplay", "search", "simulations"]);
        let mut experimental = toml::Table::new();
        for (key, path) in EXPERIMENTAL {
            if let Some(value) = layers::remove(&mut table, path) {
                experimental.insert(key.to_string(), value);
            }
        }
        table.insert("experimental".to_string(), toml::Value::Table(experimental));
        toml::to_string(&table).expect("a table serialises")
    }

    /// This config (a run's own, from its `state.json`) with `sets` over it.
    pub fn with_sets(&self, origin: &str, sets: &[String]) -> Result<TrainConfig, ConfigError> {
        TrainConfig::layered(&self.to_layer(), origin, sets)
    }

    /// The keys whose values differ from `self` to `new`, in key order.
    pub fn changes(&self, new: &TrainConfig) -> Vec<ConfigChange> {
        let table =
            |c: &TrainConfig| toml::Table::try_from(c).expect("a config serialises to toml");
        layers::changes(&table(self), &table(new))
            .into_iter()
            .map(|(key, old, new)| ConfigChange { key, old, new })
            .collect()
    }

    /// The rule sets of the run's self-play: `[run] variants`, or
    /// `variant` alone (the error names the key).
    pub fn mixture(&self) -> Result<jungle_rules::RuleMixture, ConfigError> {
        self.run
            .variants
            .mixture(&self.run.variant)
            .map_err(|source| ConfigError::Value {
                origin: "the run's config".to_string(),
                section: "run",
                source,
            })
    }

    /// The embedded default config.
    pub fn default_config() -> TrainConfig {
        TrainConfig::load(None, &[]).expect("the default config is valid")
    }

    /// Checks the values; the error names the config, the section and the key.
    pub fn validate(&self, origin: &str) -> Result<(), ConfigError> {
        let value = |section: &'static str| {
            move |source: InvalidKey| ConfigError::Value {
                origin: origin.to_string(),
                section,
                source,
            }
        };
        self.validate_run().map_err(value("run"))?;
        self.net.validate().map_err(value("net"))?;
        self.selfplay
            .validate()
            .map_err(|source| ConfigError::SelfPlay {
                origin: origin.to_string(),
                source,
            })?;
        self.validate_train().map_err(value("train"))?;
        if let Some(memory) = machine_memory() {
            let needs = self.net.training_bytes(self.train.batch_size);
            if needs > memory as f64 {
                return Err(value("net")(InvalidKey::new(
                    "filters",
                    format!(
                        "{} with blocks = {}: training it takes about {:.1} GiB ({:.0} M weights \
                         x 4 copies, activations of a batch of {}), this machine has {:.1} GiB",
                        self.net.filters,
                        self.net.blocks,
                        needs / GIB,
                        self.net.parameters() / 1e6,
                        self.train.batch_size,
                        memory as f64 / GIB
                    ),
                    "a network and batch that fit in memory: fewer blocks or filters, or a smaller batch_size",
                )));
            }
        }
        self.validate_eval().map_err(value("eval"))?;
        for (section, weight) in [
            ("selfplay", self.selfplay.material_weight),
            ("eval", self.eval.material_weight),
        ] {
            if weight != 0.0 && !self.net.has_survival_head() {
                return Err(value(section)(InvalidKey::new(
                    "material_weight",
                    weight,
                    "0 without the survival head (`survival_head = true` in [net])",
                )));
            }
        }
        for a in &self.eval.anchors {
            // Any player spec; `net:` and `jcei:` anchors are loaded or
            // started here once, so a bad one fails before the run starts.
            a.parse::<PlayerSpec>()
                .and_then(|spec| spec.load())
                .map_err(|source| ConfigError::Anchor {
                    origin: origin.to_string(),
                    source: Box::new(source),
                })?;
        }
        Ok(())
    }

    fn validate_run(&self) -> Result<(), InvalidKey> {
        let r = &self.run;
        InvalidKey::check_range("generations", r.generations, 0, 1_000_000)?;
        InvalidKey::check_range("minutes", r.minutes, 0.0, 1e7)?;
        InvalidKey::check_range("samples", r.samples, 0, 1_000_000_000_000)?;
        if r.generations == 0 && r.minutes == 0.0 && r.samples == 0 {
            return Err(InvalidKey::new(
                "minutes",
                "0 with `generations` = 0 and `samples` = 0",
                "a limit: set `samples`, `minutes` or `generations`, or the run never ends",
            ));
        }
        if r.samples > 0 && r.minutes > 0.0 {
            return Err(InvalidKey::new(
                "minutes",
                r.minutes,
                "0 when `samples` is set (a run budgeted in samples does not read the clock)",
            ));
        }
        InvalidKey::check_range("games_per_generation", r.games_per_generation, 1, 1_000_000)?;
        InvalidKey::check_range("max_net_age", r.max_net_age, 0, 1_000_000)?;
        r.variants.mixture(&r.variant)?;
        Ok(())
    }

    fn validate_train(&self) -> Result<(), InvalidKey> {
        let t = &self.train;
        InvalidKey::check_range("batch_size", t.batch_size, 1, 65_536)?;
        InvalidKey::check_range("learning_rate", t.learning_rate, 1e-9, 10.0)?;
        InvalidKey::check_range("weight_decay", t.weight_decay, 0.0, 1.0)?;
        InvalidKey::check_range("sample_reuse", t.sample_reuse, 1e-3, 1000.0)?;
        InvalidKey::check_range("value_search_weight", t.value_search_weight, 0.0, 1.0)?;
        InvalidKey::check_range("value_td_lambda", t.value_td_lambda, 0.0, 1.0)?;
        InvalidKey::check_range("value_loss_weight", t.value_loss_weight, 0.01, 10.0)?;
        InvalidKey::check_range("surprise_weight", t.surprise_weight, 0.0, 1.0)?;
        InvalidKey::check_range("weight_average_decay", t.weight_average_decay, 0.0, 0.9999)?;
        InvalidKey::check_range("window_growth", t.window_growth, 0.0, 1.0)?;
        InvalidKey::check_range(
            "window_min_positions",
            t.window_min_positions,
            1,
            t.window_max_positions.max(1),
        )?;
        InvalidKey::check_range("min_steps", t.min_steps, 0, t.max_steps)?;
        InvalidKey::check_range("max_steps", t.max_steps, 0, 1_000_000)?;
        InvalidKey::check_range("lr_warmup_steps", t.lr_warmup_steps, 0, 10_000_000)?;
        InvalidKey::check_range("lr_cosine_floor", t.lr_cosine_floor, 0.0, 1.0)?;
        for d in &t.lr_drops {
            if !((0.0..=1.0).contains(&d.at) && d.factor.is_finite() && d.factor > 0.0) {
                return Err(InvalidKey::new(
                    "lr_drops",
                    format!("{{ at = {}, factor = {} }}", d.at, d.factor),
                    "0 <= at <= 1 and factor > 0",
                ));
            }
        }
        Ok(())
    }

    fn validate_eval(&self) -> Result<(), InvalidKey> {
        let e = &self.eval;
        if !e.anchors.iter().any(|a| a == "random") {
            return Err(InvalidKey::new(
                "anchors",
                format!("{:?}", e.anchors),
                "a list that includes `random`, the Elo anchor",
            ));
        }
        jungle_mcts::check_simulations("simulations", e.simulations)?;
        InvalidKey::check_range("every", e.every, 1, 1_000_000)?;
        InvalidKey::check_range("games_vs_previous", e.games_vs_previous, 0, 100_000)?;
        InvalidKey::check_range("games_vs_anchors", e.games_vs_anchors, 0, 100_000)?;
        InvalidKey::check_range("anchor_games", e.anchor_games, 0, 100_000)?;
        InvalidKey::check_range("opening_plies", e.opening_plies, 0, 100)?;
        InvalidKey::check_range("probe_every", e.probe_every, 0, 1_000_000)?;
        jungle_net::check_material_weight(e.material_weight)?;
        jungle_mcts::quiescence::check_quiescence_weight(e.qsearch_weight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_names_every_key_there_is() {
        // The unknown-key check takes the default's keys as the known ones:
        // every key a config has is there, the experiments' under
        // [experimental], and `[selfplay.search] simulations` nowhere.
        let mut written = toml::Table::try_from(TrainConfig::default_config()).unwrap();
        let named = layers::parse(DEFAULT_CONFIG).unwrap();
        let mut experimental = toml::Table::new();
        for (key, path) in EXPERIMENTAL
            .iter()
            .copied()
            .chain([("simulations", &["selfplay", "search", "simulations"][..])])
        {
            let (last, sections) = path.split_last().unwrap();
            let mut here = &mut written;
            for section in sections {
                here = here.get_mut(*section).unwrap().as_table_mut().unwrap();
            }
            let value = here.remove(*last).unwrap();
            if key != "simulations" {
                experimental.insert(key.to_string(), value);
            }
        }
        written.insert("experimental".into(), experimental.into());
        assert_eq!(layers::unknown_key(&written, &named), None);
        assert_eq!(layers::unknown_key(&named, &written), None);
    }

    #[test]
    fn the_training_default_and_the_libraries_defaults_are_one_table() {
        // `jungle selfplay` without a config (SelfPlayConfig::default) plays
        // the games the default run plays; a key changed in one place and
        // not the other fails here.
        let default = TrainConfig::default_config();
        assert_eq!(default.selfplay, SelfPlayConfig::default());
    }

    #[test]
    fn the_committed_configs_are_valid() {
        let default = TrainConfig::default_config();
        assert!(default.run.minutes > 0.0);
        assert_eq!(
            default.eval.anchors,
            [
                "random",
                "greedy",
                "alphabeta:2",
                "alphabeta:4",
                "alphabeta:6"
            ]
        );
        let tiny = TrainConfig::from_toml(TINY_CONFIG, "tiny").unwrap();
        assert_eq!(tiny.run.generations, 2);
        // The smoke run goes through the material term in both places.
        assert!(tiny.selfplay.material_weight > 0.0 && tiny.eval.material_weight > 0.0);
        assert!(tiny.selfplay.qsearch_weight > 0.0 && tiny.eval.qsearch_weight > 0.0);
    }

    #[test]
    fn errors_name_the_config_and_the_problem() {
        let e = TrainConfig::from_toml(
            &TINY_CONFIG.replace("generations = 2", "generations = 0"),
            "x.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("x.toml") && e.contains("never ends"), "{e}");
        let e =
            TrainConfig::from_toml(&TINY_CONFIG.replace("filters = 8", "filters = 0"), "x.toml")
                .unwrap_err()
                .to_string();
        assert!(e.contains("[net]") && e.contains("filters"), "{e}");
        let e = TrainConfig::from_toml(
            &TINY_CONFIG.replace("survival_head = true", "survival_head = \"yes\""),
            "x.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("x.toml") && e.contains("survival_head"), "{e}");
        let e = TrainConfig::from_toml(
            &format!("{TINY_CONFIG}\n[experimental]\nexchange_planes = true\n"),
            "x.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("[net]") && e.contains("exchange_planes") && e.contains("tactical_planes"),
            "{e}"
        );
        let e = TrainConfig::from_toml(
            &format!("{TINY_CONFIG}\n[selfplay.search]\nsolver = \"yes\"\n"),
            "x.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("x.toml") && e.contains("solver"), "{e}");
        let e =
            TrainConfig::from_toml(&TINY_CONFIG.replace("\"greedy\"]", "\"grumpy\"]"), "x.toml")
                .unwrap_err()
                .to_string();
        assert!(e.contains("grumpy"), "{e}");
        let e = TrainConfig::from_toml(
            &TINY_CONFIG.replace("lr_drops = []", "lr_drops = [{ at = 1.5, factor = 0.1 }]"),
            "x.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("lr_drops") && e.contains("at = 1.5"), "{e}");
        let e = TrainConfig::from_toml(
            &format!("{TINY_CONFIG}\n[experimental]\nvalue_search_weight = 1.5\n"),
            "x.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("value_search_weight") && e.contains("0 to 1"),
            "{e}"
        );
        // TD(lambda) is the default's (0.9); a config from before it
        // existed reads 1, the result alone.
        let layered = |sets: &[&str]| {
            let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
            TrainConfig::layered(TINY_CONFIG, "tiny", &sets)
        };
        assert_eq!(layered(&[]).unwrap().train.value_td_lambda, 0.9);
        let e = layered(&["train.value_td_lambda=1.5"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("value_td_lambda") && e.contains("0 to 1"), "{e}");
        // The error names the `--set` it may come from.
        assert!(e.contains("with --set train.value_td_lambda=1.5"), "{e}");
        let e = layered(&["selfplay.search.solver=3"])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("`selfplay.search.solver`") && e.contains("--set selfplay.search.solver=3"),
            "{e}"
        );
        let moved = TrainConfig::from_toml(
            &format!("{TINY_CONFIG}\n[experimental]\nvalue_td_lambda = 0.9\n"),
            "x.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(
            moved.contains("`value_td_lambda` is a key of [train]"),
            "{moved}"
        );
        // A decay of 1 would never move the average.
        let e = TrainConfig::from_toml(
            &format!("{TINY_CONFIG}\n[experimental]\nweight_average_decay = 1\n"),
            "x.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("weight_average_decay") && e.contains("0.9999"),
            "{e}"
        );
        // The material weight: in range, and only with the survival head.
        let with = |selfplay: &str, eval: &str, head: bool| {
            let text = TINY_CONFIG
                .replace(
                    "games_per_shard = 4\nmaterial_weight = 0.6   # exercises the material term in self-play (the default keeps 0)\nqsearch_weight = 0.5    # and the quiescence term",
                    &format!("games_per_shard = 4\n{selfplay}"),
                )
                .replace(
                    "opening_plies = 4\nmaterial_weight = 0.6\nqsearch_weight = 0.5",
                    &format!("opening_plies = 4\n{eval}"),
                )
                .replace("survival_head = true", &format!("survival_head = {head}"));
            TrainConfig::from_toml(&text, "x.toml")
        };
        let ok = with("material_weight = 0.5", "material_weight = 1", true).unwrap();
        assert_eq!(
            (ok.selfplay.material_weight, ok.eval.material_weight),
            (0.5, 1.0)
        );
        for (selfplay, eval, section) in [
            ("material_weight = 0.5", "", "[selfplay]"),
            ("", "material_weight = 0.5", "[eval]"),
        ] {
            let e = with(selfplay, eval, false).unwrap_err().to_string();
            assert!(
                e.contains(section)
                    && e.contains("material_weight")
                    && e.contains("survival_head = true"),
                "{e}"
            );
        }
        for (selfplay, eval, section, key) in [
            ("material_weight = -1", "", "[selfplay]", "material_weight"),
            ("", "material_weight = 7", "[eval]", "material_weight"),
            ("qsearch_weight = -0.5", "", "[selfplay]", "qsearch_weight"),
            ("", "qsearch_weight = 4.5", "[eval]", "qsearch_weight"),
        ] {
            let e = with(selfplay, eval, true).unwrap_err().to_string();
            assert!(
                e.contains(section) && e.contains(key) && e.contains("0 to 4"),
                "{e}"
            );
        }
        // The quiescence weight needs no survival head.
        let ok = with(
            "qsearch_weight = 0.5",
            "qsearch_weight = 1\nmaterial_weight = 0",
            false,
        )
        .unwrap();
        assert_eq!(
            (ok.selfplay.qsearch_weight, ok.eval.qsearch_weight),
            (0.5, 1.0)
        );
    }

    #[test]
    fn a_config_names_only_what_it_changes_and_sets_go_over_it() {
        let default = TrainConfig::default_config();
        let five = TrainConfig::from_toml("[run]\nminutes = 5\n", "five.toml").unwrap();
        assert_eq!(five.run.minutes, 5.0);
        assert_eq!(
            TrainConfig {
                run: RunSection {
                    minutes: 60.0,
                    ..five.run.clone()
                },
                ..five.clone()
            },
            default
        );
        let set = |sets: &[&str]| {
            let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
            TrainConfig::layered("[run]\nminutes = 5\n", "five.toml", &sets)
        };
        let cfg = set(&[
            "train.learning_rate=0.001",
            "run.minutes=7",
            "selfplay.search.cpuct=2",
            "run.variant=bank-rats",
        ])
        .unwrap();
        assert_eq!(cfg.train.learning_rate, 0.001);
        assert_eq!(cfg.run.minutes, 7.0, "a set goes over the file");
        assert_eq!(cfg.selfplay.search.cpuct, 2.0);
        assert_eq!(cfg.run.variant, "bank-rats");
        for (sets, key) in [
            (&["train.learnin_rate=0.001"][..], "train.learnin_rate"),
            (&["net.filterz=8"][..], "net.filterz"),
            (&["selfplay.search.cpuctt=2"][..], "selfplay.search.cpuctt"),
        ] {
            let e = set(sets).unwrap_err().to_string();
            assert!(e.contains("unknown key") && e.contains(key), "{e}");
        }
        // A key of another section is named where it lives.
        let e = set(&["train.draw_value=0.1"]).unwrap_err().to_string();
        assert!(e.contains("`draw_value` is a key of [experimental]"), "{e}");
        let e = set(&["run.cpuct=2"]).unwrap_err().to_string();
        assert!(e.contains("`cpuct` is a key of [selfplay.search]"), "{e}");
        let e = TrainConfig::from_toml("[net]\nfilterz = 8\n", "x.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("x.toml") && e.contains("`net.filterz`") && e.contains("filters"),
            "{e}"
        );
        let e = set(&["train.learning_rate"]).unwrap_err().to_string();
        assert!(e.contains("SECTION.KEY=VALUE"), "{e}");
        let e = set(&["train.learning_rate=fast"]).unwrap_err().to_string();
        assert!(e.contains("learning_rate"), "{e}");
    }

    #[test]
    fn a_network_that_cannot_be_trained_in_this_memory_is_refused() {
        // About 0.19 G weights (under the architecture's ceiling), trained
        // on batches of 65,536: some 2,000 GiB of activations.
        let text = TINY_CONFIG
            .replace("blocks = 1", "blocks = 40")
            .replace("filters = 8", "filters = 512")
            .replace("batch_size = 32", "batch_size = 65536");
        let e = TrainConfig::from_toml(&text, "big.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("big.toml")
                && e.contains("filters")
                && e.contains("GiB")
                && e.contains("this machine has"),
            "{e}"
        );
    }

    #[test]
    fn experiments_are_set_under_experimental_only() {
        let cfg = TrainConfig::from_toml(
            "[experimental]\ndraw_value = -0.3\nvalue_search_weight = 0.5\nexchange_planes = true\n",
            "x.toml",
        )
        .unwrap();
        assert_eq!(cfg.selfplay.search.draw_value, -0.3);
        assert_eq!(cfg.train.value_search_weight, 0.5);
        assert_eq!(cfg.net.exchange_planes, Some(true));
        let default = TrainConfig::default_config();
        assert_eq!(default.selfplay.search.draw_value, 0.0);
        assert_eq!(default.net.exchange_planes, Some(false));
        let e = TrainConfig::from_toml("[selfplay.search]\ndraw_value = -0.3\n", "x.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`selfplay.search.draw_value`"), "{e}");
    }

    #[test]
    fn the_weight_decay_kind_is_read_and_checked() {
        let default = TrainConfig::default_config();
        assert_eq!(default.train.weight_decay_kind, WeightDecayKind::L2);
        let cfg = TrainConfig::from_toml("[train]\nweight_decay_kind = \"decoupled\"\n", "x.toml")
            .unwrap();
        assert_eq!(
            cfg.train.weight_decay(),
            WeightDecay {
                rate: default.train.weight_decay,
                kind: WeightDecayKind::Decoupled
            }
        );
        let e = TrainConfig::from_toml("[selfplay]\nroot_value = \"best\"\n", "x.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("x.toml") && e.contains("root_value") && e.contains("chosen"),
            "{e}"
        );
        let e = TrainConfig::from_toml("[train]\nweight_decay_kind = \"adamw\"\n", "x.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("x.toml") && e.contains("weight_decay_kind") && e.contains("decoupled"),
            "{e}"
        );
    }

    #[test]
    fn the_device_is_read_checked_and_may_change_on_resume() {
        assert_eq!(
            TrainConfig::default_config().train.device,
            DeviceChoice::Auto
        );
        let cfg = TrainConfig::from_toml("[train]\ndevice = \"cpu\"\n", "x.toml").unwrap();
        assert_eq!(cfg.train.device, DeviceChoice::Cpu);
        let e = TrainConfig::from_toml("[train]\ndevice = \"tpu\"\n", "x.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("x.toml") && e.contains("device") && e.contains("wgpu"),
            "{e}"
        );
        let changes = TrainConfig::default_config().changes(&cfg);
        assert_eq!(changes.len(), 1, "{changes:?}");
        assert!(changes[0].is_safe_on_resume(), "{}", changes[0]);
        let e = TrainConfig::from_toml("[selfplay]\ngpu_games_in_flight = 0\n", "x.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("gpu_games_in_flight"), "{e}");
    }

    #[test]
    fn every_number_has_a_range() {
        for (text, key) in [
            ("[run]\nminutes = nan\ngenerations = 0\n", "minutes"),
            ("[run]\nminutes = -1.0\n", "minutes"),
            ("[train]\nlearning_rate = inf\n", "learning_rate"),
            ("[train]\nsample_reuse = nan\n", "sample_reuse"),
            ("[train]\nweight_decay = -0.1\n", "weight_decay"),
            ("[train]\nsurprise_weight = 1.5\n", "surprise_weight"),
            ("[train]\nwindow_growth = 2.0\n", "window_growth"),
            ("[run]\nmax_net_age = 2000000\n", "max_net_age"),
            ("[selfplay]\nworkers = 100000\n", "workers"),
            ("[selfplay]\ngames_in_flight = 100000\n", "games_in_flight"),
            ("[eval]\nevery = 0\n", "every"),
        ] {
            let e = TrainConfig::from_toml(text, "x.toml")
                .unwrap_err()
                .to_string();
            assert!(
                e.contains(&format!("`{key}`")) && e.contains("expected"),
                "{text}: {e}"
            );
        }
        let e = TrainConfig::from_toml("[selfplay.search]\nsimulations = 64\n", "x.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("simulations") && e.contains("full_simulations"),
            "{e}"
        );
    }

    #[test]
    fn a_stored_config_reads_back_whole_and_changes_name_their_keys() {
        for text in [DEFAULT_CONFIG, TINY_CONFIG] {
            let cfg = TrainConfig::from_toml(text, "x").unwrap();
            assert_eq!(cfg.with_sets("stored", &[]).unwrap(), cfg);
            assert!(cfg.changes(&cfg).is_empty());
        }
        let tiny = TrainConfig::from_toml(TINY_CONFIG, "tiny").unwrap();
        let sets = [
            "run.generations=5".to_string(),
            "train.learning_rate=0.5".to_string(),
            "experimental.draw_value=-0.25".to_string(),
        ];
        let changed = tiny.with_sets("stored", &sets).unwrap();
        assert_eq!(changed.run.generations, 5);
        assert_eq!(changed.selfplay.search.draw_value, -0.25);
        let changes = tiny.changes(&changed);
        let keys: Vec<&str> = changes.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "run.generations",
                "selfplay.search.draw_value",
                "train.learning_rate"
            ]
        );
        let safe: Vec<bool> = changes
            .iter()
            .map(ConfigChange::is_safe_on_resume)
            .collect();
        assert_eq!(safe, [true, false, false]);
        assert!(changes[2].to_string().ends_with("-> 0.5"), "{}", changes[2]);
        let e = tiny
            .with_sets("stored", &["train.learnin_rate=1".to_string()])
            .unwrap_err()
            .to_string();
        assert!(e.contains("stored") && e.contains("learnin_rate"), "{e}");
    }

    #[test]
    fn the_learning_rate_warms_up_then_follows_the_drops() {
        let mut t = TrainConfig::from_toml(TINY_CONFIG, "tiny").unwrap().train;
        t.learning_rate = 0.01;
        t.lr_warmup_steps = 4;
        t.lr_drops = vec![
            LrDrop {
                at: 0.8,
                factor: 0.1,
            },
            LrDrop {
                at: 0.5,
                factor: 0.3,
            },
        ];
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(close(t.learning_rate_at(0, 0.0), 0.0025));
        assert!(close(t.learning_rate_at(3, 0.0), 0.01));
        assert!(close(t.learning_rate_at(100, 0.49), 0.01));
        assert!(close(t.learning_rate_at(100, 0.5), 0.003));
        assert!(close(t.learning_rate_at(100, 0.9), 0.001));
        // The cosine replaces the drops: full rate at the start, the mean
        // of rate and floor half-way, the floor at the end; the warm-up
        // still applies.
        t.lr_cosine_floor = 0.1;
        assert!(close(t.learning_rate_at(0, 0.0), 0.0025));
        assert!(close(t.learning_rate_at(100, 0.0), 0.01));
        assert!(close(t.learning_rate_at(100, 0.5), 0.0055));
        assert!(close(t.learning_rate_at(100, 1.0), 0.001));
        assert!(t.learning_rate_at(100, 0.25) > t.learning_rate_at(100, 0.3));
    }

    #[test]
    fn the_cosine_floor_is_an_experiment_with_a_range() {
        let t = TrainConfig::from_toml(
            &format!("{TINY_CONFIG}\n[experimental]\nlr_cosine_floor = 0.05\n"),
            "tiny",
        )
        .unwrap();
        assert_eq!(t.train.lr_cosine_floor, 0.05);
        let e = TrainConfig::from_toml(
            &format!("{TINY_CONFIG}\n[experimental]\nlr_cosine_floor = 1.5\n"),
            "tiny",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("lr_cosine_floor") && e.contains("1.5"), "{e}");
    }

    #[test]
    fn the_value_loss_weight_is_an_experiment_with_a_range() {
        let parse = |value: &str| {
            TrainConfig::from_toml(
                &format!("{TINY_CONFIG}\n[experimental]\nvalue_loss_weight = {value}\n"),
                "tiny",
            )
        };
        assert_eq!(
            TrainConfig::from_toml(TINY_CONFIG, "tiny")
                .unwrap()
                .train
                .value_loss_weight,
            1.0
        );
        assert_eq!(parse("0.5").unwrap().train.value_loss_weight, 0.5);
        let e = parse("0.0").unwrap_err().to_string();
        assert!(
            e.contains("value_loss_weight") && e.contains("0.01 to 10"),
            "{e}"
        );
    }
}
