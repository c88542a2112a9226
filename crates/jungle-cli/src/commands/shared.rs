//! Pieces several subcommands use: loading a rule set and a position.

use anyhow::{Context, Result};
use jungle_play::PlayerFactory;
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

/// Parses a player spec ([`jungle_play::PLAYER_FORMS`]) and loads it: a
/// `net:` checkpoint is read, a `jcei:` engine started once.
pub fn parse_player(spec: &str) -> Result<Box<dyn PlayerFactory>> {
    Ok(jungle_play::load_player(spec)?)
}
