//! The reference backend: the network as a burn module, the source of truth
//! for weights, checkpoints, the export and the autodiff training step that
//! the plain-buffer backends are tested against.
//!
//! The residual policy-value network (AlphaZero shape, with KataGo's
//! global-pooling bias as an option): a 3x3 stem, residual blocks, a policy
//! head of 252 logits, a win/draw/loss value head and a moves-left head,
//! and optionally a piece-survival head (an auxiliary target in the spirit
//! of KataGo's ownership head: which animals are still on the board a few
//! plies later and at the game's end; the search can read it as a material
//! term, see [`crate::with_material`]).

use crate::architecture::{NetConfig, SURVIVAL_OUTPUTS};
use crate::encoding::{Encoding, POLICY_SLOTS};
use crate::outputs::Output;
use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::tensor::activation::relu;
use burn::tensor::module::adaptive_avg_pool2d;
use burn::tensor::{Device, Tensor};
use jungle_rules::{FILES, RANKS};

impl NetConfig {
    /// Builds a freshly initialised network on `device`.
    pub fn init(&self, device: &Device) -> PolicyValueNet {
        let conv = |cin: usize, cout: usize, k: usize| {
            Conv2dConfig::new([cin, cout], [k, k])
                .with_padding(PaddingConfig2d::Same)
                .with_bias(false)
                .init(device)
        };
        let bn = |c: usize| BatchNormConfig::new(c).init(device);
        let f = self.filters;
        let blocks = (0..self.blocks)
            .map(|i| ResBlock {
                conv1: conv(f, f, 3),
                bn1: bn(f),
                conv2: conv(f, f, 3),
                bn2: bn(f),
                pool_bias: (self.global_pool_every > 0 && (i + 1) % self.global_pool_every == 0)
                    .then(|| Conv2dConfig::new([f, f], [1, 1]).init(device)),
            })
            .collect();
        PolicyValueNet {
            stem: conv(self.encoding().planes(), f, 3),
            stem_bn: bn(f),
            blocks,
            policy_conv: conv(f, self.policy_filters, 1),
            policy_bn: bn(self.policy_filters),
            policy_out: Conv2dConfig::new(
                [
                    self.policy_filters,
                    POLICY_SLOTS / (RANKS as usize * FILES as usize),
                ],
                [1, 1],
            )
            .init(device),
            value_conv: conv(f, self.value_filters, 1),
            value_bn: bn(self.value_filters),
            value_fc: LinearConfig::new(self.value_filters, self.value_hidden).init(device),
            value_out: LinearConfig::new(self.value_hidden, 3).init(device),
            moves_left_out: LinearConfig::new(self.value_hidden, 1).init(device),
            survival_out: self
                .has_survival_head()
                .then(|| LinearConfig::new(self.value_hidden, SURVIVAL_OUTPUTS).init(device)),
            short_term_out: self.has_short_term_head().then(|| {
                LinearConfig::new(self.value_hidden, Output::ShortTermWdl.width()).init(device)
            }),
        }
    }
}

/// conv-BN-ReLU-conv-BN plus the input, then ReLU; optionally a bias from
/// the globally pooled first activation.
#[derive(Module, Debug)]
pub struct ResBlock {
    pub(crate) conv1: Conv2d,
    pub(crate) bn1: BatchNorm,
    pub(crate) conv2: Conv2d,
    pub(crate) bn2: BatchNorm,
    /// Dense layer over the pooled channels, as a 1x1 convolution on
    /// `[B, C, 1, 1]` (exports to ONNX with a dynamic batch axis).
    pub(crate) pool_bias: Option<Conv2d>,
}

impl ResBlock {
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let y = relu(self.bn1.forward(self.conv1.forward(x.clone())));
        let y = match &self.pool_bias {
            // Mean over the board, a dense layer, broadcast back as a bias.
            Some(dense) => {
                let bias = dense.forward(adaptive_avg_pool2d(y.clone(), [1, 1]));
                y + bias
            }
            None => y,
        };
        relu(self.bn2.forward(self.conv2.forward(y)) + x)
    }
}

/// The network's three outputs for a batch.
#[derive(Debug)]
pub struct NetOutput {
    /// Policy logits `[batch, 252]`, slot `direction * 63 + square`.
    pub policy: Tensor<2>,
    /// Win/draw/loss logits `[batch, 3]` for the side to move.
    pub wdl: Tensor<2>,
    /// Predicted plies left in the game / 100, `[batch, 1]`.
    pub moves_left: Tensor<2>,
}

/// The policy-value network.
#[derive(Module, Debug)]
pub struct PolicyValueNet {
    pub(crate) stem: Conv2d,
    pub(crate) stem_bn: BatchNorm,
    pub(crate) blocks: Vec<ResBlock>,
    pub(crate) policy_conv: Conv2d,
    pub(crate) policy_bn: BatchNorm,
    pub(crate) policy_out: Conv2d,
    pub(crate) value_conv: Conv2d,
    pub(crate) value_bn: BatchNorm,
    pub(crate) value_fc: Linear,
    pub(crate) value_out: Linear,
    pub(crate) moves_left_out: Linear,
    pub(crate) survival_out: Option<Linear>,
    pub(crate) short_term_out: Option<Linear>,
}

impl PolicyValueNet {
    /// Runs a batch of encoded positions `[batch, planes, 9, 7]`.
    pub fn forward(&self, input: Tensor<4>) -> NetOutput {
        let (policy, hidden) = self.policy_and_hidden(input);
        NetOutput {
            policy,
            wdl: self.value_out.forward(hidden.clone()),
            moves_left: self.moves_left_out.forward(hidden),
        }
    }

    /// Whether the network has the survival head.
    pub fn has_survival_head(&self) -> bool {
        self.survival_out.is_some()
    }

    /// The outputs the network computes, in [`Output::ALL`]'s order.
    pub fn outputs(&self) -> Vec<Output> {
        let mut outputs = vec![Output::Policy];
        outputs.extend(self.hidden_heads().into_iter().map(|(o, _)| o));
        outputs
    }

    /// The dense heads on the value head's hidden layer with the output
    /// each makes, in [`Output::ALL`]'s order: what the plain-buffer
    /// backends compute and differentiate from the hidden layer (a new
    /// dense head is an entry here, its field and its [`Output`]).
    pub(crate) fn hidden_heads(&self) -> Vec<(Output, &Linear)> {
        let mut heads = vec![
            (Output::Wdl, &self.value_out),
            (Output::MovesLeft, &self.moves_left_out),
        ];
        heads.extend(self.survival_out.as_ref().map(|l| (Output::Survival, l)));
        heads.extend(
            self.short_term_out
                .as_ref()
                .map(|l| (Output::ShortTermWdl, l)),
        );
        heads
    }

    /// The input planes the network reads, from its first layer's input
    /// channels.
    pub fn encoding(&self) -> Encoding {
        let planes = self.stem.weight.dims()[1];
        Encoding::from_planes(planes).expect("networks are built for a known encoding")
    }

    /// The policy logits and the value head's hidden layer, which the
    /// dense heads read.
    fn policy_and_hidden(&self, input: Tensor<4>) -> (Tensor<2>, Tensor<2>) {
        let mut x = relu(self.stem_bn.forward(self.stem.forward(input)));
        for block in &self.blocks {
            x = block.forward(x);
        }
        let p = relu(self.policy_bn.forward(self.policy_conv.forward(x.clone())));
        // [B, 4, 9, 7] -> [B, 252]: slot = direction * 63 + square.
        let policy = self.policy_out.forward(p).flatten(1, 3);
        let v = relu(self.value_bn.forward(self.value_conv.forward(x)));
        let pooled = adaptive_avg_pool2d(v, [1, 1]).flatten(1, 3);
        let hidden = relu(self.value_fc.forward(pooled));
        (policy, hidden)
    }

    /// Every output the network has ([`Output::of`]), in that order, as
    /// `[batch, width]` tensors: what the served backend transfers in one
    /// piece and the backends' tests compare.
    pub fn forward_outputs(&self, input: Tensor<4>) -> Vec<(Output, Tensor<2>)> {
        let (policy, hidden) = self.policy_and_hidden(input);
        let mut outputs = vec![(Output::Policy, policy)];
        for (o, head) in self.hidden_heads() {
            outputs.push((o, head.forward(hidden.clone())));
        }
        outputs
    }
}
