//! The training step: policy cross-entropy against the search's target,
//! win/draw/loss cross-entropy against the game result, squared error on the
//! plies left (weighted 0.1), binary cross-entropy of the survival head
//! when the network has one (weighted 2 on the mean over its outputs), Adam
//! with weight decay.

use crate::samples::Batch;
use burn::module::Module;
use burn::optim::decay::WeightDecayConfig;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::{log_sigmoid, log_softmax};
use burn::tensor::{Device, Tensor, TensorData};
use jungle_net::encoding::{POLICY_SLOTS, SQUARES};
use jungle_net::{NetConfig, PolicyValueNet, SURVIVAL_OUTPUTS};
use jungle_rules::{FILES, RANKS};

/// Weight of the moves-left loss in the total.
pub const MOVES_LEFT_WEIGHT: f32 = 0.1;
/// Weight of the survival loss (mean binary cross-entropy per output).
pub const SURVIVAL_WEIGHT: f32 = 2.0;

/// The parts of the loss on one batch.
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
}

/// A network being trained with its optimiser.
pub struct Trainer {
    net: PolicyValueNet,
    optim: ModuleOptimizer,
    device: Device,
    /// Learning rate of the next steps.
    pub learning_rate: f64,
}

fn tensors(batch: &Batch, device: &Device) -> (Tensor<4>, Tensor<2>, Tensor<2>, Tensor<2>) {
    let n = batch.size;
    let planes = batch.planes.len() / (n * SQUARES);
    let x = Tensor::from_data(
        TensorData::new(
            batch.planes.clone(),
            [n, planes, RANKS as usize, FILES as usize],
        ),
        device,
    );
    let p = Tensor::from_data(
        TensorData::new(batch.policy.clone(), [n, POLICY_SLOTS]),
        device,
    );
    let w = Tensor::from_data(TensorData::new(batch.wdl.clone(), [n, 3]), device);
    let m = Tensor::from_data(TensorData::new(batch.moves_left.clone(), [n, 1]), device);
    (x, p, w, m)
}

/// Mean binary cross-entropy of `logits` against 0/1 `targets`.
fn binary_cross_entropy(logits: Tensor<2>, targets: Tensor<2>) -> Tensor<1> {
    let ones = targets.ones_like();
    (targets.clone() * log_sigmoid(logits.clone()) + (ones - targets) * log_sigmoid(logits.neg()))
        .mean()
        .neg()
}

/// The total loss tensor and its parts.
fn loss(net: &PolicyValueNet, batch: &Batch, device: &Device) -> (Tensor<1>, Losses) {
    let (x, policy_target, wdl_target, ml_target) = tensors(batch, device);
    let (out, survival_logits) = net.forward_with_survival(x);
    let policy = (log_softmax(out.policy, 1) * policy_target)
        .sum_dim(1)
        .mean()
        .neg();
    let value = (log_softmax(out.wdl, 1) * wdl_target)
        .sum_dim(1)
        .mean()
        .neg();
    let moves_left = (out.moves_left - ml_target).powi_scalar(2).mean();
    let survival = survival_logits.map(|logits| {
        let target = Tensor::from_data(
            TensorData::new(batch.survival.clone(), [batch.size, SURVIVAL_OUTPUTS]),
            device,
        );
        binary_cross_entropy(logits, target)
    });
    let parts = Losses {
        policy: policy.clone().into_scalar::<f32>(),
        value: value.clone().into_scalar::<f32>(),
        moves_left: moves_left.clone().into_scalar::<f32>(),
        survival: survival
            .as_ref()
            .map_or(0.0, |l| l.clone().into_scalar::<f32>()),
    };
    let total = policy + value + moves_left.mul_scalar(MOVES_LEFT_WEIGHT);
    let total = match survival {
        Some(l) => total + l.mul_scalar(SURVIVAL_WEIGHT),
        None => total,
    };
    (total, parts)
}

impl Trainer {
    /// A trainer for a fresh network of `config` on `device` (the autodiff
    /// wrapper is added here).
    pub fn new(
        config: &NetConfig,
        device: &Device,
        learning_rate: f64,
        weight_decay: f32,
    ) -> Trainer {
        let device = device.clone().autodiff();
        Trainer::from_net(config.init(&device), &device, learning_rate, weight_decay)
    }

    /// A trainer continuing from `net`, which must live on the autodiff
    /// `device` (load checkpoints onto it: a plain module moved there is
    /// not tracked).
    pub fn from_net(
        net: PolicyValueNet,
        device: &Device,
        learning_rate: f64,
        weight_decay: f32,
    ) -> Trainer {
        let optim = AdamConfig::new()
            .with_weight_decay(Some(WeightDecayConfig::new(weight_decay)))
            .init();
        Trainer {
            net,
            optim,
            device: device.clone(),
            learning_rate,
        }
    }

    /// One optimiser step on `batch`; returns the losses before the step.
    pub fn step(&mut self, batch: &Batch) -> Losses {
        let (total, parts) = loss(&self.net, batch, &self.device);
        let grads = GradientsParams::from_grads(total.backward(), &self.net);
        self.net = self.optim.step(self.learning_rate, self.net.clone(), grads);
        parts
    }

    /// The losses on `batch` without a step (training-mode batch norm).
    pub fn measure(&self, batch: &Batch) -> Losses {
        loss(&self.net, batch, &self.device).1
    }

    /// The network in inference mode (for evaluation and checkpoints).
    pub fn inference_net(&self) -> PolicyValueNet {
        self.net.valid()
    }

    /// Writes the optimiser's state (Adam moments, step count) to `path`.
    pub fn save_optimizer(&self, path: &std::path::Path) -> Result<(), String> {
        self.optim
            .save(path)
            .map_err(|e| format!("optimizer state `{}`: {e}", path.display()))
    }

    /// Restores the optimiser's state written by [`Trainer::save_optimizer`].
    pub fn load_optimizer(&mut self, path: &std::path::Path) -> Result<(), String> {
        let optim = std::mem::replace(&mut self.optim, AdamConfig::new().init());
        self.optim = optim
            .load(path)
            .map_err(|e| format!("optimizer state `{}`: {e}", path.display()))?;
        Ok(())
    }
}
