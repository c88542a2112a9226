//! `jungle worker`: a stateless self-play process for a run published to
//! a store (`jungle train --store URL --selfplay external`).

use super::shared::DeviceArgs;
use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use jungle_store::Store;
use jungle_train::{run_worker, worker_folder, worker_id, WorkerEvent, WorkerSettings};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `jungle worker`.
#[derive(Args)]
pub struct WorkerArgs {
    /// The store the trainer publishes the run to: s3://BUCKET/PREFIX
    /// (endpoint, region and credentials from AWS_*), gs://, az://,
    /// file:///PATH.
    #[arg(long, value_name = "URL")]
    store: String,
    /// The run to play for.
    #[arg(long, default_value = "main")]
    run: String,
    /// Stop after this many games.
    #[arg(long)]
    max_games: Option<u64>,
    /// Start no game after this many minutes (the games in flight finish
    /// and go up).
    #[arg(long)]
    max_minutes: Option<f64>,
    /// Self-play threads (default: the run's selfplay.workers; 0 = one
    /// per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Where the worker makes its own folder, `jungle-worker-ID`, for the
    /// network and shards on their way up (emptied at start, removed at
    /// the end; nothing else in WORK is touched). Default: the system's
    /// temporary folder.
    #[arg(long)]
    work: Option<PathBuf>,
    /// The worker's name in the shards' keys (default: host, process and
    /// a random part); two workers must not share one.
    #[arg(long)]
    id: Option<String>,
    /// Where the network runs (on a GPU, the run's
    /// `selfplay.gpu_games_in_flight` games per thread).
    #[command(flatten)]
    device: DeviceArgs,
}

/// Runs `jungle worker`.
pub fn run(args: &WorkerArgs) -> Result<()> {
    if args.max_minutes.is_some_and(|m| m.is_nan() || m <= 0.0) {
        anyhow::bail!("--max-minutes must be a positive number of minutes");
    }
    if let Some(id) = &args.id {
        if id.is_empty()
            || !id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            anyhow::bail!("--id `{id}`: expected letters, digits, `-` and `_` only (it names files in the store)");
        }
    }
    let compute = args.device.open()?;
    let store = Store::open_url(&args.store)?;
    let id = args.id.clone().unwrap_or_else(worker_id);
    let work = args.work.clone().unwrap_or_else(std::env::temp_dir);
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(signal, Arc::clone(&stop))?;
    }
    let settings = WorkerSettings {
        run: args.run.clone(),
        max_games: args.max_games,
        max_minutes: args.max_minutes,
        threads: args.threads,
        work: work.clone(),
        poll: Duration::from_secs(2),
        id: id.clone(),
        compute: compute.clone(),
    };
    println!(
        "worker {id}: run `{}` in {}, device: {compute}",
        args.run, args.store
    );
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed}] {msg}").expect("valid template"),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    let report = run_worker(&store, &settings, &stop, &|event| match event {
        WorkerEvent::Waiting => bar.set_message(format!(
            "waiting for the trainer to publish run `{}`",
            args.run
        )),
        WorkerEvent::Network(step) => {
            bar.println(format!("playing with the network of step {step}"))
        }
        WorkerEvent::Playing(stats) => bar.set_message(format!(
            "{} games, {} positions in this batch",
            stats.games.load(Ordering::Relaxed),
            stats.positions.load(Ordering::Relaxed)
        )),
        WorkerEvent::Uploaded { key, games } => {
            bar.println(format!("uploaded {games} games: {key}"))
        }
    });
    bar.finish_and_clear();
    let _ = std::fs::remove_dir_all(worker_folder(&work, &id));
    let report = report?;
    println!(
        "worker {id} stopped ({}): {} games, {} positions in {} shards, {:.1} min, {:.1}% of it reading and writing the store",
        report.stopped,
        report.games,
        report.positions,
        report.shards.len(),
        report.seconds / 60.0,
        100.0 * report.store_seconds / report.seconds.max(1e-9)
    );
    let networks: Vec<String> = report.networks.iter().map(u64::to_string).collect();
    println!("networks played with (steps): {}", networks.join(", "));
    Ok(())
}
