//! Self-play settings (a `[selfplay]` table in a config file).

use jungle_mcts::{check_simulations, CacheCounters, RootSelection, SearchConfig};
use jungle_net::{InferenceNet, NetStack, ValueTerms, ValueTermsError};
use jungle_rules::InvalidKey;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Why a `[selfplay]` table was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SelfPlayConfigError {
    /// A key of `[selfplay]` is out of range.
    #[error("{0}")]
    Key(#[from] InvalidKey),
    /// A key of `[selfplay.search]` is out of range.
    #[error("[search] {0}")]
    Search(InvalidKey),
}

/// Every knob of self-play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SelfPlayConfig {
    /// Worker threads, each with its own evaluator and games; 0 = one per core.
    pub workers: usize,
    /// Games each worker drives at once: its evaluator sees batches of about this size.
    pub games_in_flight: usize,
    /// `games_in_flight` when the network runs on a GPU: the server gathers
    /// every worker's batch into one pass, and a GPU needs hundreds to
    /// thousands of positions per pass to be busy (docs/gpu.md).
    pub gpu_games_in_flight: usize,
    /// Simulations of a full search (a training target).
    pub full_simulations: u32,
    /// Simulations of a cheap search (not a target; KataGo's playout-cap randomisation).
    pub cheap_simulations: u32,
    /// Share of moves that get a full search.
    pub full_search_fraction: f32,
    /// Whether cheap searches keep the root noise too. Off by default (as in
    /// KataGo): cheap moves then play the search's best guess, so games are
    /// stronger and their results better value targets; exploration comes
    /// from the full searches and the opening. The training default
    /// (`configs/default.toml`) turns it on: without it the games settle
    /// into shuffles that repeat move for move (80% drawn late in an hour).
    pub cheap_search_noise: bool,
    /// Root moves a cheap Gumbel search considers; 0: as many as a full
    /// one (`search.gumbel_considered`). With 16 simulations over 16 moves
    /// sequential halving gives every move one visit; 4 to 8 give the
    /// finalists several.
    pub cheap_considered: u32,
    /// Weight of the Gumbel noise in the choice of the move a search plays
    /// (mctx's `gumbel_scale`), away from the opening
    /// (`random_opening_plies + opening_temperature_plies`) and from
    /// positions already seen in the game, where the full noise stays to
    /// break shuffles; the noise that draws the considered moves is always
    /// full. 1: the search's own choice (as before the key existed); 0:
    /// the best-valued finalist.
    pub played_move_noise: f32,
    /// Which value of each search the records keep as its root value (the
    /// value target's search part under `value_search_weight`): the root's
    /// mean, or the value of the move played.
    pub root_value: RootValue,
    /// Uniformly random plies at the start of each game (recorded, not targets).
    pub random_opening_plies: u32,
    /// Plies after the random opening during which PUCT moves are drawn with
    /// `opening_temperature` (Gumbel search samples by itself).
    pub opening_temperature_plies: u32,
    /// Temperature of those plies.
    pub opening_temperature: f32,
    /// A game still going after this many plies is stopped (recorded as a draw
    /// without a reason); only reachable with the draw rules off.
    pub max_plies: u32,
    /// Games per shard file.
    pub games_per_shard: usize,
    /// Weight of the material term in the network's value during the
    /// search (`jungle_net::with_material`: the animals the survival head
    /// expects each side to keep); 0 leaves the value as it is. Needs a
    /// network with the survival head.
    pub material_weight: f32,
    /// Weight of the quiescence term in the value during the search
    /// (`jungle_mcts::WithQuiescence`: the hand-written evaluation after
    /// the captures a position leads to); 0 leaves the value as it is.
    pub qsearch_weight: f32,
    /// Evaluations each worker keeps in its cache (`jungle_mcts::cache`),
    /// rounded up to a power of two; a position met again (a transposition,
    /// a shuffle, a subtree dropped with the moves not played) costs no
    /// network call. 0 turns the table off.
    pub eval_cache: usize,
    /// The search (its `simulations` is not read: each move's budget is
    /// `full_simulations` or `cheap_simulations`, given to the search call).
    pub search: SearchConfig,
}

/// The value a self-play record keeps for each searched position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RootValue {
    /// The root's mean value (as before the key existed). Under Gumbel
    /// search sequential halving's forced visits to weak moves drag it
    /// down.
    #[default]
    Mean,
    /// The value of the move played: its Q as the root's ranking reads it
    /// (`jungle_mcts::SearchResult::chosen_value`).
    Chosen,
}

/// The default `eval_cache`: 2^18 evaluations per worker (some 50 MB).
pub const DEFAULT_EVAL_CACHE: usize = 1 << 18;

/// The largest accepted `eval_cache` (2^24 evaluations, a few GB per worker).
pub const MAX_EVAL_CACHE: usize = 1 << 24;

/// The defaults are the training default's `[selfplay]` table
/// (configs/default.toml), so `jungle selfplay` without a config plays the
/// games `jungle train` plays; jungle-train's tests hold the two equal.
impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            workers: 0,
            games_in_flight: 24,
            gpu_games_in_flight: 128,
            full_simulations: 96,
            cheap_simulations: 16,
            full_search_fraction: 0.25,
            cheap_search_noise: true,
            cheap_considered: 0,
            played_move_noise: 1.0,
            root_value: RootValue::Mean,
            random_opening_plies: 2,
            opening_temperature_plies: 10,
            opening_temperature: 1.0,
            max_plies: 600,
            games_per_shard: 24,
            material_weight: 0.0,
            qsearch_weight: 0.0,
            eval_cache: DEFAULT_EVAL_CACHE,
            search: SearchConfig {
                root: RootSelection::Gumbel,
                gumbel_noise: true,
                gumbel_considered: 16,
                ..SearchConfig::default()
            },
        }
    }
}

impl SelfPlayConfig {
    /// Checks the values; the message names the key.
    pub fn validate(&self) -> Result<(), SelfPlayConfigError> {
        InvalidKey::check_range("workers", self.workers, 0, 1024)?;
        InvalidKey::check_range("games_in_flight", self.games_in_flight, 1, 4096)?;
        InvalidKey::check_range("gpu_games_in_flight", self.gpu_games_in_flight, 1, 4096)?;
        check_simulations("full_simulations", self.full_simulations)?;
        check_simulations("cheap_simulations", self.cheap_simulations)?;
        InvalidKey::check_range("full_search_fraction", self.full_search_fraction, 0.0, 1.0)?;
        if self.cheap_considered == 1 {
            return Err(InvalidKey::new(
                "cheap_considered",
                self.cheap_considered,
                "0 (as many as a full search) or at least 2",
            )
            .into());
        }
        InvalidKey::check_range("cheap_considered", self.cheap_considered, 0, 1024)?;
        InvalidKey::check_range("played_move_noise", self.played_move_noise, 0.0, 1.0)?;
        InvalidKey::check_range("opening_temperature", self.opening_temperature, 0.0, 100.0)?;
        InvalidKey::check_range("games_per_shard", self.games_per_shard, 1, 100_000)?;
        InvalidKey::check_range("max_plies", self.max_plies, 1, 100_000)?;
        if self.eval_cache > MAX_EVAL_CACHE {
            return Err(InvalidKey::new(
                "eval_cache",
                self.eval_cache,
                format!("at most {MAX_EVAL_CACHE} evaluations per worker"),
            )
            .into());
        }
        self.value_terms().validate()?;
        self.search.validate().map_err(SelfPlayConfigError::Search)
    }

    /// The config as played on a GPU (`gpu`) or the CPU: on a GPU each
    /// worker drives `gpu_games_in_flight` games.
    pub fn for_device(&self, gpu: bool) -> SelfPlayConfig {
        let mut config = self.clone();
        if gpu {
            config.games_in_flight = self.gpu_games_in_flight;
        }
        config
    }

    /// The value terms and the cache of every worker's evaluator.
    pub fn value_terms(&self) -> ValueTerms {
        ValueTerms {
            material_weight: self.material_weight,
            qsearch_weight: self.qsearch_weight,
            cache: self.eval_cache,
        }
    }

    /// One evaluator stack of `net` per worker ([`ValueTerms::evaluator_on`]:
    /// on the CPU each reads the same folded weights, on a GPU each is a
    /// client of one server), each cache counting into `cache`; fails when
    /// the material weight is not 0 and the network has no survival head.
    pub fn evaluators(
        &self,
        net: &InferenceNet,
        cache: &Arc<CacheCounters>,
    ) -> Result<Vec<NetStack>, ValueTermsError> {
        (0..self.worker_count())
            .map(|_| self.value_terms().evaluator_on(net.clone(), cache.clone()))
            .collect()
    }

    /// The number of workers to run: `workers`, or the core count when 0.
    pub fn worker_count(&self) -> usize {
        if self.workers > 0 {
            self.workers
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cheap_search_keys_are_checked() {
        let valid = SelfPlayConfig {
            cheap_considered: 4,
            played_move_noise: 0.25,
            ..SelfPlayConfig::default()
        };
        assert_eq!(valid.validate(), Ok(()));
        for (config, key) in [
            (
                SelfPlayConfig {
                    cheap_considered: 1,
                    ..SelfPlayConfig::default()
                },
                "cheap_considered",
            ),
            (
                SelfPlayConfig {
                    played_move_noise: 1.5,
                    ..SelfPlayConfig::default()
                },
                "played_move_noise",
            ),
            (
                SelfPlayConfig {
                    played_move_noise: f32::NAN,
                    ..SelfPlayConfig::default()
                },
                "played_move_noise",
            ),
        ] {
            let e = config.validate().unwrap_err().to_string();
            assert!(e.contains(key), "{e}");
        }
    }
}
