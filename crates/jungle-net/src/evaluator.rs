//! The batched [`Evaluator`] over a network: encode the batch, one forward
//! pass, then a softmax over each position's legal moves only.

use crate::encoding::{encode, move_slot, INPUT_LEN, PLANES, POLICY_SLOTS};
use crate::model::PolicyValueNet;
use burn::module::Module;
use burn::tensor::{Device, Tensor, TensorData};
use jungle_mcts::{softmax, EvalInput, Evaluation, Evaluator};
use jungle_rules::{Rules, FILES, RANKS};

/// Evaluates positions with a network (in inference mode).
pub struct NetEvaluator {
    net: PolicyValueNet,
    device: Device,
    rules: Rules,
    input: Vec<f32>,
}

impl NetEvaluator {
    /// An evaluator for games under `rules`; the network is switched to
    /// inference mode (batch norm uses its running statistics).
    pub fn new(net: &PolicyValueNet, rules: Rules, device: Device) -> NetEvaluator {
        NetEvaluator {
            net: net.valid(),
            device,
            rules,
            input: Vec::new(),
        }
    }

    /// Raw outputs for a batch: policy logits (252 per position) and
    /// win/draw/loss logits (3 per position).
    pub fn raw(&mut self, batch: &[EvalInput<'_>]) -> (Vec<f32>, Vec<f32>) {
        let b = batch.len();
        self.input.resize(b * INPUT_LEN, 0.0);
        for (input, out) in batch.iter().zip(self.input.chunks_exact_mut(INPUT_LEN)) {
            encode(input.position, input.repetitions, &self.rules, out);
        }
        let shape = [b, PLANES, RANKS as usize, FILES as usize];
        let x = Tensor::<4>::from_data(TensorData::new(self.input.clone(), shape), &self.device);
        let out = self.net.forward(x);
        let policy = out
            .policy
            .into_data()
            .try_to_vec::<f32>()
            .expect("f32 policy");
        let wdl = out.wdl.into_data().try_to_vec::<f32>().expect("f32 wdl");
        (policy, wdl)
    }
}

impl Evaluator for NetEvaluator {
    fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
        if batch.is_empty() {
            return Vec::new();
        }
        let (policy, wdl) = self.raw(batch);
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
}
