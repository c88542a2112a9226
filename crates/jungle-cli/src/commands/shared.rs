//! Pieces several subcommands use: loading a rule set and a position.

use anyhow::{Context, Result};
use jungle_mcts::{BaselineSpec, PlayerFactory};
use jungle_net::{cpu_device, NetSpec};
use jungle_rules::{Position, Rules};

/// Loads `--variant` (a preset name or a toml path).
pub fn load_rules(variant: &str) -> Result<Rules> {
    Ok(Rules::load(variant)?)
}

/// The position given by `--fen`, or the rule set's start position.
pub fn load_position(fen: Option<&str>, rules: &Rules) -> Result<Position> {
    match fen {
        Some(text) => Position::from_fen(text).context("reading --fen"),
        None => Ok(rules.start_position()),
    }
}

/// Parses a player spec: a baseline (`random`, `greedy`, `alphabeta:DEPTH`,
/// `mcts:SIMS`) or a network `net:CHECKPOINT[:SIMS]` (loaded here).
pub fn parse_player(spec: &str) -> Result<Box<dyn PlayerFactory>> {
    if spec.starts_with("net:") {
        return Ok(Box::new(NetSpec::parse(spec, &cpu_device())?));
    }
    let baseline: BaselineSpec = spec
        .parse()
        .map_err(|e: jungle_mcts::SpecError| anyhow::anyhow!("{e} (or net:CHECKPOINT[:SIMS])"))?;
    Ok(Box::new(baseline))
}
