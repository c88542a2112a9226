//! Search settings.

use jungle_rules::InvalidKey;
use serde::{Deserialize, Serialize};

/// How the root's moves are chosen during the search.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RootSelection {
    /// PUCT everywhere (AlphaZero), with Dirichlet noise at the root.
    Puct,
    /// Gumbel-top-k sampling and sequential halving at the root (Danihelka et
    /// al., ICLR 2022); PUCT below it.
    Gumbel,
}

/// Every knob of the search.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchConfig {
    /// Simulations (descents from the root) per move.
    pub simulations: u32,
    /// PUCT exploration constant.
    pub cpuct: f32,
    /// First-play urgency: an unvisited child is valued at the parent's value
    /// minus this times the square root of the visited children's prior mass.
    pub fpu_reduction: f32,
    /// Dirichlet noise concentration at the root (PUCT mode).
    pub dirichlet_alpha: f32,
    /// Weight of the Dirichlet noise at the root; 0 turns it off.
    pub dirichlet_fraction: f32,
    /// Move choice in PUCT mode: 0 plays the most visited move, otherwise
    /// moves are drawn in proportion to visits^(1/temperature).
    pub temperature: f32,
    /// Leaves one tree contributes to each evaluator call (virtual loss keeps
    /// them apart).
    pub leaves_per_round: u32,
    /// Value counted against a path while its leaf is being evaluated.
    pub virtual_loss: f32,
    /// PUCT or Gumbel at the root.
    pub root: RootSelection,
    /// Gumbel: moves sampled for sequential halving (m).
    pub gumbel_considered: u32,
    /// Gumbel: c_visit of the completed-Q transform.
    pub gumbel_c_visit: f32,
    /// Gumbel: c_scale of the completed-Q transform.
    pub gumbel_c_scale: f32,
    /// Gumbel: add Gumbel noise (self-play); off plays deterministically.
    pub gumbel_noise: bool,
    /// Keep the subtree of the move played for the next search.
    pub reuse_tree: bool,
    /// Look for a move that wins at once (into the den, or taking the last
    /// animal) at every new leaf: such a leaf is scored as a win without
    /// asking the evaluator, and at the root that move is played at once.
    /// The rules decide it, so it is exact; it lets a small search see a
    /// den threat one ply earlier.
    pub win_check: bool,
    /// Also score a new leaf as a loss when every move
    /// there lets the opponent win at once (two threats, or one that cannot
    /// be parried) — exact, and a ply deeper again; costs one move
    /// generation per legal move at each leaf.
    pub loss_check: bool,
    /// Also score a new leaf as a win when the side to move has a move
    /// after which every reply lets it win at once (a den threat that
    /// cannot be parried, two threats, the last animal cornered): exact, a
    /// ply deeper than `loss_check`. Looked for only when one of its
    /// animals is within a step of a square next to the enemy den, or the
    /// enemy has two animals or fewer. Off by default: no gain measured
    /// (against `alphabeta:4`, nor in a one-hour run) for 18% fewer
    /// evaluations per second in self-play.
    pub win_in_two_check: bool,
    /// MCTS-solver (Winands et al., 2008; lc0's certainty propagation):
    /// a node with a child proven won for its side to move, or whose
    /// children are all proven, is itself proven and is scored exactly
    /// from then on; the search never picks a proven-lost move over one
    /// that is not, and plays a proven win at once. Proofs come from the
    /// game's end and the exact leaf checks above, so they are exact. Off
    /// by default (self-play): the one-hour network trained with it lost
    /// 0.285 to the one without (`experiments/ablation-solver.md`). On for
    /// players ([`SearchConfig::for_play`]), where it gained 0.01 to 0.035
    /// against `alphabeta:4`.
    pub solver: bool,
    /// Value of a drawn end (repetition, quiet-move limit) met in the tree,
    /// for the side whose move made it, in [-1, 1]; 0 is the game's own
    /// value. A small negative value (self-play) makes a side that stands
    /// better play on instead of repeating, while a side that stands worse
    /// still takes the draw. It depends only on who moved into the draw,
    /// never on the root, so a reused tree stays consistent.
    pub draw_value: f32,
    /// Root safety check: after the search, an exact search of forced wins
    /// (`crate::forced`, den and last-animal wins through every reply)
    /// looks `safety_moves` of a side's own moves ahead. A forced win found
    /// for the side to move is played (the shortest first); a chosen move
    /// that hands the opponent a forced win gives way to the next move in
    /// the search's order (visits, then prior) that is not found to. 0 turns
    /// it off (self-play); the training targets are never changed.
    pub safety_moves: u32,
    /// Nodes (move generations) the safety check may search per move; when
    /// they run out, a move not yet proven to lose counts as safe.
    pub safety_nodes: u64,
    /// Implicit minimax backups (Lanctot et al., 2014): every node the
    /// search has evaluated also keeps the minimax, over the tree below
    /// it, of the quiescence search's score at its leaves
    /// ([`crate::quiescence::quiescence_score`] squashed by
    /// [`crate::heuristic::to_value`]), and selection values a visited
    /// child at `1 - w` times its mean plus `w` times that minimax. The
    /// means still come from the evaluator alone; the minimax carries the
    /// exchanges the tree has seen to the root without being averaged
    /// away. From 0 (off: no quiescence search is run) to 1.
    pub minimax_weight: f32,
}

/// Simulations a player searches per move when nothing names a number:
/// a `net:` spec without one, the analysis server's queries, the browser
/// page and the Python package (the one home of this default; the table of
/// every search default is in docs/design.md).
pub const PLAYER_SIMULATIONS: u32 = 200;

/// The most simulations one search may be asked for, by a spec, an
/// analysis query, the page or Python: a tree of that many nodes is some
/// hundreds of MB, and a budget above it is a typo rather than a plan.
pub const MAX_SIMULATIONS: u32 = 1_000_000;

/// Checks a search's budget: 1 to [`MAX_SIMULATIONS`] (the one check of
/// it, for configs, analysis queries and the page; the message names
/// `key`).
pub fn check_simulations(key: &str, simulations: u32) -> Result<(), InvalidKey> {
    InvalidKey::check_range(key, simulations, 1, MAX_SIMULATIONS)
}

/// How far the root safety check of players looks ([`SearchConfig::for_play`]):
/// three moves of each side (five plies after the move), under a
/// millisecond a move on average.
pub const PLAY_SAFETY_MOVES: u32 = 3;

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            simulations: PLAYER_SIMULATIONS,
            cpuct: 1.5,
            fpu_reduction: 0.25,
            dirichlet_alpha: 0.4,
            dirichlet_fraction: 0.0,
            temperature: 0.0,
            leaves_per_round: 1,
            virtual_loss: 1.0,
            root: RootSelection::Puct,
            gumbel_considered: 16,
            gumbel_c_visit: 50.0,
            gumbel_c_scale: 0.1,
            gumbel_noise: false,
            reuse_tree: true,
            win_check: true,
            loss_check: true,
            win_in_two_check: false,
            solver: false,
            draw_value: 0.0,
            safety_moves: 0,
            safety_nodes: 200_000,
            minimax_weight: 0.0,
        }
    }
}

/// Sets one field of a config from a value read from text, typed as the
/// field (serde's rules: a whole number reads as a float, a string as an
/// enum's variant).
type SetField = fn(&mut SearchConfig, toml::Value) -> Result<(), toml::de::Error>;

/// Declares [`SEARCH_KEYS`] from the list of [`SearchConfig`]'s fields, and
/// a function that stops compiling when a field is missing from the list.
macro_rules! search_keys {
    ($($field:ident),* $(,)?) => {
        /// Every key of the search, by name, with its typed setter: the one
        /// table that a player spec's `KEY=VALUE` (and anything else that
        /// sets a search key from text) reads.
        const SEARCH_KEYS: &[(&str, SetField)] = &[$((
            stringify!($field),
            |config, value| {
                config.$field = Deserialize::deserialize(value)?;
                Ok(())
            },
        )),*];

        /// Names every field without `..`: adding a field to
        /// [`SearchConfig`] without a key here fails to compile.
        #[allow(dead_code)]
        fn every_field_is_a_key(config: SearchConfig) {
            let SearchConfig { $($field: _),* } = config;
        }
    };
}

search_keys!(
    simulations,
    cpuct,
    fpu_reduction,
    dirichlet_alpha,
    dirichlet_fraction,
    temperature,
    leaves_per_round,
    virtual_loss,
    root,
    gumbel_considered,
    gumbel_c_visit,
    gumbel_c_scale,
    gumbel_noise,
    reuse_tree,
    win_check,
    loss_check,
    win_in_two_check,
    solver,
    draw_value,
    safety_moves,
    safety_nodes,
    minimax_weight,
);

impl SearchConfig {
    /// The search of a player outside self-play (`net:` and `mcts:`
    /// players, evaluation games, the engine): the defaults with
    /// `simulations`, the solver on and the root safety check three moves
    /// deep.
    pub fn for_play(simulations: u32) -> SearchConfig {
        SearchConfig {
            simulations,
            solver: true,
            safety_moves: PLAY_SAFETY_MOVES,
            ..SearchConfig::default()
        }
    }

    /// Sets one key from text, as a player spec writes it (`cpuct=2.5`,
    /// `root=gumbel`, `solver=false`): the value is read as a TOML value,
    /// or as a string when it is not one, typed as the key's field (one
    /// table of keys and their setters), and the result is validated. The
    /// message names the key and what was expected; an unknown key lists
    /// the known ones. A refused value leaves the config as it was.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SearchKeyError> {
        let Some((_, set_field)) = SEARCH_KEYS.iter().find(|(name, _)| *name == key) else {
            let known: Vec<&str> = SEARCH_KEYS.iter().map(|(name, _)| *name).collect();
            return Err(SearchKeyError::Unknown {
                key: key.to_string(),
                known: known.join(", "),
            });
        };
        let parsed = format!("v = {value}")
            .parse::<toml::Table>()
            .ok()
            .and_then(|mut t| t.remove("v"))
            .unwrap_or_else(|| toml::Value::String(value.to_string()));
        let mut config = self.clone();
        set_field(&mut config, parsed).map_err(|e| SearchKeyError::Value {
            key: key.to_string(),
            value: value.to_string(),
            message: e.message().trim().to_string(),
        })?;
        config.validate()?;
        *self = config;
        Ok(())
    }

    /// Checks the values; the message names the key and what was expected.
    pub fn validate(&self) -> Result<(), InvalidKey> {
        let positive = [
            ("cpuct", self.cpuct),
            ("dirichlet_alpha", self.dirichlet_alpha),
            ("gumbel_c_visit", self.gumbel_c_visit),
            ("gumbel_c_scale", self.gumbel_c_scale),
        ];
        for (key, v) in positive {
            if !(v.is_finite() && v > 0.0) {
                return Err(InvalidKey::new(key, v, "a positive number"));
            }
        }
        let non_negative = [
            ("fpu_reduction", self.fpu_reduction),
            ("temperature", self.temperature),
            ("virtual_loss", self.virtual_loss),
        ];
        for (key, v) in non_negative {
            if !(v.is_finite() && v >= 0.0) {
                return Err(InvalidKey::new(key, v, "a number >= 0"));
            }
        }
        InvalidKey::check_range("dirichlet_fraction", self.dirichlet_fraction, 0.0, 1.0)?;
        InvalidKey::check_range("minimax_weight", self.minimax_weight, 0.0, 1.0)?;
        InvalidKey::check_range("draw_value", self.draw_value, -1.0, 1.0)?;
        check_simulations("simulations", self.simulations)?;
        if self.leaves_per_round == 0 {
            return Err(InvalidKey::new("leaves_per_round", 0, "at least 1"));
        }
        if self.safety_moves > 0 && self.safety_nodes == 0 {
            return Err(InvalidKey::new(
                "safety_nodes",
                format!("0 with `safety_moves` = {}", self.safety_moves),
                "at least 1 (or `safety_moves` = 0 to turn the check off)",
            ));
        }
        if self.gumbel_considered < 2 {
            return Err(InvalidKey::new(
                "gumbel_considered",
                self.gumbel_considered,
                "at least 2",
            ));
        }
        Ok(())
    }
}

/// Why [`SearchConfig::set`] refused a key.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchKeyError {
    /// No such key.
    #[error("unknown search key `{key}`; expected one of {known}")]
    Unknown {
        /// The key given.
        key: String,
        /// The keys there are, comma-separated.
        known: String,
    },
    /// The value is not of the key's type.
    #[error("search key `{key}` = `{value}`: {message}")]
    Value {
        /// The key.
        key: String,
        /// The text given.
        value: String,
        /// What is wrong.
        message: String,
    },
    /// The value is of the right type but out of range.
    #[error(transparent)]
    Invalid(#[from] InvalidKey),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_search_with_the_solver_and_self_play_without() {
        let play = SearchConfig::for_play(321);
        assert!(play.solver && !SearchConfig::default().solver);
        assert_eq!(play.safety_moves, PLAY_SAFETY_MOVES);
        assert_eq!(SearchConfig::default().safety_moves, 0);
        assert_eq!(
            SearchConfig {
                solver: false,
                safety_moves: 0,
                ..play
            },
            SearchConfig {
                simulations: 321,
                ..SearchConfig::default()
            }
        );
    }

    #[test]
    fn keys_set_from_text_are_typed_and_validated() {
        let mut cfg = SearchConfig::for_play(100);
        cfg.set("cpuct", "2.5").unwrap();
        cfg.set("root", "gumbel").unwrap();
        cfg.set("solver", "false").unwrap();
        cfg.set("simulations", "64").unwrap();
        cfg.set("safety_moves", "0").unwrap();
        assert_eq!(
            cfg,
            SearchConfig {
                cpuct: 2.5,
                root: RootSelection::Gumbel,
                simulations: 64,
                ..SearchConfig::default()
            }
        );
        let mut whole = cfg.clone();
        whole.set("cpuct", "2").unwrap();
        assert_eq!(whole.cpuct, 2.0, "a whole number is read as a float");
        let before = cfg.clone();
        let e = cfg.set("cpuctt", "2").unwrap_err().to_string();
        assert!(e.contains("cpuctt") && e.contains("fpu_reduction"), "{e}");
        let e = cfg.set("root", "minimax").unwrap_err().to_string();
        assert!(e.contains("root") && e.contains("minimax"), "{e}");
        let e = cfg.set("solver", "yes").unwrap_err().to_string();
        assert!(e.contains("solver"), "{e}");
        let e = SearchConfig::for_play(10)
            .set("safety_nodes", "0")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("safety_nodes") && e.contains("at least 1"),
            "{e}"
        );
        let e = cfg.set("minimax_weight", "2").unwrap_err().to_string();
        assert!(e.contains("minimax_weight") && e.contains("0 to 1"), "{e}");
        let mut implicit = cfg.clone();
        implicit.set("minimax_weight", "0.3").unwrap();
        assert_eq!(implicit.minimax_weight, 0.3);
        let e = cfg.set("cpuct", "-1").unwrap_err().to_string();
        assert!(e.contains("cpuct") && e.contains("positive"), "{e}");
        assert_eq!(cfg, before, "a rejected value leaves the config as it was");
    }

    #[test]
    fn the_key_table_names_every_key_a_config_file_has() {
        let file = toml::Table::try_from(SearchConfig::default()).unwrap();
        let mut keys: Vec<&str> = SEARCH_KEYS.iter().map(|(name, _)| *name).collect();
        keys.sort_unstable();
        let file_keys: Vec<&str> = file.keys().map(String::as_str).collect();
        assert_eq!(keys, file_keys);
        // Each setter writes its own field: every key set from a changed
        // config's TOML value turns the default into that config.
        let changed = SearchConfig {
            simulations: 7,
            cpuct: 3.5,
            root: RootSelection::Gumbel,
            solver: true,
            safety_nodes: 9,
            minimax_weight: 0.25,
            ..SearchConfig::default()
        };
        let values = toml::Table::try_from(&changed).unwrap();
        let mut rebuilt = SearchConfig::default();
        for (name, set_field) in SEARCH_KEYS {
            set_field(&mut rebuilt, values[*name].clone()).unwrap();
        }
        assert_eq!(rebuilt, changed);
    }

    #[test]
    fn out_of_range_values_name_their_key() {
        assert!(SearchConfig::default().validate().is_ok());
        let bad = |cfg: SearchConfig| cfg.validate().unwrap_err().to_string();
        let e = bad(SearchConfig {
            draw_value: -1.5,
            ..SearchConfig::default()
        });
        assert!(e.contains("draw_value") && e.contains("-1 to 1"), "{e}");
        for w in [-0.1, 1.5, f32::NAN] {
            let e = bad(SearchConfig {
                minimax_weight: w,
                ..SearchConfig::default()
            });
            assert!(e.contains("minimax_weight") && e.contains("0 to 1"), "{e}");
        }
        let e = bad(SearchConfig {
            cpuct: 0.0,
            ..SearchConfig::default()
        });
        assert!(e.contains("cpuct"), "{e}");
    }
}
