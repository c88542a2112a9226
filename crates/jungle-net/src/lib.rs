//! # jungle-net
//!
//! The policy-value network of jungle-zero in burn: the input-plane and move
//! encodings ([`encoding`]), the residual network ([`PolicyValueNet`],
//! configured by [`NetConfig`]), a batched [`NetEvaluator`] for the search,
//! the value terms and the evaluator stack built from them ([`ValueTerms`]),
//! checkpoints (weights plus a JSON description) and the self-describing
//! export for other front ends ([`export`]).

#![warn(missing_docs)]

pub mod average;
pub mod backprop;
pub mod checkpoint;
pub mod encoding;
mod evaluator;
pub mod export;
pub mod fast;
mod linalg;
mod model;
pub mod onnx;
mod value_terms;

pub use checkpoint::{
    load_checkpoint, read_meta, save_checkpoint, Checkpoint, CheckpointError, CheckpointMeta,
};
pub use evaluator::{
    check_material_weight, encode_batch, evaluations, with_material, NetEvaluator, NoSurvivalHead,
    MAX_MATERIAL_WEIGHT,
};
pub use model::{
    NetConfig, NetOutput, PolicyValueNet, ResBlock, NET_CONFIG_KEYS, SURVIVAL_NEAR_PLIES,
    SURVIVAL_OUTPUTS,
};
pub use value_terms::{NetStack, ValueTerms, ValueTermsError};

/// The CPU device every command uses (burn's pure-Rust `flex` backend).
pub fn cpu_device() -> burn::tensor::Device {
    burn::tensor::Device::flex()
}
