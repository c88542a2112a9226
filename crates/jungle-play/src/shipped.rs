//! `net:default`: the network shipped with the repository
//! (`networks/default/`, the default config's one-hour run, exported), the
//! player `jungle play` and `jungle analyze` use when none is given.

use jungle_net::CheckpointError;
use std::path::{Path, PathBuf};

/// The path a `net:` spec gives for the shipped network.
pub const SHIPPED_NAME: &str = "default";

/// The player `jungle play` and `jungle analyze` use when none is given:
/// the shipped network at the evaluation's play-time terms (200
/// simulations, as every `net:` player unless its spec says otherwise).
pub const DEFAULT_PLAYER: &str = "net:default:material=0.6:qsearch=0.5";

/// The environment variable naming a `networks/` folder to look in first.
pub const NETWORKS_ENV: &str = "JUNGLE_NETWORKS";

/// The checkpoint prefix inside a `networks/` folder.
const CHECKPOINT: &str = "default/checkpoint";

/// Where the shipped network is looked for, in order: `$JUNGLE_NETWORKS`,
/// `networks/` under the current directory, the source tree this binary
/// was built from.
fn candidates() -> Vec<PathBuf> {
    let mut folders = Vec::new();
    if let Some(dir) = std::env::var_os(NETWORKS_ENV) {
        folders.push(PathBuf::from(dir));
    }
    folders.push(PathBuf::from("networks"));
    folders.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../networks"));
    folders.into_iter().map(|f| f.join(CHECKPOINT)).collect()
}

/// The checkpoint a `net:` spec's path names: the shipped network's for
/// `default`; in a folder, its `checkpoint` or else its newest step (a
/// run's checkpoints folder: `net:checkpoints/main` plays the run's latest
/// network); else the path itself. The error lists where it looked.
pub fn checkpoint_path(path: &Path) -> Result<PathBuf, CheckpointError> {
    if path.is_dir() {
        return newest_in(path);
    }
    if path != Path::new(SHIPPED_NAME) {
        return Ok(path.to_path_buf());
    }
    let looked = candidates();
    if let Some(found) = looked.iter().find(|p| p.with_extension("json").is_file()) {
        return Ok(found.clone());
    }
    let places: Vec<String> = looked.iter().map(|p| p.display().to_string()).collect();
    Err(CheckpointError::Io {
        path: PathBuf::from("networks").join(CHECKPOINT),
        error: std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!(
                "the shipped network `net:default` is not here (looked for {}); set {NETWORKS_ENV} \
                 to the repository's networks/ folder, or name a checkpoint",
                places.join(", ")
            ),
        ),
    })
}

/// The checkpoint of a folder: `checkpoint` (an exported or shipped
/// network's folder), else the highest step `NNNNNNNN` with both its
/// `.json` and its `.bpk`.
fn newest_in(folder: &Path) -> Result<PathBuf, CheckpointError> {
    let named = folder.join("checkpoint");
    if named.with_extension("json").is_file() {
        return Ok(named);
    }
    let entries = std::fs::read_dir(folder).map_err(|error| CheckpointError::Io {
        path: folder.to_path_buf(),
        error,
    })?;
    let newest = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| {
            let stem = name.strip_suffix(".json")?;
            (stem.len() == 8 && stem.bytes().all(|b| b.is_ascii_digit()))
                .then(|| stem.parse::<u64>().ok())
                .flatten()
        })
        .filter(|step| folder.join(format!("{step:08}.bpk")).is_file())
        .max();
    match newest {
        Some(step) => Ok(folder.join(format!("{step:08}"))),
        None => Err(CheckpointError::Io {
            path: folder.to_path_buf(),
            error: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "this folder holds no checkpoint (`checkpoint.json`, or `NNNNNNNN.json` with its \
                 `.bpk`, as a run's checkpoints folder does)",
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_names_the_shipped_checkpoint_and_other_paths_pass() {
        let found = checkpoint_path(Path::new("default")).unwrap();
        assert!(found.ends_with("networks/default/checkpoint"), "{found:?}");
        assert!(found.with_extension("bpk").is_file());
        let other = Path::new("runs/main/00000123");
        assert_eq!(checkpoint_path(other).unwrap(), other);
    }

    #[test]
    fn a_folder_names_its_newest_checkpoint() {
        let dir = std::env::temp_dir().join(format!("jungle-newest-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let empty = checkpoint_path(&dir).unwrap_err().to_string();
        assert!(empty.contains("holds no checkpoint"), "{empty}");
        for (name, bpk) in [("00000090", true), ("00000123", true), ("00000456", false)] {
            std::fs::write(dir.join(format!("{name}.json")), "{}").unwrap();
            if bpk {
                std::fs::write(dir.join(format!("{name}.bpk")), "").unwrap();
            }
        }
        std::fs::write(dir.join("state.json"), "{}").unwrap();
        // 456 lacks its weights: 123 is the newest whole one.
        assert_eq!(checkpoint_path(&dir).unwrap(), dir.join("00000123"));
        // The shipped network's folder names its `checkpoint`.
        let shipped = checkpoint_path(Path::new("default")).unwrap();
        let folder = shipped.parent().unwrap();
        assert_eq!(checkpoint_path(folder).unwrap(), shipped);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
