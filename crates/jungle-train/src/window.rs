//! The replay window: the newest positions of a run's shards, drawn from at
//! random (with random mirroring) for each training batch.

use crate::error::TrainError;
use crate::generations::{quarantine, Quarantined};
use crate::samples::{game_positions, Batch, TrainingPosition};
use jungle_net::encoding::Encoding;
use jungle_rules::Rules;
use jungle_selfplay::read_shard;
use rand::Rng;
use std::path::{Path, PathBuf};

/// The newest positions, up to a size.
pub struct ReplayWindow {
    positions: Vec<TrainingPosition>,
    rules: Rules,
    encoding: Encoding,
    quarantined: Vec<Quarantined>,
}

/// The window size for a run that has made `positions_ever` positions:
/// `min + growth x positions_ever`, capped at `max` (KataGo grows its window
/// with the run the same way).
pub fn window_size(min: usize, growth: f64, max: usize, positions_ever: u64) -> usize {
    ((min as f64 + growth * positions_ever as f64) as usize).clamp(min, max)
}

impl ReplayWindow {
    /// Reads `files` (newest first, see [`crate::generations::window_files`])
    /// until `size` positions are in, their value targets blended with
    /// `search_weight` of the search's root value
    /// ([`TrainingPosition::blend_search_value`]), to be drawn as inputs in
    /// `encoding`. A shard that fails its check (damaged, of another rule
    /// set, a game that does not replay) is moved to `quarantine` and
    /// skipped ([`ReplayWindow::quarantined`]); a file that cannot be read
    /// at all is an error.
    pub fn load(
        files: &[PathBuf],
        quarantine_dir: &Path,
        rules: &Rules,
        encoding: Encoding,
        size: usize,
        search_weight: f32,
    ) -> Result<ReplayWindow, TrainError> {
        let mut positions = Vec::new();
        let mut quarantined = Vec::new();
        for path in files {
            if positions.len() >= size {
                break;
            }
            match shard_positions(path, rules) {
                Ok(mut found) => positions.append(&mut found),
                Err(ShardFault::Bad(reason)) => quarantined.push(
                    quarantine(path, quarantine_dir, &reason)
                        .map_err(TrainError::io(quarantine_dir))?,
                ),
                Err(ShardFault::Fatal(e)) => return Err(e),
            }
        }
        positions.truncate(size);
        for p in &mut positions {
            p.blend_search_value(search_weight);
        }
        Ok(ReplayWindow {
            positions,
            rules: rules.clone(),
            encoding,
            quarantined,
        })
    }

    /// The shards [`ReplayWindow::load`] set aside.
    pub fn quarantined(&self) -> &[Quarantined] {
        &self.quarantined
    }

    /// Positions in the window.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether the window is empty.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// A batch of `size` positions drawn uniformly (with replacement), each
    /// mirrored with probability 1/2.
    pub fn batch(&self, rng: &mut impl Rng, size: usize) -> Batch {
        let samples: Vec<_> = (0..size)
            .map(|_| {
                let p = &self.positions[rng.random_range(0..self.positions.len())];
                p.sample(&self.rules, self.encoding, rng.random::<bool>())
            })
            .collect();
        Batch::new(&samples)
    }
}

/// Why a shard gave no positions.
enum ShardFault {
    /// The shard is bad: quarantine it.
    Bad(String),
    /// Reading failed otherwise: stop.
    Fatal(TrainError),
}

/// The training positions of a shard, newest game first.
fn shard_positions(path: &Path, rules: &Rules) -> Result<Vec<TrainingPosition>, ShardFault> {
    let shard = read_shard(path, Some(rules)).map_err(|e| match e.damaged {
        true => ShardFault::Bad(e.problem),
        false => ShardFault::Fatal(e.into()),
    })?;
    let mut positions = Vec::new();
    for (index, game) in shard.games.iter().enumerate().rev() {
        let mut found = game_positions(game, rules)
            .map_err(|e| ShardFault::Bad(format!("game {index}: {e}")))?;
        positions.append(&mut found);
    }
    Ok(positions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_grows_with_the_run_between_its_bounds() {
        assert_eq!(window_size(1000, 0.25, 5000, 0), 1000);
        assert_eq!(window_size(1000, 0.25, 5000, 8000), 3000);
        assert_eq!(window_size(1000, 0.25, 5000, 1_000_000), 5000);
    }
}
