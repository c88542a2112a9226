//! # jungle-encoding
//!
//! What a policy-value network reads and writes, without the network: the
//! input planes and policy slots ([`planes`]) and the raw outputs turned
//! into the search's evaluations ([`outputs`]: the softmax over legal moves,
//! the survival head's material term) and the win/draw/loss an answer
//! prints ([`Wdl`]). `jungle-net` runs the network on
//! burn; the WebAssembly build (`jungle-wasm`) hands the planes to
//! onnxruntime in a browser and reads its outputs back through the same
//! functions, so both are the same player.

#![warn(missing_docs)]

pub mod outputs;
pub mod planes;
mod wdl;

pub use outputs::{
    add_material, check_material_weight, encode_batch, evaluations, with_material, NoSurvivalHead,
    MAX_MATERIAL_WEIGHT, SURVIVAL_NEAR_PLIES, SURVIVAL_OUTPUTS,
};
pub use planes::*;
pub use wdl::Wdl;
