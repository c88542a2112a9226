//! The replay window: the newest positions of a run's shards, drawn from at
//! random (with random mirroring) for each training batch.

use crate::error::TrainError;
use crate::generations::{quarantine, Quarantined};
use crate::samples::{game_positions_with, Batch, TrainingPosition, ValueTargets};
use jungle_net::encoding::Encoding;
use jungle_rules::RuleMixture;
use jungle_rules::Rules;
use jungle_selfplay::read_shard_among;
use rand::seq::SliceRandom;
use rand::Rng;
use std::path::{Path, PathBuf};

/// The newest positions, up to a size.
pub struct ReplayWindow {
    positions: Vec<TrainingPosition>,
    /// The rule set of each position's game, as an index into `rules`.
    variants: Vec<u8>,
    /// Running sums of the positions' sampling weights
    /// ([`sampling_weights`]); empty when they are drawn uniformly.
    cumulative: Vec<f64>,
    /// The run's rule sets (a position's planes carry its game's switches).
    rules: Vec<Rules>,
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
    /// until `size` positions are in, their value targets made as `targets`
    /// says ([`game_positions_with`]), to be drawn as inputs in
    /// `encoding`. A shard that fails its check (damaged, of another rule
    /// set than `mixture`'s, a game that does not replay) is moved to `quarantine` and
    /// skipped ([`ReplayWindow::quarantined`]); a file that cannot be read
    /// at all is an error. With `surprise_weight` above 0 positions are
    /// drawn in proportion to [`sampling_weights`].
    pub fn load(
        files: &[PathBuf],
        quarantine_dir: &Path,
        mixture: &RuleMixture,
        encoding: Encoding,
        size: usize,
        targets: ValueTargets,
        surprise_weight: f32,
    ) -> Result<ReplayWindow, TrainError> {
        let mut positions = Vec::new();
        let mut variants = Vec::new();
        let mut quarantined = Vec::new();
        for path in files {
            if positions.len() >= size {
                break;
            }
            match shard_positions(path, mixture, targets) {
                Ok((mut found, variant)) => {
                    variants.resize(variants.len() + found.len(), variant as u8);
                    positions.append(&mut found);
                }
                Err(ShardFault::Bad(reason)) => quarantined.push(
                    quarantine(path, quarantine_dir, &reason)
                        .map_err(TrainError::io(quarantine_dir))?,
                ),
                Err(ShardFault::Fatal(e)) => return Err(e),
            }
        }
        positions.truncate(size);
        variants.truncate(size);
        let cumulative = if surprise_weight > 0.0 {
            sampling_weights(&positions, surprise_weight)
                .into_iter()
                .scan(0.0, |sum, w| {
                    *sum += w;
                    Some(*sum)
                })
                .collect()
        } else {
            Vec::new()
        };
        Ok(ReplayWindow {
            positions,
            variants,
            cumulative,
            rules: (0..mixture.len())
                .map(|i| mixture.rules(i).clone())
                .collect(),
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

    /// A batch of `size` positions drawn (with replacement) uniformly or
    /// by their weights, each mirrored with probability 1/2.
    pub fn batch(&self, rng: &mut impl Rng, size: usize) -> Batch {
        let samples: Vec<_> = (0..size)
            .map(|_| {
                let i = self.draw(rng);
                let rules = &self.rules[self.variants[i] as usize];
                self.positions[i].sample(rules, self.encoding, rng.random::<bool>())
            })
            .collect();
        Batch::new(&samples)
    }

    /// The window's `count` newest positions (the generation just played,
    /// before any step trained on them), unmirrored, in batches of at most
    /// `size`: what the held-out losses are measured on. The positions are
    /// shuffled (with `rng`) across the batches, as training's batches mix
    /// games: batch norm normalises each batch by its own statistics, and
    /// a batch of one game's consecutive positions would be judged on
    /// statistics no training batch has.
    pub fn newest_batches(&self, count: usize, size: usize, rng: &mut impl Rng) -> Vec<Batch> {
        let count = count.min(self.positions.len());
        let mut order: Vec<usize> = (0..count).collect();
        order.shuffle(rng);
        order
            .chunks(size.max(1))
            .map(|chunk| {
                let samples: Vec<_> = chunk
                    .iter()
                    .map(|&i| {
                        let rules = &self.rules[self.variants[i] as usize];
                        self.positions[i].sample(rules, self.encoding, false)
                    })
                    .collect();
                Batch::new(&samples)
            })
            .collect()
    }

    /// The index of one position: uniform, or by the running weight sums.
    fn draw(&self, rng: &mut impl Rng) -> usize {
        match self.cumulative.last() {
            None => rng.random_range(0..self.positions.len()),
            Some(&total) => {
                let x = rng.random::<f64>() * total;
                self.cumulative
                    .partition_point(|&c| c <= x)
                    .min(self.positions.len() - 1)
            }
        }
    }
}

/// KataGo's policy-surprise weighting: each position's chance to be drawn
/// is proportional to `1 - w + w x surprise / mean surprise` (with `w =
/// 0.5`: 0.5 + 0.5 x KL / mean KL), so positions where the search changed
/// the network's mind most are trained on more, for the same number of
/// steps. A position whose surprise is unknown (from a version-1 shard)
/// weighs 1, as do all when the known ones average 0.
pub fn sampling_weights(positions: &[TrainingPosition], w: f32) -> Vec<f64> {
    let known: Vec<f64> = positions
        .iter()
        .filter_map(|p| p.surprise.map(f64::from))
        .collect();
    let mean = known.iter().sum::<f64>() / known.len().max(1) as f64;
    let w = f64::from(w);
    positions
        .iter()
        .map(|p| match p.surprise {
            Some(kl) if mean > 0.0 => 1.0 - w + w * f64::from(kl) / mean,
            _ => 1.0,
        })
        .collect()
}

/// Why a shard gave no positions.
enum ShardFault {
    /// The shard is bad: quarantine it.
    Bad(String),
    /// Reading failed otherwise: stop.
    Fatal(TrainError),
}

/// The training positions of a shard, newest game first, and its rule
/// set's position in the mixture.
fn shard_positions(
    path: &Path,
    mixture: &RuleMixture,
    targets: ValueTargets,
) -> Result<(Vec<TrainingPosition>, usize), ShardFault> {
    let (shard, variant) = read_shard_among(path, mixture).map_err(|e| match e.damaged {
        true => ShardFault::Bad(e.problem),
        false => ShardFault::Fatal(e.into()),
    })?;
    let mut positions = Vec::new();
    for (index, game) in shard.games.iter().enumerate().rev() {
        let mut found = game_positions_with(game, &shard.rules, targets)
            .map_err(|e| ShardFault::Bad(format!("game {index}: {e}")))?;
        positions.append(&mut found);
    }
    Ok((positions, variant))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surprising_positions_are_drawn_more_often() {
        let position = |surprise| TrainingPosition {
            position: jungle_rules::Position::start(),
            repetitions: 1,
            target: Vec::new(),
            wdl: [0.0, 1.0, 0.0],
            short_term_wdl: [0.0, 1.0, 0.0],
            search_value: 0.0,
            search_draw: 0.0,
            surprise,
            moves_left: 0.5,
            survival: 0,
        };
        let positions = vec![position(Some(0.0)), position(Some(3.0)), position(None)];
        // Mean of the known surprises 1.5: weights 0.5, 1.5 and 1.
        assert_eq!(sampling_weights(&positions, 0.5), [0.5, 1.5, 1.0]);
        assert_eq!(sampling_weights(&positions, 1.0), [0.0, 2.0, 1.0]);
        let unknown = vec![position(None), position(Some(0.0))];
        assert_eq!(sampling_weights(&unknown, 0.5), [1.0, 1.0]);

        let mut window = ReplayWindow {
            positions,
            variants: vec![0; 3],
            cumulative: vec![0.5, 2.0, 3.0],
            rules: vec![Rules::default()],
            encoding: Encoding::Base,
            quarantined: Vec::new(),
        };
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
        let mut counts = [0usize; 3];
        for _ in 0..30_000 {
            counts[window.draw(&mut rng)] += 1;
        }
        // Expected 5,000 / 15,000 / 10,000 (binomial sd under 90).
        for (count, want) in counts.iter().zip([5_000.0, 15_000.0, 10_000.0]) {
            assert!((*count as f64 - want).abs() < 500.0, "{counts:?}");
        }
        window.cumulative.clear();
        let mut uniform = [0usize; 3];
        for _ in 0..30_000 {
            uniform[window.draw(&mut rng)] += 1;
        }
        assert!(
            uniform.iter().all(|&c| (c as f64 - 10_000.0).abs() < 500.0),
            "{uniform:?}"
        );
    }

    #[test]
    fn window_grows_with_the_run_between_its_bounds() {
        assert_eq!(window_size(1000, 0.25, 5000, 0), 1000);
        assert_eq!(window_size(1000, 0.25, 5000, 8000), 3000);
        assert_eq!(window_size(1000, 0.25, 5000, 1_000_000), 5000);
    }
}
