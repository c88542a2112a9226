//! # jungle-train
//!
//! Training for jungle-zero: the config ([`config`]), the replay window
//! ([`window`]) of training samples with mirror augmentation ([`samples`]),
//! the training step in burn ([`step`]), evaluation records ([`matches`]),
//! Elo fitting ([`elo`]), plots ([`plots`]) and the resumable
//! self-play -> train -> evaluate loop of `jungle train` ([`run`]).

#![warn(missing_docs)]

pub mod config;
pub mod elo;
pub mod matches;
pub mod plots;
pub mod run;
pub mod samples;
pub mod step;
pub mod window;
