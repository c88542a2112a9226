//! # jungle-train
//!
//! Training for jungle-zero: the config ([`config`]), the replay window
//! ([`window`]) of training samples with mirror augmentation ([`samples`]),
//! the training step in burn ([`step`]) and its weight decay ([`decay`]), the run's shards by generation
//! ([`generations`]), evaluation records ([`matches`]),
//! plots ([`plots`]), the run's course by thirds ([`summary`]) with the value loss's constant-guess baseline ([`value_baseline`]), the run mirrored to a store ([`publish`]) and restored from it ([`restore`]), self-play workers that share it ([`worker`]) and the trainer's intake of their shards ([`incoming`]) and the resumable self-play -> train -> evaluate loop
//! of `jungle train` ([`run`]). Configs are layered over the embedded
//! default ([`layers`]); every error is a [`TrainError`].

#![warn(missing_docs)]

pub mod anchors;
pub mod budget;
pub mod config;
pub mod decay;
mod error;
pub mod generations;
pub mod incoming;
pub mod ladder;
pub mod layers;
pub mod layout;
pub mod losses;
pub mod matches;
pub mod npz;
pub mod plots;
pub mod publish;
pub mod report;
pub mod restore;
pub mod run;
pub mod samples;
pub mod state;
pub mod step;
pub mod summary;
pub mod value_baseline;
pub mod variants;
pub mod weight_average;
pub mod window;
pub mod worker;

pub use error::TrainError;
