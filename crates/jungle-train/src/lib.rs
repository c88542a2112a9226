//! # jungle-train
//!
//! Training for jungle-zero. Built so far: Elo fitting ([`elo`]), training
//! samples from game shards with mirror augmentation ([`samples`]) and the
//! training step in burn ([`step`]). The self-play/train/evaluate loop
//! (`jungle train`), evaluation matches and plots are not built yet.

#![warn(missing_docs)]

pub mod config;
pub mod elo;
pub mod matches;
pub mod plots;
pub mod run;
pub mod samples;
pub mod step;
pub mod window;
