//! `jungle bench selfplay`: self-play of a training config for a fixed time
//! with a fixed network: games per hour, positions, search leaves and
//! network evaluations per second, batch size, cache hits, peak memory,
//! and where the time goes ([`jungle_mcts::profile`]).

use super::shared::DeviceArgs;
use anyhow::{Context, Result};
use clap::Args;
use jungle_mcts::profile::{self, Phase};
use jungle_net::{cpu_device, load_checkpoint, InferenceNet};
use jungle_selfplay::{run_selfplay, GameList, SelfPlayStats};
use jungle_train::config::TrainConfig;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The network `bench selfplay` plays with unless told otherwise: a small
/// trained network committed to the repository, so figures compare across
/// commits.
pub const BENCH_NETWORK: &str = "networks/bench-4x32";

/// Arguments of `jungle bench selfplay`.
#[derive(Args)]
pub struct BenchSelfPlayArgs {
    /// Training config whose `[selfplay]` table is measured (layered over
    /// the embedded default, as `jungle train --config`); default: the
    /// embedded default.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Overrides one key over the config (as `jungle train --set`).
    #[arg(long = "set", value_name = "SECTION.KEY=VALUE")]
    sets: Vec<String>,
    /// The network (prefix, .json or .bpk) [default: networks/bench-4x32].
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Seconds during which games start (those under way then finish).
    #[arg(long, default_value_t = 60.0)]
    seconds: f64,
    /// Where the network runs (on a GPU, `selfplay.gpu_games_in_flight`
    /// games per worker and one server for all).
    #[command(flatten)]
    device: DeviceArgs,
}

#[derive(Serialize)]
struct Report {
    network: String,
    device: String,
    workers: usize,
    games_in_flight: usize,
    seconds: f64,
    games: u64,
    games_per_hour: f64,
    positions_per_s: f64,
    leaves_per_s: f64,
    evals_per_s: f64,
    mean_batch: f64,
    mean_network_batch: f64,
    /// On a GPU: positions per forward pass of the server, which gathers
    /// every worker's batch.
    server_batch: Option<f64>,
    cache_hit: f64,
    peak_rss_mb: Option<f64>,
    /// Shares of the worker threads' time (workers x wall clock).
    time_shares: BTreeMap<&'static str, f64>,
}

/// Peak resident memory of this process in MB (Linux: `VmHWM`).
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Runs `jungle bench selfplay`.
pub fn run(args: &BenchSelfPlayArgs, json: bool) -> Result<()> {
    anyhow::ensure!(
        args.seconds > 0.0 && args.seconds <= 86_400.0,
        "--seconds {}: expected more than 0 and at most 86400",
        args.seconds
    );
    let compute = args.device.open()?;
    let config = TrainConfig::load(args.config.as_deref(), &args.sets)?;
    let checkpoint = args
        .checkpoint
        .clone()
        .unwrap_or_else(|| PathBuf::from(BENCH_NETWORK));
    let ck = load_checkpoint(&checkpoint, &cpu_device()).with_context(|| {
        format!(
            "bench selfplay: network `{}` (run from the repository root for the \
             committed {BENCH_NETWORK}, or pass --checkpoint)",
            checkpoint.display()
        )
    })?;
    let mixture = ck.meta.trained_mixture();
    let sp = &config.selfplay.for_device(compute.is_gpu());
    let stats = SelfPlayStats::default();
    let net = InferenceNet::new(&ck.net, &compute);
    let evaluators = sp.evaluators(&net, &stats.cache)?;
    let workers = evaluators.len();
    let out = std::env::temp_dir().join(format!("jungle-bench-selfplay-{}", std::process::id()));
    let mut games = GameList::new(u64::MAX, 1);
    let started = Instant::now();
    games.start_before = Some(started + Duration::from_secs_f64(args.seconds));
    profile::reset();
    let bar = indicatif::ProgressBar::new_spinner();
    if json {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let result = run_selfplay(
        sp,
        &mixture,
        evaluators,
        &games,
        &out,
        &checkpoint.display().to_string(),
        &stats,
        &|s| {
            bar.set_message(format!(
                "bench selfplay: {:.0} s, {} games, {} positions",
                started.elapsed().as_secs_f64(),
                s.games.load(Ordering::Relaxed),
                s.positions.load(Ordering::Relaxed)
            ));
            bar.tick();
        },
    );
    bar.finish_and_clear();
    let _ = std::fs::remove_dir_all(&out);
    result?;
    let wall = started.elapsed().as_secs_f64();
    let mut report = report(&stats, &checkpoint, workers, sp.games_in_flight, wall);
    report.device = compute.to_string();
    report.server_batch = net.server_stats().map(|s| s.mean_batch());
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_report(&report);
    }
    Ok(())
}

fn report(
    stats: &SelfPlayStats,
    checkpoint: &std::path::Path,
    workers: usize,
    games_in_flight: usize,
    wall: f64,
) -> Report {
    let load = |c: &std::sync::atomic::AtomicU64| c.load(Ordering::Relaxed) as f64;
    let games = stats.games.load(Ordering::Relaxed);
    let leaves = load(&stats.evaluations);
    let calls = load(&stats.calls).max(1.0);
    let lookups = load(&stats.cache.lookups);
    let network_evals = if lookups > 0.0 {
        lookups - load(&stats.cache.hits)
    } else {
        leaves
    };
    let seconds = profile::seconds();
    let threads = workers as f64 * wall;
    let worked = load(&stats.worker_nanos) * 1e-9;
    let get = |p: Phase| seconds[p as usize].1;
    let mut shares: BTreeMap<&'static str, f64> = Phase::ALL
        .iter()
        .map(|&p| (p.name(), get(p) / threads))
        .collect();
    // The leaf checks run inside the descent: the descent's own share
    // leaves them out.
    shares.insert(
        "select",
        (get(Phase::Select) - get(Phase::LeafChecks)) / threads,
    );
    // The workers' phases, the nested leaf checks counted once.
    let in_phases: f64 = Phase::ALL
        .iter()
        .filter(|p| !matches!(p, Phase::LeafChecks | Phase::ShardWrite))
        .map(|&p| get(p))
        .sum();
    shares.insert("other", ((worked - in_phases) / threads).max(0.0));
    shares.insert("idle", ((threads - worked) / threads).max(0.0));
    // `shard_write` is the collecting thread's, beside the workers.
    Report {
        network: checkpoint.display().to_string(),
        device: "cpu".to_string(),
        workers,
        games_in_flight,
        seconds: wall,
        games,
        games_per_hour: games as f64 * 3600.0 / wall,
        positions_per_s: load(&stats.positions) / wall,
        leaves_per_s: leaves / wall,
        evals_per_s: network_evals / wall,
        mean_batch: leaves / calls,
        mean_network_batch: network_evals / calls,
        server_batch: None,
        cache_hit: stats.cache.hit_rate(),
        peak_rss_mb: peak_rss_mb(),
        time_shares: shares,
    }
}

fn print_report(r: &Report) {
    println!(
        "self-play with {} on {}: {} workers x {} games in flight, {:.1} s",
        r.network, r.device, r.workers, r.games_in_flight, r.seconds
    );
    println!(
        "  {} games: {:.0} games/hour, {:.0} positions/s",
        r.games, r.games_per_hour, r.positions_per_s
    );
    println!(
        "  {:.0} search leaves/s, {:.0} network evaluations/s; mean batch {:.1} ({:.1} after the cache, {:.1}% hits)",
        r.leaves_per_s,
        r.evals_per_s,
        r.mean_batch,
        r.mean_network_batch,
        100.0 * r.cache_hit
    );
    if let Some(batch) = r.server_batch {
        println!("  the device's server: {batch:.0} positions per forward pass");
    }
    match r.peak_rss_mb {
        Some(mb) => println!("  peak memory {mb:.0} MB"),
        None => println!("  peak memory: not known on this system"),
    }
    println!("  where the workers' time goes:");
    let mut shares: Vec<_> = r.time_shares.iter().collect();
    shares.sort_by(|a, b| b.1.total_cmp(a.1));
    for (name, share) in shares {
        println!("    {name:<12} {:>5.1}%", 100.0 * share);
    }
}
