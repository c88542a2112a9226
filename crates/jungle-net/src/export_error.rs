//! Why an export failed: the file and the cause, shared by the ONNX writer
//! ([`crate::onnx`]) and the export of a whole folder ([`crate::export`]).

use std::path::{Path, PathBuf};

/// Why an export failed: the file, and the cause.
#[derive(Debug, thiserror::Error)]
#[error("export `{}`: {cause}", path.display())]
pub struct ExportError {
    /// The file (or folder) being written.
    pub path: PathBuf,
    /// What went wrong.
    pub cause: ExportCause,
}

/// What went wrong in an export.
#[derive(Debug, thiserror::Error)]
pub enum ExportCause {
    /// Writing the file failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// burn's ONNX exporter failed.
    #[error("burn's ONNX exporter: {0}")]
    Exporter(#[from] burn_onnx::export::ExportError),
    /// The ONNX protobuf could not be read or written.
    #[error("ONNX protobuf: {0}")]
    Protobuf(String),
    /// The exporter's graph is not of the expected shape.
    #[error("expected 1 input and {outputs_expected} outputs, the exporter wrote {inputs} and {outputs}")]
    Graph {
        /// Inputs written.
        inputs: usize,
        /// Outputs written.
        outputs: usize,
        /// Outputs expected.
        outputs_expected: usize,
    },
    /// A weight tensor of a type the safetensors file does not take.
    #[error("initialiser `{name}` has ONNX data type {data_type}, expected float32 or int64")]
    DataType {
        /// The initialiser.
        name: String,
        /// Its ONNX data type.
        data_type: i32,
    },
    /// The safetensors file could not be built.
    #[error("safetensors: {0}")]
    Safetensors(#[from] safetensors::SafeTensorError),
}

impl ExportCause {
    /// This cause while writing `path`.
    pub fn at(self, path: &Path) -> ExportError {
        ExportError {
            path: path.to_path_buf(),
            cause: self,
        }
    }
}
