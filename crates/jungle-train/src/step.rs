//! The training step: the losses of [`crate::losses`], Adam with weight
//! decay ([`crate::decay`]).
//!
//! [`Trainer::step`] runs the network's forward and backward passes on
//! plain buffers ([`jungle_net::backend::training`]) with the loss gradients
//! of [`crate::losses::loss_gradients`], and hands the gradients to burn's Adam;
//! [`Trainer::step_autodiff`] is the same step through burn's autodiff, the
//! reference the fast one is tested against.

use crate::decay::WeightDecay;
use crate::error::TrainError;
use crate::losses::{loss_gradients, reference_loss, LossWeights, Losses};
use crate::samples::Batch;
use crate::weight_average::WeightAverage;
use burn::module::Module;
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::Device;
use jungle_net::backend::training::forward_train;
use jungle_net::{NetConfig, PolicyValueNet};

/// A network being trained with its optimiser.
pub struct Trainer {
    net: PolicyValueNet,
    optim: ModuleOptimizer,
    device: Device,
    /// Whether the device is the CPU, where the plain-buffer pass runs
    /// ([`Trainer::step`]); on a GPU every step goes through burn's
    /// autodiff on the device.
    on_cpu: bool,
    /// Learning rate of the next steps.
    pub learning_rate: f64,
    /// The moving average of the weights, when one is kept
    /// ([`Trainer::start_average`]).
    average: Option<WeightAverage>,
    /// The weights of the loss's parts (the defaults unless
    /// [`Trainer::set_loss_weights`] changed them).
    loss_weights: LossWeights,
}

impl Trainer {
    /// A trainer for a fresh network of `config` on `device` (the autodiff
    /// wrapper is added here).
    pub fn new(
        config: &NetConfig,
        device: &Device,
        learning_rate: f64,
        weight_decay: WeightDecay,
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
        weight_decay: WeightDecay,
    ) -> Trainer {
        let optim = weight_decay.optimizer();
        let on_cpu = device.clone().without_autodiff() == jungle_net::cpu_device();
        if on_cpu {
            jungle_net::backend::training::retain_freed_memory();
        }
        Trainer {
            net,
            optim,
            device: device.clone(),
            on_cpu,
            learning_rate,
            average: None,
            loss_weights: LossWeights::default(),
        }
    }

    /// Weighs the loss's parts by `weights` from the next step on.
    pub fn set_loss_weights(&mut self, weights: LossWeights) {
        self.loss_weights = weights;
    }

    /// One optimiser step on `batch`; returns the losses before the step.
    /// On the CPU the plain-buffer pass; on a GPU burn's autodiff on the
    /// device ([`Trainer::step_autodiff`], the same losses).
    pub fn step(&mut self, batch: &Batch) -> Losses {
        if !self.on_cpu {
            return self.step_autodiff(batch);
        }
        let (out, tape) = forward_train(&self.net, &batch.planes, batch.size);
        let (parts, output_grads) = loss_gradients(&out, batch, &self.loss_weights);
        let grads = tape.backward(&output_grads, &self.device.clone().without_autodiff());
        tape.update_running_stats(&self.net);
        self.net = self.optim.step(self.learning_rate, self.net.clone(), grads);
        self.update_average();
        parts
    }

    /// [`Trainer::step`] through burn's autodiff (about three times slower
    /// on a CPU): the reference the fast step is tested against.
    pub fn step_autodiff(&mut self, batch: &Batch) -> Losses {
        let (total, parts) = reference_loss(&self.net, batch, &self.loss_weights, &self.device);
        let grads = GradientsParams::from_grads(total.backward(), &self.net);
        self.net = self.optim.step(self.learning_rate, self.net.clone(), grads);
        self.update_average();
        parts
    }

    /// Keeps a moving average of the weights with `decay` from now on,
    /// starting at `from`'s (a resumed run's average) or the network's.
    pub fn start_average(&mut self, decay: f64, from: Option<&PolicyValueNet>) {
        let start = match from {
            Some(net) => WeightAverage::start(net, decay as f32),
            None => WeightAverage::start(&self.inference_net(), decay as f32),
        };
        self.average = Some(start);
    }

    fn update_average(&mut self) {
        if let Some(average) = &mut self.average {
            average.update(&self.net);
        }
    }

    /// The averaged network with its batch norms recomputed on `batches`
    /// (in inference mode); `None` when no average is kept.
    pub fn averaged_net(&self, batches: &[Batch]) -> Option<PolicyValueNet> {
        let average = self.average.as_ref()?;
        Some(average.network(&self.inference_net(), batches))
    }

    /// The losses on `batch` without a step (training-mode batch norm; the
    /// running statistics are left alone).
    pub fn measure(&self, batch: &Batch) -> Losses {
        let (out, _) = forward_train(&self.net, &batch.planes, batch.size);
        loss_gradients(&out, batch, &self.loss_weights).0
    }

    /// The norm of the network's convolution and dense weights
    /// ([`crate::decay::weight_norm`]).
    pub fn weight_norm(&self) -> f64 {
        crate::decay::weight_norm(&self.net)
    }

    /// The network in inference mode (for evaluation and checkpoints).
    pub fn inference_net(&self) -> PolicyValueNet {
        self.net.valid()
    }

    /// Writes the optimiser's state (Adam moments, step count) to `path`.
    pub fn save_optimizer(&self, path: &std::path::Path) -> Result<(), TrainError> {
        jungle_files::publish(path, |tmp| self.optim.save(tmp).map_err(|e| e.to_string())).map_err(
            |e| TrainError::Optimizer {
                path: path.to_path_buf(),
                message: e.into_inner(|io| io.to_string()),
            },
        )
    }

    /// Restores the optimiser's state written by [`Trainer::save_optimizer`].
    pub fn load_optimizer(&mut self, path: &std::path::Path) -> Result<(), TrainError> {
        let optim = std::mem::replace(&mut self.optim, burn::optim::AdamConfig::new().init());
        self.optim = optim.load(path).map_err(|e| TrainError::Optimizer {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::losses::Losses;
    use burn::module::{ModuleVisitor, Param};
    use burn::tensor::Tensor;
    use jungle_net::backend::inference::FastNet;
    use jungle_net::backend::training::gradient_differences;
    use jungle_net::encoding::{POLICY_SLOTS, SQUARES};
    use jungle_net::SURVIVAL_OUTPUTS;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The parameters of [`config`]'s network: stem 3, per block 2 x 3 +
    /// pooled bias 2, policy 3 + 2, value 3 + 2 x 3 + survival 2 +
    /// short-term 2.
    const PARAMETERS: usize = 3 + 2 * 6 + 2 + 5 + 13;

    /// A small network with every optional part: pooled biases, the
    /// survival and short-term heads, the widest input planes.
    fn config() -> NetConfig {
        NetConfig::new()
            .with_blocks(2)
            .with_filters(8)
            .with_global_pool_every(2)
            .with_policy_filters(4)
            .with_value_filters(4)
            .with_value_hidden(8)
            .with_survival_head(Some(true))
            .with_short_term_head(Some(true))
            .with_tactical_planes(Some(true))
            .with_exchange_planes(Some(true))
    }

    /// Random inputs and targets (each distribution sums to one).
    fn batch(config: &NetConfig, size: usize, seed: u64) -> Batch {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut distribution = |n: usize| {
            let v: Vec<f32> = (0..n).map(|_| rng.random::<f32>().powi(4)).collect();
            let sum: f32 = v.iter().sum();
            v.into_iter().map(|x| x / sum).collect::<Vec<_>>()
        };
        let mut b = Batch {
            size,
            ..Batch::default()
        };
        for _ in 0..size {
            b.policy.extend(distribution(POLICY_SLOTS));
            b.wdl.extend(distribution(3));
            b.short_term_wdl.extend(distribution(3));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed + 1);
        let planes = config.encoding().planes();
        b.planes = (0..size * planes * SQUARES)
            .map(|_| if rng.random::<f32>() < 0.3 { 1.0 } else { 0.0 })
            .collect();
        b.moves_left = (0..size).map(|_| rng.random::<f32>() * 2.0).collect();
        b.survival = (0..size * SURVIVAL_OUTPUTS)
            .map(|_| if rng.random::<bool>() { 1.0 } else { 0.0 })
            .collect();
        b
    }

    /// Checks that each parameter's gradient in `fast` is within
    /// `tolerance` of `reference`'s (relative to its norm); returns the
    /// number of parameters compared.
    fn compare(
        net: &PolicyValueNet,
        fast: &GradientsParams,
        reference: &GradientsParams,
        tolerance: f32,
    ) -> usize {
        let found = gradient_differences(net, fast, reference);
        for d in &found {
            assert!(
                d.difference <= tolerance * d.norm + tolerance * 1e-4,
                "a {}-d parameter of {} values: difference {}, norm {}",
                d.rank,
                d.values,
                d.difference,
                d.norm
            );
        }
        assert_eq!(found.len(), fast.len());
        found.len()
    }

    /// Runs the fast pass and autodiff on `batch`, checks every parameter's
    /// gradient (within 1e-3 of autodiff's norm); returns both losses and
    /// the number of parameters compared.
    fn check_gradients(net: &PolicyValueNet, batch: &Batch) -> (Losses, Losses, usize) {
        check_weighted_gradients(net, batch, &LossWeights::default())
    }

    /// [`check_gradients`] with the loss's parts weighted by `weights`.
    fn check_weighted_gradients(
        net: &PolicyValueNet,
        batch: &Batch,
        weights: &LossWeights,
    ) -> (Losses, Losses, usize) {
        let device = cpu_device_autodiff();
        let (total, reference_parts) = reference_loss(net, batch, weights, &device);
        let reference = GradientsParams::from_grads(total.backward(), net);
        let (out, tape) = forward_train(net, &batch.planes, batch.size);
        let (parts, output_grads) = loss_gradients(&out, batch, weights);
        let fast = tape.backward(&output_grads, &device.without_autodiff());
        let compared = compare(net, &fast, &reference, 1e-3);
        (parts, reference_parts, compared)
    }

    #[test]
    fn the_fast_step_has_the_losses_and_gradients_of_autodiff() {
        let config = config();
        let net = net(&config, 1);
        let (parts, reference_parts, compared) = check_gradients(&net, &batch(&config, 6, 3));
        for (got, want) in [
            (parts.policy, reference_parts.policy),
            (parts.value, reference_parts.value),
            (parts.moves_left, reference_parts.moves_left),
            (parts.survival, reference_parts.survival),
            (parts.short_term, reference_parts.short_term),
        ] {
            assert!(
                (got - want).abs() <= 1e-4 * want.abs().max(1.0),
                "{parts:?} vs {reference_parts:?}"
            );
        }
        assert!(parts.short_term > 0.0, "{parts:?}");
        assert_eq!(compared, PARAMETERS);
    }

    #[test]
    fn the_value_loss_weight_scales_the_value_gradients_alone() {
        let config = config();
        let net = net(&config, 6);
        let batch = batch(&config, 6, 4);
        let (out, _) = forward_train(&net, &batch.planes, batch.size);
        let (plain_parts, plain) = loss_gradients(&out, &batch, &LossWeights::default());
        let (parts, weighted) = loss_gradients(&out, &batch, &LossWeights::with_value(0.25));
        // The reported losses are the unweighted parts.
        assert_eq!(parts, plain_parts);
        assert!(plain.wdl.iter().any(|g| g.abs() > 1e-6));
        for (w, p) in weighted.wdl.iter().zip(&plain.wdl) {
            assert!((w - 0.25 * p).abs() <= 1e-7, "{w} against 0.25 x {p}");
        }
        assert_eq!(weighted.policy, plain.policy);
        assert_eq!(weighted.moves_left, plain.moves_left);
        assert_eq!(weighted.survival, plain.survival);
        assert_eq!(weighted.short_term_wdl, plain.short_term_wdl);
        assert!(plain.short_term_wdl.iter().any(|g| g.abs() > 1e-6));
        // ... and the fast pass still has autodiff's gradients.
        check_weighted_gradients(&net, &batch, &LossWeights::with_value(0.25));
    }

    #[test]
    fn the_fast_step_matches_autodiff_on_near_identical_positions() {
        // One position repeated with a single plane varying: the batch
        // norms see channels whose spread is tiny beside their mean.
        let config = config();
        let net = net(&config, 2);
        let mut batch = batch(&config, 12, 5);
        let len = config.encoding().planes() * SQUARES;
        let first = batch.planes[..len].to_vec();
        for (i, position) in batch.planes.chunks_exact_mut(len).enumerate() {
            position.copy_from_slice(&first);
            position[i] = 1.0 - position[i];
        }
        assert_eq!(check_gradients(&net, &batch).2, PARAMETERS);
    }

    #[test]
    fn the_fast_step_does_not_depend_on_the_thread_count() {
        let config = config();
        let device = cpu_device_autodiff();
        let net = net(&config, 3);
        let batch = batch(&config, 40, 21);
        let gradients = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let (out, tape) = forward_train(&net, &batch.planes, batch.size);
                let (parts, output_grads) = loss_gradients(&out, &batch, &LossWeights::default());
                let grads = tape.backward(&output_grads, &device.clone().without_autodiff());
                (parts, grads)
            })
        };
        let (one_parts, one) = gradients(1);
        let (three_parts, three) = gradients(3);
        assert_eq!(one_parts, three_parts);
        assert_eq!(compare(&net, &three, &one, 0.0), one.len());
    }

    /// The largest element-wise difference of two buffers.
    fn largest_difference(a: &[f32], b: &[f32]) -> f32 {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f32::max)
    }

    /// Every trained parameter's values, by id.
    struct Values(Vec<(burn::module::ParamId, Vec<f32>)>);

    impl ModuleVisitor for Values {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            if param.is_require_grad() {
                let v = param.val().into_data().try_to_vec::<f32>().unwrap();
                self.0.push((param.id, v));
            }
        }
    }

    fn parameters(trainer: &Trainer) -> Vec<(burn::module::ParamId, Vec<f32>)> {
        let mut values = Values(Vec::new());
        trainer.net.visit(&mut values);
        values.0
    }

    #[test]
    fn an_adam_step_on_the_fast_gradients_moves_every_parameter_as_autodiff() {
        let config = config();
        let device = cpu_device_autodiff();
        let net = net(&config, 4);
        let batch = batch(&config, 7, 13);
        let lr = 1e-3;
        let mut fast = Trainer::from_net(net.clone(), &device, lr, WeightDecay::l2(1e-4));
        let mut reference = Trainer::from_net(net, &device, lr, WeightDecay::l2(1e-4));
        let before = parameters(&fast);
        for _ in 0..2 {
            fast.step(&batch);
            reference.step_autodiff(&batch);
        }
        let (got, want) = (parameters(&fast), parameters(&reference));
        assert_eq!(got.len(), before.len());
        for (((id, g), (_, w)), (_, b)) in got.iter().zip(&want).zip(&before) {
            let (moved, apart) = (largest_difference(g, b), largest_difference(g, w));
            // Adam moves each weight by about the learning rate a step.
            assert!(moved > lr as f32, "parameter {id} did not move ({moved})");
            assert!(
                apart < 0.1 * lr as f32,
                "parameter {id}: {apart} from autodiff's"
            );
        }
    }

    #[test]
    fn the_fast_step_moves_the_running_statistics_as_autodiff_does() {
        let config = config();
        let device = cpu_device_autodiff();
        let net = net(&config, 5);
        let batch = batch(&config, 5, 9);
        // A learning rate of zero: only the running statistics change.
        let mut fast = Trainer::from_net(net.clone(), &device, 0.0, WeightDecay::l2(0.0));
        let mut reference = Trainer::from_net(net, &device, 0.0, WeightDecay::l2(0.0));
        let before = FastNet::new(&fast.inference_net()).forward(&batch.planes, batch.size);
        fast.step(&batch);
        reference.step_autodiff(&batch);
        let got = FastNet::new(&fast.inference_net()).forward(&batch.planes, batch.size);
        let want = FastNet::new(&reference.inference_net()).forward(&batch.planes, batch.size);
        let largest = largest_difference;
        assert!(largest(&got.policy, &want.policy) < 1e-4);
        assert!(largest(&got.wdl, &want.wdl) < 1e-4);
        assert!(largest(&got.survival, &want.survival) < 1e-4);
        // ... and they did change.
        assert!(largest(&before.policy, &want.policy) > 1e-3);
    }

    fn cpu_device_autodiff() -> Device {
        jungle_net::cpu_device().autodiff()
    }

    /// burn's random number generator is one global: the tests here draw
    /// their networks under this lock so that parallel tests do not
    /// interleave their draws.
    static BURN_RNG: std::sync::Mutex<()> = std::sync::Mutex::new(());

    /// A network of `config` drawn from `seed` on the autodiff device.
    ///
    /// Seeded so that each test is the same on every run: the fast step and
    /// autodiff round differently, and a pre-activation that an unlucky
    /// draw puts within rounding of a ReLU's kink (1e-6 beside terms of
    /// 1.2 in one draw of 200 seen) switches one element's gradient on in
    /// one and off in the other, a difference of a few percent in the
    /// layers under it that says nothing about the step.
    fn net(config: &NetConfig, seed: u64) -> PolicyValueNet {
        let device = cpu_device_autodiff();
        let _draws = BURN_RNG.lock().unwrap_or_else(|e| e.into_inner());
        device.seed(seed);
        let net = config.init(&device);
        // burn draws a parameter when it is first read: read them all here.
        net.visit(&mut Values(Vec::new()));
        net
    }

    /// Each parameter's values after one step from `net` on `batch` with
    /// `decay`, by path.
    fn after_one_step(
        net: &PolicyValueNet,
        batch: &Batch,
        lr: f64,
        decay: WeightDecay,
    ) -> Vec<(String, Vec<f32>)> {
        let mut trainer = Trainer::from_net(net.clone(), &cpu_device_autodiff(), lr, decay);
        trainer.step(batch);
        crate::decay::parameters_by_path(&trainer.net)
    }

    #[test]
    fn decoupled_decay_shrinks_the_weights_alone_before_the_adam_step() {
        use crate::decay::{parameters_by_path, WeightDecayKind};
        let config = config();
        let net = net(&config, 5);
        let batch = batch(&config, 6, 17);
        let (lr, rate) = (0.01, 0.5);
        let decoupled = |rate| WeightDecay {
            rate,
            kind: WeightDecayKind::Decoupled,
        };
        let before = parameters_by_path(&net);
        let plain = after_one_step(&net, &batch, lr, decoupled(0.0));
        let decayed = after_one_step(&net, &batch, lr, decoupled(rate));
        let l2 = after_one_step(&net, &batch, lr, WeightDecay::l2(rate));
        let (mut weights, mut others, mut l2_moved_others) = (0, 0, 0);
        for (((path, b), (_, p)), ((_, d), (_, l))) in
            before.iter().zip(&plain).zip(decayed.iter().zip(&l2))
        {
            if path.contains(".running_") {
                // Batch norms' statistics, not optimised (and shared by
                // clones of a module, so each trainer's step moved them).
                continue;
            }
            let is_weight = path.ends_with(".weight");
            for ((b, p), d) in b.iter().zip(p).zip(d) {
                // AdamW: w (1 - lr x rate) - lr x update, the update the
                // same as without decay (same gradient, same moments).
                let want = if is_weight {
                    p - (lr as f32) * rate * b
                } else {
                    *p
                };
                assert!(
                    (d - want).abs() <= 1e-6 * (1.0 + b.abs()),
                    "{path}: {d} vs {want}"
                );
            }
            if is_weight {
                weights += 1;
            } else if b != p {
                others += 1;
                // L2 reaches batch norms and biases too: their step changes.
                l2_moved_others += usize::from(l != p);
            }
        }
        assert!(weights >= 10, "{weights} weight tensors");
        assert!(others >= 10, "{others} trained non-weight tensors");
        assert!(
            l2_moved_others >= others / 2,
            "{l2_moved_others} of {others}"
        );
        // The norm counts the weights only.
        let squares: f64 = before
            .iter()
            .filter(|(path, _)| path.ends_with(".weight"))
            .flat_map(|(_, v)| v)
            .map(|v| f64::from(*v).powi(2))
            .sum();
        let norm = crate::decay::weight_norm(&net);
        assert!((norm - squares.sqrt()).abs() < 1e-9 * norm, "{norm}");
    }
}
