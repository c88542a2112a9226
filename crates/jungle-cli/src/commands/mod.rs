//! One module per subcommand.

pub mod analyze;
pub mod arena;
pub mod bench;
pub mod bench_net;
pub mod bench_selfplay;
pub mod bench_store;
pub mod carry;
pub mod engine;
pub mod export;
pub mod games;
pub mod ladder;
pub mod net;
pub mod perft;
pub mod play;
pub mod probe;
pub mod selfplay;
pub mod serve;
pub mod shards_export;
pub mod shared;
pub mod suite;
pub mod tournament;
pub mod train;
pub mod untrained;
pub mod variants;
pub mod worker;
