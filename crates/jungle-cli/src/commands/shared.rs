//! Pieces several subcommands use: loading a rule set and a position.

use anyhow::{Context, Result};
use jungle_mcts::players::SPEC_FORMS;
use jungle_mcts::{BaselineSpec, PlayerFactory};
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

/// Parses a player spec; network players (`net:`) come with the network crate.
pub fn parse_player(spec: &str) -> Result<Box<dyn PlayerFactory>> {
    if spec.starts_with("net:") {
        anyhow::bail!(
            "player spec `{spec}`: network players are not built yet (they come with the jungle-net crate); use {SPEC_FORMS}"
        );
    }
    let baseline: BaselineSpec = spec.parse()?;
    Ok(Box::new(baseline))
}
