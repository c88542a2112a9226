//! A run's shards belong to the generation that played them: generation
//! `g` writes into `shards/gen-<g>.partial/` and the folder is renamed to
//! `shards/gen-<g>/` once every game is in it. The replay window reads only
//! published generations up to the one being trained, so a run killed in
//! the middle of self-play neither trains on a half generation nor plays
//! its games again: on resume the partial folder's games are kept and only
//! the missing ones are played ([`jungle_selfplay::GameList`]). A shard
//! that fails its check is moved to `quarantine/` beside `shards/`.

use crate::layout::generation_name;
use jungle_selfplay::{shard_files, ShardError};
use std::path::{Path, PathBuf};

/// The folder of generation `generation`'s finished self-play.
pub fn generation_folder(shards: &Path, generation: u32) -> PathBuf {
    shards.join(generation_name(generation))
}

/// The folder generation `generation` plays into until it is finished.
pub fn partial_folder(shards: &Path, generation: u32) -> PathBuf {
    shards.join(format!("{}.partial", generation_name(generation)))
}

/// The number of a published generation folder's name (`gen-000012`).
fn generation_number(folder: &Path) -> Option<u32> {
    folder
        .file_name()?
        .to_str()?
        .strip_prefix("gen-")?
        .parse()
        .ok()
}

/// Publishes a generation's finished self-play: renames its partial folder
/// to its final name and flushes the parent folder, so the rename survives
/// a crash.
pub fn publish_generation(shards: &Path, generation: u32) -> std::io::Result<()> {
    let folder = generation_folder(shards, generation);
    std::fs::rename(partial_folder(shards, generation), &folder)?;
    jungle_files::sync_folder(&folder)
}

/// The shards the replay window may read, newest first: those of the
/// published generations up to `up_to` (newest generation first, each
/// newest shard first), then shards lying in `shards/` itself (runs from
/// before generation folders).
pub fn window_files(shards: &Path, up_to: u32) -> Result<Vec<PathBuf>, ShardError> {
    let entries = std::fs::read_dir(shards).map_err(|e| ShardError {
        path: shards.to_path_buf(),
        problem: e.to_string(),
        damaged: false,
    })?;
    let mut generations: Vec<(u32, PathBuf)> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .filter_map(|p| Some((generation_number(&p)?, p)))
        .filter(|(g, _)| *g <= up_to)
        .collect();
    generations.sort();
    let mut files = Vec::new();
    for (_, folder) in generations.iter().rev() {
        let mut shards = shard_files(folder)?;
        shards.reverse();
        files.extend(shards);
    }
    let mut legacy = shard_files(shards)?;
    legacy.reverse();
    files.extend(legacy);
    Ok(files)
}

/// A shard set aside because it failed its check.
#[derive(Clone, Debug, PartialEq)]
pub struct Quarantined {
    /// Where it was.
    pub from: PathBuf,
    /// Where it is now.
    pub to: PathBuf,
    /// What was wrong with it.
    pub reason: String,
}

impl std::fmt::Display for Quarantined {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "shard `{}` failed its check ({}); moved to `{}` and left out of training",
            self.from.display(),
            self.reason,
            self.to.display()
        )
    }
}

/// Moves a bad shard into `quarantine` under a name that keeps its folder
/// (`gen-000003-shard-000001.bin`) and never replaces an earlier one.
pub fn quarantine(shard: &Path, quarantine: &Path, reason: &str) -> std::io::Result<Quarantined> {
    std::fs::create_dir_all(quarantine)?;
    let folder = shard
        .parent()
        .and_then(Path::file_name)
        .map_or(String::new(), |n| format!("{}-", n.to_string_lossy()));
    let name = shard
        .file_name()
        .map_or("shard".into(), |n| n.to_string_lossy());
    let mut to = quarantine.join(format!("{folder}{name}"));
    let mut copy = 1;
    while to.exists() {
        to = quarantine.join(format!("{folder}{name}.{copy}"));
        copy += 1;
    }
    std::fs::rename(shard, &to)?;
    jungle_files::sync_folder(shard)?;
    jungle_files::sync_folder(&to)?;
    Ok(Quarantined {
        from: shard.to_path_buf(),
        to,
        reason: reason.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_reads_published_generations_newest_first_then_old_shards() {
        let root = std::env::temp_dir().join(format!("jungle-gens-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let touch = |p: PathBuf| {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, b"x").unwrap();
        };
        for g in 1..=3 {
            touch(generation_folder(&root, g).join("shard-000000.bin"));
            touch(generation_folder(&root, g).join("shard-000001.bin"));
        }
        touch(partial_folder(&root, 4).join("shard-000000.bin"));
        touch(root.join("shard-000000.bin"));
        let names: Vec<String> = window_files(&root, 2)
            .unwrap()
            .iter()
            .map(|p| p.strip_prefix(&root).unwrap().display().to_string())
            .collect();
        assert_eq!(
            names,
            [
                "gen-000002/shard-000001.bin",
                "gen-000002/shard-000000.bin",
                "gen-000001/shard-000001.bin",
                "gen-000001/shard-000000.bin",
                "shard-000000.bin"
            ]
        );
        // Quarantined twice under the same name: neither copy is replaced.
        let q = root.join("quarantine");
        let first = quarantine(
            &generation_folder(&root, 1).join("shard-000000.bin"),
            &q,
            "bad",
        )
        .unwrap();
        touch(generation_folder(&root, 1).join("shard-000000.bin"));
        let second = quarantine(
            &generation_folder(&root, 1).join("shard-000000.bin"),
            &q,
            "bad",
        )
        .unwrap();
        assert_eq!(first.to, q.join("gen-000001-shard-000000.bin"));
        assert_eq!(second.to, q.join("gen-000001-shard-000000.bin.1"));
        assert!(first.to.exists() && second.to.exists());
        std::fs::remove_dir_all(&root).unwrap();
    }
}
