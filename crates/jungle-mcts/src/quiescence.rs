//! The capture quiescence search over the hand-written evaluation
//! ([`crate::heuristic::evaluate`]): stand pat, or follow captures and den
//! entries, alpha-beta pruned. `alphabeta:DEPTH` calls it at its horizon;
//! [`WithQuiescence`] adds its score to another evaluator's value, so a
//! network search sees the exchanges a position leads to (a minimax leaf
//! in the manner of the MCTS-minimax hybrids of Baier and Winands, 2015).

use crate::evaluator::{EvalInput, Evaluation, Evaluator};
use crate::heuristic::{self, MATERIAL};
use crate::profile::{self, Phase};
use jungle_rules::{InvalidKey, Move, Position, Rules, DEN};

/// Deepest capture sequence the quiescence search follows.
pub const QUIESCENCE_PLIES: u32 = 6;

/// Score of a won position, in points; wins sooner score higher (`ply`
/// below it).
pub const WIN: i32 = 1_000_000;

/// Orders moves: `first` (a table move), den entries, then captures by
/// victim value, then the rest.
pub fn order_moves(pos: &Position, moves: &mut [Move], first: Option<Move>) {
    let den = DEN[(!pos.side_to_move()).index()];
    let key = |mv: &Move| -> i32 {
        if Some(*mv) == first {
            i32::MIN
        } else if den.has(mv.to()) {
            i32::MIN + 1
        } else {
            -pos.piece_at(mv.to())
                .map_or(0, |p| MATERIAL[p.animal().index()])
        }
    };
    moves.sort_by_key(key);
}

/// Stand pat on the evaluation, or follow captures and den entries, at most
/// `left` plies; `ply` is the distance from the search's root (a win there
/// scores `WIN - ply - 1`). `nodes` counts the moves made.
pub fn quiescence(
    pos: &Position,
    rules: &Rules,
    mut alpha: i32,
    beta: i32,
    ply: u32,
    left: u32,
    nodes: &mut u64,
) -> i32 {
    let stand = heuristic::evaluate(pos);
    if stand >= beta || left == 0 {
        return stand;
    }
    alpha = alpha.max(stand);
    let den = DEN[(!pos.side_to_move()).index()];
    let enemy = pos.occupied(!pos.side_to_move());
    let mut forcing: Vec<Move> = pos
        .legal_moves(rules)
        .iter()
        .copied()
        .filter(|m| enemy.has(m.to()) || den.has(m.to()))
        .collect();
    order_moves(pos, &mut forcing, None);
    let mut best = stand;
    for mv in forcing {
        *nodes += 1;
        let child = pos.play(mv);
        let score = match child.winner() {
            Some(_) => WIN - ply as i32 - 1,
            None => -quiescence(&child, rules, -beta, -alpha, ply + 1, left - 1, nodes),
        };
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The quiescence score of `pos` for the side to move, in points, over
/// the full window.
pub fn quiescence_score(pos: &Position, rules: &Rules) -> i32 {
    let mut nodes = 0;
    quiescence(pos, rules, -WIN, WIN, 0, QUIESCENCE_PLIES, &mut nodes)
}

/// [`quiescence_score`] squashed to a value in (-1, 1) for the side to
/// move ([`heuristic::to_value`]).
pub fn quiescence_value(pos: &Position, rules: &Rules) -> f32 {
    heuristic::to_value(quiescence_score(pos, rules))
}

/// Largest accepted quiescence weight.
pub const MAX_QUIESCENCE_WEIGHT: f32 = 4.0;

/// Checks a value-term weight named `key`: a number from 0 to `max`; the
/// message names the key.
pub fn check_weight(key: &str, weight: f32, max: f32) -> Result<(), InvalidKey> {
    InvalidKey::check_range(key, weight, 0.0, max)
}

/// Checks a quiescence weight: a number from 0 to
/// [`MAX_QUIESCENCE_WEIGHT`]; the message names the key.
pub fn check_quiescence_weight(weight: f32) -> Result<(), InvalidKey> {
    check_weight("qsearch_weight", weight, MAX_QUIESCENCE_WEIGHT)
}

/// Another evaluator with `weight x` the squashed quiescence score
/// ([`heuristic::to_value`] of [`quiescence_score`]) added to every value
/// (clipped to [-1, 1], the draw share kept where the value leaves room).
/// Weight 0 passes `inner`'s evaluations through without searching.
pub struct WithQuiescence<E> {
    inner: E,
    weight: f32,
}

impl<E: Evaluator> WithQuiescence<E> {
    /// `inner`'s evaluations with the quiescence term of `weight` (each
    /// position's search under its own game's rules).
    pub fn new(inner: E, weight: f32) -> WithQuiescence<E> {
        WithQuiescence { inner, weight }
    }
}

impl<E: Evaluator> Evaluator for WithQuiescence<E> {
    fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
        let mut evals = self.inner.evaluate(batch);
        if self.weight == 0.0 {
            return evals;
        }
        let _t = profile::time(Phase::Quiescence);
        for (eval, input) in evals.iter_mut().zip(batch) {
            let delta = self.weight * quiescence_value(input.position, input.rules);
            eval.wdl = shift_value(eval.wdl, delta);
        }
        evals
    }
}

/// Win/draw/loss probabilities whose value (win - loss) moves by `delta`,
/// clipped to [-1, 1]; the draw probability is kept where the new value
/// leaves room for it.
pub fn shift_value(wdl: [f32; 3], delta: f32) -> [f32; 3] {
    let value = (wdl[0] - wdl[2] + delta).clamp(-1.0, 1.0);
    let draw = wdl[1].min(1.0 - value.abs());
    [(1.0 - draw + value) / 2.0, draw, (1.0 - draw - value) / 2.0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluator::UniformEvaluator;

    /// South's lion next to a lone North wolf (North's rat far away);
    /// `defended` adds a North elephant that retakes on the wolf's square.
    fn lion_and_wolf(defended: bool) -> Position {
        let fen = if defended {
            "r6/7/7/7/7/3e3/2Lw3/7/7 w"
        } else {
            "r6/7/7/7/7/7/2Lw3/7/7 w"
        };
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn a_free_capture_counts_and_a_losing_exchange_does_not() {
        let rules = Rules::default();
        let free = lion_and_wolf(false);
        let gain = quiescence_score(&free, &rules) - heuristic::evaluate(&free);
        assert!(gain >= 250, "taking the wolf gains {gain} points");
        // Taking the defended wolf loses the lion: stand pat instead.
        let defended = lion_and_wolf(true);
        assert_eq!(
            quiescence_score(&defended, &rules),
            heuristic::evaluate(&defended)
        );
    }

    #[test]
    fn the_quiescence_term_moves_the_value_by_its_weight() {
        let rules = Rules::default();
        let pos = lion_and_wolf(false);
        let moves = pos.legal_moves(&rules);
        let input = EvalInput {
            position: &pos,
            legal_moves: moves.as_slice(),
            repetitions: 1,
            rules: &rules,
        };
        let expected = heuristic::to_value(quiescence_score(&pos, &rules));
        let mut with = WithQuiescence::new(UniformEvaluator, 0.5);
        let eval = &with.evaluate(&[input])[0];
        assert!((eval.value() - 0.5 * expected).abs() < 1e-6, "{eval:?}");
        assert_eq!(eval.policy, UniformEvaluator.evaluate(&[input])[0].policy);
        let mut off = WithQuiescence::new(UniformEvaluator, 0.0);
        assert_eq!(off.evaluate(&[input])[0].value(), 0.0);
    }

    #[test]
    fn shifted_values_are_clipped_and_stay_distributions() {
        let shifted = shift_value([0.3, 0.4, 0.3], 0.25);
        assert!((shifted[0] - shifted[2] - 0.25).abs() < 1e-6, "{shifted:?}");
        assert!((shifted[1] - 0.4).abs() < 1e-6, "the draw share is kept");
        assert_eq!(shift_value([0.8, 0.15, 0.05], 3.0), [1.0, 0.0, 0.0]);
        let edge = shift_value([0.5, 0.4, 0.1], 0.5);
        assert!((edge[0] - edge[2] - 0.9).abs() < 1e-6 && (edge[1] - 0.1).abs() < 1e-6);
        assert!((edge.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn weights_outside_0_to_4_are_rejected_by_name() {
        assert!(check_quiescence_weight(0.0).is_ok() && check_quiescence_weight(4.0).is_ok());
        for bad in [-0.5, 4.5, f32::NAN] {
            let err = check_quiescence_weight(bad).unwrap_err().to_string();
            assert!(
                err.contains("`qsearch_weight`") && err.contains("0 to 4"),
                "{err}"
            );
        }
    }
}
