//! A run's layout, spelled once: the same relative paths name its files
//! in a local root (`ROOT/checkpoints/NAME/state.json`) and its keys in a
//! store (`checkpoints/NAME/state.json`), so a run copied either way lands
//! where the other side looks.
//!
//! ```text
//! checkpoints/NAME/              state.json, matches.jsonl, elo.csv, plots,
//!                                latest.json and lease.json (store only),
//!                                00000137.{bpk,json,optim.bpk}, raw/
//! data/NAME/shards/gen-000012/   a finished generation's shards
//!                 gen-000012.partial/  (local only, until it is finished)
//! data/NAME/quarantine/          shards that failed their check (local)
//! data/NAME/incoming/            workers' shards (store only)
//! anchors/                       the anchors' games among themselves (local)
//! ```

use crate::error::TrainError;
use std::path::{Path, PathBuf};

/// The run's state (`checkpoints/NAME/state.json`).
pub const STATE_FILE: &str = "state.json";
/// Every evaluation game (`checkpoints/NAME/matches.jsonl`).
pub const MATCHES_FILE: &str = "matches.jsonl";
/// The Elo table (`checkpoints/NAME/elo.csv`).
pub const ELO_FILE: &str = "elo.csv";

/// The name of generation `generation`'s folder (`gen-000012`).
pub fn generation_name(generation: u32) -> String {
    format!("gen-{generation:06}")
}

/// A checkpoint's file name stem (`00000137`).
pub fn checkpoint_name(step: u64) -> String {
    format!("{step:08}")
}

/// Run `name`'s layout as relative paths with `/`: the keys of its store
/// and, under a root, its local paths ([`RunPaths`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunLayout {
    name: String,
}

impl RunLayout {
    /// The layout of run `name` (a name [`check_run_name`]
    /// accepts).
    pub fn new(name: &str) -> RunLayout {
        RunLayout {
            name: name.to_string(),
        }
    }

    /// `checkpoints/NAME`: checkpoints and the run's records.
    pub fn checkpoints(&self) -> String {
        format!("checkpoints/{}", self.name)
    }

    /// `checkpoints/NAME/FILE`: one of the run's records.
    pub fn record(&self, file: &str) -> String {
        format!("{}/{file}", self.checkpoints())
    }

    /// `checkpoints/NAME/00000137`: a checkpoint's prefix.
    pub fn checkpoint(&self, step: u64) -> String {
        self.record(&checkpoint_name(step))
    }

    /// `checkpoints/NAME/latest.json`: what the trainer published last.
    pub fn latest(&self) -> String {
        self.record("latest.json")
    }

    /// `checkpoints/NAME/lease.json`: who trains the run.
    pub fn lease(&self) -> String {
        self.record("lease.json")
    }

    /// `data/NAME/shards`: a folder per generation.
    pub fn shards(&self) -> String {
        format!("data/{}/shards", self.name)
    }

    /// `data/NAME/shards/gen-000012`: generation `generation`'s shards.
    pub fn generation(&self, generation: u32) -> String {
        format!("{}/{}", self.shards(), generation_name(generation))
    }

    /// `data/NAME/quarantine`: shards that failed their check.
    pub fn quarantine(&self) -> String {
        format!("data/{}/quarantine", self.name)
    }

    /// `data/NAME/incoming`: where workers upload shards for the trainer.
    pub fn incoming(&self) -> String {
        format!("data/{}/incoming", self.name)
    }
}

/// Where a run lives on this machine: its [`RunLayout`] under a root.
#[derive(Clone, Debug)]
pub struct RunPaths {
    /// `ROOT/data/NAME/shards`: a folder per generation ([`crate::generations`]).
    pub shards: PathBuf,
    /// `ROOT/data/NAME/quarantine`: shards that failed their check.
    pub quarantine: PathBuf,
    /// `ROOT/checkpoints/NAME`.
    pub checkpoints: PathBuf,
    /// `ROOT/anchors`: the anchors' games among themselves, shared by
    /// every run under the root ([`crate::anchors`]).
    pub anchors: PathBuf,
}

impl RunPaths {
    /// The paths of run `name` under `root`.
    pub fn new(root: &Path, name: &str) -> RunPaths {
        let layout = RunLayout::new(name);
        RunPaths {
            shards: root.join(layout.shards()),
            quarantine: root.join(layout.quarantine()),
            checkpoints: root.join(layout.checkpoints()),
            anchors: root.join("anchors"),
        }
    }

    /// Checkpoint prefix of a step.
    pub fn checkpoint(&self, step: u64) -> PathBuf {
        self.checkpoints.join(checkpoint_name(step))
    }

    /// Prefix of a step's raw trained weights, kept beside a checkpoint
    /// that holds their moving average (`weight_average_decay`).
    pub fn raw_checkpoint(&self, step: u64) -> PathBuf {
        self.checkpoints.join("raw").join(checkpoint_name(step))
    }

    /// `state.json`.
    pub fn state(&self) -> PathBuf {
        self.checkpoints.join(STATE_FILE)
    }

    /// `matches.jsonl`.
    pub fn matches(&self) -> PathBuf {
        self.checkpoints.join(MATCHES_FILE)
    }

    /// `elo.csv`.
    pub fn elo(&self) -> PathBuf {
        self.checkpoints.join(ELO_FILE)
    }
}

/// The longest run name.
pub const MAX_RUN_NAME: usize = 100;

/// Checks a run's name, which names folders under the root and keys in a
/// store: 1 to [`MAX_RUN_NAME`] letters, digits, `-`, `_` and `.`, not
/// starting with `.` (so never `..`, a hidden folder, an absolute path or
/// a path into another folder).
pub fn check_run_name(name: &str) -> Result<(), TrainError> {
    let problem = if name.is_empty() {
        Some("it is empty")
    } else if name.len() > MAX_RUN_NAME {
        Some("it is longer than 100 characters")
    } else if name.starts_with('.') {
        Some("it starts with `.`")
    } else if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        Some("it holds a character other than letters, digits, `-`, `_` and `.`")
    } else {
        None
    };
    match problem {
        Some(problem) => Err(TrainError::RunName {
            name: name.to_string(),
            problem: problem.to_string(),
        }),
        None => Ok(()),
    }
}

/// The Elo player name of a checkpoint.
pub fn player_name(step: u64) -> String {
    format!("step:{step}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_paths_are_the_store_keys_under_the_root() {
        let layout = RunLayout::new("main");
        let paths = RunPaths::new(Path::new("/r"), "main");
        assert_eq!(
            paths.checkpoints,
            Path::new("/r").join(layout.checkpoints())
        );
        assert_eq!(paths.shards, Path::new("/r/data/main/shards"));
        assert_eq!(paths.state(), Path::new("/r/checkpoints/main/state.json"));
        assert_eq!(
            paths.checkpoint(137),
            Path::new("/r/checkpoints/main/00000137")
        );
        assert_eq!(layout.checkpoint(137), "checkpoints/main/00000137");
        assert_eq!(layout.generation(12), "data/main/shards/gen-000012");
        assert_eq!(layout.latest(), "checkpoints/main/latest.json");
        assert_eq!(layout.incoming(), "data/main/incoming");
    }
}
