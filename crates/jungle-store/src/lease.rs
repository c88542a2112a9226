//! A lease on a key: one owner at a time (one trainer per run), taken and
//! renewed with the store's conditional put, so two processes can never
//! both believe they hold it. The record is a small JSON object (owner and
//! expiry time); an expired lease may be taken over.

use crate::error::StoreError;
use crate::store::{Store, Version};
use serde::{Deserialize, Serialize};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The stored record of a lease.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaseRecord {
    /// Who holds it (host, process, start time).
    pub owner: String,
    /// When it runs out unless renewed, in milliseconds since 1970.
    pub expires_unix_ms: u64,
}

/// A lease held by this process.
pub struct Lease {
    key: String,
    owner: String,
    lasts: Duration,
    version: Version,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl Lease {
    /// Takes the lease at `key` for `owner`, lasting `lasts` unless renewed:
    /// created if absent, taken over if expired (or already `owner`'s);
    /// refused with [`StoreError::Held`] while another owner's lease runs.
    pub fn acquire(
        store: &Store,
        key: &str,
        owner: &str,
        lasts: Duration,
    ) -> Result<Lease, StoreError> {
        let record = |owner: &str| LeaseRecord {
            owner: owner.to_string(),
            expires_unix_ms: now_ms() + lasts.as_millis() as u64,
        };
        let version = match store.get(key)? {
            None => store.create(key, encode(&record(owner)))?,
            Some(found) => {
                let current = decode(store, key, &found.bytes)?;
                let now = now_ms();
                if current.owner != owner && current.expires_unix_ms > now {
                    return Err(StoreError::Held {
                        url: store.url().text.clone(),
                        key: key.to_string(),
                        owner: current.owner,
                        seconds_left: (current.expires_unix_ms - now).div_ceil(1000),
                    });
                }
                store.update(key, encode(&record(owner)), &found.version)?
            }
        };
        match version {
            Some(version) => Ok(Lease {
                key: key.to_string(),
                owner: owner.to_string(),
                lasts,
                version,
            }),
            // Another process wrote the lease between the read and the
            // write: it won; report who holds it now.
            None => {
                let holder = store
                    .get(key)?
                    .map(|f| decode(store, key, &f.bytes))
                    .transpose()?;
                Err(StoreError::Held {
                    url: store.url().text.clone(),
                    key: key.to_string(),
                    owner: holder
                        .as_ref()
                        .map_or("unknown".to_string(), |h| h.owner.clone()),
                    seconds_left: holder.map_or(0, |h| {
                        h.expires_unix_ms.saturating_sub(now_ms()).div_ceil(1000)
                    }),
                })
            }
        }
    }

    /// Extends the lease by its length from now; [`StoreError::Lost`] if
    /// another process took it over meanwhile.
    pub fn renew(&mut self, store: &Store) -> Result<(), StoreError> {
        let record = LeaseRecord {
            owner: self.owner.clone(),
            expires_unix_ms: now_ms() + self.lasts.as_millis() as u64,
        };
        match store.update(&self.key, encode(&record), &self.version)? {
            Some(version) => {
                self.version = version;
                Ok(())
            }
            None => {
                let owner = store
                    .get(&self.key)?
                    .and_then(|f| decode(store, &self.key, &f.bytes).ok())
                    .map_or("unknown".to_string(), |r| r.owner);
                Err(StoreError::Lost {
                    url: store.url().text.clone(),
                    key: self.key.clone(),
                    owner,
                })
            }
        }
    }

    /// Gives the lease up (marks it expired), so the next owner need not
    /// wait for it to run out.
    pub fn release(self, store: &Store) -> Result<(), StoreError> {
        let record = LeaseRecord {
            owner: self.owner.clone(),
            expires_unix_ms: 0,
        };
        store.update(&self.key, encode(&record), &self.version)?;
        Ok(())
    }

    /// Who holds it.
    pub fn owner(&self) -> &str {
        &self.owner
    }
}

fn encode(record: &LeaseRecord) -> Vec<u8> {
    serde_json::to_vec(record).expect("a lease record serialises")
}

fn decode(store: &Store, key: &str, bytes: &[u8]) -> Result<LeaseRecord, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::BadLease {
        url: store.url().text.clone(),
        key: key.to_string(),
        reason: format!("{e}; expected {{\"owner\": ..., \"expires_unix_ms\": ...}}"),
    })
}
