//! Weight averaging of checkpoints from one run (stochastic weight
//! averaging, as KataGo averages snapshots of its training run for the
//! networks it plays with).
//!
//! Every parameter, and every batch norm's running mean and variance, of
//! the averaged network is the mean of that tensor over the inputs. The
//! inputs must share one architecture and one rule set; averaging is only
//! meaningful for checkpoints of one run, close in training.

use crate::checkpoint::{load_checkpoint, Checkpoint, CheckpointError};
use crate::PolicyValueNet;
use burn::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn::tensor::{Device, Tensor, TensorData};
use std::path::{Path, PathBuf};

/// Every float tensor of a network (parameters and running statistics) in
/// visiting order, flattened.
struct Collect(Vec<Vec<f32>>);

impl ModuleVisitor for Collect {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.0.push(crate::backend::kernels::param(param));
    }
}

/// Replaces every float tensor, in visiting order, by the next of `values`.
struct Replace(std::vec::IntoIter<Vec<f32>>);

impl ModuleMapper for Replace {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let values = self.0.next().expect("one value set per tensor");
        param.map(|tensor| {
            let device = tensor.device();
            let shape = tensor.shape();
            Tensor::from_data(TensorData::new(values, shape), &device)
        })
    }
}

/// Every float tensor of `net` (parameters and batch-norm running
/// statistics) in the module's visiting order, flattened.
pub fn float_tensors(net: &PolicyValueNet) -> Vec<Vec<f32>> {
    let mut collect = Collect(Vec::new());
    net.visit(&mut collect);
    collect.0
}

/// `net` with every float tensor replaced, in visiting order, by the next
/// of `values` (as [`float_tensors`] gives them).
///
/// # Panics
///
/// If `values` has fewer tensors than `net`, or one of another size.
pub fn with_float_tensors(net: &PolicyValueNet, values: Vec<Vec<f32>>) -> PolicyValueNet {
    // A clone shares its batch norms' running statistics with the
    // original (burn keeps them behind one lock, and mapping a clone
    // writes through it): `valid` gives them fresh ones, so neither the
    // replacement here nor later updates reach `net`.
    net.valid().map(&mut Replace(values.into_iter()))
}

/// The network whose every tensor is the mean of the `nets`' (which must
/// share one architecture; the first is the template). `None` if `nets` is
/// empty or their tensors differ in number or size.
pub fn average_nets(nets: &[PolicyValueNet]) -> Option<PolicyValueNet> {
    let (first, rest) = nets.split_first()?;
    let mut sums = float_tensors(first);
    for net in rest {
        let other = float_tensors(net);
        if other.len() != sums.len() || other.iter().zip(&sums).any(|(a, b)| a.len() != b.len()) {
            return None;
        }
        for (sum, values) in sums.iter_mut().zip(other) {
            sum.iter_mut().zip(values).for_each(|(s, v)| *s += v);
        }
    }
    let scale = 1.0 / nets.len() as f32;
    for sum in &mut sums {
        sum.iter_mut().for_each(|s| *s *= scale);
    }
    Some(with_float_tensors(first, sums))
}

/// Loads the checkpoints at `paths` and averages their weights. The result
/// carries the metadata of the input with the most training steps. Errors
/// name the checkpoint whose architecture or rule set differs from the
/// first's.
pub fn average_checkpoints(
    paths: &[PathBuf],
    device: &Device,
) -> Result<Checkpoint, CheckpointError> {
    let Some(first_path) = paths.first() else {
        return Err(CheckpointError::Meta {
            path: PathBuf::new(),
            message: "no checkpoint to average; expected at least one".to_string(),
        });
    };
    let mut checkpoints = Vec::with_capacity(paths.len());
    for path in paths {
        let checkpoint = load_checkpoint(path, device)?;
        if let Some(first) = checkpoints.first() {
            same_run(first_path, first, path, &checkpoint)?;
        }
        checkpoints.push(checkpoint);
    }
    let newest = checkpoints
        .iter()
        .max_by_key(|c| c.meta.step)
        .expect("at least one checkpoint")
        .meta
        .clone();
    let nets: Vec<PolicyValueNet> = checkpoints.into_iter().map(|c| c.net).collect();
    let net = average_nets(&nets).ok_or_else(|| CheckpointError::Architecture {
        path: first_path.clone(),
        message: "the checkpoints' tensors differ in number or size".to_string(),
    })?;
    Ok(Checkpoint { meta: newest, net })
}

/// Checks that `other` (at `path`) has the architecture and rules of `first`.
fn same_run(
    first_path: &Path,
    first: &Checkpoint,
    path: &Path,
    other: &Checkpoint,
) -> Result<(), CheckpointError> {
    other.expect_architecture(path, &first.meta.net)?;
    if other.meta.rules != first.meta.rules {
        return Err(CheckpointError::Meta {
            path: path.to_path_buf(),
            message: format!(
                "field `rules` differs from `{}`'s; only checkpoints of one rule set can be averaged",
                first_path.display()
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NetConfig;
    use crate::{cpu_device, save_checkpoint, CheckpointMeta};
    use jungle_rules::Rules;

    fn config() -> NetConfig {
        NetConfig::new()
            .with_blocks(1)
            .with_filters(4)
            .with_global_pool_every(1)
            .with_policy_filters(2)
            .with_value_filters(2)
            .with_value_hidden(4)
            .with_survival_head(Some(true))
    }

    fn net(seed: u64) -> PolicyValueNet {
        let device = cpu_device();
        device.seed(seed);
        config().init(&device)
    }

    #[test]
    fn every_tensor_is_the_mean_of_the_inputs() {
        let nets = [net(1), net(2), net(3)];
        let inputs: Vec<Vec<Vec<f32>>> = nets.iter().map(float_tensors).collect();
        let averaged = float_tensors(&average_nets(&nets).unwrap());
        assert_eq!(averaged.len(), inputs[0].len());
        let mut differs = 0;
        for (k, tensor) in averaged.iter().enumerate() {
            for (i, &value) in tensor.iter().enumerate() {
                let mean = inputs.iter().map(|t| t[k][i]).sum::<f32>() / 3.0;
                assert!((value - mean).abs() <= 1e-6, "tensor {k} [{i}]");
                differs += usize::from((value - inputs[0][k][i]).abs() > 1e-6);
            }
        }
        assert!(differs > 100, "the average differs from the first input");
    }

    #[test]
    fn one_network_averages_to_itself_and_none_to_nothing() {
        let one = net(5);
        assert_eq!(
            float_tensors(&average_nets(std::slice::from_ref(&one)).unwrap()),
            float_tensors(&one)
        );
        assert!(average_nets(&[]).is_none());
        let wider = NetConfig::new()
            .with_blocks(1)
            .with_filters(8)
            .init(&cpu_device());
        assert!(average_nets(&[one, wider]).is_none());
    }

    #[test]
    fn checkpoints_of_another_architecture_or_rule_set_are_refused() {
        let dir = std::env::temp_dir().join(format!("jungle-average-{}", std::process::id()));
        let save = |name: &str, net: &PolicyValueNet, config: NetConfig, rules: Rules, step| {
            let path = dir.join(name);
            save_checkpoint(&path, net, &CheckpointMeta::new(config, rules, step, 0)).unwrap();
            path
        };
        let a = save("a", &net(1), config(), Rules::default(), 10);
        let b = save("b", &net(2), config(), Rules::default(), 20);
        let averaged = average_checkpoints(&[a.clone(), b.clone()], &cpu_device()).unwrap();
        assert_eq!(averaged.meta.step, 20, "the newest input's metadata");

        let mut other_rules = Rules::default();
        other_rules.elephant_captures_rat = !other_rules.elephant_captures_rat;
        let c = save("c", &net(3), config(), other_rules, 30);
        let err = average_checkpoints(&[a.clone(), c], &cpu_device()).unwrap_err();
        assert!(err.to_string().contains("rules"), "{err}");

        let wide = config().with_filters(8);
        let d = save("d", &wide.init(&cpu_device()), wide, Rules::default(), 40);
        let err = average_checkpoints(&[a, d.clone()], &cpu_device()).unwrap_err();
        assert!(err.to_string().contains("filters"), "{err}");
        assert!(err.to_string().contains(&d.display().to_string()), "{err}");

        let err = average_checkpoints(&[], &cpu_device()).unwrap_err();
        assert!(err.to_string().contains("at least one"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
