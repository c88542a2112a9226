//! The store's errors: each names the store's URL, and the key where there
//! is one.

use thiserror::Error;

/// What went wrong with a store.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The URL is not one this crate accepts.
    #[error("store URL `{url}`: {reason}")]
    Url {
        /// The URL as given.
        url: String,
        /// What is wrong and what was expected.
        reason: String,
    },
    /// The store could not be set up (its configuration from the
    /// environment is incomplete or invalid).
    #[error("store `{url}`: cannot open it: {source}")]
    Open {
        /// The store's URL.
        url: String,
        /// The underlying error.
        source: Box<object_store::Error>,
    },
    /// The store was opened but cannot be used: its first listing failed.
    #[error("store `{url}`: {hint}: {source}")]
    Unusable {
        /// The store's URL.
        url: String,
        /// What this most likely means.
        hint: &'static str,
        /// The underlying error.
        source: Box<object_store::Error>,
    },
    /// The credentials were refused.
    #[error("store `{url}`: access to `{key}` refused (check the credentials, e.g. AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY): {source}")]
    Denied {
        /// The store's URL.
        url: String,
        /// The key.
        key: String,
        /// The underlying error.
        source: Box<object_store::Error>,
    },
    /// An operation on a key failed: the server is unreachable, the bucket
    /// does not exist, the object went away, ...
    #[error("store `{url}`: {operation} `{key}` failed: {source}")]
    Operation {
        /// The store's URL.
        url: String,
        /// What was being done (`get`, `put`, `list`, ...).
        operation: &'static str,
        /// The key (or prefix).
        key: String,
        /// The underlying error.
        source: Box<object_store::Error>,
    },
    /// A key that cannot be a key (empty segment, `..`, ...).
    #[error("store `{url}`: `{key}` is not a valid key: {reason}")]
    Key {
        /// The store's URL.
        url: String,
        /// The key.
        key: String,
        /// Why.
        reason: String,
    },
    /// Another process holds the lease (one trainer per run).
    #[error("store `{url}`: `{key}` is held by {owner} for {seconds_left} s more; stop it first, or wait until its lease runs out")]
    Held {
        /// The store's URL.
        url: String,
        /// The lease's key.
        key: String,
        /// Who holds it.
        owner: String,
        /// Seconds until it runs out unless renewed.
        seconds_left: u64,
    },
    /// The lease was taken over by another process (this one was stopped
    /// or cut off longer than the lease lasts): it must stop writing.
    #[error("store `{url}`: the lease `{key}` was taken over by {owner}; this process no longer owns the run")]
    Lost {
        /// The store's URL.
        url: String,
        /// The lease's key.
        key: String,
        /// Who holds it now (`unknown` if it was removed).
        owner: String,
    },
    /// A lease object that is not one.
    #[error("store `{url}`: `{key}` is not a lease record: {reason}")]
    BadLease {
        /// The store's URL.
        url: String,
        /// The lease's key.
        key: String,
        /// What is wrong.
        reason: String,
    },
}
