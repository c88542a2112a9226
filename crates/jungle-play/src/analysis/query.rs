//! One analysis query (a JSON object per line) and its checks: the
//! position, the moves, the rule set and the player, each refused with
//! a message that names the field.

use crate::load::load_player_on;
use crate::player::PlayerFactory;
use jungle_mcts::check_simulations;
use jungle_net::Compute;
use jungle_rules::{Game, Move, Position, Rules};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// A query as read: every field but `id` may be left out.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Query {
    /// Echoed in the answer (any JSON value; answers come back in the
    /// order their searches finish).
    pub id: serde_json::Value,
    /// The position string (FEN) the moves start from; default: the rule
    /// set's start.
    #[serde(default)]
    pub position: Option<String>,
    /// Moves played from it, in order; the analysed position is after
    /// them, and they count for repetitions.
    #[serde(default)]
    pub moves: Vec<String>,
    /// A preset name or a toml path; default: the server's.
    #[serde(default)]
    pub variant: Option<String>,
    /// A player spec; default: the server's.
    #[serde(default)]
    pub player: Option<String>,
    /// Simulations of a searching player (default: its spec's).
    #[serde(default)]
    pub simulations: Option<u32>,
    /// How many of the best moves get a line (default 1).
    #[serde(default)]
    pub multipv: Option<usize>,
    /// Moves that get a line whatever their rank.
    #[serde(default)]
    pub analyze_moves: Vec<String>,
}

/// A query whose fields all check out.
pub struct Checked {
    /// The query's id.
    pub id: serde_json::Value,
    /// The player spec, as given or defaulted.
    pub player_name: String,
    /// The player.
    pub player: Arc<dyn PlayerFactory>,
    /// The rule set's name, as given or defaulted.
    pub variant: String,
    /// The rule set.
    pub rules: Rules,
    /// The game up to the analysed position.
    pub game: Game,
    /// Simulations, for a searching player.
    pub simulations: Option<u32>,
    /// Lines for the best moves.
    pub multipv: usize,
    /// Moves that get a line anyway.
    pub analyze_moves: Vec<Move>,
}

/// What a server fills in for the fields a query leaves out, and the
/// players it has loaded.
pub struct Defaults {
    /// The player of queries that name none.
    pub player: Option<String>,
    /// The rule set of queries that name none.
    pub variant: String,
    /// Where `net:` players' networks run.
    pub compute: Compute,
    /// Whether a query may name a `jcei:` player (a program the server
    /// starts); off unless the server is started for local use with
    /// `--allow-programs`.
    pub allow_programs: bool,
    players: HashMap<String, Arc<dyn PlayerFactory>>,
    /// The players' specs, the least recently used first.
    recent: Vec<String>,
}

/// Players a server keeps loaded (a network player holds its network,
/// some megabytes); the least recently used gives way to a new one.
pub const MAX_CACHED_PLAYERS: usize = 8;

/// The largest rule-set file a query may name.
pub const MAX_RULES_FILE: u64 = 1 << 20;

impl Defaults {
    /// Defaults with no player loaded yet.
    pub fn new(player: Option<String>, variant: String, compute: Compute) -> Defaults {
        Defaults {
            player,
            variant,
            compute,
            allow_programs: false,
            players: HashMap::new(),
            recent: Vec::new(),
        }
    }

    /// Players loaded now (at most [`MAX_CACHED_PLAYERS`]).
    pub fn cached_players(&self) -> usize {
        self.players.len()
    }

    /// The player of `spec`, loaded once and kept while it is among the
    /// [`MAX_CACHED_PLAYERS`] most recently used.
    fn player(&mut self, spec: &str) -> Result<Arc<dyn PlayerFactory>, String> {
        self.recent.retain(|s| s != spec);
        if let Some(p) = self.players.get(spec) {
            self.recent.push(spec.to_string());
            return Ok(Arc::clone(p));
        }
        let loaded: Arc<dyn PlayerFactory> = load_player_on(spec, &self.compute)
            .map_err(|e| format!("player: {e}"))?
            .into();
        if self.players.len() >= MAX_CACHED_PLAYERS {
            let oldest = self.recent.remove(0);
            self.players.remove(&oldest);
        }
        self.players.insert(spec.to_string(), Arc::clone(&loaded));
        self.recent.push(spec.to_string());
        Ok(loaded)
    }

    /// The rule set a query names: a preset, the server's own, or a file
    /// that is a regular file of at most [`MAX_RULES_FILE`] bytes (a
    /// device or a FIFO would block the server or fill its memory).
    fn rules(&self, variant: &str) -> Result<Rules, String> {
        if variant != self.variant && Rules::preset(variant).is_none() {
            let meta =
                std::fs::metadata(variant).map_err(|e| format!("variant: `{variant}`: {e}"))?;
            if !meta.is_file() || meta.len() > MAX_RULES_FILE {
                return Err(format!(
                    "variant: `{variant}`: expected a preset name or a rule-set file (a regular file of at most {MAX_RULES_FILE} bytes)"
                ));
            }
        }
        Rules::load(variant).map_err(|e| format!("variant: {e}"))
    }

    /// Reads one line: its id (`null` when there is none to read) and
    /// the checked query, or why it was refused.
    pub fn read(&mut self, line: &str) -> (serde_json::Value, Result<Checked, String>) {
        let value: serde_json::Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => return (serde_json::Value::Null, Err(format!("not JSON: {e}"))),
        };
        let id = value.get("id").cloned().unwrap_or(serde_json::Value::Null);
        if !value.is_object() {
            return (id, Err("expected a JSON object (a query)".to_string()));
        }
        if value.get("id").is_none() {
            return (id, Err("missing field `id`".to_string()));
        }
        let checked = serde_json::from_value::<Query>(value)
            .map_err(|e| e.to_string())
            .and_then(|q| self.check(q));
        (id, checked)
    }

    /// Checks every field of `query`.
    pub fn check(&mut self, query: Query) -> Result<Checked, String> {
        let variant = query.variant.unwrap_or_else(|| self.variant.clone());
        let rules = self.rules(&variant)?;
        let start = match &query.position {
            Some(fen) => Position::from_fen(fen).map_err(|e| format!("position: {e}"))?,
            None => rules.start_position(),
        };
        let mut game = Game::from_position(rules.clone(), start);
        for (i, text) in query.moves.iter().enumerate() {
            game.play_text(text)
                .map_err(|e| format!("moves[{i}] `{text}`: {e}"))?;
        }
        if let Some(outcome) = game.outcome() {
            return Err(format!(
                "the game is already over in this position ({outcome}); nothing to analyze"
            ));
        }
        if let Some(spec) = &query.player {
            if spec.trim_start().starts_with("jcei:") && !self.allow_programs {
                return Err(format!(
                    "player: `{spec}`: a query may not start programs; start the server with --allow-programs for local use"
                ));
            }
        }
        let player_name = query.player.or_else(|| self.player.clone()).ok_or(
            "player: none given (name one in the query, or start the server with --player)",
        )?;
        let player = self.player(&player_name)?;
        if let Some(n) = query.simulations {
            check_simulations("simulations", n)
                .map_err(|e| format!("simulations: {}, expected {}", e.value, e.expected))?;
            if player.search_parts().is_none() {
                return Err(format!(
                    "simulations: player `{player_name}` does not search (only net: and mcts: players take simulations)"
                ));
            }
        }
        let multipv = query.multipv.unwrap_or(1);
        if multipv == 0 {
            return Err("multipv: 0, expected at least 1".to_string());
        }
        let legal = game.legal_moves();
        let analyze_moves = query
            .analyze_moves
            .iter()
            .enumerate()
            .map(|(i, text)| {
                legal
                    .iter()
                    .copied()
                    .find(|m| m.to_string() == *text)
                    .ok_or_else(|| format!("analyze_moves[{i}] `{text}`: not a legal move here"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Checked {
            id: query.id,
            player_name,
            player,
            variant,
            rules,
            game,
            simulations: query.simulations,
            multipv,
            analyze_moves,
        })
    }
}
