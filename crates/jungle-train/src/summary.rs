//! A run's course by thirds of its time: the figures the experiment
//! protocol (`experiments/README.md`) reports for each arm — games,
//! draws and repetition draws, game length, the value loss beside the loss
//! of the best constant guess ([`crate::value_baseline`]), the policy loss
//! and the weights' norm, in the first, middle and last third of the run.

use crate::error::TrainError;
use crate::generations::generation_folder;
use crate::layout::RunPaths;
use crate::state::{RunState, SelfPlayRecord};
use jungle_rules::EndReason;
use jungle_selfplay::shard_stats;
use std::collections::BTreeMap;

/// The end reason of games drawn by a repetition, as the records name it.
pub const REPETITION: &str = EndReason::Repetition.name();

/// One third of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Third {
    /// First and last generation in it (0, 0 when it has none).
    pub generations: (u32, u32),
    /// Self-play games.
    pub games: u64,
    /// Games drawn, for any reason.
    pub draws: u64,
    /// Games ended by repetition, or `None` when a generation of the third
    /// has no end reasons recorded (runs from before they were kept).
    pub repetitions: Option<u64>,
    /// Plies played.
    pub plies: u64,
    /// Mean of the generations' value losses.
    pub value_loss: f64,
    /// Mean of the constant-guess value losses of the third's generations
    /// that recorded one, or `None` when none did (runs from before they
    /// were kept).
    pub value_baseline: Option<f64>,
    /// Mean of the generations' policy losses.
    pub policy_loss: f64,
    /// Weights' norm after the third's last generation (0: not recorded).
    pub weight_norm: f64,
}

impl Third {
    /// Share of the games drawn.
    pub fn draw_rate(&self) -> f64 {
        self.draws as f64 / self.games.max(1) as f64
    }

    /// Share of the games ended by repetition, if known.
    pub fn repetition_rate(&self) -> Option<f64> {
        self.repetitions
            .map(|r| r as f64 / self.games.max(1) as f64)
    }

    /// Mean game length in plies.
    pub fn mean_plies(&self) -> f64 {
        self.plies as f64 / self.games.max(1) as f64
    }

    /// No generation ended in this third (a run of one or two
    /// generations, or one whose time went to a single long generation).
    pub fn is_empty(&self) -> bool {
        self.generations == (0, 0) && self.games == 0
    }
}

/// The run's generations split in three by the run time at which each
/// ended (from its checkpoint's hours; by count for generations without
/// one): first, middle and last third.
pub fn thirds(state: &RunState) -> [Third; 3] {
    let hours: BTreeMap<u32, f64> = state
        .checkpoints
        .iter()
        .map(|c| (c.generation, c.hours))
        .collect();
    let total_hours = state.seconds / 3600.0;
    let count = state.selfplay.len().max(1);
    let third_of = |index: usize, generation: u32| -> usize {
        let fraction = match hours.get(&generation) {
            Some(&h) if total_hours > 0.0 => h / total_hours,
            _ => (index + 1) as f64 / count as f64,
        };
        // A generation ending exactly at a boundary belongs to the third
        // before it.
        ((3.0 * fraction - 1e-9).floor().max(0.0) as usize).min(2)
    };
    let losses: BTreeMap<u32, _> = state.losses.iter().map(|l| (l.generation, l)).collect();
    let mut out: [Third; 3] = Default::default();
    let mut loss_counts = [0usize; 3];
    let mut baselines = [(0.0f64, 0usize); 3];
    let mut seen = [false; 3];
    for (index, sp) in state.selfplay.iter().enumerate() {
        let k = third_of(index, sp.generation);
        let t = &mut out[k];
        if !seen[k] {
            seen[k] = true;
            t.generations.0 = sp.generation;
            t.repetitions = Some(0);
        }
        t.generations.1 = sp.generation;
        t.games += sp.games;
        t.draws += sp.draws;
        t.plies += sp.plies;
        t.repetitions = match (t.repetitions, repetitions(sp)) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
        if let Some(l) = losses.get(&sp.generation) {
            loss_counts[k] += 1;
            t.value_loss += f64::from(l.value);
            if let Some(b) = l.value_baseline {
                baselines[k].0 += f64::from(b);
                baselines[k].1 += 1;
            }
            t.policy_loss += f64::from(l.policy);
            t.weight_norm = l.weight_norm;
        }
    }
    for ((t, n), (baseline, with_baseline)) in out.iter_mut().zip(loss_counts).zip(baselines) {
        t.value_baseline = (with_baseline > 0).then(|| baseline / with_baseline as f64);
        if n > 0 {
            t.value_loss /= n as f64;
            t.policy_loss /= n as f64;
        }
    }
    out
}

/// Fills the end reasons of generations recorded without them (runs from
/// before they were kept) from their shards, where these are still on disk.
pub fn fill_end_reasons(paths: &RunPaths, state: &mut RunState) -> Result<(), TrainError> {
    for sp in state.selfplay.iter_mut().filter(|sp| sp.ended.is_empty()) {
        let folder = generation_folder(&paths.shards, sp.generation);
        if folder.is_dir() {
            sp.ended = shard_stats(&folder, false)?.reasons;
        }
    }
    Ok(())
}

/// Games of a generation ended by repetition, if its end reasons were kept.
fn repetitions(sp: &SelfPlayRecord) -> Option<u64> {
    if sp.ended.is_empty() && sp.games > 0 {
        None
    } else {
        Some(sp.ended.get(REPETITION).copied().unwrap_or(0))
    }
}

/// The thirds as a small text table (one line per third).
pub fn thirds_table(thirds: &[Third; 3]) -> String {
    let mut out = String::from(
        "third  generations   games  drawn  repetition  plies  value loss  constant guess  policy loss  weights\n",
    );
    for (name, t) in ["first", "middle", "last"].iter().zip(thirds) {
        if t.is_empty() {
            out += &format!("{name:<6} no generation ended in this third\n");
            continue;
        }
        out += &format!(
            "{:<6} {:>5}-{:<5} {:>7} {:>5.1}% {:>10} {:>6.0} {:>11.3} {:>15} {:>12.3} {:>8}\n",
            name,
            t.generations.0,
            t.generations.1,
            t.games,
            100.0 * t.draw_rate(),
            t.repetition_rate()
                .map_or("?".to_string(), |r| format!("{:.1}%", 100.0 * r)),
            t.mean_plies(),
            t.value_loss,
            t.value_baseline
                .map_or("?".to_string(), |b| format!("{b:.3}")),
            t.policy_loss,
            if t.weight_norm > 0.0 {
                format!("{:.1}", t.weight_norm)
            } else {
                "?".to_string()
            },
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::TrainConfig;
    use crate::state::{CheckpointInfo, LossRecord};

    fn generation(
        g: u32,
        games: u64,
        draws: u64,
        reps: Option<u64>,
        value: f32,
    ) -> (SelfPlayRecord, LossRecord, CheckpointInfo) {
        let mut ended = BTreeMap::new();
        if let Some(r) = reps {
            ended.insert(REPETITION.to_string(), r);
            ended.insert("den".to_string(), games - r);
        }
        (
            SelfPlayRecord {
                generation: g,
                step: 0,
                games,
                draws,
                plies: 100 * games,
                ended,
            },
            LossRecord {
                generation: g,
                step: 0,
                policy: 2.0,
                value,
                moves_left: 0.0,
                survival: 0.0,
                short_term: 0.0,
                learning_rate: 0.0,
                weight_norm: f64::from(g),
                value_baseline: Some(value + 0.25),
                held_out_policy: None,
                held_out_value: None,
            },
            CheckpointInfo {
                generation: g,
                step: 0,
                hours: 0.0,
                games: 0,
                samples_seen: 0,
            },
        )
    }

    fn state(gens: Vec<(SelfPlayRecord, LossRecord, CheckpointInfo)>, hours: &[f64]) -> RunState {
        let mut s = RunState {
            config: TrainConfig::default_config(),
            generation: gens.len() as u32,
            step: 0,
            samples_seen: 0,
            games: 0,
            positions_ever: 0,
            seconds: 3600.0,
            checkpoints: Vec::new(),
            losses: Vec::new(),
            selfplay: Vec::new(),
            budget: None,
            probes: Vec::new(),
        };
        for ((sp, l, mut c), &h) in gens.into_iter().zip(hours) {
            c.hours = h;
            s.selfplay.push(sp);
            s.losses.push(l);
            s.checkpoints.push(c);
        }
        s
    }

    #[test]
    fn generations_fall_into_the_third_of_the_time_they_ended() {
        // Four generations ending at 0.1, 0.3, 0.5 and 1.0 hours: the first
        // two in the first third, the third alone in the middle one.
        let s = state(
            vec![
                generation(1, 10, 1, Some(1), 0.8),
                generation(2, 10, 3, Some(2), 0.6),
                generation(3, 20, 10, Some(5), 0.7),
                generation(4, 40, 4, Some(0), 0.9),
            ],
            &[0.1, 0.3, 0.5, 1.0],
        );
        let [first, middle, last] = thirds(&s);
        assert_eq!(first.generations, (1, 2));
        assert_eq!(first.games, 20);
        assert_eq!(first.draws, 4);
        assert_eq!(first.repetitions, Some(3));
        assert!((first.value_loss - 0.7).abs() < 1e-6);
        assert!((first.value_baseline.unwrap() - 0.95).abs() < 1e-6);
        assert_eq!(first.weight_norm, 2.0);
        assert_eq!(middle.generations, (3, 3));
        assert!((middle.draw_rate() - 0.5).abs() < 1e-12);
        assert!((middle.repetition_rate().unwrap() - 0.25).abs() < 1e-12);
        assert_eq!(last.generations, (4, 4));
        assert!((last.value_loss - 0.9).abs() < 1e-6);
        assert_eq!(last.mean_plies(), 100.0);
        let table = thirds_table(&[first, middle, last]);
        assert!(table.contains("25.0%"), "{table}");
        assert!(table.lines().nth(1).unwrap().contains(" 0.950 "), "{table}");
    }

    #[test]
    fn generations_without_a_constant_guess_recorded_are_left_out_of_its_mean() {
        let mut s = state(
            vec![
                generation(1, 10, 1, Some(1), 0.8),
                generation(2, 10, 3, Some(2), 0.6),
                generation(3, 10, 2, Some(2), 0.7),
            ],
            &[0.2, 0.3, 0.9],
        );
        // Generation 1 from a binary that did not record it, as an old
        // `state.json` reads.
        let old: LossRecord = serde_json::from_str(
            r#"{"generation":1,"step":0,"policy":2.0,"value":0.8,"moves_left":0.0}"#,
        )
        .unwrap();
        assert_eq!(old.value_baseline, None);
        s.losses[0] = old;
        let [first, middle, last] = thirds(&s);
        assert!((first.value_loss - 0.7).abs() < 1e-6);
        // Generation 2's alone.
        assert!((first.value_baseline.unwrap() - 0.85).abs() < 1e-6);
        assert_eq!(middle.games, 0);
        assert!(middle.is_empty() && !first.is_empty());
        // No row of zeros for the empty third: it says it has none.
        let table = thirds_table(&thirds(&s));
        let middle_line = table.lines().nth(2).unwrap();
        assert_eq!(
            middle_line, "middle no generation ended in this third",
            "{table}"
        );
        assert!((last.value_baseline.unwrap() - 0.95).abs() < 1e-6);
        s.losses[1].value_baseline = None;
        let [first, ..] = thirds(&s);
        assert_eq!(first.value_baseline, None);
        let table = thirds_table(&thirds(&s));
        let first_line = table.lines().nth(1).unwrap();
        assert!(first_line.contains(" ? "), "{table}");
    }

    #[test]
    fn a_third_with_a_generation_without_end_reasons_has_no_repetition_share() {
        let s = state(
            vec![
                generation(1, 10, 1, Some(1), 0.8),
                generation(2, 10, 3, None, 0.6),
                generation(3, 10, 2, Some(2), 0.7),
            ],
            &[0.2, 0.5, 0.9],
        );
        let [first, middle, last] = thirds(&s);
        assert_eq!(first.repetitions, Some(1));
        assert_eq!(middle.repetitions, None);
        assert_eq!(last.repetitions, Some(2));
        assert!(thirds_table(&[first, middle, last]).contains('?'));
    }
}
