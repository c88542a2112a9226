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
/// `default`, else the path itself. The error lists where it looked.
pub fn checkpoint_path(path: &Path) -> Result<PathBuf, CheckpointError> {
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
}
