//! A store's URL, checked before anything is opened: which kind of store,
//! its bucket (or folder) and the prefix under which the run's keys live.

use crate::error::StoreError;
use std::fmt;
use std::path::{Path, PathBuf};

/// What the URLs this crate accepts look like (for error messages).
pub const EXPECTED: &str = "file:///absolute/path, memory://NAME, s3://BUCKET/PREFIX, gs://BUCKET/PREFIX or az://CONTAINER/PREFIX";

/// The kind of store a URL names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreKind {
    /// A folder of the local (or a shared) file system.
    File(PathBuf),
    /// A store in this process's memory, shared by every [`crate::Store`]
    /// opened on the same name (for tests).
    Memory(String),
    /// Amazon S3 or an S3-compatible server (endpoint, region and
    /// credentials from the `AWS_*` environment variables).
    S3 {
        /// The bucket.
        bucket: String,
    },
    /// Google Cloud Storage (credentials from `GOOGLE_*`).
    Gcs {
        /// The bucket.
        bucket: String,
    },
    /// Azure Blob Storage (account and credentials from `AZURE_*`).
    Azure {
        /// The container.
        container: String,
    },
}

/// A parsed store URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreUrl {
    /// The URL as the user wrote it (for messages).
    pub text: String,
    /// The kind of store and its bucket or folder.
    pub kind: StoreKind,
    /// The prefix of every key, without leading or trailing `/` (empty for
    /// the bucket's root; always empty for `file://` and `memory://`).
    pub prefix: String,
}

impl StoreUrl {
    /// Parses `text`; the error names the URL and what was expected.
    pub fn parse(text: &str) -> Result<StoreUrl, StoreError> {
        let bad = |reason: String| StoreError::Url {
            url: text.to_string(),
            reason,
        };
        let url = url::Url::parse(text).map_err(|e| bad(format!("{e}; expected {EXPECTED}")))?;
        let host = url.host_str().unwrap_or("").to_string();
        let prefix = url.path().trim_matches('/').to_string();
        let named = |what: &str| -> Result<String, StoreError> {
            if host.is_empty() {
                Err(bad(format!("no {what} named; expected {EXPECTED}")))
            } else {
                Ok(host.clone())
            }
        };
        let (kind, prefix) = match url.scheme() {
            "file" => {
                if !host.is_empty() && host != "localhost" {
                    return Err(bad(format!(
                        "a file URL names an absolute path after `file://` (file:///data/runs), not the host `{host}`"
                    )));
                }
                let path = url
                    .to_file_path()
                    .map_err(|()| bad("not a file path".to_string()))?;
                (StoreKind::File(path), String::new())
            }
            "memory" => (StoreKind::Memory(format!("{host}/{prefix}")), String::new()),
            "s3" | "s3a" => (
                StoreKind::S3 {
                    bucket: named("bucket")?,
                },
                prefix,
            ),
            "gs" => (
                StoreKind::Gcs {
                    bucket: named("bucket")?,
                },
                prefix,
            ),
            "az" | "azure" | "abfs" => (
                StoreKind::Azure {
                    container: named("container")?,
                },
                prefix,
            ),
            other => {
                return Err(bad(format!(
                    "unknown scheme `{other}`; expected {EXPECTED}"
                )))
            }
        };
        Ok(StoreUrl {
            text: text.to_string(),
            kind,
            prefix,
        })
    }

    /// The `file://` URL of a local folder (made absolute against the
    /// current directory).
    pub fn from_path(path: &Path) -> Result<StoreUrl, StoreError> {
        let absolute = std::path::absolute(path).map_err(|e| StoreError::Url {
            url: path.display().to_string(),
            reason: format!("cannot make the path absolute: {e}"),
        })?;
        let url = url::Url::from_directory_path(&absolute).map_err(|()| StoreError::Url {
            url: absolute.display().to_string(),
            reason: "not an absolute path".to_string(),
        })?;
        StoreUrl::parse(url.as_str())
    }
}

impl fmt::Display for StoreUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_of_url_is_recognised() {
        let u = StoreUrl::parse("s3://runs/team/jungle").unwrap();
        assert_eq!(
            u.kind,
            StoreKind::S3 {
                bucket: "runs".into()
            }
        );
        assert_eq!(u.prefix, "team/jungle");
        assert_eq!(StoreUrl::parse("s3://runs").unwrap().prefix, "");
        assert_eq!(
            StoreUrl::parse("gs://b/p/").unwrap().kind,
            StoreKind::Gcs { bucket: "b".into() }
        );
        assert_eq!(
            StoreUrl::parse("az://c/p").unwrap().kind,
            StoreKind::Azure {
                container: "c".into()
            }
        );
        assert_eq!(
            StoreUrl::parse("file:///tmp/runs").unwrap().kind,
            StoreKind::File(PathBuf::from("/tmp/runs"))
        );
        assert_eq!(
            StoreUrl::parse("memory://test").unwrap().kind,
            StoreKind::Memory("test/".into())
        );
    }

    #[test]
    fn a_bad_url_names_itself_and_what_was_expected() {
        for (text, says) in [
            ("ftp://host/x", "unknown scheme `ftp`"),
            ("s3:///prefix", "no bucket named"),
            ("file://relative/path", "not the host `relative`"),
            ("just a path", "relative URL without a base"),
        ] {
            let err = StoreUrl::parse(text).unwrap_err().to_string();
            assert!(err.contains(text), "{err}");
            assert!(err.contains(says), "{err}");
        }
        let err = StoreUrl::parse("ftp://host/x").unwrap_err().to_string();
        assert!(err.contains("s3://BUCKET/PREFIX"), "{err}");
    }

    #[test]
    fn a_local_folder_becomes_a_file_url() {
        let u = StoreUrl::from_path(Path::new("/srv/jungle")).unwrap();
        assert_eq!(u.text, "file:///srv/jungle/");
        assert_eq!(u.kind, StoreKind::File(PathBuf::from("/srv/jungle")));
    }
}
