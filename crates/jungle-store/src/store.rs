//! [`Store`]: one small blocking interface over the `object_store` crate.
//! Keys are `/`-separated relative paths (`data/main/incoming/x.bin`);
//! a URL's prefix is put in front of them. Every write is whole or absent
//! (object stores publish an object when its upload completes; the local
//! file system writes a staging file and renames it).

use crate::error::StoreError;
use crate::location::{StoreKind, StoreUrl};
use futures::{StreamExt, TryStreamExt};
use object_store::aws::AmazonS3Builder;
use object_store::azure::MicrosoftAzureBuilder;
use object_store::gcp::GoogleCloudStorageBuilder;
use object_store::local::LocalFileSystem;
use object_store::memory::InMemory;
use object_store::path::Path as KeyPath;
use object_store::{
    ClientOptions, ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload, RetryConfig,
    UpdateVersion,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// Requests [`Store::get_many`] keeps in flight at once.
pub const IN_FLIGHT: usize = 32;

/// The version of a stored object, for a conditional update
/// ([`Store::update`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version(UpdateVersion);

/// An object read back, with its version.
#[derive(Clone, Debug)]
pub struct Fetched {
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Its version.
    pub version: Version,
}

/// One object found by [`Store::list`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// Its key (without the URL's prefix).
    pub key: String,
    /// Its size in bytes.
    pub size: u64,
}

/// A store: a folder, a bucket (with a prefix) or memory.
pub struct Store {
    url: StoreUrl,
    inner: Arc<dyn ObjectStore>,
    runtime: tokio::runtime::Runtime,
}

/// How long a request to a cloud store may take, and how often it is tried
/// again: a worker on a flaky network waits, an unreachable endpoint fails
/// within seconds.
fn client_setup() -> (ClientOptions, RetryConfig) {
    let options = ClientOptions::new()
        .with_connect_timeout(Duration::from_secs(5))
        .with_timeout(Duration::from_secs(120));
    let retry = RetryConfig {
        max_retries: 4,
        retry_timeout: Duration::from_secs(60),
        ..RetryConfig::default()
    };
    (options, retry)
}

/// The process's `memory://` stores, by name.
fn memory_store(name: &str) -> Arc<InMemory> {
    static STORES: OnceLock<Mutex<HashMap<String, Arc<InMemory>>>> = OnceLock::new();
    let mut stores = STORES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    stores
        .entry(name.to_string())
        .or_insert_with(|| Arc::new(InMemory::new()))
        .clone()
}

impl Store {
    /// Opens the store `url` names and checks it can be listed (so a
    /// missing bucket, an unreachable endpoint or refused credentials are
    /// reported here, naming the URL). A `file://` folder is created if
    /// missing.
    pub fn open(url: &StoreUrl) -> Result<Store, StoreError> {
        Store::open_with(url, &[])
    }

    /// [`Store::open`] with settings of the cloud store's builder given
    /// here over those of the environment (`object_store`'s keys, e.g.
    /// `("aws_endpoint", "http://127.0.0.1:9000")`); an unknown key is an
    /// error naming it.
    pub fn open_with(url: &StoreUrl, settings: &[(&str, &str)]) -> Result<Store, StoreError> {
        let open_error = |source| StoreError::Open {
            url: url.text.clone(),
            source: Box::new(source),
        };
        if !settings.is_empty() && matches!(url.kind, StoreKind::File(_) | StoreKind::Memory(_)) {
            return Err(StoreError::Url {
                url: url.text.clone(),
                reason: "store settings apply to s3://, gs:// and az:// only".to_string(),
            });
        }
        let (options, retry) = client_setup();
        let inner: Arc<dyn ObjectStore> = match &url.kind {
            StoreKind::File(path) => {
                std::fs::create_dir_all(path).map_err(|e| StoreError::Url {
                    url: url.text.clone(),
                    reason: format!("cannot create the folder {}: {e}", path.display()),
                })?;
                Arc::new(
                    LocalFileSystem::new_with_prefix(path)
                        .map_err(open_error)?
                        .with_automatic_cleanup(true),
                )
            }
            StoreKind::Memory(name) => memory_store(name),
            StoreKind::S3 { bucket } => {
                let mut builder = configured(
                    AmazonS3Builder::from_env()
                        .with_bucket_name(bucket)
                        .with_client_options(options)
                        .with_retry(retry),
                    url,
                    settings,
                    |b, k, v| b.with_config(k, v),
                )?;
                // An endpoint given as http:// (a local S3-compatible
                // server) is a choice made explicitly: allow it.
                let endpoint = builder
                    .get_config_value(&object_store::aws::AmazonS3ConfigKey::Endpoint)
                    .unwrap_or_default();
                if endpoint.starts_with("http://") {
                    builder = builder.with_allow_http(true);
                }
                Arc::new(builder.build().map_err(open_error)?)
            }
            StoreKind::Gcs { bucket } => Arc::new(
                configured(
                    GoogleCloudStorageBuilder::from_env()
                        .with_bucket_name(bucket)
                        .with_client_options(options)
                        .with_retry(retry),
                    url,
                    settings,
                    |b, k, v| b.with_config(k, v),
                )?
                .build()
                .map_err(open_error)?,
            ),
            StoreKind::Azure { container } => Arc::new(
                configured(
                    MicrosoftAzureBuilder::from_env()
                        .with_container_name(container)
                        .with_client_options(options)
                        .with_retry(retry),
                    url,
                    settings,
                    |b, k, v| b.with_config(k, v),
                )?
                .build()
                .map_err(open_error)?,
            ),
        };
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("jungle-store")
            .enable_all()
            .build()
            .map_err(|e| StoreError::Url {
                url: url.text.clone(),
                reason: format!("cannot start the I/O runtime: {e}"),
            })?;
        let store = Store {
            url: url.clone(),
            inner,
            runtime,
        };
        store.check()?;
        Ok(store)
    }

    /// Parses `text` and opens it ([`Store::open`]).
    pub fn open_url(text: &str) -> Result<Store, StoreError> {
        Store::open(&StoreUrl::parse(text)?)
    }

    /// The store's URL.
    pub fn url(&self) -> &StoreUrl {
        &self.url
    }

    /// The local folder, for a `file://` store.
    pub fn local_folder(&self) -> Option<&std::path::Path> {
        match &self.url.kind {
            StoreKind::File(path) => Some(path),
            _ => None,
        }
    }

    /// Whether [`Store::update`] works here (every kind but `file://`,
    /// whose callers use an operating-system lock instead).
    pub fn supports_update(&self) -> bool {
        !matches!(self.url.kind, StoreKind::File(_))
    }

    /// Lists the first objects under the prefix: fails when the store
    /// cannot be reached, the bucket is missing or access is refused.
    pub fn check(&self) -> Result<(), StoreError> {
        let prefix = self.prefix_path("")?;
        let mut stream = self.inner.list(prefix.as_ref());
        self.runtime
            .block_on(stream.try_next())
            .map(|_| ())
            .map_err(|source| StoreError::Unusable {
                url: self.url.text.clone(),
                hint: diagnose(&source),
                source: Box::new(source),
            })
    }

    /// The object at `key`, or `None` if there is none.
    pub fn get(&self, key: &str) -> Result<Option<Fetched>, StoreError> {
        let path = self.key_path(key)?;
        self.runtime
            .block_on(self.fetch(&path))
            .map_err(|e| self.error("get", key, e))
    }

    /// The objects at `keys` (`None` for one that is not there), in the
    /// keys' order, fetched [`IN_FLIGHT`] at a time.
    pub fn get_many(&self, keys: &[String]) -> Result<Vec<Option<Fetched>>, StoreError> {
        let paths = keys
            .iter()
            .map(|k| self.key_path(k))
            .collect::<Result<Vec<_>, _>>()?;
        let results: Vec<_> = self.runtime.block_on(
            futures::stream::iter(paths.iter().map(|p| self.fetch(p)))
                .buffered(IN_FLIGHT)
                .collect(),
        );
        results
            .into_iter()
            .zip(keys)
            .map(|(r, key)| r.map_err(|e| self.error("get", key, e)))
            .collect()
    }

    async fn fetch(&self, path: &KeyPath) -> Result<Option<Fetched>, object_store::Error> {
        let got = match self.inner.get(path).await {
            Ok(got) => got,
            Err(object_store::Error::NotFound { .. }) => return Ok(None),
            Err(e) => return Err(e),
        };
        let version = Version(UpdateVersion {
            e_tag: got.meta.e_tag.clone(),
            version: got.meta.version.clone(),
        });
        let bytes = match got.bytes().await {
            Ok(bytes) => bytes,
            // Deleted between the request and the read of its body.
            Err(object_store::Error::NotFound { .. }) => return Ok(None),
            Err(e) => return Err(e),
        };
        Ok(Some(Fetched {
            bytes: bytes.to_vec(),
            version,
        }))
    }

    /// Writes `bytes` at `key`, replacing what was there.
    pub fn put(&self, key: &str, bytes: Vec<u8>) -> Result<Version, StoreError> {
        self.put_mode(key, bytes, PutMode::Overwrite)?
            .ok_or_else(|| unreachable_conflict(&self.url, key))
    }

    /// Writes `bytes` at `key` only if nothing is there; `None` if
    /// something was (it is left as it was).
    pub fn create(&self, key: &str, bytes: Vec<u8>) -> Result<Option<Version>, StoreError> {
        self.put_mode(key, bytes, PutMode::Create)
    }

    /// Replaces the object at `key` only if it is still at `version`;
    /// `None` if it changed (or went away) since. Not on `file://`
    /// ([`Store::supports_update`]).
    pub fn update(
        &self,
        key: &str,
        bytes: Vec<u8>,
        version: &Version,
    ) -> Result<Option<Version>, StoreError> {
        self.put_mode(key, bytes, PutMode::Update(version.0.clone()))
    }

    fn put_mode(
        &self,
        key: &str,
        bytes: Vec<u8>,
        mode: PutMode,
    ) -> Result<Option<Version>, StoreError> {
        let path = self.key_path(key)?;
        let updating = matches!(mode, PutMode::Update(_));
        let options = PutOptions {
            mode,
            ..PutOptions::default()
        };
        let result =
            self.runtime
                .block_on(self.inner.put_opts(&path, PutPayload::from(bytes), options));
        match result {
            Ok(put) => Ok(Some(Version(UpdateVersion {
                e_tag: put.e_tag,
                version: put.version,
            }))),
            Err(object_store::Error::AlreadyExists { .. })
            | Err(object_store::Error::Precondition { .. }) => Ok(None),
            // The object to update went away: it is not at the version.
            Err(object_store::Error::NotFound { .. }) if updating => Ok(None),
            Err(e) => Err(self.error("put", key, e)),
        }
    }

    /// Every object whose key starts with `prefix/` (a folder-like prefix,
    /// or "" for all), in key order.
    pub fn list(&self, prefix: &str) -> Result<Vec<Listed>, StoreError> {
        self.list_inner(prefix, None)
    }

    /// The objects under `prefix` whose keys sort after `offset` (a whole
    /// key), in key order: listing the new part of a prefix whose keys grow
    /// in order costs only the new keys.
    pub fn list_after(&self, prefix: &str, offset: &str) -> Result<Vec<Listed>, StoreError> {
        self.list_inner(prefix, Some(offset))
    }

    fn list_inner(&self, prefix: &str, offset: Option<&str>) -> Result<Vec<Listed>, StoreError> {
        let path = self.prefix_path(prefix)?;
        let stream = match offset {
            Some(offset) => {
                let offset = self.key_path(offset)?;
                self.inner.list_with_offset(path.as_ref(), &offset)
            }
            None => self.inner.list(path.as_ref()),
        };
        let metas: Vec<_> = self
            .runtime
            .block_on(stream.try_collect())
            .map_err(|e| self.error("list", prefix, e))?;
        let skip = if self.url.prefix.is_empty() {
            0
        } else {
            self.url.prefix.len() + 1
        };
        let mut listed: Vec<Listed> = metas
            .into_iter()
            .map(|m| Listed {
                key: m.location.as_ref()[skip..].to_string(),
                size: m.size,
            })
            .collect();
        listed.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(listed)
    }

    /// Removes the object at `key` (nothing if there is none).
    pub fn delete(&self, key: &str) -> Result<(), StoreError> {
        let path = self.key_path(key)?;
        match self.runtime.block_on(self.inner.delete(&path)) {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(self.error("delete", key, e)),
        }
    }

    /// Removes the objects at `keys` (nothing for one that is not there),
    /// in as few requests as the store allows (S3 deletes a thousand keys
    /// per request).
    pub fn delete_many(&self, keys: &[String]) -> Result<(), StoreError> {
        let paths = keys
            .iter()
            .map(|k| self.key_path(k).map(Ok))
            .collect::<Result<Vec<_>, _>>()?;
        let results: Vec<_> = self.runtime.block_on(
            self.inner
                .delete_stream(futures::stream::iter(paths).boxed())
                .collect(),
        );
        for result in results {
            match result {
                Ok(_) | Err(object_store::Error::NotFound { .. }) => {}
                Err(e) => {
                    let key = keys.first().map_or("", String::as_str);
                    return Err(self.error("delete", key, e));
                }
            }
        }
        Ok(())
    }

    /// The object path of `key`, under the URL's prefix.
    fn key_path(&self, key: &str) -> Result<KeyPath, StoreError> {
        let full = if self.url.prefix.is_empty() {
            key.to_string()
        } else {
            format!("{}/{key}", self.url.prefix)
        };
        if key.is_empty() {
            return Err(self.bad_key(key, "empty".to_string()));
        }
        KeyPath::parse(&full).map_err(|e| self.bad_key(key, e.to_string()))
    }

    /// The object path of a listing prefix (`None`: the whole store).
    fn prefix_path(&self, prefix: &str) -> Result<Option<KeyPath>, StoreError> {
        let prefix = prefix.trim_end_matches('/');
        let full = match (self.url.prefix.is_empty(), prefix.is_empty()) {
            (true, true) => return Ok(None),
            (true, false) => prefix.to_string(),
            (false, true) => self.url.prefix.clone(),
            (false, false) => format!("{}/{prefix}", self.url.prefix),
        };
        KeyPath::parse(&full)
            .map(Some)
            .map_err(|e| self.bad_key(prefix, e.to_string()))
    }

    fn bad_key(&self, key: &str, reason: String) -> StoreError {
        StoreError::Key {
            url: self.url.text.clone(),
            key: key.to_string(),
            reason,
        }
    }

    fn error(&self, operation: &'static str, key: &str, source: object_store::Error) -> StoreError {
        let url = self.url.text.clone();
        let key = key.to_string();
        match source {
            object_store::Error::PermissionDenied { .. }
            | object_store::Error::Unauthenticated { .. } => StoreError::Denied {
                url,
                key,
                source: Box::new(source),
            },
            source => StoreError::Operation {
                url,
                operation,
                key,
                source: Box::new(source),
            },
        }
    }
}

/// What a failed first listing most likely means, from the status the
/// server answered with (the full error follows it in the message).
fn diagnose(error: &object_store::Error) -> &'static str {
    let text = error.to_string();
    if matches!(
        error,
        object_store::Error::PermissionDenied { .. } | object_store::Error::Unauthenticated { .. }
    ) || text.contains("403 Forbidden")
        || text.contains("401 Unauthorized")
    {
        "access refused: check the credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, GOOGLE_SERVICE_ACCOUNT, AZURE_STORAGE_ACCOUNT_KEY, ...)"
    } else if text.contains("NoSuchBucket")
        || text.contains("ContainerNotFound")
        || text.contains("404 Not Found")
    {
        "the bucket (or container) does not exist: create it first"
    } else if text.contains("error sending request") || text.contains("connect") {
        "the endpoint cannot be reached: check AWS_ENDPOINT_URL (or the network)"
    } else {
        "the store cannot be listed"
    }
}

/// A cloud store's builder with `settings` applied through `with_config`,
/// each key parsed by the builder's own key type.
fn configured<B, K: std::str::FromStr>(
    mut builder: B,
    url: &StoreUrl,
    settings: &[(&str, &str)],
    with_config: impl Fn(B, K, &str) -> B,
) -> Result<B, StoreError> {
    for &(key, value) in settings {
        let key = key.parse().map_err(|_| StoreError::Url {
            url: url.text.clone(),
            reason: format!("unknown store setting `{key}`"),
        })?;
        builder = with_config(builder, key, value);
    }
    Ok(builder)
}

/// An overwrite never meets a precondition; if a store reports one anyway,
/// say so rather than pretend the write happened.
fn unreachable_conflict(url: &StoreUrl, key: &str) -> StoreError {
    StoreError::Key {
        url: url.text.clone(),
        key: key.to_string(),
        reason: "the store refused an unconditional write".to_string(),
    }
}
