//! Weight decay: how the optimiser shrinks the weights, which weights it
//! shrinks, and their norm (logged per generation, so the effective
//! learning rate of a run with batch norm can be seen: for a weight that
//! feeds a batch norm, the step's effect scales as learning rate / norm^2).
//!
//! Two kinds (`[train] weight_decay_kind`):
//!
//! - `l2`: the decay term `weight_decay x w` is added to every parameter's
//!   gradient before Adam normalises it (burn's `Adam` with weight decay).
//!   Adam divides it by the gradient's running scale, so the decay a weight
//!   gets depends on its gradients; batch-norm scales and biases are
//!   decayed too. The behaviour of every run before the key existed.
//! - `decoupled`: AdamW (Loshchilov and Hutter), only on convolution and
//!   dense weights: each step first multiplies those weights by
//!   `1 - learning_rate x weight_decay`, then takes Adam's step; batch-norm
//!   scales and shifts and every bias are not decayed (as KataGo and lc0
//!   train).

use burn::module::{Module, ParamGroup};
use burn::optim::decay::WeightDecayConfig;
use burn::optim::{AdamConfig, AdamWConfig, ModuleOptimizer};
pub(crate) use jungle_net::tensors::parameters_by_path;
use serde::{Deserialize, Serialize};

/// How weight decay is applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeightDecayKind {
    /// Added to every parameter's gradient before Adam normalises it.
    #[default]
    L2,
    /// AdamW's decoupled decay, on convolution and dense weights only.
    Decoupled,
}

/// The weight decay of a run: its rate and kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightDecay {
    /// The rate (`[train] weight_decay`).
    pub rate: f32,
    /// The kind (`[train] weight_decay_kind`).
    pub kind: WeightDecayKind,
}

/// The parameters the decoupled decay shrinks, by their path in the module
/// (`stem.weight`, `blocks.0.conv1.weight`, `value_fc.weight`, ...):
/// convolution and dense weights. Batch norms hold `gamma`, `beta` and
/// running statistics; biases are `bias`.
const DECAYED: &str = r"(^|\.)weight$";

/// Whether the parameter at `path` is one [`DECAYED`] names.
fn is_decayed(path: &str) -> bool {
    path == "weight" || path.ends_with(".weight")
}

impl WeightDecay {
    /// `rate` of the kind every run used before the kinds existed.
    pub fn l2(rate: f32) -> WeightDecay {
        WeightDecay {
            rate,
            kind: WeightDecayKind::L2,
        }
    }

    /// The optimiser: Adam, with this decay.
    pub fn optimizer(self) -> ModuleOptimizer {
        match self.kind {
            WeightDecayKind::L2 => AdamConfig::new()
                .with_weight_decay(Some(WeightDecayConfig::new(self.rate)))
                .init(),
            WeightDecayKind::Decoupled => {
                let weights = ParamGroup::from_regex(DECAYED).expect("the pattern is valid");
                // The first optimiser covers every parameter; the group's,
                // added last, takes precedence for the weights.
                AdamConfig::new().init().with_group(
                    weights,
                    AdamWConfig::new().with_weight_decay(self.rate).build(),
                    None,
                )
            }
        }
    }
}

/// The Euclidean norm of all convolution and dense weights of `module`
/// (the parameters [`WeightDecayKind::Decoupled`] decays), over all of them
/// at once.
pub fn weight_norm<M: Module>(module: &M) -> f64 {
    let squares: f64 = parameters_by_path(module)
        .iter()
        .filter(|(path, _)| is_decayed(path))
        .flat_map(|(_, values)| values)
        .map(|v| f64::from(*v).powi(2))
        .sum();
    squares.sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pattern_and_the_predicate_pick_the_same_parameters() {
        let group = ParamGroup::from_regex(DECAYED).unwrap();
        let id = burn::module::ParamId::new();
        for (path, decayed) in [
            ("stem.weight", true),
            ("blocks.3.conv2.weight", true),
            ("value_fc.weight", true),
            ("weight", true),
            ("stem.bias", false),
            ("stem_bn.gamma", false),
            ("stem_bn.beta", false),
            ("stem_bn.running_mean", false),
            ("blocks.0.bn1.running_var", false),
            ("value_fc.weights", false),
            ("overweight", false),
        ] {
            assert_eq!(group.matches(&id, Some(path)), decayed, "{path}");
            assert_eq!(is_decayed(path), decayed, "{path}");
        }
    }
}
