//! `jungle bench net`: inference and training throughput of a network.

use super::shared::DeviceArgs;
use anyhow::Result;
use burn::module::Module;
use clap::Args;
use jungle_net::backend::inference::FastNet;
use jungle_net::backend::large_product;
use jungle_net::backend::served::forward_on_device;
use jungle_net::encoding::{Encoding, POLICY_SLOTS};
use jungle_net::{cpu_device, KernelPath, NetConfig, SURVIVAL_OUTPUTS};
use jungle_play::opening::random_opening;
use jungle_rules::{Position, Rules};
use jungle_train::Batch;
use jungle_train::Trainer;
use jungle_train::WeightDecay;
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
    /// Seconds to time each measurement (at least one pass each), after as
    /// long untimed to warm it up (on a GPU: kernel compilation, autotuning).
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
    /// Threads running the fast inference path (and the peak product) at
    /// once, each on its own batches, as self-play's workers do; the rates
    /// are their sum.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Time only this workspace's own passes (the fast inference path and
    /// the training step), not burn's forward pass and autodiff step beside
    /// them: a CPU comparison of kernels in a fifth of the time.
    #[arg(long)]
    no_burn: bool,
    /// Where burn's passes run (the inference column and training); the
    /// fast path's column is always the CPU's.
    #[command(flatten)]
    device: DeviceArgs,
}

#[derive(Serialize)]
struct Infer {
    batch: usize,
    /// The path the evaluator uses (plain buffers, Winograd 3x3
    /// convolutions), summed over `--threads`.
    pos_per_s: f64,
    /// The same in GFLOP/s, counting the direct convolution's operations.
    gflops: f64,
    /// `gflops` over the measured peak.
    share_of_peak: f64,
    /// burn's own forward pass on `--device` (flex on the CPU), its
    /// outputs read back (none with `--no-burn`).
    burn_pos_per_s: Option<f64>,
    /// Milliseconds per pass of that: what a search thread waits for a
    /// batch of this size.
    burn_ms_per_pass: Option<f64>,
}

#[derive(Serialize)]
struct Report {
    /// Where burn's passes ran.
    device: String,
    /// The hand-written kernels the fast path and the training pass ran
    /// (`plain`, `avx2`, `avx512`; `JUNGLE_KERNELS` forces one).
    kernels: &'static str,
    blocks: usize,
    filters: usize,
    planes: usize,
    /// Positions encoded per second (one thread).
    encode_pos_per_s: f64,
    /// Threads of the fast path (`--threads`).
    fast_threads: usize,
    /// Threads of burn's own passes.
    threads: usize,
    /// Operations of one position's forward pass (direct convolution).
    flops_per_position: f64,
    /// A 1024^3 product through the `gemm` crate on each of `fast_threads`
    /// threads at once, summed: the machine's practical FP32 peak.
    gemm_peak_gflops: f64,
    infer: Vec<Infer>,
    train_batch: usize,
    /// The training step `jungle train` runs on `--device`: on the CPU the
    /// forward and backward passes on plain buffers, on a GPU burn's
    /// autodiff there; burn's Adam.
    train_samples_per_s: f64,
    /// The same step through burn's autodiff on `--device`, for comparison
    /// (none with `--no-burn`).
    train_autodiff_samples_per_s: Option<f64>,
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
        short_term_wdl: [1.0, 0.0, 0.0].repeat(n),
        moves_left: vec![0.5; n],
        survival: vec![survival; n * SURVIVAL_OUTPUTS],
    }
}

/// Runs `f` repeatedly for about `seconds` untimed (at least twice: caches,
/// and on a GPU the kernels' compilation and autotuning, which would
/// otherwise be most of a short measurement), then for about `seconds`
/// timed (at least once), and returns the timed calls per second.
fn rate(seconds: f64, mut f: impl FnMut()) -> f64 {
    let warm_up = Instant::now();
    for call in 0.. {
        if call >= 2 && warm_up.elapsed().as_secs_f64() >= seconds {
            break;
        }
        f();
    }
    let started = Instant::now();
    let mut calls = 0;
    while calls == 0 || started.elapsed().as_secs_f64() < seconds {
        f();
        calls += 1;
    }
    calls as f64 / started.elapsed().as_secs_f64()
}

/// [`rate`] on `threads` threads at once, each timing its own `make()`,
/// summed.
fn rate_on_threads<F: FnMut()>(seconds: f64, threads: usize, make: impl Fn() -> F + Sync) -> f64 {
    std::thread::scope(|scope| {
        let runs: Vec<_> = (0..threads)
            .map(|_| scope.spawn(|| rate(seconds, make())))
            .collect();
        runs.into_iter()
            .map(|run| run.join().expect("a benchmark thread panicked"))
            .sum()
    })
}

/// Runs `jungle bench net`.
pub fn run(args: &BenchNetArgs, json: bool) -> Result<()> {
    anyhow::ensure!(args.threads > 0, "--threads: at least 1");
    let compute = args.device.open()?;
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
    let peak_size = 1024;
    let peak = rate_on_threads(args.seconds, args.threads, || large_product(peak_size))
        * 2.0
        * (peak_size as f64).powi(3)
        / 1e9;
    let flops = config.flops_per_position();
    let net = config.init(&cpu_device()).valid();
    let fast = FastNet::new(&net);
    let on_device = net.clone().to_device(compute.device());
    let mut infer = Vec::new();
    for &batch in &args.batches {
        anyhow::ensure!(batch > 0, "--batches: a batch size must be at least 1");
        let data = encoded(encoding, batch);
        let burn_calls = (!args.no_burn).then(|| {
            rate(args.seconds, || {
                let _ =
                    forward_on_device(&on_device, compute.device(), encoding, data.clone(), batch);
            })
        });
        let fast_calls = rate_on_threads(args.seconds, args.threads, || {
            || {
                let _ = fast.forward(&data, batch);
            }
        });
        let pos_per_s = fast_calls * batch as f64;
        infer.push(Infer {
            batch,
            pos_per_s,
            gflops: pos_per_s * flops / 1e9,
            share_of_peak: pos_per_s * flops / 1e9 / peak,
            burn_pos_per_s: burn_calls.map(|calls| calls * batch as f64),
            burn_ms_per_pass: burn_calls.map(|calls| 1e3 / calls),
        });
    }

    let n = args.train_batch.max(1);
    let batch = training_batch(&config, encoding, n);
    let train_device = compute.device().clone().autodiff();
    let mut trainer = Trainer::new(&config, &train_device, 1e-3, WeightDecay::l2(1e-4));
    let fast_steps = rate(args.seconds, || {
        trainer.step(&batch);
    });
    let autodiff_steps = (!args.no_burn).then(|| {
        let mut trainer = Trainer::new(&config, &train_device, 1e-3, WeightDecay::l2(1e-4));
        rate(args.seconds, || {
            trainer.step_autodiff(&batch);
        })
    });
    let report = Report {
        device: compute.to_string(),
        kernels: KernelPath::active().name(),
        blocks: args.blocks,
        filters: args.filters,
        planes: encoding.planes(),
        encode_pos_per_s: encode_calls * 64.0,
        fast_threads: args.threads,
        threads: rayon::current_num_threads(),
        flops_per_position: flops,
        gemm_peak_gflops: peak,
        infer,
        train_batch: n,
        train_samples_per_s: fast_steps * n as f64,
        train_autodiff_samples_per_s: autodiff_steps.map(|steps| steps * n as f64),
    };
    if json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    println!(
        "network {} blocks x {} filters, {} input planes, {:.1} MFLOP/position; fast path {} thread(s) on {} kernels, burn on {} ({} CPU threads)",
        report.blocks,
        report.filters,
        report.planes,
        report.flops_per_position / 1e6,
        report.fast_threads,
        report.kernels,
        report.device,
        report.threads
    );
    println!(
        "peak: {:.1} GFLOP/s (1024^3 products through the gemm crate on {} thread(s))",
        report.gemm_peak_gflops, report.fast_threads
    );
    println!(
        "encoding: {:.0} positions/s (one thread)",
        report.encode_pos_per_s
    );
    println!(
        "{:>8} {:>20} {:>10} {:>8} {:>20} {:>12}",
        "batch", "positions/s (fast)", "GFLOP/s", "of peak", "positions/s (burn)", "ms/pass"
    );
    let or_dash = |x: Option<f64>, decimals: usize| {
        x.map_or_else(|| "-".to_string(), |x| format!("{x:.decimals$}"))
    };
    for row in &report.infer {
        println!(
            "{:>8} {:>20.0} {:>10.1} {:>7.0}% {:>20} {:>12}",
            row.batch,
            row.pos_per_s,
            row.gflops,
            100.0 * row.share_of_peak,
            or_dash(row.burn_pos_per_s, 0),
            or_dash(row.burn_ms_per_pass, 2)
        );
    }
    println!(
        "training at batch {} on {}: {:.0} samples/s ({} through burn's autodiff)",
        report.train_batch,
        report.device,
        report.train_samples_per_s,
        or_dash(report.train_autodiff_samples_per_s, 0)
    );
    Ok(())
}
