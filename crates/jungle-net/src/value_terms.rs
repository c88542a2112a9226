//! What a network's search adds to the network's own value, and the one
//! place the evaluator stack is built: the network (with the survival
//! head's material term), then the quiescence term, then the evaluation
//! cache in front. Self-play, `net:` players and `jungle engine` all build
//! their evaluators here.

use crate::evaluator::NetEvaluator;
use crate::inference_net::InferenceNet;
use crate::PolicyValueNet;
use jungle_encoding::{check_material_weight, NoSurvivalHead};
use jungle_mcts::quiescence::check_quiescence_weight;
use jungle_mcts::{CacheCounters, CachedEvaluator, ParallelEvaluator, WithQuiescence};
use jungle_rules::InvalidKey;
use std::sync::Arc;

/// The evaluator stack of a network: cache -> quiescence -> network.
pub type NetStack = CachedEvaluator<WithQuiescence<NetEvaluator>>;

/// The evaluator stack of a network judged on several threads: cache ->
/// threads -> quiescence -> network.
pub type ParallelNetStack = CachedEvaluator<ParallelEvaluator<WithQuiescence<NetEvaluator>>>;

/// The value terms and the cache of a network's evaluator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ValueTerms {
    /// Weight of the survival head's material term
    /// ([`crate::with_material`]); 0 leaves the network's value as it is.
    pub material_weight: f32,
    /// Weight of the quiescence term ([`jungle_mcts::WithQuiescence`]); 0
    /// leaves it out.
    pub qsearch_weight: f32,
    /// Evaluations the cache keeps (rounded up to a power of two); 0 turns
    /// it off.
    pub cache: usize,
}

/// Why value terms cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ValueTermsError {
    /// A weight is out of its range.
    #[error(transparent)]
    Weight(#[from] InvalidKey),
    /// A material weight for a network without the survival head.
    #[error(transparent)]
    NoSurvivalHead(#[from] NoSurvivalHead),
}

impl ValueTerms {
    /// No terms, no cache: the network's value alone.
    pub const NONE: ValueTerms = ValueTerms {
        material_weight: 0.0,
        qsearch_weight: 0.0,
        cache: 0,
    };

    /// Checks both weights' ranges (the error names the key).
    pub fn validate(&self) -> Result<(), InvalidKey> {
        check_material_weight(self.material_weight)?;
        check_quiescence_weight(self.qsearch_weight)
    }

    /// The evaluator stack of `net` on the CPU, its cache counting into
    /// `counters` (each position judged under its own game's rules).
    pub fn evaluator(
        &self,
        net: &PolicyValueNet,
        counters: Arc<CacheCounters>,
    ) -> Result<NetStack, ValueTermsError> {
        self.evaluator_on(InferenceNet::cpu(net), counters)
    }

    /// The evaluator stack of a network already on its device (one clone of
    /// it per search thread).
    pub fn evaluator_on(
        &self,
        net: InferenceNet,
        counters: Arc<CacheCounters>,
    ) -> Result<NetStack, ValueTermsError> {
        let evaluator = self.uncached_on(net)?;
        Ok(CachedEvaluator::new(evaluator, self.cache, counters))
    }

    /// The evaluator stack of a network whose batches are judged on
    /// `threads` threads (the engine's `Threads` option): one cache in
    /// front, then the batch cut between `threads` networks with their
    /// terms, all sharing `net`'s weights.
    pub fn parallel_evaluator_on(
        &self,
        net: InferenceNet,
        counters: Arc<CacheCounters>,
        threads: usize,
    ) -> Result<ParallelNetStack, ValueTermsError> {
        let parts = (0..threads.max(1))
            .map(|_| self.uncached_on(net.clone()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(CachedEvaluator::new(
            ParallelEvaluator::new(parts),
            self.cache,
            counters,
        ))
    }

    /// The network with its terms, no cache.
    fn uncached_on(
        &self,
        net: InferenceNet,
    ) -> Result<WithQuiescence<NetEvaluator>, ValueTermsError> {
        self.validate()?;
        let evaluator = NetEvaluator::on(net).with_material_weight(self.material_weight)?;
        Ok(WithQuiescence::new(evaluator, self.qsearch_weight))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NetConfig;

    #[test]
    fn the_stack_checks_its_terms() {
        let device = crate::cpu_device();
        let headless = NetConfig::new()
            .with_blocks(1)
            .with_filters(4)
            .init(&device);
        let terms = |material_weight, qsearch_weight| ValueTerms {
            material_weight,
            qsearch_weight,
            cache: 16,
        };
        assert!(terms(0.0, 0.5).evaluator(&headless, Arc::default()).is_ok());
        let e = terms(0.5, 0.0)
            .evaluator(&headless, Arc::default())
            .err()
            .unwrap();
        assert!(matches!(e, ValueTermsError::NoSurvivalHead(_)), "{e}");
        let e = terms(0.0, 9.0)
            .evaluator(&headless, Arc::default())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("qsearch_weight") && e.contains("0 to 4"), "{e}");
    }
}
