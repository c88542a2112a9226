//! A run restored from its store onto a root that does not hold it (a
//! trainer restarted on another machine, or in a fresh container): the
//! run's records (`state.json`, `matches.jsonl`, `elo.csv`), the current
//! checkpoint with its optimiser state, the last evaluated checkpoint (the
//! next evaluation plays it), and the newest generations' shards, as many
//! as the replay window can hold. The run then resumes from there as from
//! its own folder; games of a generation that was not finished are played
//! (or taken from workers) again. The same files carry a stopped run to
//! another root ([`carry_run`], `jungle carry`), for a machine that shares
//! no store with this one.

use crate::error::TrainError;
use crate::generations::{generation_folder, partial_folder, publish_generation};
use crate::layout::{checkpoint_name, RunLayout, ELO_FILE, MATCHES_FILE, STATE_FILE};
use crate::layout::{player_name, RunPaths};
use crate::matches::read_matches;
use crate::publish::read_latest;
use crate::state::RunState;
use jungle_selfplay::shard_stats;
use jungle_store::{Store, StoreUrl};
use std::path::Path;

/// What a restore brought down.
#[derive(Clone, Debug, PartialEq)]
pub struct Restored {
    /// The run's last finished generation.
    pub generation: u32,
    /// Its step.
    pub step: u64,
    /// Generations whose shards came down.
    pub generations: u32,
    /// Files written.
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
}

/// Restores run `name` from `store` into `root` when `root` does not hold
/// the run (no `state.json`) and the store does (a `latest.json`);
/// `Ok(None)` otherwise.
pub fn restore_run(store: &Store, root: &Path, name: &str) -> Result<Option<Restored>, TrainError> {
    crate::layout::check_run_name(name)?;
    let paths = RunPaths::new(root, name);
    if paths.state().exists() || read_latest(store, name)?.is_none() {
        return Ok(None);
    }
    copy_resume_set(store, &paths, name).map(Some)
}

/// Copies run `name` as it stands under `root` to `to`, a root of its own
/// that does not hold the run yet (`jungle carry`): the files a restore
/// brings down, so that `jungle train --root TO --run NAME` (on this
/// machine or another, with the folder moved there) resumes it where it
/// stopped. The run's lock is held while copying: a run that is being
/// trained is refused, not copied half-way.
pub fn carry_run(root: &Path, name: &str, to: &Path) -> Result<Restored, TrainError> {
    crate::layout::check_run_name(name)?;
    let from = RunPaths::new(root, name);
    let refuse = |problem: String| TrainError::Carry {
        run: name.to_string(),
        problem,
    };
    if !from.state().exists() {
        return Err(refuse(format!(
            "no run there: {} does not exist",
            from.state().display()
        )));
    }
    let target = RunPaths::new(to, name);
    for folder in [&target.checkpoints, &target.shards] {
        if folder.exists() {
            return Err(refuse(format!(
                "{} exists already: carry to a folder that does not hold the run (nothing is written over)",
                folder.display()
            )));
        }
    }
    let _lock = crate::run::lock_run(&from, name)?;
    let store = Store::open(&StoreUrl::from_path(root)?)?;
    copy_resume_set(&store, &target, name)
}

/// Copies the files run `name` resumes from out of `store` (which holds
/// them under the run's layout: a store it is mirrored to, or a root opened
/// as a folder store) into `paths`, `state.json` last.
fn copy_resume_set(store: &Store, paths: &RunPaths, name: &str) -> Result<Restored, TrainError> {
    let mut copy = Copier {
        store,
        files: 0,
        bytes: 0,
    };
    let remote = RunLayout::new(name);
    std::fs::create_dir_all(&paths.checkpoints).map_err(TrainError::io(&paths.checkpoints))?;
    // The checkpoints and shards first, state.json last: a restore cut
    // short leaves no state.json, and is done again.
    copy.optional(&remote.record(MATCHES_FILE), &paths.matches())?;
    copy.optional(&remote.record(ELO_FILE), &paths.elo())?;
    let state_key = remote.record(STATE_FILE);
    let state_bytes = copy.required(&state_key)?;
    let state: RunState =
        serde_json::from_slice(&state_bytes).map_err(|e| TrainError::Published {
            url: store.url().text.clone(),
            key: state_key.clone(),
            problem: format!("not a state.json: {e}"),
        })?;
    let mut steps = vec![(state.step, state.step > 0)];
    let (lines, _) = read_matches(&paths.matches())?;
    let evaluated = state.checkpoints.iter().rev().skip(1).find(|c| {
        lines
            .iter()
            .any(|m| m.a == player_name(c.step) || m.b == player_name(c.step))
    });
    if let Some(previous) = evaluated {
        steps.push((previous.step, false));
    }
    for (step, optimiser) in steps {
        let mut suffixes = vec!["bpk", "json"];
        if optimiser {
            suffixes.push("optim.bpk");
        }
        for suffix in suffixes {
            let file = format!("{}.{suffix}", checkpoint_name(step));
            let bytes = copy.required(&remote.record(&file))?;
            write(&paths.checkpoints.join(file), &bytes)?;
        }
    }
    std::fs::create_dir_all(&paths.shards).map_err(TrainError::io(&paths.shards))?;
    let mut positions = 0u64;
    let mut generations = 0;
    for generation in (1..=state.generation).rev() {
        if positions >= state.config.train.window_max_positions as u64 {
            break;
        }
        let folder = generation_folder(&paths.shards, generation);
        if !folder.exists() {
            let partial = partial_folder(&paths.shards, generation);
            std::fs::create_dir_all(&partial).map_err(TrainError::io(&partial))?;
            let prefix = remote.generation(generation);
            for listed in store.list(&prefix)? {
                let file = listed
                    .key
                    .rsplit('/')
                    .next()
                    .unwrap_or_default()
                    .to_string();
                let bytes = copy.required(&listed.key)?;
                write(&partial.join(file), &bytes)?;
            }
            publish_generation(&paths.shards, generation).map_err(TrainError::io(&partial))?;
        }
        positions += shard_stats(&folder, false)?.positions;
        generations += 1;
    }
    write(&paths.state(), &state_bytes)?;
    Ok(Restored {
        generation: state.generation,
        step: state.step,
        generations,
        files: copy.files,
        bytes: copy.bytes,
    })
}

/// Reads objects, counting what it read.
struct Copier<'a> {
    store: &'a Store,
    files: u64,
    bytes: u64,
}

impl Copier<'_> {
    /// The object at `key`, which the run's store must hold.
    fn required(&mut self, key: &str) -> Result<Vec<u8>, TrainError> {
        let fetched = self.store.get(key)?.ok_or_else(|| TrainError::Published {
            url: self.store.url().text.clone(),
            key: key.to_string(),
            problem: "missing: the run's records name this file, but it is not there".to_string(),
        })?;
        self.files += 1;
        self.bytes += fetched.bytes.len() as u64;
        Ok(fetched.bytes)
    }

    /// Copies the object at `key` to `path` if there is one.
    fn optional(&mut self, key: &str, path: &Path) -> Result<(), TrainError> {
        if let Some(fetched) = self.store.get(key)? {
            self.files += 1;
            self.bytes += fetched.bytes.len() as u64;
            write(path, &fetched.bytes)?;
        }
        Ok(())
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), TrainError> {
    jungle_files::write_atomically(path, bytes).map_err(TrainError::io(path))
}
