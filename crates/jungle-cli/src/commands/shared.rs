//! Pieces several subcommands use: loading a rule set and a position.

use anyhow::{Context, Result};
use jungle_mcts::PlayerFactory;
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
/// `mcts:SIMS[:KEY=VALUE...]`), a network `net:CHECKPOINT[:SIMS][:KEY=VALUE...]` (loaded
/// here) or an external engine `jcei:PATH[:MOVETIME_MS]`.
pub fn parse_player(spec: &str) -> Result<Box<dyn PlayerFactory>> {
    jungle_engine::parse_player(spec).map_err(anyhow::Error::msg)
}
