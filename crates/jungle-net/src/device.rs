//! Where a network runs: the CPU (the hand-written inference and training
//! passes over burn's flex backend), or a GPU through burn's CUDA or wgpu
//! backends, compiled in by the `cuda` and `wgpu` Cargo features.
//!
//! [`DeviceChoice`] is what a user asks for (`auto`, `cpu`, `cuda`, `wgpu`);
//! [`DeviceChoice::resolve`] opens the device and answers with a
//! [`Compute`], or says why it cannot: the binary was built without the
//! backend, or no device answered. `auto` takes a GPU (CUDA first, then
//! wgpu) only when one answers and is a real card, else the CPU.

use burn::tensor::Device;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The device a user asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DeviceChoice {
    /// A GPU when the binary has its backend and one is present, else the CPU.
    #[default]
    Auto,
    /// The CPU.
    Cpu,
    /// An NVIDIA GPU through burn's CUDA backend (the `cuda` feature).
    Cuda,
    /// A GPU through burn's wgpu backend: Vulkan, Metal or DirectX 12 (the
    /// `wgpu` feature).
    Wgpu,
}

/// The accepted spellings, for messages.
pub const DEVICE_NAMES: &str = "auto, cpu, cuda or wgpu";

impl fmt::Display for DeviceChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeviceChoice::Auto => "auto",
            DeviceChoice::Cpu => "cpu",
            DeviceChoice::Cuda => "cuda",
            DeviceChoice::Wgpu => "wgpu",
        })
    }
}

impl FromStr for DeviceChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<DeviceChoice, String> {
        match s {
            "auto" => Ok(DeviceChoice::Auto),
            "cpu" => Ok(DeviceChoice::Cpu),
            "cuda" => Ok(DeviceChoice::Cuda),
            "wgpu" => Ok(DeviceChoice::Wgpu),
            other => Err(format!("unknown device `{other}`: expected {DEVICE_NAMES}")),
        }
    }
}

/// The kind of device a [`Compute`] runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceKind {
    /// The CPU.
    Cpu,
    /// CUDA.
    Cuda,
    /// wgpu.
    Wgpu,
}

/// Why a device cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeviceError {
    /// The binary was built without the backend.
    #[error(
        "device `{0}`: this binary was built without the `{0}` feature; rebuild with \
         `cargo build --release --features {0}` (docs/gpu.md)"
    )]
    NotBuilt(DeviceChoice),
    /// The backend is built in but no device answered.
    #[error(
        "device `{choice}`: no device answered ({problem}); use `--device cpu` or see docs/gpu.md"
    )]
    Unavailable {
        /// The device asked for.
        choice: DeviceChoice,
        /// What went wrong opening it.
        problem: String,
    },
}

/// An opened device: where the network's tensors live.
#[derive(Clone, Debug)]
pub struct Compute {
    kind: DeviceKind,
    device: Device,
    name: String,
    /// Whether the device is a card on a bus (not a CPU or a software
    /// rasterizer such as Mesa's lavapipe).
    card: bool,
}

impl Compute {
    /// The CPU.
    pub fn cpu() -> Compute {
        Compute {
            kind: DeviceKind::Cpu,
            device: crate::cpu_device(),
            name: "cpu".to_string(),
            card: false,
        }
    }

    /// The burn device (without autodiff).
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// The kind of device.
    pub fn kind(&self) -> DeviceKind {
        self.kind
    }

    /// Whether the network runs on a GPU (burn's own passes and the batch
    /// server) rather than the CPU's hand-written passes.
    pub fn is_gpu(&self) -> bool {
        self.kind != DeviceKind::Cpu
    }

    /// What the device calls itself, for the first screen: `cpu`,
    /// `cuda (NVIDIA H200)`, `wgpu (llvmpipe ...)`.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl fmt::Display for Compute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl DeviceChoice {
    /// Opens the device: `cpu` always answers; `cuda` and `wgpu` fail with
    /// [`DeviceError::NotBuilt`] in a binary without their feature and with
    /// [`DeviceError::Unavailable`] when no device answers; `auto` takes
    /// CUDA, then a wgpu device that is a real card, else the CPU.
    pub fn resolve(self) -> Result<Compute, DeviceError> {
        match self {
            DeviceChoice::Cpu => Ok(Compute::cpu()),
            DeviceChoice::Cuda => open_cuda(),
            DeviceChoice::Wgpu => open_wgpu(),
            DeviceChoice::Auto => Ok(open_cuda()
                .ok()
                .or_else(|| open_wgpu().ok().filter(|c| c.card))
                .unwrap_or_else(Compute::cpu)),
        }
    }
}

#[cfg(feature = "cuda")]
fn open_cuda() -> Result<Compute, DeviceError> {
    open(DeviceChoice::Cuda, DeviceKind::Cuda, || Device::cuda(0))
}

#[cfg(not(feature = "cuda"))]
fn open_cuda() -> Result<Compute, DeviceError> {
    Err(DeviceError::NotBuilt(DeviceChoice::Cuda))
}

#[cfg(feature = "wgpu")]
fn open_wgpu() -> Result<Compute, DeviceError> {
    open(DeviceChoice::Wgpu, DeviceKind::Wgpu, || {
        Device::wgpu(burn::tensor::DeviceKind::DefaultDevice)
    })
}

#[cfg(not(feature = "wgpu"))]
fn open_wgpu() -> Result<Compute, DeviceError> {
    Err(DeviceError::NotBuilt(DeviceChoice::Wgpu))
}

/// Opens a GPU device and runs one small operation on it. burn's runtimes
/// panic when no driver or device answers: the panic is caught (its
/// message kept for the error, not printed) and becomes
/// [`DeviceError::Unavailable`].
#[cfg(any(feature = "cuda", feature = "wgpu"))]
fn open(
    choice: DeviceChoice,
    kind: DeviceKind,
    make: impl FnOnce() -> Device + std::panic::UnwindSafe,
) -> Result<Compute, DeviceError> {
    use burn::tensor::Tensor;
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let opened = std::panic::catch_unwind(|| {
        let device = make();
        let sum: f32 = Tensor::<1>::ones([4], &device).sum().into_scalar();
        let identity = device.identity();
        (device, sum, identity)
    });
    std::panic::set_hook(hook);
    let unavailable = |problem: String| DeviceError::Unavailable { choice, problem };
    match opened {
        Ok((_, sum, _)) if sum != 4.0 => Err(unavailable(format!("a test sum gave {sum}, not 4"))),
        Ok((device, _, identity)) => {
            let (label, card) = match identity {
                Some(id) => (id.name, id.physical.is_some()),
                None => ("unnamed".to_string(), false),
            };
            Ok(Compute {
                kind,
                device,
                name: format!("{choice} ({label})"),
                card,
            })
        }
        Err(panic) => Err(unavailable(panic_message(&*panic))),
    }
}

/// The text of a caught panic.
#[cfg(any(feature = "cuda", feature = "wgpu"))]
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "the backend panicked".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_parse_and_print_by_name() {
        for name in ["auto", "cpu", "cuda", "wgpu"] {
            assert_eq!(name.parse::<DeviceChoice>().unwrap().to_string(), name);
        }
        let err = "tpu".parse::<DeviceChoice>().unwrap_err();
        assert!(err.contains("`tpu`") && err.contains(DEVICE_NAMES), "{err}");
    }

    #[test]
    fn the_cpu_always_answers_and_auto_falls_back_to_it_without_a_gpu() {
        let cpu = DeviceChoice::Cpu.resolve().unwrap();
        assert!(!cpu.is_gpu() && cpu.name() == "cpu");
        let auto = DeviceChoice::Auto.resolve().unwrap();
        if !cfg!(any(feature = "cuda", feature = "wgpu")) {
            assert_eq!(auto.kind(), DeviceKind::Cpu);
        }
    }

    #[test]
    fn a_backend_left_out_of_the_build_is_named_with_the_feature_to_add() {
        #[cfg(not(feature = "cuda"))]
        {
            let err = DeviceChoice::Cuda.resolve().unwrap_err().to_string();
            assert!(err.contains("--features cuda"), "{err}");
        }
        #[cfg(not(feature = "wgpu"))]
        {
            let err = DeviceChoice::Wgpu.resolve().unwrap_err().to_string();
            assert!(err.contains("--features wgpu"), "{err}");
        }
    }
}
