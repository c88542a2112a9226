//! `jungle bench net`: inference and training throughput of a network.

use anyhow::Result;
use burn::module::Module;
use burn::tensor::{Device, Tensor, TensorData};
use clap::Args;
use jungle_net::backend::inference::FastNet;
use jungle_net::encoding::{Encoding, POLICY_SLOTS};
use jungle_net::{cpu_device, NetConfig, SURVIVAL_OUTPUTS};
use jungle_play::opening::random_opening;
use jungle_rules::{Position, Rules, FILES, RANKS};
use jungle_train::samples::Batch;
use jungle_train::step::Trainer;
use serde::Serialize;
use std::time::Instant;

/// Arguments of `jungle bench net`.
#[derive(Args)]
pub struct BenchNetArgs {
    /// Residual blocks.
    #[arg(long, default_value_t = 6)]
    blocks: usize,
    /// Trunk channels.
    #[arg(long, default_value_t = 64)]
    filters: usize,
    /// Read the tactical input planes (encoding version 2).
    #[arg(long)]
    tactical_planes: bool,
    /// Also read the exchange planes (encoding version 3; implies
    /// `--tactical-planes`).
    #[arg(long)]
    exchange_planes: bool,
    /// Batch sizes to time for inference.
    #[arg(long, value_delimiter = ',', default_values_t = vec![1, 8, 32, 128, 256])]
    batches: Vec<usize>,
    /// Add the piece-survival head (as the default config does).
    #[arg(long)]
    survival_head: bool,
    /// Training batch size.
    #[arg(long, default_value_t = 256)]
    train_batch: usize,
    /// Seconds to spend on each measurement (at least one pass each).
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
}

#[derive(Serialize)]
struct Infer {
    batch: usize,
    /// The path the evaluator uses (im2col + GEMM on plain buffers).
    pos_per_s: f64,
    /// burn's own forward pass (flex backend), for comparison.
    burn_pos_per_s: f64,
}

#[derive(Serialize)]
struct Report {
    blocks: usize,
    filters: usize,
    planes: usize,
    /// Positions encoded per second (one thread).
    encode_pos_per_s: f64,
    threads: usize,
    infer: Vec<Infer>,
    train_batch: usize,
    /// The training step `jungle train` runs (forward and backward passes
    /// on plain buffers, burn's Adam).
    train_samples_per_s: f64,
    /// The same step through burn's autodiff, for comparison.
    train_autodiff_samples_per_s: f64,
}

/// Encoded start positions (the content does not change the network's cost).
fn encoded(encoding: Encoding, batch: usize) -> Vec<f32> {
    let len = encoding.input_len();
    let mut data = vec![0.0; batch * len];
    let rules = Rules::default();
    for (chunk, pos) in data
        .chunks_exact_mut(len)
        .zip(game_positions(batch, &rules))
    {
        encoding.encode(&pos, 1, &rules, chunk);
    }
    data
}

/// `n` positions after 2 to 95 random plies (fixed seeds, so runs
/// compare): positions with captures in reach, unlike the start position
/// alone.
fn game_positions(n: usize, rules: &Rules) -> Vec<Position> {
    (0..n)
        .map(|i| {
            let plies = 2 + 3 * (i % 32) as u32;
            *random_opening(rules, plies, i as u64).position()
        })
        .collect()
}

/// The same as a tensor on `device`.
fn input(encoding: Encoding, batch: usize, device: &Device) -> Tensor<4> {
    Tensor::from_data(
        TensorData::new(
            encoded(encoding, batch),
            [batch, encoding.planes(), RANKS as usize, FILES as usize],
        ),
        device,
    )
}

/// A training batch of `n` positions with fixed targets (the content does
/// not change the step's cost).
fn training_batch(config: &NetConfig, encoding: Encoding, n: usize) -> Batch {
    let mut policy = vec![0.0; n * POLICY_SLOTS];
    for row in policy.chunks_exact_mut(POLICY_SLOTS) {
        row[0] = 1.0;
    }
    let survival = if config.has_survival_head() { 1.0 } else { 0.0 };
    Batch {
        size: n,
        planes: encoded(encoding, n),
        policy,
        wdl: [1.0, 0.0, 0.0].repeat(n),
        moves_left: vec![0.5; n],
        survival: vec![survival; n * SURVIVAL_OUTPUTS],
    }
}

/// Runs `f` repeatedly for about `seconds` (at least twice, the first a
/// warm-up) and returns the calls per second.
fn rate(seconds: f64, mut f: impl FnMut()) -> f64 {
    f();
    let started = Instant::now();
    let mut calls = 0;
    while calls == 0 || started.elapsed().as_secs_f64() < seconds {
        f();
        calls += 1;
    }
    calls as f64 / started.elapsed().as_secs_f64()
}

/// Runs `jungle bench net`.
pub fn run(args: &BenchNetArgs, json: bool) -> Result<()> {
    let config = NetConfig::new()
        .with_blocks(args.blocks)
        .with_filters(args.filters)
        .with_tactical_planes(Some(args.tactical_planes || args.exchange_planes))
        .with_exchange_planes(Some(args.exchange_planes))
        .with_survival_head(Some(args.survival_head));
    config.validate()?;
    let encoding = config.encoding();
    let rules = Rules::default();
    let positions = game_positions(64, &rules);
    let mut buffer = vec![0.0; encoding.input_len()];
    let encode_calls = rate(args.seconds, || {
        for pos in &positions {
            encoding.encode(pos, 1, &rules, &mut buffer);
        }
    });
    let device = cpu_device();
    let net = config.init(&device).valid();
    let fast = FastNet::new(&net);
    let mut infer = Vec::new();
    for &batch in &args.batches {
        anyhow::ensure!(batch > 0, "--batches: a batch size must be at least 1");
        let x = input(encoding, batch, &device);
        let burn_calls = rate(args.seconds, || {
            let out = net.forward(x.clone());
            let _ = out.policy.into_data();
        });
        let data = encoded(encoding, batch);
        let fast_calls = rate(args.seconds, || {
            let _ = fast.forward(&data, batch);
        });
        infer.push(Infer {
            batch,
            pos_per_s: fast_calls * batch as f64,
            burn_pos_per_s: burn_calls * batch as f64,
        });
    }

    let n = args.train_batch.max(1);
    let batch = training_batch(&config, encoding, n);
    let train_device = device.clone().autodiff();
    let mut trainer = Trainer::new(&config, &train_device, 1e-3, 1e-4);
    let fast_steps = rate(args.seconds, || {
        trainer.step(&batch);
    });
    let mut trainer = Trainer::new(&config, &train_device, 1e-3, 1e-4);
    let autodiff_steps = rate(args.seconds, || {
        trainer.step_autodiff(&batch);
    });
    let report = Report {
        blocks: args.blocks,
        filters: args.filters,
        planes: encoding.planes(),
        encode_pos_per_s: encode_calls * 64.0,
        threads: rayon::current_num_threads(),
        infer,
        train_batch: n,
        train_samples_per_s: fast_steps * n as f64,
        train_autodiff_samples_per_s: autodiff_steps * n as f64,
    };
    if json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    println!(
        "network {} blocks x {} filters, {} input planes; fast path one thread, burn flex {} threads",
        report.blocks, report.filters, report.planes, report.threads
    );
    println!(
        "encoding: {:.0} positions/s (one thread)",
        report.encode_pos_per_s
    );
    println!(
        "{:>8} {:>20} {:>20}",
        "batch", "positions/s (fast)", "positions/s (burn)"
    );
    for row in &report.infer {
        println!(
            "{:>8} {:>20.0} {:>20.0}",
            row.batch, row.pos_per_s, row.burn_pos_per_s
        );
    }
    println!(
        "training at batch {}: {:.0} samples/s ({:.0} through burn's autodiff)",
        report.train_batch, report.train_samples_per_s, report.train_autodiff_samples_per_s
    );
    Ok(())
}
