//! The backends against the reference, for each architecture switch: the
//! inference pass against burn in inference mode, the training pass's
//! outputs against burn in training mode and its backward pass against
//! burn's autodiff. The backward pass is checked under a linear loss (the
//! sum of each output times a random weight), whose gradient with respect
//! to the outputs is those weights: any loss's gradients reach the network
//! that way. The losses themselves are tested where they live
//! (jungle-train's `step.rs`).

use burn::module::{Module, ModuleVisitor, Param};
use burn::optim::GradientsParams;
use burn::tensor::{Device, Tensor, TensorData};
use jungle_net::backend::inference::{FastNet, CHUNK};
use jungle_net::backend::training::{forward_train, gradient_differences};
use jungle_net::encoding::{Encoding, SQUARES};
use jungle_net::{cpu_device, NetConfig, Output, Outputs, PolicyValueNet};
use jungle_rules::{FILES, RANKS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// burn's random number generator is one global: networks are drawn under
/// this lock so that parallel tests do not interleave their draws.
static BURN_RNG: std::sync::Mutex<()> = std::sync::Mutex::new(());

struct ReadAll;

impl ModuleVisitor for ReadAll {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let _ = param.val();
    }
}

/// A network of `config` drawn from `seed` on the autodiff CPU device.
///
/// Seeded so that each test is the same on every run: the plain-buffer
/// passes and burn round differently, and a pre-activation that an unlucky
/// draw puts within rounding of a ReLU's kink switches one element's
/// gradient on in one and off in the other, a difference of a few percent
/// in the layers under it that says nothing about the backward pass (seed 7
/// does that to the exchange-planes network's stem: 2.6%; seeds 8 and 9 do
/// not).
fn net(config: &NetConfig, seed: u64) -> PolicyValueNet {
    let device = cpu_device().autodiff();
    let _draws = BURN_RNG.lock().unwrap_or_else(|e| e.into_inner());
    device.seed(seed);
    let net = config.init(&device);
    // burn draws a parameter when it is first read: read them all here.
    net.visit(&mut ReadAll);
    net
}

/// `size` random 0/1 input positions of `config`'s planes.
fn planes(config: &NetConfig, size: usize, seed: u64) -> Vec<f32> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..size * config.encoding().planes() * SQUARES)
        .map(|_| if rng.random::<f32>() < 0.3 { 1.0 } else { 0.0 })
        .collect()
}

fn input(planes: &[f32], config: &NetConfig, size: usize, device: &Device) -> Tensor<4> {
    let shape = [
        size,
        config.encoding().planes(),
        RANKS as usize,
        FILES as usize,
    ];
    Tensor::from_data(TensorData::new(planes.to_vec(), shape), device)
}

fn floats(t: Tensor<2>) -> Vec<f32> {
    t.into_data().try_to_vec::<f32>().expect("f32 outputs")
}

/// The reference's outputs as plain buffers (an optional output empty
/// without its head).
fn reference_outputs(net: &PolicyValueNet, x: Tensor<4>) -> Outputs {
    let mut out = Outputs::default();
    for (o, t) in net.forward_outputs(x) {
        *out.get_mut(o) = floats(t);
    }
    out
}

fn assert_close(got: &Outputs, want: &Outputs, tolerance: f32, case: &str) {
    for (o, difference) in got.largest_differences(want) {
        assert!(
            difference < tolerance,
            "{case}: {} off by {difference}",
            o.name()
        );
    }
}

/// The switches one at a time, and a batch with a partial last chunk.
fn cases() -> Vec<(&'static str, NetConfig, usize)> {
    let plain = NetConfig::new()
        .with_blocks(2)
        .with_filters(8)
        .with_policy_filters(4)
        .with_value_filters(4)
        .with_value_hidden(8);
    vec![
        ("plain", plain.clone(), 6),
        ("global pooling", plain.clone().with_global_pool_every(1), 6),
        (
            "survival head",
            plain.clone().with_survival_head(Some(true)),
            6,
        ),
        (
            "short-term head",
            plain.clone().with_short_term_head(Some(true)),
            6,
        ),
        (
            "tactical planes",
            plain.clone().with_tactical_planes(Some(true)),
            6,
        ),
        (
            "exchange planes",
            plain
                .clone()
                .with_tactical_planes(Some(true))
                .with_exchange_planes(Some(true)),
            6,
        ),
        ("partial last chunk", plain, 2 * CHUNK + 3),
    ]
}

#[test]
fn every_backend_matches_the_reference_for_each_switch() {
    for (case, config, size) in cases() {
        assert_eq!(
            config.encoding(),
            match case {
                "tactical planes" => Encoding::Tactical,
                "exchange planes" => Encoding::Exchange,
                _ => Encoding::Base,
            }
        );
        let device = cpu_device().autodiff();
        let net = net(&config, 8);
        let planes = planes(&config, size, 11);
        let outputs: Vec<Output> = Output::of(&config).collect();

        // The training pass's outputs: the reference in training mode.
        let want = reference_outputs(&net, input(&planes, &config, size, &device));
        let (got, tape) = forward_train(&net, &planes, size);
        assert_eq!(got.batch(), size, "{case}");
        assert_eq!(got.present(), outputs, "{case}");
        assert_close(&got, &want, 1e-4, case);

        // Its backward pass: autodiff of the sum of each output times a
        // random weight.
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        let mut weights = Outputs::zeros(size, Output::of(&config));
        for o in Output::ALL {
            for w in weights.get_mut(o) {
                *w = rng.random::<f32>() * 2.0 - 1.0;
            }
        }
        let heads = net.forward_outputs(input(&planes, &config, size, &device));
        assert_eq!(heads.len(), outputs.len(), "{case}");
        let loss = heads
            .into_iter()
            .map(|(o, t)| {
                let w = TensorData::new(weights.get(o).clone(), [size, o.width()]);
                (t * Tensor::from_data(w, &device)).sum()
            })
            .reduce(|a, b| a + b)
            .expect("a network has outputs");
        let reference = GradientsParams::from_grads(loss.backward(), &net);
        let fast = tape.backward(&weights, &cpu_device());
        let found = gradient_differences(&net, &fast, &reference);
        assert_eq!(found.len(), fast.len(), "{case}");
        assert!(!found.is_empty(), "{case}");
        for d in found {
            assert!(
                d.difference <= 1e-3 * d.norm + 1e-7,
                "{case}: a {}-d parameter of {} values: difference {}, norm {}",
                d.rank,
                d.values,
                d.difference,
                d.norm
            );
        }

        // The inference pass: the reference in inference mode, after a
        // few training-mode passes moved the running statistics off their
        // start.
        for _ in 0..3 {
            let _ = net.forward(input(&planes, &config, size, &device));
        }
        let valid = net.valid();
        let want = reference_outputs(&valid, input(&planes, &config, size, &cpu_device()));
        let got = FastNet::new(&valid).forward(&planes, size);
        assert_eq!(got.present(), outputs, "{case}");
        assert_close(&got, &want, 1e-4, case);
        // ... and it is not the training-mode output it was compared with
        // before (the statistics moved).
        let training = forward_train(&net, &planes, size).0;
        let moved = training.largest_differences(&got);
        let wdl = moved
            .iter()
            .find(|(o, _)| *o == Output::Wdl)
            .map(|(_, d)| *d);
        assert!(wdl.is_some_and(|d| d > 1e-4), "{case}: {moved:?}");
    }
}
