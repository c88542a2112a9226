//! `jungle bench net`: inference and training throughput of a network.

use anyhow::Result;
use burn::module::Module;
use burn::nn::loss::CrossEntropyLossConfig;
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::{Device, Int, Tensor, TensorData};
use clap::Args;
use jungle_mcts::arena::random_opening;
use jungle_net::encoding::Encoding;
use jungle_net::fast::FastNet;
use jungle_net::{cpu_device, NetConfig};
use jungle_rules::{Position, Rules, FILES, RANKS};
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
    train_samples_per_s: f64,
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
        .with_exchange_planes(Some(args.exchange_planes));
    config.validate().map_err(anyhow::Error::msg)?;
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

    let train_device = device.clone().autodiff();
    let mut model = config.init(&train_device);
    let mut optim = AdamConfig::new().init();
    let loss_fn = CrossEntropyLossConfig::new().init(&train_device);
    let n = args.train_batch.max(1);
    let x = input(encoding, n, &train_device);
    let targets = Tensor::<1, Int>::from_data(TensorData::new(vec![0i64; n], [n]), &train_device);
    let steps = rate(args.seconds, || {
        let out = model.forward(x.clone());
        let loss = loss_fn.forward(out.policy, targets.clone())
            + loss_fn.forward(out.wdl, targets.clone());
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optim.step(1e-3, model.clone(), grads);
    });
    let report = Report {
        blocks: args.blocks,
        filters: args.filters,
        planes: encoding.planes(),
        encode_pos_per_s: encode_calls * 64.0,
        threads: rayon::current_num_threads(),
        infer,
        train_batch: n,
        train_samples_per_s: steps * n as f64,
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
        "training at batch {}: {:.0} samples/s",
        report.train_batch, report.train_samples_per_s
    );
    Ok(())
}
