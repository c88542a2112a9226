//! # jungle-store
//!
//! Where a run lives when it spans machines: one small blocking interface
//! ([`Store`]) over the `object_store` crate, for URLs `file:///path`,
//! `memory://NAME` (tests), `s3://bucket/prefix` (and S3-compatible servers:
//! endpoint, region and credentials from the usual `AWS_*` variables),
//! `gs://bucket/prefix` and `az://container/prefix` ([`StoreUrl`]); and a
//! [`Lease`] taken with the store's conditional put (one trainer per run).
//! Every error names the store's URL ([`StoreError`]).

#![warn(missing_docs)]

mod error;
pub mod lease;
pub mod location;
mod store;

pub use error::StoreError;
pub use lease::{Lease, LeaseRecord};
pub use location::{StoreKind, StoreUrl};
pub use store::{Fetched, Listed, Store, Version, IN_FLIGHT};
