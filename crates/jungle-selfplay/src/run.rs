//! Running self-play: one thread per worker, finished games gathered into
//! shards by the calling thread, which also reports progress.

use crate::config::SelfPlayConfig;
use crate::record::GameRecord;
use crate::shard::{next_shard_index, write_new_shard, ShardError};
use crate::worker::{GameList, Job, SelfPlayStats};
use jungle_mcts::profile::{self, Phase};
use jungle_mcts::Evaluator;
use jungle_rules::RuleMixture;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What a self-play run did.
#[derive(Clone, Debug)]
pub struct SelfPlayReport {
    /// Games written.
    pub games: u64,
    /// Shard files written, in order.
    pub shards: Vec<PathBuf>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Plays `games` (those not already played) with one worker per evaluator,
/// each game under a rule set drawn from `mixture`, and writes them to
/// `out` as shards (numbered after the ones already there; a shard holds
/// games of one rule set). `progress` is called a few times a second with
/// the live counters.
#[allow(clippy::too_many_arguments)]
pub fn run_selfplay<E: Evaluator + Send>(
    config: &SelfPlayConfig,
    mixture: &RuleMixture,
    evaluators: Vec<E>,
    games: &GameList,
    out: &Path,
    checkpoint: &str,
    stats: &SelfPlayStats,
    progress: &dyn Fn(&SelfPlayStats),
) -> Result<SelfPlayReport, ShardError> {
    std::fs::create_dir_all(out).map_err(|e| ShardError {
        path: out.to_path_buf(),
        problem: format!("cannot create the directory: {e}"),
        damaged: false,
    })?;
    let started = Instant::now();
    let next_game = AtomicU64::new(0);
    let job = Job {
        config,
        mixture,
        games,
        next_game: &next_game,
        checkpoint,
        stats,
    };
    let mut index = next_shard_index(out)?;
    let mut shards = Vec::new();
    let mut written = 0;
    let result = std::thread::scope(|scope| -> Result<(), ShardError> {
        let (tx, rx) = mpsc::channel::<(usize, GameRecord)>();
        for mut evaluator in evaluators {
            let tx = tx.clone();
            let job = &job;
            scope.spawn(move || {
                let started = Instant::now();
                job.run_worker(&mut evaluator, &mut |variant, record| {
                    // The receiver only goes away on a write error; stop quietly then.
                    let _ = tx.send((variant, record));
                });
                let nanos = started.elapsed().as_nanos() as u64;
                job.stats.worker_nanos.fetch_add(nanos, Ordering::Relaxed);
            });
        }
        drop(tx);
        // One buffer per rule set: a shard holds games of one.
        let mut buffers: Vec<Vec<GameRecord>> = vec![Vec::new(); mixture.len()];
        let mut flush = |variant: usize, buffer: &mut Vec<GameRecord>| -> Result<(), ShardError> {
            let _t = profile::time(Phase::ShardWrite);
            let (path, next) = write_new_shard(out, index, mixture.rules(variant), buffer)?;
            written += buffer.len() as u64;
            buffer.clear();
            shards.push(path);
            index = next;
            Ok(())
        };
        loop {
            match rx.recv_timeout(Duration::from_millis(250)) {
                Ok((variant, record)) => {
                    let buffer = &mut buffers[variant];
                    buffer.push(record);
                    if buffer.len() >= config.games_per_shard {
                        flush(variant, buffer)?;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            progress(stats);
        }
        for (variant, buffer) in buffers.iter_mut().enumerate() {
            if !buffer.is_empty() {
                flush(variant, buffer)?;
            }
        }
        progress(stats);
        Ok(())
    });
    result?;
    Ok(SelfPlayReport {
        games: written,
        shards,
        seconds: started.elapsed().as_secs_f64(),
    })
}
