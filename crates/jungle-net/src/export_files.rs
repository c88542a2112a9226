//! The exported files' record in `model.json` (`files`: each file's size
//! and SHA-256). `jungle export` writes `model.json` last, so an export
//! killed part-way leaves files that do not match the record beside them:
//! readers (the web page, `scripts/check_onnx.py`, [`check_export`]) check
//! it and refuse a mixed folder instead of running a new `model.onnx`
//! under an old description.

pub use crate::export::FileRecord;
use crate::export::ModelDescription;
use std::path::{Path, PathBuf};

/// The largest `model.json` [`check_export`] reads.
const MAX_DESCRIPTION_BYTES: u64 = 16 << 20;
/// The largest exported file [`check_export`] reads.
const MAX_EXPORTED_FILE_BYTES: u64 = 8 << 30;

/// Why an exported folder was refused.
#[derive(Debug, thiserror::Error)]
pub enum ExportCheckError {
    /// A file could not be read.
    #[error("`{}`: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// `model.json` is not a model description.
    #[error("`{}`: not a model description: {reason}", path.display())]
    Description {
        /// The file.
        path: PathBuf,
        /// What serde said.
        reason: String,
    },
    /// `model.json` records no files (an export from before format 2).
    #[error("`{}` records no files (format_version {version}; export again to get format 2)", path.display())]
    NoRecord {
        /// The file.
        path: PathBuf,
        /// Its format version.
        version: u32,
    },
    /// A file differs from its record.
    #[error("`{}` is not the file model.json records ({found}, expected {expected}): the folder mixes two exports, perhaps one killed part-way; export again", path.display())]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What the record says.
        expected: String,
        /// What the file is.
        found: String,
    },
}

/// Reads `dir/model.json` and checks every file it records; the
/// description of a whole export.
pub fn check_export(dir: &Path) -> Result<ModelDescription, ExportCheckError> {
    let path = dir.join("model.json");
    let text = jungle_files::read_text_bounded(&path, MAX_DESCRIPTION_BYTES).map_err(|source| {
        ExportCheckError::Read {
            path: path.clone(),
            source,
        }
    })?;
    let description: ModelDescription =
        serde_json::from_str(&text).map_err(|e| ExportCheckError::Description {
            path: path.clone(),
            reason: e.to_string(),
        })?;
    if description.files.is_empty() {
        return Err(ExportCheckError::NoRecord {
            path,
            version: description.format_version,
        });
    }
    for (name, expected) in &description.files {
        let path = dir.join(name);
        let read = |path: &Path| -> std::io::Result<Vec<u8>> {
            let meta = std::fs::metadata(path)?;
            if !meta.is_file() || meta.len() > MAX_EXPORTED_FILE_BYTES {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!("not a regular file of at most {MAX_EXPORTED_FILE_BYTES} bytes"),
                ));
            }
            std::fs::read(path)
        };
        let bytes = read(&path).map_err(|source| ExportCheckError::Read {
            path: path.clone(),
            source,
        })?;
        let found = FileRecord::of(&bytes);
        if &found != expected {
            let says = |r: &FileRecord| {
                format!(
                    "{} bytes, SHA-256 {}",
                    r.bytes,
                    &r.sha256[..r.sha256.len().min(16)]
                )
            };
            return Err(ExportCheckError::Mismatch {
                path,
                expected: says(expected),
                found: says(&found),
            });
        }
    }
    Ok(description)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_record_is_the_sha256_of_the_bytes() {
        let r = FileRecord::of(b"abc");
        assert_eq!(r.bytes, 3);
        assert_eq!(
            r.sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
