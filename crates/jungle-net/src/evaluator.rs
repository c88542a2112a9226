//! The batched [`Evaluator`] over a network: encode the batch, one forward
//! pass on the fast inference path ([`FastNet`], measured about 2x burn's
//! flex backend; see `jungle bench net`), then a softmax over each
//! position's legal moves only.

use crate::encoding::{move_slot, Encoding, POLICY_SLOTS};
use crate::fast::FastNet;
use crate::model::PolicyValueNet;
use burn::module::Module;
use jungle_mcts::{softmax, EvalInput, Evaluation, Evaluator};
use jungle_rules::Rules;

/// Writes the planes of every input in `encoding` into `out` (resized to fit).
pub fn encode_batch(
    batch: &[EvalInput<'_>],
    encoding: Encoding,
    rules: &Rules,
    out: &mut Vec<f32>,
) {
    let len = encoding.input_len();
    out.resize(batch.len() * len, 0.0);
    for (input, chunk) in batch.iter().zip(out.chunks_exact_mut(len)) {
        encoding.encode(input.position, input.repetitions, rules, chunk);
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

/// Evaluates positions with a network in inference mode on the fast path.
pub struct NetEvaluator {
    net: FastNet,
    encoding: Encoding,
    rules: Rules,
    input: Vec<f32>,
}

impl NetEvaluator {
    /// An evaluator for games under `rules` (batch norm uses the network's
    /// running statistics).
    pub fn new(net: &PolicyValueNet, rules: Rules) -> NetEvaluator {
        NetEvaluator {
            net: FastNet::new(&net.valid()),
            encoding: net.encoding(),
            rules,
            input: Vec::new(),
        }
    }
}

impl Evaluator for NetEvaluator {
    fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
        if batch.is_empty() {
            return Vec::new();
        }
        encode_batch(batch, self.encoding, &self.rules, &mut self.input);
        let out = self.net.forward(&self.input, batch.len());
        evaluations(batch, &out.policy, &out.wdl)
    }
}
