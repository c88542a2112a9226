//! A checkpoint loaded to play: the one place a network player's network
//! is found (a folder's newest checkpoint, the shipped network), read,
//! placed once on its device and turned into evaluator stacks under any
//! value terms. `net:` players ([`crate::NetPlayers`]) and `jungle
//! engine`'s `Player` and `Network` options both build on it; self-play's
//! workers build the same stacks through [`ValueTerms::evaluator_on`].

use crate::shipped::checkpoint_path;
use jungle_mcts::{CacheCounters, Evaluator};
use jungle_net::{
    cpu_device, load_checkpoint, CheckpointError, Compute, InferenceNet, NetStack, PolicyValueNet,
    ValueTerms, ValueTermsError,
};
use jungle_rules::RuleMixture;
use std::path::Path;
use std::sync::Arc;

/// A checkpoint's network on its device, with what it was trained on.
#[derive(Clone, Debug)]
pub struct PlayingNet {
    /// The network, shared by every evaluator built from it (on a GPU the
    /// evaluators share its server's passes).
    net: InferenceNet,
    /// The rule sets it was trained on.
    training: RuleMixture,
    /// Its step and size, for people.
    summary: String,
}

impl PlayingNet {
    /// Loads the checkpoint at `path` (a prefix, `.json` or `.bpk`, a run's
    /// folder for its newest, or the shipped network's name) and places its
    /// network on `compute`'s device.
    pub fn load(path: &Path, compute: &Compute) -> Result<PlayingNet, CheckpointError> {
        let loaded = load_checkpoint(&checkpoint_path(path)?, &cpu_device())?;
        let summary = format!(
            "step {}, {} blocks x {} filters",
            loaded.meta.step, loaded.meta.net.blocks, loaded.meta.net.filters
        );
        Ok(PlayingNet::new(
            &loaded.net,
            loaded.meta.trained_mixture(),
            summary,
            compute,
        ))
    }

    /// `net`, trained on `training` and described by `summary`, placed on
    /// `compute`'s device (a network not read from a file).
    pub fn new(
        net: &PolicyValueNet,
        training: RuleMixture,
        summary: String,
        compute: &Compute,
    ) -> PlayingNet {
        PlayingNet {
            net: InferenceNet::new(net, compute),
            training,
            summary,
        }
    }

    /// Whether the network has the survival head (a material term needs it).
    pub fn has_survival_head(&self) -> bool {
        self.net.has_survival_head()
    }

    /// The rule sets it was trained on.
    pub fn training(&self) -> &RuleMixture {
        &self.training
    }

    /// Its step and size (`step 22657, 4 blocks x 32 filters`).
    pub fn summary(&self) -> &str {
        &self.summary
    }

    /// The evaluator stack of one search under `terms`, its cache counting
    /// into `counters`; fails when a term does not suit the network.
    pub fn evaluator(
        &self,
        terms: &ValueTerms,
        counters: Arc<CacheCounters>,
    ) -> Result<NetStack, ValueTermsError> {
        terms.evaluator_on(self.net.clone(), counters)
    }

    /// The same with each batch cut between `threads` threads (one cache in
    /// front); one thread is [`PlayingNet::evaluator`].
    pub fn evaluator_on_threads(
        &self,
        terms: &ValueTerms,
        counters: Arc<CacheCounters>,
        threads: usize,
    ) -> Result<Box<dyn Evaluator + Send>, ValueTermsError> {
        if threads <= 1 {
            return Ok(Box::new(self.evaluator(terms, counters)?));
        }
        Ok(Box::new(terms.parallel_evaluator_on(
            self.net.clone(),
            counters,
            threads,
        )?))
    }
}
