//! # jungle-selfplay
//!
//! Parallel self-play: worker threads, each driving many games at once so
//! that every evaluator call carries a full batch; per-move records with the
//! search's training target; and bincode game shards with a magic, a format
//! version, the rule set, the game count and a CRC-32, written atomically
//! and read all-or-nothing.

#![warn(missing_docs)]

mod config;
mod legacy;
mod mixture;
pub mod record;
mod run;
pub mod shard;
mod stats;
mod worker;

pub use config::{
    RootValue, SelfPlayConfig, SelfPlayConfigError, DEFAULT_EVAL_CACHE, MAX_EVAL_CACHE,
};
pub use mixture::pick_rule_set;
pub use record::{pack_move, unpack_move, GameRecord, MoveRecord};
pub use run::{run_selfplay, SelfPlayReport};
pub use shard::{
    next_shard_index, read_shard, read_shard_among, shard_files, shard_files_within,
    write_new_shard, write_shard, Shard, ShardError, MAGIC, SHARD_VERSION,
};
pub use stats::{shard_stats, verify_game, BadGame, ShardStats};
pub use worker::{game_seed, GameList, Job, ResultCounts, SelfPlayStats};
