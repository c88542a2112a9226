//! The network on a GPU agrees with the CPU: inference through burn on the
//! device against the CPU's fast pass, a training step through burn's
//! autodiff on the device against the CPU's plain-buffer step, and the
//! search's evaluations through the device's server.
//!
//! Built only with a GPU backend (`--features cuda` or `--features wgpu`);
//! the device is `JUNGLE_TEST_DEVICE` (`cuda` or `wgpu`), else the backend
//! built in. CI runs it with `wgpu` on Mesa's lavapipe, a Vulkan driver that
//! runs on the CPU (docs/gpu.md).
#![cfg(any(feature = "cuda", feature = "wgpu"))]

use burn::module::{Module, ModuleVisitor, Param};
use burn::tensor::Tensor;
use jungle_mcts::{EvalInput, Evaluator};
use jungle_net::backend::inference::FastNet;
use jungle_net::backend::served::forward_on_device;
use jungle_net::encoding::{Encoding, POLICY_SLOTS};
use jungle_net::Outputs;
use jungle_net::{
    cpu_device, load_checkpoint, save_checkpoint, CheckpointMeta, Compute, DeviceChoice,
    InferenceNet, NetConfig, NetEvaluator, PolicyValueNet, SURVIVAL_OUTPUTS,
};
use jungle_play::opening::random_opening;
use jungle_rules::{Position, Rules};
use jungle_train::Batch;
use jungle_train::Trainer;
use jungle_train::WeightDecay;
use std::path::PathBuf;

/// The device under test.
fn gpu() -> Compute {
    let choice = match std::env::var("JUNGLE_TEST_DEVICE") {
        Ok(name) => name.parse::<DeviceChoice>().unwrap(),
        Err(_) if cfg!(feature = "cuda") => DeviceChoice::Cuda,
        Err(_) => DeviceChoice::Wgpu,
    };
    let compute = choice.resolve().unwrap_or_else(|e| panic!("{e}"));
    assert!(compute.is_gpu(), "{compute}");
    eprintln!("device under test: {compute}");
    compute
}

/// A small network with every architecture switch on.
fn config() -> NetConfig {
    NetConfig::new()
        .with_blocks(2)
        .with_filters(16)
        .with_policy_filters(4)
        .with_value_filters(4)
        .with_value_hidden(16)
        .with_global_pool_every(2)
        .with_survival_head(Some(true))
        .with_short_term_head(Some(true))
        .with_tactical_planes(Some(true))
}

/// A freshly initialised network saved as a checkpoint, so both devices
/// load the same weights (a folder per test).
fn saved_net(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-device-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let prefix = dir.join("net");
    let device = cpu_device();
    device.seed(3);
    let net = config().init(&device);
    let meta = CheckpointMeta::new(config(), Rules::default(), 0, 0);
    save_checkpoint(&prefix, &net, &meta).unwrap();
    prefix
}

/// Positions after 2 to 40 random plies.
fn positions(n: usize) -> Vec<Position> {
    let rules = Rules::default();
    (0..n)
        .map(|i| *random_opening(&rules, 2 + (i as u32 * 7) % 39, i as u64).position())
        .collect()
}

fn encoded(encoding: Encoding, positions: &[Position]) -> Vec<f32> {
    let len = encoding.input_len();
    let mut out = vec![0.0; positions.len() * len];
    for (pos, chunk) in positions.iter().zip(out.chunks_exact_mut(len)) {
        encoding.encode(pos, 1, &Rules::default(), chunk);
    }
    out
}

/// Largest absolute difference.
fn worst(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

fn assert_outputs_close(got: &Outputs, want: &Outputs, tolerance: f32) {
    for (o, w) in got.largest_differences(want) {
        assert!(w < tolerance, "{}: the device differs by {w}", o.name());
    }
}

#[test]
fn inference_on_the_device_matches_the_cpus_fast_pass() {
    let gpu = gpu();
    let prefix = saved_net("infer");
    let net = load_checkpoint(&prefix, &cpu_device()).unwrap().net.valid();
    let encoding = net.encoding();
    let positions = positions(33);
    let input = encoded(encoding, &positions);
    let want = FastNet::new(&net).forward(&input, positions.len());
    let on_device = net.clone().to_device(gpu.device());
    let got = forward_on_device(&on_device, gpu.device(), encoding, input, positions.len());
    assert_eq!(got.policy.len(), positions.len() * POLICY_SLOTS);
    assert_eq!(got.survival.len(), positions.len() * SURVIVAL_OUTPUTS);
    assert_outputs_close(&got, &want, 1e-3);
}

#[test]
fn the_search_evaluations_through_the_devices_server_match_the_cpus() {
    let gpu = gpu();
    let prefix = saved_net("served");
    let net = load_checkpoint(&prefix, &cpu_device()).unwrap().net;
    let rules = Rules::default();
    let positions = positions(20);
    let moves: Vec<_> = positions
        .iter()
        .map(|p| p.legal_moves(&rules).to_vec())
        .collect();
    let inputs: Vec<EvalInput<'_>> = positions
        .iter()
        .zip(&moves)
        .map(|(position, legal_moves)| EvalInput {
            position,
            legal_moves,
            repetitions: 1,
            rules: &rules,
        })
        .collect();
    let want = NetEvaluator::new(&net).evaluate(&inputs);
    let served = InferenceNet::new(&net, &gpu);
    let got = NetEvaluator::on(served.clone()).evaluate(&inputs);
    for (g, w) in got.iter().zip(&want) {
        assert!(
            worst(&g.policy, &w.policy) < 1e-3,
            "{:?} vs {:?}",
            g.policy,
            w.policy
        );
        assert!(worst(&g.wdl, &w.wdl) < 1e-3, "{:?} vs {:?}", g.wdl, w.wdl);
    }
    let stats = served.server_stats().expect("a GPU network is served");
    assert_eq!(stats.mean_batch(), positions.len() as f64);
}

/// Every float parameter, in module order.
struct Values(Vec<f32>);

impl ModuleVisitor for Values {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let data = param.val().into_data().try_to_vec::<f32>().unwrap();
        self.0.extend(data);
    }
}

fn parameters(net: &PolicyValueNet) -> Vec<f32> {
    let mut values = Values(Vec::new());
    net.visit(&mut values);
    values.0
}

/// A batch of real positions with random targets.
fn batch(encoding: Encoding, n: usize) -> Batch {
    let positions = positions(n);
    let mut policy = vec![0.0; n * POLICY_SLOTS];
    for (i, row) in policy.chunks_exact_mut(POLICY_SLOTS).enumerate() {
        row[(i * 37) % POLICY_SLOTS] = 0.75;
        row[(i * 91 + 5) % POLICY_SLOTS] += 0.25;
    }
    let wdl: Vec<f32> = (0..n)
        .flat_map(|i| match i % 3 {
            0 => [1.0, 0.0, 0.0],
            1 => [0.0, 1.0, 0.0],
            _ => [0.2, 0.0, 0.8],
        })
        .collect();
    Batch {
        size: n,
        planes: encoded(encoding, &positions),
        policy,
        short_term_wdl: wdl.iter().rev().copied().collect(),
        wdl,
        moves_left: (0..n).map(|i| (i % 7) as f32 * 0.3).collect(),
        survival: (0..n * SURVIVAL_OUTPUTS)
            .map(|i| ((i * 13) % 5 < 3) as u8 as f32)
            .collect(),
    }
}

#[test]
fn training_steps_on_the_device_match_the_cpus_training_pass() {
    let gpu = gpu();
    let prefix = saved_net("train");
    let trainer = |device: burn::tensor::Device| {
        let device = device.autodiff();
        let net = load_checkpoint(&prefix, &device).unwrap().net;
        Trainer::from_net(net, &device, 1e-4, WeightDecay::l2(1e-4))
    };
    let mut on_cpu = trainer(cpu_device());
    let mut on_gpu = trainer(gpu.device().clone());
    let batch = batch(config().encoding(), 24);
    for step in 0..3 {
        let want = on_cpu.step(&batch);
        let got = on_gpu.step(&batch);
        for (name, a, b) in [
            ("policy", got.policy, want.policy),
            ("value", got.value, want.value),
            ("moves left", got.moves_left, want.moves_left),
            ("survival", got.survival, want.survival),
            ("short-term", got.short_term, want.short_term),
        ] {
            assert!(
                (a - b).abs() < 1e-3 * b.abs().max(1.0),
                "step {step}: {name} loss {a} on the device, {b} on the CPU"
            );
        }
    }
    // Three Adam steps of 1e-4 moved the weights alike (an update that
    // differed in sign would differ by 2e-4 per step), batch norm's running
    // statistics included.
    let cpu_params = parameters(&on_cpu.inference_net());
    let gpu_params = parameters(&on_gpu.inference_net());
    let start = parameters(&load_checkpoint(&prefix, &cpu_device()).unwrap().net);
    let moved = worst(&cpu_params, &start);
    assert!(moved > 1e-4, "the CPU's steps moved the weights by {moved}");
    let apart = worst(&gpu_params, &cpu_params);
    assert!(apart < 7e-4, "the device's weights differ by {apart}");
}
