//! The training config: `[run]`, `[net]`, `[selfplay]`, `[train]`, `[eval]`.
//! `configs/default.toml` is embedded in the binary; `configs/tiny.toml` is
//! for smoke runs and tests.

use jungle_net::NetConfig;
use jungle_selfplay::SelfPlayConfig;
use serde::{Deserialize, Serialize};
use std::path::Path;

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
    /// Self-play games per generation.
    pub games_per_generation: u64,
    /// Rule set: a preset name or a toml path.
    pub variant: String,
    /// Seed of everything (each generation's seeds derive from it).
    pub seed: u64,
}

/// The network's architecture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetSection {
    /// Residual blocks.
    pub blocks: usize,
    /// Trunk channels.
    pub filters: usize,
    /// Every n-th block has a global-pooling bias (0 = none).
    #[serde(default)]
    pub global_pool_every: usize,
    /// Policy head channels.
    pub policy_filters: usize,
    /// Value head channels.
    pub value_filters: usize,
    /// Value head hidden width.
    pub value_hidden: usize,
    /// Train an auxiliary piece-survival head.
    #[serde(default)]
    pub survival_head: bool,
    /// Read the tactical input planes (encoding version 2).
    #[serde(default)]
    pub tactical_planes: bool,
    /// Also read the exchange planes (encoding version 3; needs
    /// `tactical_planes`).
    #[serde(default)]
    pub exchange_planes: bool,
}

impl NetSection {
    /// The burn config.
    pub fn to_config(&self) -> NetConfig {
        NetConfig::new()
            .with_blocks(self.blocks)
            .with_filters(self.filters)
            .with_global_pool_every(self.global_pool_every)
            .with_policy_filters(self.policy_filters)
            .with_value_filters(self.value_filters)
            .with_value_hidden(self.value_hidden)
            .with_survival_head(Some(self.survival_head))
            .with_tactical_planes(Some(self.tactical_planes))
            .with_exchange_planes(Some(self.exchange_planes))
    }
}

/// The optimiser and the replay window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainSection {
    /// Positions per step.
    pub batch_size: usize,
    /// Adam learning rate.
    pub learning_rate: f64,
    /// Decoupled weight decay.
    pub weight_decay: f32,
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
    /// Share of the search's root value in the value target (0 to 1): the
    /// target is `(1 - w) x game result + w x root value` (as win/loss
    /// probabilities). The root value is known at every move, so it is a
    /// less noisy (if biased) signal than a result decided many moves later.
    #[serde(default)]
    pub value_search_weight: f64,
    /// Fewest and most steps per generation.
    pub min_steps: usize,
    /// Most steps per generation.
    pub max_steps: usize,
    /// The learning rate rises linearly from 0 over this many first steps.
    #[serde(default)]
    pub lr_warmup_steps: u64,
    /// Learning-rate drops: from the point `at` of the run (a share of its
    /// `minutes` or `generations`, whichever is further along) the rate is
    /// `learning_rate x factor`; the last drop reached applies.
    #[serde(default)]
    pub lr_drops: Vec<LrDrop>,
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
    /// The learning rate of training step `step` (0-based) when the run is
    /// `progress` (0 to 1) of the way through.
    pub fn learning_rate_at(&self, step: u64, progress: f64) -> f64 {
        let factor = self
            .lr_drops
            .iter()
            .filter(|d| progress >= d.at)
            .max_by(|a, b| a.at.total_cmp(&b.at))
            .map_or(1.0, |d| d.factor);
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
    pub net: NetSection,
    /// Self-play.
    pub selfplay: SelfPlayConfig,
    /// Optimiser and window.
    pub train: TrainSection,
    /// Evaluation.
    pub eval: EvalSection,
}

impl TrainConfig {
    /// Parses config text; `origin` names it in errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<TrainConfig, String> {
        let cfg: TrainConfig = toml::from_str(text).map_err(|e| {
            // Name the line too: serde's message alone does not say which key.
            let place = e.span().map_or(String::new(), |span| {
                let start = span.start.min(text.len());
                let number = text[..start].matches('\n').count() + 1;
                let line = text.lines().nth(number - 1).unwrap_or("").trim();
                format!(", line {number} (`{line}`)")
            });
            format!("config `{origin}`{place}: {}", e.message().trim())
        })?;
        cfg.validate()
            .map_err(|e| format!("config `{origin}`: {e}"))?;
        Ok(cfg)
    }

    /// Reads a config file.
    pub fn from_file(path: &Path) -> Result<TrainConfig, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("config `{}`: {e}", path.display()))?;
        TrainConfig::from_toml(&text, &path.display().to_string())
    }

    /// The embedded default config.
    pub fn default_config() -> TrainConfig {
        TrainConfig::from_toml(DEFAULT_CONFIG, "configs/default.toml (embedded)")
            .expect("the default config is valid")
    }

    /// Checks the values; the message names the section and key.
    pub fn validate(&self) -> Result<(), String> {
        if self.run.generations == 0 && self.run.minutes <= 0.0 {
            return Err("[run] set `generations` or `minutes`, or the run never ends".into());
        }
        if self.run.games_per_generation == 0 {
            return Err("[run] `games_per_generation` must be at least 1".into());
        }
        self.net
            .to_config()
            .validate()
            .map_err(|e| format!("[net] {e}"))?;
        self.selfplay
            .validate()
            .map_err(|e| format!("[selfplay] {e}"))?;
        let t = &self.train;
        if t.batch_size == 0
            || t.learning_rate.is_nan()
            || t.learning_rate <= 0.0
            || t.sample_reuse <= 0.0
        {
            return Err(
                "[train] `batch_size`, `learning_rate` and `sample_reuse` must be positive".into(),
            );
        }
        if !(0.0..=1.0).contains(&t.value_search_weight) {
            return Err(format!(
                "[train] `value_search_weight` = {}: expected a share from 0 to 1",
                t.value_search_weight
            ));
        }
        if t.window_min_positions == 0 || t.window_max_positions < t.window_min_positions {
            return Err(
                "[train] expected 0 < `window_min_positions` <= `window_max_positions`".into(),
            );
        }
        for d in &t.lr_drops {
            if !((0.0..=1.0).contains(&d.at) && d.factor.is_finite() && d.factor > 0.0) {
                return Err(format!(
                    "[train] lr_drops: {{ at = {}, factor = {} }}: expected 0 <= at <= 1 and factor > 0",
                    d.at, d.factor
                ));
            }
        }
        if t.min_steps > t.max_steps {
            return Err("[train] `min_steps` is above `max_steps`".into());
        }
        if !self.eval.anchors.iter().any(|a| a == "random") {
            return Err("[eval] `anchors` must include `random`, the Elo anchor".into());
        }
        for a in &self.eval.anchors {
            // Any player spec; `net:` and `jcei:` anchors are loaded or
            // started here once, so a bad one fails before the run starts.
            jungle_engine::parse_player(a).map_err(|e| format!("[eval] anchors: {e}"))?;
        }
        jungle_net::check_material_weight(self.eval.material_weight)
            .map_err(|e| format!("[eval] key {e}"))?;
        jungle_mcts::quiescence::check_quiescence_weight(self.eval.qsearch_weight)
            .map_err(|e| format!("[eval] key {e}"))?;
        for (section, weight) in [
            ("selfplay", self.selfplay.material_weight),
            ("eval", self.eval.material_weight),
        ] {
            jungle_net::NoSurvivalHead::check(weight, self.net.survival_head)
                .map_err(|e| format!("[{section}] {e}"))?;
        }
        if self.eval.simulations == 0 || self.eval.every == 0 {
            return Err("[eval] `simulations` and `every` must be at least 1".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_configs_are_valid() {
        let default = TrainConfig::default_config();
        assert!(default.run.minutes > 0.0);
        assert_eq!(
            default.eval.anchors,
            ["random", "greedy", "alphabeta:2", "alphabeta:4"]
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
        .unwrap_err();
        assert!(e.contains("x.toml") && e.contains("never ends"), "{e}");
        let e =
            TrainConfig::from_toml(&TINY_CONFIG.replace("filters = 8", "filters = 0"), "x.toml")
                .unwrap_err();
        assert!(e.contains("[net]") && e.contains("filters"), "{e}");
        let e = TrainConfig::from_toml(
            &TINY_CONFIG.replace("survival_head = true", "survival_head = \"yes\""),
            "x.toml",
        )
        .unwrap_err();
        assert!(e.contains("x.toml") && e.contains("survival_head"), "{e}");
        let e = TrainConfig::from_toml(
            &TINY_CONFIG.replace(
                "survival_head = true",
                "survival_head = true\nexchange_planes = true",
            ),
            "x.toml",
        )
        .unwrap_err();
        assert!(
            e.contains("[net]") && e.contains("exchange_planes") && e.contains("tactical_planes"),
            "{e}"
        );
        let e = TrainConfig::from_toml(
            &TINY_CONFIG.replace(
                "gumbel_noise = true",
                "gumbel_noise = true\nsolver = \"yes\"",
            ),
            "x.toml",
        )
        .unwrap_err();
        assert!(e.contains("x.toml") && e.contains("solver"), "{e}");
        let e =
            TrainConfig::from_toml(&TINY_CONFIG.replace("\"greedy\"]", "\"grumpy\"]"), "x.toml")
                .unwrap_err();
        assert!(e.contains("grumpy"), "{e}");
        let e = TrainConfig::from_toml(
            &TINY_CONFIG.replace(
                "max_steps = 20",
                "max_steps = 20\nlr_drops = [{ at = 1.5, factor = 0.1 }]",
            ),
            "x.toml",
        )
        .unwrap_err();
        assert!(e.contains("lr_drops") && e.contains("at = 1.5"), "{e}");
        let e = TrainConfig::from_toml(
            &TINY_CONFIG.replace(
                "max_steps = 20",
                "max_steps = 20\nvalue_search_weight = 1.5",
            ),
            "x.toml",
        )
        .unwrap_err();
        assert!(
            e.contains("value_search_weight") && e.contains("0 to 1"),
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
            let e = with(selfplay, eval, false).unwrap_err();
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
            let e = with(selfplay, eval, true).unwrap_err();
            assert!(
                e.contains(section) && e.contains(key) && e.contains("0 to 4"),
                "{e}"
            );
        }
        // The quiescence weight needs no survival head.
        let ok = with("qsearch_weight = 0.5", "qsearch_weight = 1", false).unwrap();
        assert_eq!(
            (ok.selfplay.qsearch_weight, ok.eval.qsearch_weight),
            (0.5, 1.0)
        );
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
    }
}
