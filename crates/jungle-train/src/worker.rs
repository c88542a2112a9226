//! A stateless self-play worker (`jungle worker`): it reads a run's
//! `latest.json` from the store, fetches the network it names, plays a
//! batch of games with it as `jungle train` would (the run's own
//! `[selfplay]` config and rule set), uploads the batch's shards to
//! `data/NAME/incoming/` under names no other worker uses, and starts
//! again, picking up a newer network between batches. It keeps nothing a
//! restart needs: a killed worker loses only the games it had in flight.
//! The trainer ([`crate::incoming`]) takes the shards from there.

use crate::error::TrainError;
use crate::layout::player_name;
use crate::layout::{checkpoint_name, RunLayout};
use crate::publish::{host_name, read_latest, Latest};
use jungle_net::{cpu_device, load_checkpoint, Compute, InferenceNet};
use jungle_play::opening::derive_seed;
use jungle_rules::RuleMixture;
use jungle_selfplay::{run_selfplay, shard_files, GameList, SelfPlayStats};
use jungle_store::Store;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What a worker is told.
#[derive(Clone, Debug)]
pub struct WorkerSettings {
    /// The run to play for.
    pub run: String,
    /// Stop after this many games (at the end of a batch).
    pub max_games: Option<u64>,
    /// Stop starting games after this many minutes (the games in flight
    /// finish and are uploaded).
    pub max_minutes: Option<f64>,
    /// Self-play threads (default: the run's `selfplay.workers`).
    pub threads: Option<usize>,
    /// A folder under which the worker makes its own ([`worker_folder`])
    /// for the network and the shards on their way up
    /// (emptied first).
    pub work: PathBuf,
    /// How often to look for `latest.json` while there is none.
    pub poll: Duration,
    /// The worker's name in the store's keys (unique among the run's
    /// workers: [`worker_id`] makes one).
    pub id: String,
    /// Where its network runs (on a GPU, `selfplay.gpu_games_in_flight`
    /// games per thread).
    pub compute: Compute,
}

/// Why a worker stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// It played `max_games`.
    MaxGames,
    /// `max_minutes` passed.
    MaxMinutes,
    /// It was asked to stop (SIGTERM, SIGINT).
    Signal,
    /// The run's `latest.json` says it finished.
    RunFinished,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::MaxGames => "it played --max-games",
            StopReason::MaxMinutes => "--max-minutes passed",
            StopReason::Signal => "it was asked to stop",
            StopReason::RunFinished => "the run finished",
        })
    }
}

/// What a worker did.
#[derive(Clone, Debug)]
pub struct WorkerReport {
    /// Games uploaded.
    pub games: u64,
    /// Training positions in them.
    pub positions: u64,
    /// Shards uploaded (their keys).
    pub shards: Vec<String>,
    /// The steps of the networks it played with, in order.
    pub networks: Vec<u64>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Seconds spent reading and writing the store.
    pub store_seconds: f64,
    /// Why it stopped.
    pub stopped: StopReason,
}

/// What a worker tells its caller as it goes.
pub enum WorkerEvent<'a> {
    /// The run has no `latest.json` yet.
    Waiting,
    /// It now plays with this checkpoint step.
    Network(u64),
    /// A batch is under way (live counters).
    Playing(&'a SelfPlayStats),
    /// A shard went up.
    Uploaded {
        /// Its key.
        key: &'a str,
        /// Games in it.
        games: u64,
    },
}

/// A worker name unique among a run's workers: the host, the process and
/// a random part (two containers may share a host name and a pid).
pub fn worker_id() -> String {
    let host: String = host_name()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!(
        "{host}-{}-{:08x}",
        std::process::id(),
        rand::random::<u32>()
    )
}

/// The network a worker plays with.
struct Network {
    step: u64,
    net: InferenceNet,
    /// The rule sets its games are drawn from (the run's mixture).
    mixture: RuleMixture,
    latest: Latest,
}

/// The folder a worker named `id` writes in under `work` (the network and
/// the shards on their way up): `work/jungle-worker-ID`. The worker empties
/// it at start and its caller may remove it at the end; nothing else under
/// `work` is touched.
pub fn worker_folder(work: &Path, id: &str) -> PathBuf {
    work.join(format!("jungle-worker-{id}"))
}

/// Runs a worker until `max_games`, `max_minutes`, `stop` (checked between
/// batches) or the run's end.
pub fn run_worker(
    store: &Store,
    settings: &WorkerSettings,
    stop: &AtomicBool,
    events: &dyn Fn(WorkerEvent),
) -> Result<WorkerReport, TrainError> {
    crate::layout::check_run_name(&settings.run)?;
    let started = Instant::now();
    let deadline = settings
        .max_minutes
        .map(|m| started + Duration::from_secs_f64(m * 60.0));
    // Only the worker's own folder is emptied: what else `work` holds is
    // not the worker's to delete.
    let own = worker_folder(&settings.work, &settings.id);
    if own.exists() {
        std::fs::remove_dir_all(&own).map_err(TrainError::io(&own))?;
    }
    let batches = own.join("shards");
    std::fs::create_dir_all(&batches).map_err(TrainError::io(&batches))?;
    let mut report = WorkerReport {
        games: 0,
        positions: 0,
        shards: Vec::new(),
        networks: Vec::new(),
        seconds: 0.0,
        store_seconds: 0.0,
        stopped: StopReason::Signal,
    };
    let mut network: Option<Network> = None;
    let mut sequence = 0u64;
    let stopped = loop {
        if stop.load(Ordering::Relaxed) {
            break StopReason::Signal;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break StopReason::MaxMinutes;
        }
        let left = settings.max_games.map(|m| m.saturating_sub(report.games));
        if left == Some(0) {
            break StopReason::MaxGames;
        }
        let timer = Instant::now();
        let latest = read_latest(store, &settings.run)?;
        report.store_seconds += timer.elapsed().as_secs_f64();
        let Some(latest) = latest else {
            events(WorkerEvent::Waiting);
            std::thread::sleep(settings.poll);
            continue;
        };
        if latest.finished {
            break StopReason::RunFinished;
        }
        if network.as_ref().is_none_or(|n| n.step != latest.step) {
            let timer = Instant::now();
            network = Some(fetch_network(store, latest, &own, &settings.compute)?);
            report.store_seconds += timer.elapsed().as_secs_f64();
            let step = network.as_ref().expect("just set").step;
            report.networks.push(step);
            events(WorkerEvent::Network(step));
        }
        let net = network.as_ref().expect("set above");
        let mut selfplay = net
            .latest
            .config
            .selfplay
            .for_device(settings.compute.is_gpu());
        if let Some(threads) = settings.threads {
            selfplay.workers = threads;
        }
        let batch = (selfplay.worker_count() * selfplay.games_in_flight) as u64;
        let batch = left.map_or(batch, |l| l.min(batch));
        let seed = derive_seed(
            net.latest.config.run.seed ^ hash(&settings.id),
            sequence,
            11,
        );
        let mut games = GameList::new(batch, seed);
        games.start_before = deadline;
        let stats = SelfPlayStats::default();
        let evaluators = selfplay.evaluators(&net.net, &stats.cache)?;
        run_selfplay(
            &selfplay,
            &net.mixture,
            evaluators,
            &games,
            &batches,
            &player_name(net.step),
            &stats,
            &|s| events(WorkerEvent::Playing(s)),
        )?;
        let timer = Instant::now();
        for path in shard_files(&batches)? {
            let key = format!(
                "{}/{}-{sequence:06}.bin",
                RunLayout::new(&settings.run).incoming(),
                settings.id
            );
            sequence += 1;
            let bytes = std::fs::read(&path).map_err(TrainError::io(&path))?;
            let shard = jungle_selfplay::read_shard(&path, None)?;
            if store.create(&key, bytes)?.is_none() {
                return Err(TrainError::Published {
                    url: store.url().text.clone(),
                    key,
                    problem: "another worker uploaded a shard under this worker's name: give each worker its own --id".to_string(),
                });
            }
            std::fs::remove_file(&path).map_err(TrainError::io(&path))?;
            let count = shard.games.len() as u64;
            report.games += count;
            report.positions += shard
                .games
                .iter()
                .map(|g| g.positions() as u64)
                .sum::<u64>();
            events(WorkerEvent::Uploaded {
                key: &key,
                games: count,
            });
            report.shards.push(key);
        }
        report.store_seconds += timer.elapsed().as_secs_f64();
    };
    report.stopped = stopped;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Downloads the checkpoint `latest` names into `work/net/` and loads it.
fn fetch_network(
    store: &Store,
    latest: Latest,
    work: &Path,
    compute: &Compute,
) -> Result<Network, TrainError> {
    let folder = work.join("net");
    if folder.exists() {
        std::fs::remove_dir_all(&folder).map_err(TrainError::io(&folder))?;
    }
    std::fs::create_dir_all(&folder).map_err(TrainError::io(&folder))?;
    let prefix = folder.join(checkpoint_name(latest.step));
    for suffix in ["bpk", "json"] {
        let key = format!("{}.{suffix}", latest.checkpoint);
        let fetched = store.get(&key)?.ok_or_else(|| TrainError::Published {
            url: store.url().text.clone(),
            key: key.clone(),
            problem: "missing: latest.json names a checkpoint that is not in the store".to_string(),
        })?;
        let path = prefix.with_extension(suffix);
        std::fs::write(&path, &fetched.bytes).map_err(TrainError::io(&path))?;
    }
    // The checkpoint carries its rule sets: the run's `variant` or
    // `variants` may name files on the trainer's machine only.
    let checkpoint = load_checkpoint(&prefix, &cpu_device())?;
    Ok(Network {
        step: latest.step,
        net: InferenceNet::new(&checkpoint.net, compute),
        mixture: checkpoint.meta.trained_mixture(),
        latest,
    })
}

/// A 64-bit hash of a worker's name (FNV-1a): workers of one run draw
/// different games.
fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worker_names_differ_and_fit_in_a_key() {
        let (a, b) = (worker_id(), worker_id());
        assert_ne!(a, b);
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
        assert_ne!(hash("w-1"), hash("w-2"));
    }
}
