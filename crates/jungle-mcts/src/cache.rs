//! A cache of evaluations in front of another evaluator, as lc0's `NNCache`
//! and KataGo's `nnCache` sit in front of their networks. A search meets the
//! same position many times: transpositions inside one tree, the subtrees of
//! the moves not played (dropped when the tree is reused), the shuffles of a
//! game heading for a repetition, and the shared openings of the games in
//! flight. Each of those costs a network evaluation without the cache.
//!
//! The table is direct-mapped (one entry per slot, the newest wins), keyed by
//! the position's Zobrist hash, its repetition count, its legal moves and its
//! game's rule set (the things an evaluation depends on besides the evaluator
//! itself), so a hit returns what the evaluator answered for the same input. (A network's
//! answer can differ in the last bits with the batch it was computed in, about
//! 2e-7 here, so a search with the cache is not bit-for-bit the one without.)

use crate::evaluator::{EvalInput, Evaluation, Evaluator};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Lookups and hits of one or more caches (shared, so the workers of a run
/// can count into one place).
#[derive(Debug, Default)]
pub struct CacheCounters {
    /// Positions asked for.
    pub lookups: AtomicU64,
    /// Positions answered without the inner evaluator (found in the table,
    /// or a repeat of another position of the same batch).
    pub hits: AtomicU64,
}

impl CacheCounters {
    /// Hits / lookups (0 before any lookup).
    pub fn hit_rate(&self) -> f64 {
        let lookups = self.lookups.load(Ordering::Relaxed);
        if lookups == 0 {
            0.0
        } else {
            self.hits.load(Ordering::Relaxed) as f64 / lookups as f64
        }
    }
}

/// The key of an evaluation: the position's Zobrist hash (animals and side
/// to move) mixed with everything else a network reads of it (its input
/// planes): the repetition count, the plies since the last capture, its
/// legal moves in order, and the switches of its rule set.
pub fn evaluation_key(input: &EvalInput<'_>) -> u64 {
    const MUL: u64 = 0x9E37_79B9_7F4A_7C15;
    const QUIET: u64 = 0xC2B2_AE3D_27D4_EB4F;
    let mut key = input.position.hash()
        ^ (input.repetitions as u64).wrapping_mul(MUL)
        ^ (input.position.quiet_plies() as u64 + 1).wrapping_mul(QUIET)
        ^ input.rules.digest();
    for mv in input.legal_moves {
        let code = mv.from().index() as u64 | (mv.to().index() as u64) << 6;
        key = (key.rotate_left(13) ^ code).wrapping_mul(MUL);
    }
    key
}

/// `inner` behind a direct-mapped table of its evaluations.
pub struct CachedEvaluator<E> {
    inner: E,
    slots: Vec<Option<(u64, Evaluation)>>,
    counters: Arc<CacheCounters>,
}

impl<E: Evaluator> CachedEvaluator<E> {
    /// `inner` behind a table of `entries` evaluations (rounded up to a
    /// power of two; 0 turns the table off, though repeats within one batch
    /// are still evaluated once), counting into `counters`.
    pub fn new(inner: E, entries: usize, counters: Arc<CacheCounters>) -> CachedEvaluator<E> {
        let len = if entries == 0 {
            0
        } else {
            entries.next_power_of_two()
        };
        CachedEvaluator {
            inner,
            slots: vec![None; len],
            counters,
        }
    }

    /// The slot of `key`, if the table has any.
    fn slot(&self, key: u64) -> Option<usize> {
        (!self.slots.is_empty()).then(|| (key >> 32 ^ key) as usize & (self.slots.len() - 1))
    }

    /// The stored evaluation of `key`, if it is in the table.
    fn lookup(&self, key: u64, moves: usize) -> Option<Evaluation> {
        match &self.slots[self.slot(key)?] {
            Some((k, eval)) if *k == key && eval.policy.len() == moves => Some(eval.clone()),
            _ => None,
        }
    }
}

impl<E: Evaluator> Evaluator for CachedEvaluator<E> {
    fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
        let mut found: Vec<Option<Evaluation>> = Vec::with_capacity(batch.len());
        // For each position not found: its index among the positions sent on.
        let mut sent_index: Vec<usize> = Vec::with_capacity(batch.len());
        let mut to_send: Vec<(u64, EvalInput<'_>)> = Vec::new();
        let mut sent_index_of: HashMap<u64, usize> = HashMap::new();
        for input in batch {
            let key = evaluation_key(input);
            let hit = self.lookup(key, input.legal_moves.len());
            if hit.is_none() {
                let next = to_send.len();
                let index = *sent_index_of.entry(key).or_insert(next);
                if index == next {
                    to_send.push((key, *input));
                }
                sent_index.push(index);
            } else {
                sent_index.push(usize::MAX);
            }
            found.push(hit);
        }
        let counters = &self.counters;
        counters
            .lookups
            .fetch_add(batch.len() as u64, Ordering::Relaxed);
        counters
            .hits
            .fetch_add((batch.len() - to_send.len()) as u64, Ordering::Relaxed);
        let fresh = if to_send.is_empty() {
            Vec::new()
        } else {
            let inputs: Vec<EvalInput<'_>> = to_send.iter().map(|&(_, input)| input).collect();
            self.inner.evaluate(&inputs)
        };
        for (&(key, _), eval) in to_send.iter().zip(&fresh) {
            if let Some(slot) = self.slot(key) {
                self.slots[slot] = Some((key, eval.clone()));
            }
        }
        found
            .into_iter()
            .zip(sent_index)
            .map(|(hit, index)| hit.unwrap_or_else(|| fresh[index].clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluator::HeuristicEvaluator;
    use jungle_rules::{Game, Move, Position, Rules};

    /// Counts the positions it is asked to evaluate.
    struct Counting {
        positions: usize,
    }

    impl Evaluator for Counting {
        fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
            self.positions += batch.len();
            HeuristicEvaluator.evaluate(batch)
        }
    }

    /// The start position and the one after its first legal move, each
    /// with its legal moves.
    fn two_positions() -> [(Position, Vec<Move>); 2] {
        let rules = Rules::default();
        let mut game = Game::new(rules.clone());
        let start = *game.position();
        let start_moves: Vec<Move> = game.legal_moves().iter().copied().collect();
        game.play(start_moves[0]).unwrap();
        let after = *game.position();
        let after_moves: Vec<Move> = game.legal_moves().iter().copied().collect();
        [(start, start_moves), (after, after_moves)]
    }

    static STANDARD: std::sync::LazyLock<Rules> = std::sync::LazyLock::new(Rules::default);

    fn input(at: &(Position, Vec<Move>), repetitions: u32) -> EvalInput<'_> {
        EvalInput {
            position: &at.0,
            legal_moves: &at.1,
            repetitions,
            rules: &STANDARD,
        }
    }

    #[test]
    fn hits_return_what_the_evaluator_said_and_skip_it() {
        let [start, after] = two_positions();
        let direct = HeuristicEvaluator.evaluate(&[input(&start, 1), input(&after, 1)]);
        let counters = Arc::new(CacheCounters::default());
        let mut cached = CachedEvaluator::new(Counting { positions: 0 }, 1000, counters.clone());
        // The same position twice in one batch is evaluated once.
        let first = cached.evaluate(&[input(&start, 1), input(&start, 1)]);
        assert_eq!(cached.inner.positions, 1);
        assert_eq!(first, vec![direct[0].clone(), direct[0].clone()]);
        // Next batch: the start is a hit, the new position is not, and a
        // different repetition count is a different key.
        let second = cached.evaluate(&[input(&after, 1), input(&start, 1), input(&start, 2)]);
        assert_eq!(cached.inner.positions, 3);
        assert_eq!(second[0], direct[1]);
        assert_eq!(second[1], direct[0]);
        assert_eq!(counters.lookups.load(Ordering::Relaxed), 5);
        assert_eq!(counters.hits.load(Ordering::Relaxed), 2);
        assert!((counters.hit_rate() - 0.4).abs() < 1e-12);
    }

    #[test]
    fn the_key_tells_apart_side_to_move_repetitions_and_moves() {
        let [start, _] = two_positions();
        let base = evaluation_key(&input(&start, 1));
        assert_eq!(base, evaluation_key(&input(&start, 1)));
        assert_ne!(base, evaluation_key(&input(&start, 2)));
        let fewer = (start.0, start.1[1..].to_vec());
        assert_ne!(base, evaluation_key(&input(&fewer, 1)));
        let mut flipped = start.clone();
        flipped
            .0
            .set_side_to_move(start.0.side_to_move().opponent());
        assert_ne!(base, evaluation_key(&input(&flipped, 1)));
        // The same input in a game of another rule set.
        let quiet = Rules::preset("quiet-120").unwrap();
        let other = EvalInput {
            rules: &quiet,
            ..input(&start, 1)
        };
        assert_ne!(base, evaluation_key(&other));
    }

    /// Values each position by its plies since the last capture, as a
    /// network that reads the quiet-move plane may.
    struct QuietValue;

    impl Evaluator for QuietValue {
        fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
            let mut evals = HeuristicEvaluator.evaluate(batch);
            for (eval, input) in evals.iter_mut().zip(batch) {
                let w = input.position.quiet_plies() as f32 / 200.0;
                eval.wdl = [w, 1.0 - w, 0.0];
            }
            evals
        }
    }

    #[test]
    fn positions_apart_only_in_the_quiet_counter_are_evaluated_apart() {
        let moves = |p: &Position| p.legal_moves(&Rules::default()).iter().copied().collect();
        let at = |quiet: u32| {
            let pos = Position::from_fen(&format!("t6/7/7/7/7/7/7/7/6L w {quiet}")).unwrap();
            let legal: Vec<Move> = moves(&pos);
            (pos, legal)
        };
        let (five, six) = (at(5), at(6));
        assert_eq!(
            five.0.hash(),
            six.0.hash(),
            "the hash leaves the counter out"
        );
        assert_ne!(
            evaluation_key(&input(&five, 1)),
            evaluation_key(&input(&six, 1))
        );
        let mut cached = CachedEvaluator::new(QuietValue, 1000, Arc::default());
        let first = cached.evaluate(&[input(&five, 1)]);
        let second = cached.evaluate(&[input(&six, 1)]);
        assert_ne!(first[0].wdl, second[0].wdl);
        assert_eq!(second, QuietValue.evaluate(&[input(&six, 1)]));
    }

    #[test]
    fn a_table_of_size_zero_still_merges_repeats_within_a_batch() {
        let [start, _] = two_positions();
        let counters = Arc::new(CacheCounters::default());
        let mut cached = CachedEvaluator::new(Counting { positions: 0 }, 0, counters);
        cached.evaluate(&[input(&start, 1), input(&start, 1)]);
        cached.evaluate(&[input(&start, 1)]);
        assert_eq!(cached.inner.positions, 2);
    }
}
