//! The batched [`Evaluator`] over a network: encode the batch, one forward
//! pass on the fast inference path ([`FastNet`], measured about 2x burn's
//! flex backend; see `jungle bench net`), then a softmax over each
//! position's legal moves only. With a material weight, the value also
//! counts the animals the survival head expects each side to keep.

use crate::inference_net::InferenceNet;
use crate::PolicyValueNet;
use jungle_encoding::{add_material, encode_batch, evaluations, Encoding, NoSurvivalHead};
use jungle_mcts::profile::{self, Phase};
use jungle_mcts::{EvalInput, Evaluation, Evaluator};

/// Evaluates positions with a network in inference mode: the CPU's fast
/// path, or the network's server on a GPU ([`InferenceNet`]). Each position
/// is encoded under its own game's rule set, so one evaluator serves games
/// of several.
pub struct NetEvaluator {
    net: InferenceNet,
    encoding: Encoding,
    input: Vec<f32>,
    material_weight: f32,
}

impl NetEvaluator {
    /// An evaluator on the CPU (batch norm uses the network's running
    /// statistics).
    pub fn new(net: &PolicyValueNet) -> NetEvaluator {
        NetEvaluator::on(InferenceNet::cpu(net))
    }

    /// An evaluator on a network already placed on its device.
    pub fn on(net: InferenceNet) -> NetEvaluator {
        NetEvaluator {
            encoding: net.encoding(),
            net,
            input: Vec::new(),
            material_weight: 0.0,
        }
    }

    /// Adds the material term of [`with_material`] with this weight to every
    /// value (0, the default, leaves the network's value as it is). Needs a
    /// network with the survival head unless `weight` is 0.
    pub fn with_material_weight(mut self, weight: f32) -> Result<NetEvaluator, NoSurvivalHead> {
        NoSurvivalHead::check(weight, self.net.has_survival_head())?;
        self.material_weight = weight;
        Ok(self)
    }
}

impl Evaluator for NetEvaluator {
    fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
        if batch.is_empty() {
            return Vec::new();
        }
        {
            let _t = profile::time(Phase::Encode);
            encode_batch(batch, self.encoding, &mut self.input);
        }
        let out = {
            let _t = profile::time(Phase::Forward);
            self.net.forward(&self.input, batch.len())
        };
        let _t = profile::time(Phase::Outputs);
        let mut evals = evaluations(batch, &out.policy, &out.wdl);
        add_material(&mut evals, &out.survival, self.material_weight);
        evals
    }
}
