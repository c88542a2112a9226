//! A network's raw outputs turned into the search's evaluations: a softmax
//! over each position's legal moves' policy logits and over its
//! win/draw/loss logits, and the survival head's material term.

use crate::planes::{move_slot, Encoding, POLICY_SLOTS};
use jungle_mcts::{shift_value, softmax, EvalInput, Evaluation};
use jungle_rules::InvalidKey;

/// Outputs of the survival head: for two horizons ([`SURVIVAL_NEAR_PLIES`]
/// plies later or the game's end if sooner; then the game's end), 16 logits
/// "this animal is still on the board": the side to move's eight (rat to
/// elephant), then the opponent's eight.
pub const SURVIVAL_OUTPUTS: usize = 32;

/// The survival head's near horizon, in plies.
pub const SURVIVAL_NEAR_PLIES: usize = 6;

/// Writes the planes of every input in `encoding` into `out` (resized to
/// fit), each under its own game's rule set.
pub fn encode_batch(batch: &[EvalInput<'_>], encoding: Encoding, out: &mut Vec<f32>) {
    let len = encoding.input_len();
    out.resize(batch.len() * len, 0.0);
    for (input, chunk) in batch.iter().zip(out.chunks_exact_mut(len)) {
        encoding.encode(input.position, input.repetitions, input.rules, chunk);
    }
}

/// Evaluations from raw outputs: a softmax over each position's legal
/// moves' policy logits, and over its win/draw/loss logits.
pub fn evaluations(batch: &[EvalInput<'_>], policy: &[f32], wdl: &[f32]) -> Vec<Evaluation> {
    batch
        .iter()
        .enumerate()
        .map(|(i, input)| {
            let logits = &policy[i * POLICY_SLOTS..(i + 1) * POLICY_SLOTS];
            let mover = input.position.side_to_move();
            let legal: Vec<f32> = input
                .legal_moves
                .iter()
                .map(|&mv| logits[move_slot(mv, mover)])
                .collect();
            let w = softmax(&wdl[i * 3..i * 3 + 3]);
            Evaluation {
                policy: softmax(&legal),
                wdl: [w[0], w[1], w[2]],
            }
        })
        .collect()
}

/// Animals per side: the survival head's near horizon has one output per
/// animal of the side to move, then one per enemy animal.
const ANIMALS: usize = 8;

/// The win/draw/loss probabilities `wdl` with a material term added to their
/// value: `v' = v + weight x (expected own animals - expected enemy animals)
/// / 8`, clipped to [-1, 1], where the expectations are the survival head's
/// near-horizon probabilities (`survival_logits`, its [`SURVIVAL_OUTPUTS`]
/// logits). The draw probability is kept where `v'` leaves room for it.
///
/// The material is the survival head's forecast a few plies on, so a piece
/// that is about to be taken already counts as lost: a learned, short-horizon
/// counterpart of the piece count an alpha-beta evaluation uses, in the role
/// KataGo gives its score utility next to the win/loss value.
pub fn with_material(wdl: [f32; 3], survival_logits: &[f32], weight: f32) -> [f32; 3] {
    debug_assert_eq!(survival_logits.len(), SURVIVAL_OUTPUTS);
    let alive = |logits: &[f32]| -> f32 { logits.iter().map(|&x| 1.0 / (1.0 + (-x).exp())).sum() };
    let balance = (alive(&survival_logits[..ANIMALS])
        - alive(&survival_logits[ANIMALS..2 * ANIMALS]))
        / ANIMALS as f32;
    shift_value(wdl, weight * balance)
}

/// Largest accepted material weight (the term is at most the weight).
pub const MAX_MATERIAL_WEIGHT: f32 = 4.0;

/// Checks a `material_weight` value: a number from 0 to
/// [`MAX_MATERIAL_WEIGHT`]; the message names the key.
pub fn check_material_weight(weight: f32) -> Result<(), InvalidKey> {
    jungle_mcts::quiescence::check_weight("material_weight", weight, MAX_MATERIAL_WEIGHT)
}

/// Adds the material term of [`with_material`] at `weight` to each of
/// `evals` from its position's survival logits (`survival`, the survival
/// head's output: [`SURVIVAL_OUTPUTS`] per position, in order); weight 0
/// leaves them as they are (and `survival` may then be empty).
pub fn add_material(evals: &mut [Evaluation], survival: &[f32], weight: f32) {
    if weight == 0.0 {
        return;
    }
    for (eval, logits) in evals
        .iter_mut()
        .zip(survival.chunks_exact(SURVIVAL_OUTPUTS))
    {
        eval.wdl = with_material(eval.wdl, logits, weight);
    }
}

/// A material weight was asked of a network without the survival head.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "material_weight = {0} needs a network with the survival head (`survival_head = true` in [net]); \
     use 0 for this one"
)]
pub struct NoSurvivalHead(pub f32);

impl NoSurvivalHead {
    /// `Ok` unless `weight` is not 0 and the network has no survival head.
    pub fn check(weight: f32, has_survival_head: bool) -> Result<(), NoSurvivalHead> {
        if weight != 0.0 && !has_survival_head {
            Err(NoSurvivalHead(weight))
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Logits for the near horizon: `own` of our animals and `enemy` of
    /// theirs sure to survive, the rest sure to be taken; the end horizon
    /// (not read) left at 0.
    fn survival(own: usize, enemy: usize) -> Vec<f32> {
        let sure = |alive: bool| if alive { 30.0 } else { -30.0 };
        (0..SURVIVAL_OUTPUTS)
            .map(|i| match i {
                0..=7 => sure(i < own),
                8..=15 => sure(i - 8 < enemy),
                _ => 0.0,
            })
            .collect()
    }

    fn value(wdl: [f32; 3]) -> f32 {
        wdl[0] - wdl[2]
    }

    fn assert_close(a: [f32; 3], b: [f32; 3]) {
        assert!(
            a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-6),
            "{a:?} vs {b:?}"
        );
    }

    #[test]
    fn the_material_term_adds_the_weighted_animal_balance() {
        let even = [0.3, 0.4, 0.3];
        // Two animals up with weight 0.5: +0.5 x 2/8.
        let up = with_material(even, &survival(8, 6), 0.5);
        assert!((value(up) - 0.125).abs() < 1e-5, "{up:?}");
        assert!((up[1] - 0.4).abs() < 1e-6, "the draw share is kept: {up:?}");
        let down = with_material(even, &survival(5, 8), 0.5);
        assert!((value(down) + 0.1875).abs() < 1e-5, "{down:?}");
        // Equal material or weight 0 changes nothing.
        assert_close(with_material(even, &survival(4, 4), 2.0), even);
        assert_close(
            with_material([0.7, 0.1, 0.2], &survival(8, 1), 0.0),
            [0.7, 0.1, 0.2],
        );
    }

    #[test]
    fn the_material_value_is_clipped_and_stays_a_distribution() {
        let wdl = with_material([0.8, 0.15, 0.05], &survival(8, 0), 4.0);
        assert_close(wdl, [1.0, 0.0, 0.0]);
        let wdl = with_material([0.1, 0.2, 0.7], &survival(0, 8), 1.0);
        assert_close(wdl, [0.0, 0.0, 1.0]);
        // Near the edge the draw share shrinks to fit.
        let wdl = with_material([0.5, 0.4, 0.1], &survival(8, 4), 1.0);
        assert!(
            (value(wdl) - 0.9).abs() < 1e-5 && (wdl[1] - 0.1).abs() < 1e-5,
            "{wdl:?}"
        );
        assert!(wdl.iter().all(|&p| p >= 0.0) && (wdl.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn material_weights_outside_0_to_4_are_rejected_by_name() {
        assert!(check_material_weight(0.0).is_ok() && check_material_weight(4.0).is_ok());
        for bad in [-0.1, 4.5, f32::NAN] {
            let err = check_material_weight(bad).unwrap_err().to_string();
            assert!(
                err.contains("`material_weight`") && err.contains("0 to 4"),
                "{err}"
            );
        }
    }
}
