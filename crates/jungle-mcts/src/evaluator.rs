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
        let v = v.clamp(-1.0, 1.0);
        Evaluation {
            policy: vec![1.0 / n.max(1) as f32; n],
            wdl: [(1.0 + v) / 2.0, 0.0, (1.0 - v) / 2.0],
        }
    }
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
