//! # jungle-train
//!
//! Training for jungle-zero: the resumable self-play -> train -> evaluate
//! loop of `jungle train` ([`Run`]), its config ([`config`], layered over
//! the embedded default with [`layers`]), and what the CLI's other commands read of a run:
//! its layout ([`RunLayout`], [`RunPaths`]) and state ([`RunState`]), its
//! evaluation games ([`read_matches`]) and ratings ([`report`]), its course
//! by thirds ([`thirds`]), its training positions as NumPy arrays
//! ([`export_npz`]), the compute ladder's records ([`read_ladder`]); a run
//! spread over machines: mirrored to a store and restored from it
//! ([`restore_run`]), self-play workers ([`run_worker`]). Every error is a
//! [`TrainError`].
//!
//! Inside, the modules are layered: `run.rs` (the loop) is the top and
//! nothing imports it; the others import `layout.rs` and `state.rs`.

#![warn(missing_docs)]

mod anchors;
mod budget;
pub mod config;
mod decay;
mod error;
mod generations;
mod incoming;
mod ladder;
mod ladder_doublings;
pub mod layers;
mod layout;
mod losses;
mod matches;
mod npz;
mod plots;
mod publish;
mod report;
mod restore;
mod run;
mod samples;
mod state;
mod step;
mod summary;
mod value_baseline;
mod variants;
mod weight_average;
mod window;
mod worker;

pub use anchors::play_mixture_anchor_games;
pub use config::{TrainConfig, TINY_CONFIG};
pub use decay::WeightDecay;
pub use error::TrainError;
pub use generations::{generation_folder, partial_folder, publish_generation, window_files};
pub use incoming::Intake;
pub use ladder::{ladder_csv, ladder_in_run_csv, read_ladder, IN_RUN_SHARES, LADDER_ANCHORS};
pub use ladder_doublings::{doublings, doublings_csv, Doubling, RungElo};
pub use layout::{check_run_name, player_name, RunLayout, RunPaths};
pub use matches::{append_matches, read_matches, MatchLine};
pub use npz::{export_npz, shortest, NpzOptions};
pub use plots::plot_ladder;
pub use publish::{read_latest, Latest};
pub use report::{report, RunRatings};
pub use restore::{carry_run, restore_run};
pub use run::Run;
pub use samples::{
    alive_mask, game_positions, game_positions_where, game_positions_with, game_samples,
    is_searched_move, td_returns, Batch, ValueTargets,
};
pub use state::{read_state, run_config, CheckpointInfo, RunState};
pub use step::Trainer;
pub use summary::{fill_end_reasons, thirds, thirds_table};
pub use worker::{run_worker, worker_folder, worker_id, StopReason, WorkerEvent, WorkerSettings};
