//! # jungle-net
//!
//! The policy-value network of jungle-zero in burn: the input-plane and move
//! encodings ([`encoding`]), the residual network described by
//! [`NetConfig`] in three backends ([`backend`]: the burn reference
//! [`PolicyValueNet`], the inference pass, the training pass), a batched
//! [`NetEvaluator`] for the search,
//! the value terms and the evaluator stack built from them ([`ValueTerms`]),
//! checkpoints (weights plus a JSON description) and the self-describing
//! export for other front ends ([`export`]).

#![warn(missing_docs)]

mod architecture;
pub mod average;
pub mod backend;
pub mod checkpoint;
pub mod device;
/// The input planes and policy slots (from `jungle-encoding`).
pub use jungle_encoding::planes as encoding;
mod evaluator;
pub mod export;
mod export_error;
pub mod export_files;
mod inference_net;
pub mod onnx;
mod outputs;
pub mod tensors;
mod value_terms;

pub use architecture::{NetConfig, SURVIVAL_NEAR_PLIES, SURVIVAL_OUTPUTS};
pub use backend::kernel_path::{KernelPath, KernelPathError, KERNELS_VAR};
pub use backend::reference::{NetOutput, PolicyValueNet, ResBlock};
pub use checkpoint::{
    load_checkpoint, parse_meta, read_meta, save_checkpoint, Checkpoint, CheckpointError,
    CheckpointMeta, TrainedVariant,
};
pub use device::{Compute, DeviceChoice, DeviceError, DeviceKind};
pub use evaluator::NetEvaluator;
pub use inference_net::InferenceNet;
pub use jungle_encoding::{
    check_material_weight, encode_batch, evaluations, with_material, NoSurvivalHead,
    MAX_MATERIAL_WEIGHT,
};
pub use outputs::{Output, Outputs, RECOMMENDED_MATERIAL_WEIGHT, SHORT_TERM_LAMBDA};
pub use value_terms::{NetStack, ParallelNetStack, ValueTerms, ValueTermsError};

/// The CPU device every command uses (burn's pure-Rust `flex` backend).
pub fn cpu_device() -> burn::tensor::Device {
    burn::tensor::Device::flex()
}
