//! The trainer's side of external self-play (`jungle train --selfplay
//! external`): a generation takes the shards workers uploaded to
//! `data/NAME/incoming/` ([`crate::worker`]) into its partial folder until
//! it holds its quota of games, then publishes as a local generation does.
//!
//! Each shard is written to the partial folder under its store name first
//! and deleted from `incoming/` after: a trainer killed between the two
//! finds the name in its folder on restart and only deletes the upload,
//! so no game is lost or taken twice. `incoming/` holds only what no
//! generation took yet, so listing it costs the new shards, not every
//! shard ever (the generation folders are the run's manifest).
//!
//! A shard is dropped (and deleted) when a game in it was played by a
//! network more than `max_net_age` generations older than the current one,
//! or by a network the run does not know; a shard that does not read back,
//! or was played under another rule set, is quarantined.

use crate::error::TrainError;
use crate::generations::{quarantine, Quarantined};
use crate::state::CheckpointInfo;
use jungle_rules::RuleMixture;
use jungle_selfplay::read_shard_among;
use jungle_store::Store;
use std::path::{Path, PathBuf};

/// Who plays a run's self-play games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelfPlaySource {
    /// The trainer itself, between its training phases (the default).
    Local,
    /// `jungle worker`s through the store; the trainer looks for their
    /// shards every `poll`.
    External {
        /// How long to wait between looks at `incoming/`.
        poll: std::time::Duration,
    },
}

/// What one look at `incoming/` took.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Taken {
    /// Games moved into the generation's folder.
    pub games: u64,
    /// Shards moved.
    pub shards: u64,
    /// Games dropped because their network was too old or unknown.
    pub stale_games: u64,
    /// Shards set aside.
    pub quarantined: Vec<Quarantined>,
    /// Keys under `incoming/` that are not shards (no `.bin`): left where
    /// they are, for the caller to report.
    pub foreign: Vec<String>,
}

/// Where incoming shards go and what they must satisfy.
pub struct Intake<'a> {
    /// The store.
    pub store: &'a Store,
    /// `data/NAME/incoming`.
    pub prefix: String,
    /// The generation's partial folder.
    pub partial: &'a Path,
    /// The run's quarantine folder.
    pub quarantine: &'a Path,
    /// The run's rule sets.
    pub mixture: &'a RuleMixture,
    /// The run's checkpoints so far (the last is the current network).
    pub checkpoints: &'a [CheckpointInfo],
    /// `run.max_net_age`.
    pub max_net_age: u32,
}

impl Intake<'_> {
    /// Takes uploaded shards, oldest key first, until `wanted` games were
    /// taken (whole shards: a generation may take a few more). Shards are
    /// fetched [`jungle_store::IN_FLIGHT`] at a time, and deleted from the
    /// store a chunk at a time once the chunk is safely on disk.
    pub fn take(&self, wanted: u64) -> Result<Taken, TrainError> {
        let mut taken = Taken::default();
        let mut keys = Vec::new();
        for listed in self.store.list(&self.prefix)? {
            match listed.key.rsplit('/').next() {
                Some(name) if name.ends_with(".bin") => keys.push(listed.key),
                _ => taken.foreign.push(listed.key),
            }
        }
        let arriving = self.arriving();
        std::fs::create_dir_all(&arriving).map_err(TrainError::io(&arriving))?;
        // The first chunk is small (a generation may want one shard); the
        // next ones are sized by the games per shard seen so far.
        let mut chunk = 4;
        let mut keys = keys.as_slice();
        while !keys.is_empty() && taken.games < wanted {
            let (now, later) = keys.split_at(chunk.min(keys.len()));
            keys = later;
            let mut handled = Vec::new();
            let mut wanted_now = Vec::new();
            for key in now {
                if self.partial.join(file_name(key)).exists() {
                    // Taken before a kill, not yet deleted.
                    handled.push(key.clone());
                } else {
                    wanted_now.push(key.clone());
                }
            }
            let fetched = self.store.get_many(&wanted_now)?;
            for (key, fetched) in wanted_now.iter().zip(fetched) {
                if taken.games >= wanted {
                    break;
                }
                handled.push(key.clone());
                if let Some(fetched) = fetched {
                    self.file(key, &fetched.bytes, &mut taken)?;
                }
            }
            // The renames are on disk before the uploads go.
            std::fs::File::open(self.partial)
                .and_then(|folder| folder.sync_all())
                .map_err(TrainError::io(self.partial))?;
            self.store.delete_many(&handled)?;
            let per_shard = taken.games.max(1) as f64 / taken.shards.max(1) as f64;
            let left = wanted.saturating_sub(taken.games) as f64 / per_shard;
            chunk = (left.ceil() as usize).clamp(1, 4 * jungle_store::IN_FLIGHT);
        }
        Ok(taken)
    }

    /// Checks one fetched shard and files it: into the generation, into
    /// quarantine, or away if its network is too old.
    fn file(&self, key: &str, bytes: &[u8], taken: &mut Taken) -> Result<(), TrainError> {
        let name = file_name(key);
        // Checked in a folder of its own (beside the generations, not read
        // by the window), so a bad shard is quarantined under its own name
        // (`arriving-a-000001.bin`).
        let arriving = self.arriving().join(name);
        std::fs::write(&arriving, bytes).map_err(TrainError::io(&arriving))?;
        match read_shard_among(&arriving, self.mixture).map(|(shard, _)| shard) {
            Err(e) => {
                let reason = format!("uploaded as {key}: {}", e.problem);
                let q = quarantine(&arriving, self.quarantine, &reason)
                    .map_err(TrainError::io(self.quarantine))?;
                taken.quarantined.push(q);
            }
            Ok(shard) if !shard.games.iter().all(|g| self.fresh(&g.checkpoint)) => {
                std::fs::remove_file(&arriving).map_err(TrainError::io(&arriving))?;
                taken.stale_games += shard.games.len() as u64;
            }
            Ok(shard) => {
                let local = self.partial.join(name);
                std::fs::File::open(&arriving)
                    .and_then(|f| f.sync_all())
                    .and_then(|()| std::fs::rename(&arriving, &local))
                    .map_err(TrainError::io(&local))?;
                taken.games += shard.games.len() as u64;
                taken.shards += 1;
            }
        }
        Ok(())
    }

    /// Where a downloaded shard is checked before it joins the generation.
    fn arriving(&self) -> PathBuf {
        self.partial.with_file_name("arriving")
    }

    /// Whether a game's network (`step:N`) is one of the run's, at most
    /// `max_net_age` generations older than the current one.
    fn fresh(&self, network: &str) -> bool {
        let Some(current) = self.checkpoints.last() else {
            return false;
        };
        let step = network
            .strip_prefix("step:")
            .and_then(|s| s.parse::<u64>().ok());
        self.checkpoints
            .iter()
            .find(|c| Some(c.step) == step)
            .is_some_and(|c| c.generation + self.max_net_age >= current.generation)
    }
}

/// The last part of a key.
fn file_name(key: &str) -> &str {
    key.rsplit('/').next().unwrap_or(key)
}
