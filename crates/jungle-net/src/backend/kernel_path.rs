//! Which hand-written CPU kernels run (`small_gemm`'s products and
//! `winograd`'s transforms): AVX-512, AVX2 or plain arrays, picked once per
//! process from what the processor has, as `gemm` and onnxruntime pick
//! theirs. The build targets baseline x86-64 (and aarch64), so one binary
//! runs everywhere and each machine gets its widest registers.
//!
//! `JUNGLE_KERNELS=plain|avx2|avx512` forces a path the processor has, so
//! that every path a machine can run is tested and timed on it; the `gemm`
//! crate's own products (the 1x1 heads, the training pass's weight
//! gradients) pick their kernels by themselves whatever it says.

use std::sync::OnceLock;
use thiserror::Error;

/// The environment variable that forces a path.
pub const KERNELS_VAR: &str = "JUNGLE_KERNELS";

/// A set of hand-written kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum KernelPath {
    /// Plain arrays of 8 floats, which the compiler vectorises for the
    /// build's baseline (SSE2 on x86-64, NEON on aarch64).
    Plain,
    /// AVX2 and FMA registers of 8 floats.
    Avx2,
    /// AVX-512 (F) registers of 16 floats, with masked loads and stores for
    /// the last 8 channels.
    Avx512,
}

/// A `JUNGLE_KERNELS` value that cannot be used.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum KernelPathError {
    /// Not one of the names.
    #[error("{KERNELS_VAR}={given:?}: expected plain, avx2 or avx512")]
    Unknown {
        /// What the variable held.
        given: String,
    },
    /// A path this processor cannot run.
    #[error("{KERNELS_VAR}={given}: this processor cannot run it (it can run: {can})")]
    Unavailable {
        /// The path asked for.
        given: &'static str,
        /// The paths it can run, comma-separated.
        can: String,
    },
}

impl KernelPath {
    /// Every path, narrowest first.
    pub const ALL: [KernelPath; 3] = [KernelPath::Plain, KernelPath::Avx2, KernelPath::Avx512];

    /// The name `JUNGLE_KERNELS` and `bench net` use.
    pub fn name(self) -> &'static str {
        match self {
            KernelPath::Plain => "plain",
            KernelPath::Avx2 => "avx2",
            KernelPath::Avx512 => "avx512",
        }
    }

    /// Whether this processor can run the path.
    pub fn runs_here(self) -> bool {
        match self {
            KernelPath::Plain => true,
            #[cfg(target_arch = "x86_64")]
            KernelPath::Avx2 => {
                std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
            }
            #[cfg(target_arch = "x86_64")]
            KernelPath::Avx512 => {
                KernelPath::Avx2.runs_here() && std::is_x86_feature_detected!("avx512f")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The paths this processor can run, narrowest first.
    pub fn here() -> Vec<KernelPath> {
        KernelPath::ALL
            .into_iter()
            .filter(|p| p.runs_here())
            .collect()
    }

    /// The widest path this processor can run.
    pub fn widest() -> KernelPath {
        *KernelPath::here().last().expect("plain runs everywhere")
    }

    /// The path a `JUNGLE_KERNELS` value asks for (`None` or empty: the
    /// widest), checked against this processor.
    pub fn from_setting(value: Option<&str>) -> Result<KernelPath, KernelPathError> {
        let given = match value.map(str::trim) {
            None | Some("") => return Ok(KernelPath::widest()),
            Some(given) => given,
        };
        let path = KernelPath::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(given))
            .ok_or_else(|| KernelPathError::Unknown {
                given: given.to_string(),
            })?;
        if !path.runs_here() {
            let can: Vec<&str> = KernelPath::here().iter().map(|p| p.name()).collect();
            return Err(KernelPathError::Unavailable {
                given: path.name(),
                can: can.join(", "),
            });
        }
        Ok(path)
    }

    /// The path `JUNGLE_KERNELS` asks for in this process's environment.
    /// Programs call it at start so that a bad value is refused by name.
    pub fn from_env() -> Result<KernelPath, KernelPathError> {
        KernelPath::from_setting(std::env::var(KERNELS_VAR).ok().as_deref())
    }

    /// The path every kernel call of this process takes: `from_env` read
    /// once (a value it refuses gives the widest path; the programs have
    /// refused it already).
    pub fn active() -> KernelPath {
        static ACTIVE: OnceLock<KernelPath> = OnceLock::new();
        *ACTIVE.get_or_init(|| KernelPath::from_env().unwrap_or_else(|_| KernelPath::widest()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_name_a_path_this_processor_runs() {
        assert_eq!(KernelPath::from_setting(None), Ok(KernelPath::widest()));
        assert_eq!(
            KernelPath::from_setting(Some(" ")),
            Ok(KernelPath::widest())
        );
        assert_eq!(
            KernelPath::from_setting(Some("PLAIN")),
            Ok(KernelPath::Plain)
        );
        let unknown = KernelPath::from_setting(Some("sse9")).unwrap_err();
        assert!(unknown
            .to_string()
            .contains("expected plain, avx2 or avx512"));
        for path in KernelPath::ALL {
            let got = KernelPath::from_setting(Some(path.name()));
            if path.runs_here() {
                assert_eq!(got, Ok(path));
            } else {
                let e = got.unwrap_err().to_string();
                assert!(e.contains("cannot run it") && e.contains("plain"), "{e}");
            }
        }
        assert_eq!(KernelPath::here()[0], KernelPath::Plain);
        // A wider path needs the narrower ones' instructions too.
        let here = KernelPath::here();
        assert_eq!(here, KernelPath::ALL[..here.len()].to_vec());
    }
}
