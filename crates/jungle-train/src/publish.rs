//! A run mirrored to a store (`jungle train --store URL`): after each
//! generation the files it finished go up under the same layout as on
//! disk — the generation's shards (`data/NAME/shards/gen-NNNNNN/`), the
//! new checkpoints (`checkpoints/NAME/<step>.*`, written once, never
//! replaced), `state.json`, `matches.jsonl`, `elo.csv` and the plots — and
//! `checkpoints/NAME/latest.json` last: it names the newest checkpoint and
//! the run's config, and everything it names is already there. A store
//! other than a folder is held with a [`Lease`] (one trainer per run),
//! renewed at every publication.

use crate::config::TrainConfig;
use crate::error::TrainError;
use crate::generations::generation_folder;
use crate::layout::RunPaths;
use crate::layout::{RunLayout, ELO_FILE, MATCHES_FILE, STATE_FILE};
use crate::state::RunState;
use jungle_store::{Lease, Store};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::{Duration, Instant};

/// `checkpoints/NAME/latest.json`: what a worker reads to find the
/// network to play with, and how far the mirror got.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Latest {
    /// The last generation whose files are all in the store.
    pub generation: u32,
    /// The newest checkpoint's step.
    pub step: u64,
    /// The newest checkpoint's key prefix (`checkpoints/NAME/00000137`:
    /// add `.bpk` and `.json`).
    pub checkpoint: String,
    /// The run's config.
    pub config: TrainConfig,
    /// The run reached its end: workers stop.
    #[serde(default)]
    pub finished: bool,
}

/// This machine's name (`HOSTNAME`, else `/etc/hostname`, else
/// `unknown-host`): part of a lease's owner and of a worker's name.
pub fn host_name() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown-host".to_string())
}

/// Reads a run's `latest.json` (`None` while there is none).
pub fn read_latest(store: &Store, name: &str) -> Result<Option<Latest>, TrainError> {
    let key = RunLayout::new(name).latest();
    match store.get(&key)? {
        None => Ok(None),
        Some(found) => {
            serde_json::from_slice(&found.bytes)
                .map(Some)
                .map_err(|e| TrainError::Published {
                    url: store.url().text.clone(),
                    key,
                    problem: format!("not a latest.json: {e}"),
                })
        }
    }
}

/// How long the trainer's lease lasts without a renewal: longer than a
/// generation with its evaluation takes on a slow machine.
pub const LEASE_LASTS: Duration = Duration::from_secs(30 * 60);

/// Mirrors one run to a store.
pub struct Publisher {
    store: Store,
    name: String,
    lease: Option<Lease>,
    /// The generation `latest.json` names (0: none yet).
    published: u32,
    /// The step of the newest checkpoint in the store.
    published_step: Option<u64>,
    /// When the lease was last renewed.
    renewed: Instant,
    /// Whether the run's files are copied (false: the store is the run's
    /// own folder, only `latest.json` is written).
    copies: bool,
}

impl Publisher {
    /// Opens the mirror of run `name` in `store`: takes the lease (on a
    /// store other than a folder) and reads how far the mirror got. A store
    /// that holds more of the run than the local `state` is refused:
    /// restoring a run from a store onto a new machine is not built yet.
    /// The lease's owner is this machine and the run's local folder: a
    /// trainer restarted there (after a kill) takes its own lease back at
    /// once, while one on another machine waits for it to run out (the
    /// local `run.lock` already keeps two processes off one folder).
    pub fn open(
        store: Store,
        name: &str,
        state: &RunState,
        local: &Path,
    ) -> Result<Publisher, TrainError> {
        let owner = format!("{}:{}", host_name(), local.display());
        let lease = if store.supports_update() {
            Some(Lease::acquire(
                &store,
                &RunLayout::new(name).lease(),
                &owner,
                LEASE_LASTS,
            )?)
        } else {
            None
        };
        let latest = read_latest(&store, name)?;
        if let Some(l) = &latest {
            if l.generation > state.generation || l.step > state.step {
                return Err(TrainError::Published {
                    url: store.url().text.clone(),
                    key: RunLayout::new(name).latest(),
                    problem: format!(
                        "the store holds run `{name}` at generation {} (step {}), the local root at generation {} (step {}), which is not where the store's copy came from: resume it where its files are, from an empty root (it is restored from the store), or use another --run",
                        l.generation, l.step, state.generation, state.step
                    ),
                });
            }
        }
        Ok(Publisher {
            store,
            name: name.to_string(),
            lease,
            published: latest.as_ref().map_or(0, |l| l.generation),
            published_step: latest.map(|l| l.step),
            renewed: Instant::now(),
            copies: true,
        })
    }

    /// Writes only `latest.json`: the store is the run's own folder.
    pub fn point_only(&mut self) {
        self.copies = false;
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Uploads what the run finished since the last publication, then
    /// `latest.json`; renews the lease first, and stops with
    /// [`jungle_store::StoreError::Lost`] if another trainer took it.
    pub fn publish(&mut self, paths: &RunPaths, state: &RunState) -> Result<(), TrainError> {
        self.publish_as(paths, state, false)
    }

    /// Publishes the run's last files with `latest.json` saying it
    /// finished (workers stop), and gives the lease up.
    pub fn finish(mut self, paths: &RunPaths, state: &RunState) -> Result<(), TrainError> {
        self.publish_as(paths, state, true)?;
        self.close()
    }

    /// Renews the lease if a third of its time has passed since the last
    /// renewal: called while the trainer waits for workers' games, so a
    /// long wait does not lose it.
    pub fn keep_alive(&mut self) -> Result<(), TrainError> {
        if self.renewed.elapsed() > LEASE_LASTS / 3 {
            self.renew()?;
        }
        Ok(())
    }

    fn renew(&mut self) -> Result<(), TrainError> {
        if let Some(lease) = &mut self.lease {
            lease.renew(&self.store)?;
        }
        self.renewed = Instant::now();
        Ok(())
    }

    fn publish_as(
        &mut self,
        paths: &RunPaths,
        state: &RunState,
        finished: bool,
    ) -> Result<(), TrainError> {
        self.renew()?;
        let layout = RunLayout::new(&self.name);
        if self.copies {
            self.copy_files(paths, state)?;
        }
        let latest = Latest {
            generation: state.generation,
            step: state.step,
            checkpoint: layout.checkpoint(state.step),
            config: state.config.clone(),
            finished,
        };
        let text = serde_json::to_vec_pretty(&latest).expect("serialises");
        self.store.put(&layout.latest(), text)?;
        self.published = state.generation;
        self.published_step = Some(state.step);
        Ok(())
    }

    /// Uploads the generations' shards, the new checkpoints and the run's
    /// records.
    fn copy_files(&self, paths: &RunPaths, state: &RunState) -> Result<(), TrainError> {
        let layout = RunLayout::new(&self.name);
        let checkpoints = layout.checkpoints();
        for generation in self.published + 1..=state.generation {
            let folder = generation_folder(&paths.shards, generation);
            let prefix = layout.generation(generation);
            for file in files_in(&folder)? {
                self.upload_once(&folder, &prefix, &file)?;
            }
        }
        for file in files_in(&paths.checkpoints)? {
            match checkpoint_step(&file) {
                // Checkpoints already in the store are not read again.
                Some(step) if self.published_step.is_some_and(|p| step <= p) => {}
                Some(_) => self.upload_once(&paths.checkpoints, &checkpoints, &file)?,
                None if is_run_record(&file) => {
                    let bytes = read(&paths.checkpoints.join(&file))?;
                    self.store.put(&layout.record(&file), bytes)?;
                }
                None => {}
            }
        }
        Ok(())
    }

    /// Gives the lease up (the run stopped cleanly).
    pub fn close(self) -> Result<(), TrainError> {
        if let Some(lease) = self.lease {
            lease.release(&self.store)?;
        }
        Ok(())
    }

    /// Uploads `folder/file` as `prefix/file` unless it is there already
    /// (a write-once file: a shard or a checkpoint).
    fn upload_once(&self, folder: &Path, prefix: &str, file: &str) -> Result<(), TrainError> {
        let bytes = read(&folder.join(file))?;
        self.store.create(&format!("{prefix}/{file}"), bytes)?;
        Ok(())
    }
}

/// The step of a checkpoint file (`00000137.bpk`, `.json`, `.optim.bpk`).
fn checkpoint_step(file: &str) -> Option<u64> {
    let stem = file.split('.').next()?;
    (stem.len() == 8 && stem.bytes().all(|b| b.is_ascii_digit()))
        .then(|| stem.parse().ok())
        .flatten()
}

/// The run's records that are rewritten as it goes.
fn is_run_record(file: &str) -> bool {
    file == STATE_FILE
        || file == MATCHES_FILE
        || file == ELO_FILE
        || file.ends_with(".png")
        || file.ends_with(".svg")
}

/// The names of the plain files of a folder, sorted.
fn files_in(folder: &Path) -> Result<Vec<String>, TrainError> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(folder).map_err(TrainError::io(folder))? {
        let entry = entry.map_err(TrainError::io(folder))?;
        if entry.file_type().map_err(TrainError::io(folder))?.is_file() {
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    names.sort();
    Ok(names)
}

fn read(path: &Path) -> Result<Vec<u8>, TrainError> {
    std::fs::read(path).map_err(TrainError::io(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoint_files_are_told_from_the_run_records() {
        assert_eq!(checkpoint_step("00000137.bpk"), Some(137));
        assert_eq!(checkpoint_step("00000137.optim.bpk"), Some(137));
        assert_eq!(checkpoint_step("state.json"), None);
        assert_eq!(checkpoint_step("1234.bpk"), None);
        assert!(is_run_record("matches.jsonl") && is_run_record("elo.svg"));
        assert!(!is_run_record("run.lock"));
    }
}
