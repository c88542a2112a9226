//! The network's backends, each behind the one architecture description
//! ([`crate::NetConfig`]), as KataGo keeps one file per backend:
//!
//! - [`reference`]: the burn module, the source of truth for the weights,
//!   checkpoints and the export, and (with burn's autodiff) the training
//!   step every other backend is tested against;
//! - [`inference`]: the forward pass on plain `f32` buffers with batch norm
//!   folded into the weights and the 3x3 convolutions by Winograd's
//!   F(4, 3) x F(3, 3) (`winograd`, its products by `small_gemm`), what the
//!   search calls (matches the reference within 1e-4);
//! - [`training`]: the forward pass in training mode and its backward pass
//!   on plain buffers, 2.5-2.9x burn's autodiff per step, handing its
//!   gradients to burn's optimiser;
//! - [`served`]: the reference module on a GPU (burn's CUDA or wgpu
//!   backend) behind one server thread that gathers every search thread's
//!   batch into one forward pass;
//! - `kernels`: what the two plain-buffer backends share (GEMM, im2col,
//!   layouts, ReLU, pooling);
//! - [`kernel_path`]: which hand-written kernels run (AVX-512, AVX2 or
//!   plain), picked once per process, `JUNGLE_KERNELS` to force one.
//!
//! What the backends share is described once: the weights by the burn
//! module, the outputs by [`crate::Output`] (names, widths, the export's
//! order) and [`crate::Outputs`] (what every backend returns and the
//! backward pass takes as gradients), the dense heads on the value head's
//! hidden layer by `PolicyValueNet::hidden_heads`. The layers' order is
//! written once per backend, since computing it differently is each one's
//! reason to exist. `every_backend_matches_the_reference_for_each_switch`
//! (`crates/jungle-net/tests/backends.rs`) compares every backend with the
//! reference for each architecture switch.

pub mod inference;
pub mod kernel_path;
pub(crate) mod kernels;
pub use kernels::large_product;
pub mod reference;
pub mod served;
pub(crate) mod small_gemm;
pub mod training;
pub(crate) mod winograd;
