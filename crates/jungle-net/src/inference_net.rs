//! A network ready for the searches' evaluators on one device: on the CPU
//! the hand-written inference pass ([`FastNet`], shared by every thread),
//! on a GPU one server thread that gathers every thread's batch into one
//! forward pass ([`ServedNet`]). Cloning it is cheap: one clone per search
//! thread.

use crate::backend::inference::FastNet;
use crate::backend::served::{ServedNet, ServerStats};
use crate::device::Compute;
use crate::encoding::Encoding;
use crate::outputs::Outputs;
use crate::PolicyValueNet;
use burn::module::Module;
use std::sync::Arc;

/// A network ready for evaluators, on the CPU or served on a GPU.
#[derive(Clone)]
pub enum InferenceNet {
    /// The CPU's inference pass, weights shared by every clone.
    Cpu {
        /// The folded weights.
        net: Arc<FastNet>,
        /// The input planes it reads.
        encoding: Encoding,
    },
    /// A client of the network's server on a GPU.
    Served(ServedNet),
}

impl InferenceNet {
    /// `net` in inference mode on `compute`'s device.
    pub fn new(net: &PolicyValueNet, compute: &Compute) -> InferenceNet {
        if compute.is_gpu() {
            InferenceNet::Served(ServedNet::start(net, compute))
        } else {
            InferenceNet::cpu(net)
        }
    }

    /// `net` on the CPU's inference pass.
    pub fn cpu(net: &PolicyValueNet) -> InferenceNet {
        InferenceNet::Cpu {
            net: Arc::new(FastNet::new(&net.valid())),
            encoding: net.encoding(),
        }
    }

    /// The input planes the network reads.
    pub fn encoding(&self) -> Encoding {
        match self {
            InferenceNet::Cpu { encoding, .. } => *encoding,
            InferenceNet::Served(served) => served.encoding(),
        }
    }

    /// Whether the network has the survival head.
    pub fn has_survival_head(&self) -> bool {
        match self {
            InferenceNet::Cpu { net, .. } => net.has_survival_head(),
            InferenceNet::Served(served) => served.has_survival_head(),
        }
    }

    /// Runs `batch` encoded positions.
    pub fn forward(&self, input: &[f32], batch: usize) -> Outputs {
        match self {
            InferenceNet::Cpu { net, .. } => net.forward(input, batch),
            InferenceNet::Served(served) => served.forward(input, batch),
        }
    }

    /// The GPU server's counters (`None` on the CPU).
    pub fn server_stats(&self) -> Option<Arc<ServerStats>> {
        match self {
            InferenceNet::Cpu { .. } => None,
            InferenceNet::Served(served) => Some(served.stats()),
        }
    }
}

impl std::fmt::Debug for InferenceNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InferenceNet::Cpu { encoding, .. } => write!(f, "InferenceNet::Cpu({encoding:?})"),
            InferenceNet::Served(served) => {
                write!(f, "InferenceNet::Served({:?})", served.encoding())
            }
        }
    }
}
