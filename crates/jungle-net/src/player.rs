//! `net:CHECKPOINT[:SIMS][:material=W]`: a network searching with PUCT
//! (default 200 simulations per move), its value optionally with the
//! material term of [`crate::with_material`].

use crate::checkpoint::{load_checkpoint, CheckpointError};
use crate::evaluator::{check_material_weight, NetEvaluator, NoSurvivalHead, MAX_MATERIAL_WEIGHT};
use crate::model::PolicyValueNet;
use burn::tensor::Device;
use jungle_mcts::players::MctsPlayer;
use jungle_mcts::{Player, PlayerFactory, Search, SearchConfig};
use jungle_rules::Rules;
use std::path::PathBuf;

/// Simulations per move when the spec names none.
pub const DEFAULT_NET_SIMULATIONS: u32 = 200;

/// A network player spec with its checkpoint loaded.
#[derive(Debug)]
pub struct NetSpec {
    spec: String,
    checkpoint: PathBuf,
    simulations: u32,
    material_weight: f32,
    net: PolicyValueNet,
    rules: Rules,
}

/// Why a `net:` spec could not be used.
#[derive(Debug, thiserror::Error)]
pub enum NetSpecError {
    /// The text is not `net:CHECKPOINT[:SIMS]`.
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
    /// Parses `net:CHECKPOINT[:SIMS][:material=W]` and loads the checkpoint
    /// on `device`.
    pub fn parse(spec: &str, device: &Device) -> Result<NetSpec, NetSpecError> {
        let syntax = |problem: &str| NetSpecError::Syntax {
            spec: spec.to_string(),
            problem: problem.to_string(),
        };
        let rest = spec
            .strip_prefix("net:")
            .ok_or_else(|| syntax("expected `net:CHECKPOINT[:SIMS][:material=W]`"))?;
        let (rest, material_weight) = match rest.rsplit_once(":material=") {
            Some((rest, w)) => match w.parse::<f32>() {
                Ok(w) if check_material_weight(w).is_ok() => (rest, w),
                _ => {
                    return Err(syntax(&format!(
                        "`material={w}`: expected a number from 0 to {MAX_MATERIAL_WEIGHT}"
                    )))
                }
            },
            None => (rest, 0.0),
        };
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
            simulations,
            material_weight,
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
        let search = Search::new(
            rules.clone(),
            SearchConfig::for_play(self.simulations),
            seed,
        );
        let evaluator = NetEvaluator::new(&self.net, rules.clone())
            .with_material_weight(self.material_weight)
            .expect("checked in NetSpec::parse");
        Box::new(MctsPlayer::new(self.spec.clone(), search, evaluator))
    }
}
