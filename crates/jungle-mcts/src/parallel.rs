//! Several evaluators that split each batch between threads: the tree is
//! walked on one thread, the leaves it queued are judged on several (the
//! engine's `Threads` option). With leaves queued several at a time
//! (`leaves_per_round`, kept apart by virtual loss) each thread gets a
//! share of every round.

use crate::evaluator::{EvalInput, Evaluation, Evaluator};
use rayon::prelude::*;

/// Evaluators, one per thread; each batch is cut into as many runs of
/// consecutive inputs and the answers joined in order.
pub struct ParallelEvaluator<E> {
    parts: Vec<E>,
}

impl<E: Evaluator + Send> ParallelEvaluator<E> {
    /// One thread per evaluator in `parts`.
    ///
    /// # Panics
    ///
    /// If `parts` is empty.
    pub fn new(parts: Vec<E>) -> ParallelEvaluator<E> {
        assert!(!parts.is_empty(), "at least one evaluator");
        ParallelEvaluator { parts }
    }

    /// The number of threads.
    pub fn threads(&self) -> usize {
        self.parts.len()
    }
}

impl<E: Evaluator + Send> Evaluator for ParallelEvaluator<E> {
    fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
        let threads = self.parts.len().min(batch.len());
        if threads <= 1 {
            return self.parts[0].evaluate(batch);
        }
        let run = batch.len().div_ceil(threads);
        let answers: Vec<Vec<Evaluation>> = self
            .parts
            .par_iter_mut()
            .zip(batch.par_chunks(run))
            .map(|(evaluator, inputs)| evaluator.evaluate(inputs))
            .collect();
        answers.into_iter().flatten().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluator::HeuristicEvaluator;
    use jungle_rules::{Game, Rules};

    /// Counts the inputs it was given.
    struct Counting(usize, HeuristicEvaluator);

    impl Evaluator for Counting {
        fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
            self.0 += batch.len();
            self.1.evaluate(batch)
        }
    }

    #[test]
    fn the_answers_are_the_single_evaluators_in_order_and_every_part_works() {
        let rules = Rules::default();
        let mut game = Game::new(rules.clone());
        let mut positions = Vec::new();
        for text in ["a3a4", "g7g6", "a4a5", "g6g5", "g3g4"] {
            positions.push((*game.position(), game.legal_moves()));
            game.play_text(text).unwrap();
        }
        let inputs: Vec<EvalInput<'_>> = positions
            .iter()
            .map(|(p, moves)| EvalInput {
                position: p,
                legal_moves: moves.as_slice(),
                repetitions: 0,
                rules: &rules,
            })
            .collect();
        let alone = HeuristicEvaluator.evaluate(&inputs);
        let mut parallel = ParallelEvaluator::new(
            (0..3)
                .map(|_| Counting(0, HeuristicEvaluator))
                .collect::<Vec<_>>(),
        );
        assert_eq!(parallel.evaluate(&inputs), alone);
        // Five inputs over three threads: runs of 2, 2 and 1.
        let counts: Vec<usize> = parallel.parts.iter().map(|c| c.0).collect();
        assert_eq!(counts, [2, 2, 1]);
        // One input: the first evaluator alone.
        assert_eq!(parallel.evaluate(&inputs[..1]), alone[..1]);
        assert_eq!(parallel.parts[0].0, 3);
        assert_eq!(parallel.threads(), 3);
    }
}
