//! The probe: a bare network (one forward pass a position, no search) or
//! any player (its move) scored on a suite. The bare network's metrics
//! need no games and take seconds; a player's take its thinking time a
//! position.

use crate::metrics::{Metric, MetricTable, Observation, PositionObservations};
use crate::suite::{Suite, SuiteEntry};
use jungle_mcts::{EvalInput, Evaluation, Evaluator};
use jungle_play::PlayerFactory;
use jungle_rules::{Game, Move};
use rayon::prelude::*;
use serde::Serialize;

/// Positions a forward pass of the bare-network probe evaluates at once.
pub const PROBE_BATCH: usize = 256;

/// A bare network's probe.
#[derive(Clone, Debug, Serialize)]
pub struct NetProbe {
    /// Its metrics.
    pub metrics: MetricTable,
    /// Positions probed.
    pub positions: usize,
    /// Seconds it took.
    pub seconds: f64,
}

/// A player's probe.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerProbe {
    /// The player's spec.
    pub player: String,
    /// Its metrics.
    pub metrics: MetricTable,
    /// Positions probed.
    pub positions: usize,
    /// Seconds it took.
    pub seconds: f64,
}

/// What a network's evaluation of one position says against its label.
fn network_observations(entry: &SuiteEntry, eval: &Evaluation, out: &mut Vec<Observation>) {
    let phase = entry.label.phase;
    let top = eval
        .policy
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map(|(i, _)| entry.legal_moves[i]);
    if entry.label.move_matters() {
        let top1 = top.is_some_and(|m| entry.good.contains(&m));
        out.push((Metric::PolicyTop1, phase, f64::from(top1)));
        let mass: f32 = entry
            .legal_moves
            .iter()
            .zip(&eval.policy)
            .filter(|(m, _)| entry.good.contains(m))
            .map(|(_, p)| p)
            .sum();
        out.push((Metric::PolicyMass, phase, f64::from(mass)));
    }
    let value = eval.value();
    match entry.label.outcome {
        crate::Outcome::Win => out.push((Metric::ValueSign, phase, f64::from(value > 0.0))),
        crate::Outcome::Loss => out.push((Metric::ValueSign, phase, f64::from(value < 0.0))),
        crate::Outcome::Draw => {}
    }
    let p = eval.wdl[entry.label.outcome.index()].max(1e-6);
    out.push((Metric::ValueLogLoss, phase, -f64::from(p.ln())));
    if !entry.winning.is_empty() {
        let found = top.is_some_and(|m| entry.winning.contains(&m));
        out.push((Metric::ForcedTop1, phase, f64::from(found)));
    }
}

/// Scores a bare network (any evaluator) on `suite`.
pub fn probe_network(evaluator: &mut dyn Evaluator, suite: &Suite) -> NetProbe {
    let started = std::time::Instant::now();
    let mut observations: Vec<PositionObservations> = Vec::new();
    for chunk in suite.entries.chunks(PROBE_BATCH) {
        let inputs: Vec<EvalInput<'_>> = chunk
            .iter()
            .map(|e| EvalInput {
                position: &e.position,
                legal_moves: &e.legal_moves,
                repetitions: 1,
                rules: &suite.rules,
            })
            .collect();
        let evals = evaluator.evaluate(&inputs);
        for (entry, eval) in chunk.iter().zip(&evals) {
            let mut position = Vec::new();
            network_observations(entry, eval, &mut position);
            observations.push(position);
        }
    }
    NetProbe {
        metrics: MetricTable::gather(&observations, 0),
        positions: suite.entries.len(),
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// What a player's move at one position says against its label.
/// (`None`: the player gave the position up, as an external engine that
/// failed does: a miss.)
fn player_observations(entry: &SuiteEntry, mv: Option<Move>) -> Vec<Observation> {
    let phase = entry.label.phase;
    let hit = |moves: &[Move]| f64::from(mv.is_some_and(|m| moves.contains(&m)));
    let mut out = Vec::new();
    if entry.label.move_matters() {
        out.push((Metric::MovesFound, phase, hit(&entry.good)));
    }
    if !entry.winning.is_empty() {
        out.push((Metric::ForcedFound, phase, hit(&entry.winning)));
    }
    out
}

/// Scores a player on `suite`: its move at every position, positions in
/// parallel on the current rayon pool; `on_position` is called as each is
/// done (for progress).
pub fn probe_player(
    player: &dyn PlayerFactory,
    suite: &Suite,
    on_position: &(dyn Fn() + Sync),
) -> PlayerProbe {
    let started = std::time::Instant::now();
    let observations: Vec<PositionObservations> = suite
        .entries
        .par_iter()
        .enumerate()
        .map(|(i, entry)| {
            let game = Game::from_position(suite.rules.clone(), entry.position);
            let mv = player
                .build(&suite.rules, i as u64)
                .try_choose(&game)
                .ok()
                .map(|d| d.mv);
            on_position();
            player_observations(entry, mv)
        })
        .collect();
    PlayerProbe {
        player: player.name(),
        metrics: MetricTable::gather(&observations, 0),
        positions: suite.entries.len(),
        seconds: started.elapsed().as_secs_f64(),
    }
}
