//! `net:CHECKPOINT[:SIMS][:material=W][:qsearch=W][:KEY=VALUE...]`: a
//! network searching with PUCT (default 200 simulations per move), its
//! value optionally with the material term of [`crate::with_material`] and
//! the quiescence term of [`jungle_mcts::WithQuiescence`], its search keys
//! optionally changed.

use crate::checkpoint::{load_checkpoint, CheckpointError};
use crate::evaluator::{check_material_weight, NetEvaluator, NoSurvivalHead, MAX_MATERIAL_WEIGHT};
use crate::model::PolicyValueNet;
use burn::tensor::Device;
use jungle_mcts::players::MctsPlayer;
use jungle_mcts::quiescence::{check_quiescence_weight, MAX_QUIESCENCE_WEIGHT};
use jungle_mcts::{CachedEvaluator, Player, PlayerFactory, Search, SearchConfig, WithQuiescence};
use jungle_rules::Rules;
use std::path::PathBuf;
use std::sync::Arc;

/// Simulations per move when the spec names none.
pub const DEFAULT_NET_SIMULATIONS: u32 = 200;

/// Evaluations a `net:` player keeps for the game it plays (2^16, some 10
/// MB): the positions its searches meet again cost no network call.
pub const PLAYER_EVAL_CACHE: usize = 1 << 16;

/// The form of a `net:` spec, for messages.
pub const NET_SPEC_FORM: &str = "net:CHECKPOINT[:SIMS][:material=W][:qsearch=W][:KEY=VALUE...]";

/// A network player spec with its checkpoint loaded.
#[derive(Debug)]
pub struct NetSpec {
    spec: String,
    checkpoint: PathBuf,
    search: SearchConfig,
    material_weight: f32,
    qsearch_weight: f32,
    net: PolicyValueNet,
    rules: Rules,
}

/// Why a `net:` spec could not be used.
#[derive(Debug, thiserror::Error)]
pub enum NetSpecError {
    /// The text is not a `net:` spec ([`NET_SPEC_FORM`]).
    #[error("player spec `{spec}`: {problem}")]
    Syntax {
        /// The text given.
        spec: String,
        /// What is wrong.
        problem: String,
    },
    /// The checkpoint could not be loaded.
    #[error("player spec `{spec}`: {error}")]
    Checkpoint {
        /// The text given.
        spec: String,
        /// The cause.
        error: CheckpointError,
    },
}

impl NetSpec {
    /// Parses [`NET_SPEC_FORM`] and loads the checkpoint on `device`.
    /// `KEY=VALUE` options set keys of the player's search (those of
    /// `[selfplay.search]`, e.g. `cpuct=2.5`, `solver=false`) over
    /// [`SearchConfig::for_play`]; `material=W` sets the material weight,
    /// `qsearch=W` the quiescence weight.
    pub fn parse(spec: &str, device: &Device) -> Result<NetSpec, NetSpecError> {
        let syntax = |problem: &str| NetSpecError::Syntax {
            spec: spec.to_string(),
            problem: problem.to_string(),
        };
        let mut rest = spec
            .strip_prefix("net:")
            .ok_or_else(|| syntax(&format!("expected `{NET_SPEC_FORM}`")))?;
        let mut options = Vec::new();
        while let Some((head, option)) = rest.rsplit_once(':') {
            let Some(pair) = option.split_once('=') else {
                break;
            };
            options.push(pair);
            rest = head;
        }
        options.reverse();
        let (path, simulations) = match rest.rsplit_once(':') {
            Some((path, sims)) if !sims.is_empty() && sims.bytes().all(|b| b.is_ascii_digit()) => {
                match sims.parse::<u32>() {
                    Ok(n) if (1..=1_000_000).contains(&n) => (path, n),
                    _ => {
                        return Err(syntax(
                            "simulations must be a whole number from 1 to 1000000",
                        ))
                    }
                }
            }
            _ => (rest, DEFAULT_NET_SIMULATIONS),
        };
        if path.is_empty() {
            return Err(syntax("missing checkpoint path after `net:`"));
        }
        let mut search = SearchConfig::for_play(simulations);
        let mut material_weight = 0.0;
        let mut qsearch_weight = 0.0;
        // A weight key: a number from 0 to `max` that `check` accepts.
        let weight =
            |key: &str, value: &str, max: f32, check: fn(f32) -> Result<(), String>| match value
                .parse::<f32>()
            {
                Ok(w) if check(w).is_ok() => Ok(w),
                _ => Err(syntax(&format!(
                    "`{key}={value}`: expected a number from 0 to {max}"
                ))),
            };
        for (key, value) in options {
            if key == "qsearch" {
                qsearch_weight =
                    weight(key, value, MAX_QUIESCENCE_WEIGHT, check_quiescence_weight)?;
            } else if key == "material" {
                material_weight = weight(key, value, MAX_MATERIAL_WEIGHT, check_material_weight)?;
            } else {
                search
                    .set(key, value)
                    .map_err(|e| syntax(&format!("`{key}={value}`: {e}")))?;
            }
        }
        let checkpoint = PathBuf::from(path);
        let loaded =
            load_checkpoint(&checkpoint, device).map_err(|error| NetSpecError::Checkpoint {
                spec: spec.to_string(),
                error,
            })?;
        NoSurvivalHead::check(material_weight, loaded.net.has_survival_head())
            .map_err(|e| syntax(&e.to_string()))?;
        Ok(NetSpec {
            spec: spec.to_string(),
            checkpoint,
            search,
            material_weight,
            qsearch_weight,
            net: loaded.net,
            rules: loaded.meta.rules,
        })
    }

    /// The rule set the checkpoint was trained for.
    pub fn trained_rules(&self) -> &Rules {
        &self.rules
    }

    /// The checkpoint path given.
    pub fn checkpoint(&self) -> &PathBuf {
        &self.checkpoint
    }
}

impl PlayerFactory for NetSpec {
    fn name(&self) -> String {
        self.spec.clone()
    }

    fn build(&self, rules: &Rules, seed: u64) -> Box<dyn Player> {
        let search = Search::new(rules.clone(), self.search.clone(), seed);
        let evaluator = NetEvaluator::new(&self.net, rules.clone())
            .with_material_weight(self.material_weight)
            .expect("checked in NetSpec::parse");
        let evaluator = WithQuiescence::new(evaluator, rules.clone(), self.qsearch_weight);
        let evaluator = CachedEvaluator::new(evaluator, PLAYER_EVAL_CACHE, Arc::default());
        Box::new(MctsPlayer::new(self.spec.clone(), search, evaluator))
    }
}
