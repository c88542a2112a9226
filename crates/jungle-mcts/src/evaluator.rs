//! The interface between the search and whatever judges positions (a
//! network, a heuristic): a *batch* of positions in, a prior over each one's
//! legal moves and a win/draw/loss estimate out.

use crate::heuristic;
use jungle_rules::{Move, Position, Rules};

/// One position to evaluate.
#[derive(Clone, Copy, Debug)]
pub struct EvalInput<'a> {
    /// The position; the side to move is the point of view of the answer.
    pub position: &'a Position,
    /// Its legal moves (after the history rules), in the order the prior
    /// must follow.
    pub legal_moves: &'a [Move],
    /// How many times the position has occurred in its game (1 = first time).
    pub repetitions: u32,
    /// The rule set of its game (a network reads its switches as input
    /// planes, so one evaluator serves games of several rule sets).
    pub rules: &'a Rules,
}

/// The judgement of one position, from the side to move's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Prior probability of each legal move, in the input's order; sums to 1.
    pub policy: Vec<f32>,
    /// Win, draw and loss probabilities for the side to move; sum to 1.
    pub wdl: [f32; 3],
}

impl Evaluation {
    /// The scalar value in [-1, 1]: win minus loss probability.
    #[inline]
    pub fn value(&self) -> f32 {
        self.wdl[0] - self.wdl[2]
    }

    /// A uniform prior over `n` moves and a scalar value `v` in [-1, 1]
    /// spread as win/loss (no draw mass).
    pub fn uniform(n: usize, v: f32) -> Evaluation {
        Evaluation {
            policy: vec![1.0 / n.max(1) as f32; n],
            wdl: wdl_of(v, 0.0),
        }
    }
}

/// The win/draw/loss of a scalar value `value` (win minus loss, clamped to
/// [-1, 1]) with draw probability `draw`: `((1 + v - d) / 2, d, (1 - v -
/// d) / 2)`, the draw held to `[0, 1 - |v|]` so no probability is negative
/// (a value blended with other terms may claim more than its draw mass
/// allows). With `draw` 0 it is the win/loss reading of `value` alone.
pub fn wdl_of(value: f32, draw: f32) -> [f32; 3] {
    let v = value.clamp(-1.0, 1.0);
    let d = if draw.is_finite() {
        draw.clamp(0.0, 1.0 - v.abs())
    } else {
        0.0
    };
    [(1.0 + v - d) / 2.0, d, (1.0 - v - d) / 2.0]
}

/// Judges batches of positions. Implementations may keep scratch buffers,
/// hence `&mut self`; each worker thread owns its evaluator.
pub trait Evaluator {
    /// One evaluation per input, in order.
    fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation>;
}

/// A boxed evaluator (players and servers keep theirs behind `Box<dyn
/// Evaluator + Send>`) is one.
impl<E: Evaluator + ?Sized> Evaluator for Box<E> {
    fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
        (**self).evaluate(batch)
    }
}

/// Uniform priors and a value of 0: the search's own work, nothing else
/// (used to measure tree overhead).
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformEvaluator;

impl Evaluator for UniformEvaluator {
    fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
        batch
            .iter()
            .map(|input| Evaluation::uniform(input.legal_moves.len(), 0.0))
            .collect()
    }
}

/// Uniform priors and the hand-written evaluation squashed to [-1, 1]:
/// the `mcts:SIMS` baseline.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicEvaluator;

impl Evaluator for HeuristicEvaluator {
    fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
        batch
            .iter()
            .map(|input| {
                let v = heuristic::to_value(heuristic::evaluate(input.position));
                Evaluation::uniform(input.legal_moves.len(), v)
            })
            .collect()
    }
}

#[cfg(test)]
mod wdl_tests {
    use super::wdl_of;

    #[test]
    fn a_value_and_its_draw_mass_make_a_distribution() {
        let close = |a: [f32; 3], b: [f32; 3]| {
            assert!(
                a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6),
                "{a:?} != {b:?}"
            );
        };
        close(wdl_of(0.0, 0.6), [0.2, 0.6, 0.2]);
        close(wdl_of(0.5, 0.0), [0.75, 0.0, 0.25]);
        // More draw than the value leaves room for is cut to fit.
        close(wdl_of(0.5, 0.9), [0.5, 0.5, 0.0]);
        close(wdl_of(-2.0, 0.3), [0.0, 0.0, 1.0]);
        close(wdl_of(0.2, f32::NAN), [0.6, 0.0, 0.4]);
        for &(v, d) in &[(0.3f32, 0.4f32), (-0.7, 0.2), (1.0, 0.5), (0.0, 1.0)] {
            let wdl = wdl_of(v, d);
            assert!((wdl.iter().sum::<f32>() - 1.0).abs() < 1e-6, "{wdl:?}");
            assert!(wdl.iter().all(|&p| p >= 0.0), "{wdl:?}");
            assert!((wdl[0] - wdl[2] - v.clamp(-1.0, 1.0)).abs() < 1e-6);
        }
    }
}
