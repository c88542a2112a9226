//! The training losses, in one place for both training passes: policy
//! cross-entropy against the search's target, win/draw/loss cross-entropy
//! against the value target (weighted by [`LossWeights::value`], 1 by
//! default), squared error on the plies left (weighted 0.1), binary
//! cross-entropy of the survival head when the network has one (weighted 2
//! on the mean over its outputs), win/draw/loss cross-entropy of the
//! short-term head against the short-term target when the network has one
//! (weighted 0.5). [`reference_loss`] builds them
//! as burn tensors for autodiff; [`loss_gradients`] computes the same
//! losses and their gradients on the plain-buffer training pass's outputs.

use crate::samples::Batch;
use burn::tensor::activation::{log_sigmoid, log_softmax};
use burn::tensor::{Device, Tensor, TensorData};
use jungle_net::encoding::{POLICY_SLOTS, SQUARES};
use jungle_net::{Output, Outputs, PolicyValueNet};
use jungle_rules::{FILES, RANKS};

/// Weight of the moves-left loss in the total.
pub const MOVES_LEFT_WEIGHT: f32 = 0.1;
/// Weight of the survival loss (mean binary cross-entropy per output).
pub const SURVIVAL_WEIGHT: f32 = 2.0;
/// Weight of the short-term value loss (an auxiliary target, weighted
/// below the value's 1 as KataGo weighs its short-term heads).
pub const SHORT_TERM_WEIGHT: f32 = 0.5;

/// The weights of the loss's parts in the total that is minimised (the
/// policy's is 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossWeights {
    /// Weight of the win/draw/loss cross-entropy (`train.value_loss_weight`
    /// in `[experimental]`).
    pub value: f32,
    /// Weight of the moves-left squared error.
    pub moves_left: f32,
    /// Weight of the survival head's mean binary cross-entropy.
    pub survival: f32,
    /// Weight of the short-term head's win/draw/loss cross-entropy.
    pub short_term: f32,
}

impl Default for LossWeights {
    fn default() -> LossWeights {
        LossWeights {
            value: 1.0,
            moves_left: MOVES_LEFT_WEIGHT,
            survival: SURVIVAL_WEIGHT,
            short_term: SHORT_TERM_WEIGHT,
        }
    }
}

impl LossWeights {
    /// The default weights with the value loss weighted `value`.
    pub fn with_value(value: f32) -> LossWeights {
        LossWeights {
            value,
            ..LossWeights::default()
        }
    }
}

/// The parts of the loss on one batch (unweighted).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Losses {
    /// Policy cross-entropy.
    pub policy: f32,
    /// Win/draw/loss cross-entropy.
    pub value: f32,
    /// Squared error of plies left / 100.
    pub moves_left: f32,
    /// Mean binary cross-entropy of the survival head (0 without one).
    pub survival: f32,
    /// Short-term win/draw/loss cross-entropy (0 without the head).
    pub short_term: f32,
}

/// `batch`'s input planes as `[size, planes, 9, 7]`.
fn input(batch: &Batch, device: &Device) -> Tensor<4> {
    let n = batch.size;
    let planes = batch.planes.len() / (n * SQUARES);
    Tensor::from_data(
        TensorData::new(
            batch.planes.clone(),
            [n, planes, RANKS as usize, FILES as usize],
        ),
        device,
    )
}

/// `batch`'s targets of `output` as `[size, width]` (the moves-left
/// target is `[size, 1]`).
fn target(batch: &Batch, output: Output, device: &Device) -> Tensor<2> {
    let values = match output {
        Output::Policy => &batch.policy,
        Output::Wdl => &batch.wdl,
        Output::MovesLeft => &batch.moves_left,
        Output::Survival => &batch.survival,
        Output::ShortTermWdl => &batch.short_term_wdl,
    };
    Tensor::from_data(
        TensorData::new(values.clone(), [batch.size, output.width()]),
        device,
    )
}

/// Mean binary cross-entropy of `logits` against 0/1 `targets`.
fn binary_cross_entropy(logits: Tensor<2>, targets: Tensor<2>) -> Tensor<1> {
    let ones = targets.ones_like();
    (targets.clone() * log_sigmoid(logits.clone()) + (ones - targets) * log_sigmoid(logits.neg()))
        .mean()
        .neg()
}

/// Mean cross-entropy of softmax(`logits`) against the distributions
/// `targets`, row by row.
fn cross_entropy(logits: Tensor<2>, targets: Tensor<2>) -> Tensor<1> {
    (log_softmax(logits, 1) * targets).sum_dim(1).mean().neg()
}

/// The total loss tensor (the parts weighted by `weights`) and its
/// unweighted parts, through burn (the reference that autodiff
/// differentiates).
pub fn reference_loss(
    net: &PolicyValueNet,
    batch: &Batch,
    weights: &LossWeights,
    device: &Device,
) -> (Tensor<1>, Losses) {
    let mut parts = Losses::default();
    let mut total: Option<Tensor<1>> = None;
    for (o, out) in net.forward_outputs(input(batch, device)) {
        let t = target(batch, o, device);
        let (loss, part, weight) = match o {
            Output::Policy => (cross_entropy(out, t), &mut parts.policy, 1.0),
            Output::Wdl => (cross_entropy(out, t), &mut parts.value, weights.value),
            Output::MovesLeft => (
                (out - t).powi_scalar(2).mean(),
                &mut parts.moves_left,
                weights.moves_left,
            ),
            Output::Survival => (
                binary_cross_entropy(out, t),
                &mut parts.survival,
                weights.survival,
            ),
            Output::ShortTermWdl => (
                cross_entropy(out, t),
                &mut parts.short_term,
                weights.short_term,
            ),
        };
        *part = loss.clone().into_scalar::<f32>();
        let weighted = loss.mul_scalar(weight);
        total = Some(match total {
            Some(sum) => sum + weighted,
            None => weighted,
        });
    }
    (total.expect("a network has outputs"), parts)
}

/// `ln(sigmoid(z))`, stable for large `|z|`.
fn ln_sigmoid(z: f32) -> f32 {
    z.min(0.0) - (-z.abs()).exp().ln_1p()
}

/// For each row of `logits` (`[n, width]`), the cross-entropy against the
/// row of `targets` and its gradient, `softmax * sum(target) - target`,
/// divided by `n` and times `weight`. Returns the mean (unweighted) loss.
fn softmax_cross_entropy(
    logits: &[f32],
    targets: &[f32],
    width: usize,
    weight: f32,
    grad: &mut [f32],
) -> f32 {
    let n = logits.len() / width;
    let mut total = 0.0f64;
    for ((z, t), g) in logits
        .chunks_exact(width)
        .zip(targets.chunks_exact(width))
        .zip(grad.chunks_exact_mut(width))
    {
        let max = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let sum: f32 = z.iter().map(|v| (v - max).exp()).sum();
        let log_sum = max + sum.ln();
        let mass: f32 = t.iter().sum();
        for ((zi, ti), gi) in z.iter().zip(t).zip(g.iter_mut()) {
            total -= f64::from(ti * (zi - log_sum));
            *gi = weight * ((zi - log_sum).exp() * mass - ti) / n as f32;
        }
    }
    (total / n as f64) as f32
}

/// The losses of `out` on `batch` (as [`reference_loss`] computes them) and the
/// gradients of the total weighted by `weights` with respect to each output.
pub fn loss_gradients(out: &Outputs, batch: &Batch, weights: &LossWeights) -> (Losses, Outputs) {
    let n = batch.size;
    let mut grads = Outputs::zeros(n, out.present());
    let policy = softmax_cross_entropy(
        &out.policy,
        &batch.policy,
        POLICY_SLOTS,
        1.0,
        &mut grads.policy,
    );
    let value = softmax_cross_entropy(&out.wdl, &batch.wdl, 3, weights.value, &mut grads.wdl);
    let mut moves_left = 0.0f64;
    for ((y, t), g) in out
        .moves_left
        .iter()
        .zip(&batch.moves_left)
        .zip(&mut grads.moves_left)
    {
        moves_left += f64::from((y - t) * (y - t));
        *g = weights.moves_left * 2.0 * (y - t) / n as f32;
    }
    let mut survival = 0.0f64;
    let count = out.survival.len().max(1) as f32;
    for ((z, t), g) in out
        .survival
        .iter()
        .zip(&batch.survival)
        .zip(&mut grads.survival)
    {
        survival -= f64::from(t * ln_sigmoid(*z) + (1.0 - t) * ln_sigmoid(-z));
        *g = weights.survival * (1.0 / (1.0 + (-z).exp()) - t) / count;
    }
    let short_term = match out.short_term_wdl.is_empty() {
        true => 0.0,
        false => softmax_cross_entropy(
            &out.short_term_wdl,
            &batch.short_term_wdl,
            3,
            weights.short_term,
            &mut grads.short_term_wdl,
        ),
    };
    let parts = Losses {
        policy,
        value,
        moves_left: (moves_left / n as f64) as f32,
        survival: (survival / f64::from(count)) as f32,
        short_term,
    };
    (parts, grads)
}
