//! `jungle bench store`: the trainer's cost of taking workers' shards from
//! a store, generation after generation, as the number of shards ever
//! written grows. Writers (threads standing in for worker processes)
//! upload a generation's shards to `incoming/`; the trainer's intake
//! ([`jungle_train::Intake`]) then lists, downloads, checks and
//! files them into a local generation folder and deletes them from the
//! store, and the replay window's file list is built over all
//! generations. The shards are small real ones: random legal games.

use anyhow::{bail, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use jungle_rules::{Game, Rules};
use jungle_rules::{RuleMixture, RuleSet};
use jungle_selfplay::{pack_move, write_shard, GameRecord, MoveRecord};
use jungle_store::Store;
use jungle_train::Intake;
use jungle_train::{generation_folder, partial_folder, publish_generation, window_files};
use jungle_train::{player_name, CheckpointInfo};
use rand::{Rng, SeedableRng};
use serde::Serialize;
use std::time::Instant;

/// Arguments of `jungle bench store`.
#[derive(Args)]
pub struct BenchStoreArgs {
    /// The store (a bench prefix in it is used and emptied: give a
    /// bucket or folder for tests, not a run's).
    #[arg(long, value_name = "URL")]
    store: String,
    /// Shards in all.
    #[arg(long, default_value_t = 10_000)]
    shards: u64,
    /// Shards per generation.
    #[arg(long, default_value_t = 1_000)]
    per_generation: u64,
    /// Threads uploading at once (standing in for worker processes).
    #[arg(long, default_value_t = 8)]
    writers: usize,
    /// Games per shard.
    #[arg(long, default_value_t = 4)]
    games_per_shard: u64,
}

/// One generation's figures.
#[derive(Serialize)]
struct GenerationRow {
    generation: u32,
    shards_ever: u64,
    upload_seconds: f64,
    intake_seconds: f64,
    intake_seconds_per_1000: f64,
    window_list_seconds: f64,
}

/// A shard of `games` random legal games of up to 60 plies, every other
/// move with a target spread over the legal moves (as a full search's).
fn random_shard(rules: &Rules, games: u64, seed: u64) -> Vec<GameRecord> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..games)
        .map(|k| {
            let mut game = Game::new(rules.clone());
            let start_fen = game.position().to_fen();
            let mut moves = Vec::new();
            while !game.is_over() && moves.len() < 60 {
                let legal = game.legal_moves();
                let mv = legal[rng.random_range(0..legal.len())];
                let full_search = moves.len() % 2 == 0;
                let share = 1.0 / legal.len() as f32;
                moves.push(MoveRecord {
                    mv: pack_move(mv),
                    full_search,
                    root_value: 0.0,
                    target: if full_search {
                        legal.iter().map(|&m| (pack_move(m), share)).collect()
                    } else {
                        Vec::new()
                    },
                    surprise: None,
                    root_draw: None,
                });
                game.play(mv).expect("a legal move");
            }
            let outcome = game.outcome();
            GameRecord {
                start_fen,
                moves,
                winner: outcome.and_then(|o| o.winner),
                reason: outcome.map(|o| o.reason),
                checkpoint: player_name(0),
                seed: seed * 1_000 + k,
            }
        })
        .collect()
}

/// Runs `jungle bench store`.
pub fn run(args: &BenchStoreArgs, json: bool) -> Result<()> {
    if args.per_generation == 0 || args.shards < args.per_generation || args.writers == 0 {
        bail!(
            "--per-generation and --writers must be at least 1, --shards at least --per-generation"
        );
    }
    let store = Store::open_url(&args.store)?;
    let prefix = "bench-store/incoming";
    for old in store.list("bench-store")? {
        store.delete(&old.key)?;
    }
    let rules = Rules::load("standard")?;
    let mixture = RuleMixture::single(RuleSet::new("standard", rules.clone()));
    let scratch = std::env::temp_dir().join(format!("jungle-bench-store-{}", std::process::id()));
    let shards = scratch.join("shards");
    std::fs::create_dir_all(&shards)?;
    let sample = scratch.join("sample.bin");
    write_shard(
        &sample,
        &rules,
        &random_shard(&rules, args.games_per_shard, 1),
    )?;
    let bytes = std::fs::read(&sample)?;
    let checkpoints = [CheckpointInfo {
        generation: 0,
        step: 0,
        hours: 0.0,
        games: 0,
        samples_seen: 0,
    }];
    let generations = (args.shards / args.per_generation) as u32;
    let bar = ProgressBar::new(generations as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "bench store {bar:30} {pos}/{len} generations [{elapsed} < {eta}]",
        )
        .expect("valid template"),
    );
    let mut rows = Vec::new();
    for generation in 1..=generations {
        // Upload: `writers` threads, each its own share of the names.
        let started = Instant::now();
        std::thread::scope(|scope| -> Result<()> {
            let jobs: Vec<_> = (0..args.writers)
                .map(|w| {
                    let (store, bytes) = (&store, &bytes);
                    scope.spawn(move || -> Result<()> {
                        let mut k = w as u64;
                        while k < args.per_generation {
                            let key = format!("{prefix}/w{w}-{generation:04}-{k:06}.bin");
                            store.put(&key, bytes.clone())?;
                            k += args.writers as u64;
                        }
                        Ok(())
                    })
                })
                .collect();
            for job in jobs {
                job.join().expect("an upload thread")?;
            }
            Ok(())
        })?;
        let upload_seconds = started.elapsed().as_secs_f64();
        // The trainer's intake of the generation, then its window's list.
        let partial = partial_folder(&shards, generation);
        std::fs::create_dir_all(&partial)?;
        let started = Instant::now();
        let taken = Intake {
            store: &store,
            prefix: prefix.to_string(),
            partial: &partial,
            quarantine: &scratch.join("quarantine"),
            mixture: &mixture,
            checkpoints: &checkpoints,
            max_net_age: 1_000,
        }
        .take(args.per_generation * args.games_per_shard)?;
        publish_generation(&shards, generation)?;
        let intake_seconds = started.elapsed().as_secs_f64();
        if taken.shards != args.per_generation {
            bail!(
                "generation {generation}: took {} shards of {} uploaded",
                taken.shards,
                args.per_generation
            );
        }
        let started = Instant::now();
        let files = window_files(&shards, generation)?;
        let window_list_seconds = started.elapsed().as_secs_f64();
        assert!(generation_folder(&shards, generation).exists());
        assert_eq!(files.len() as u64, generation as u64 * args.per_generation);
        rows.push(GenerationRow {
            generation,
            shards_ever: generation as u64 * args.per_generation,
            upload_seconds,
            intake_seconds,
            intake_seconds_per_1000: intake_seconds * 1000.0 / args.per_generation as f64,
            window_list_seconds,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    let _ = std::fs::remove_dir_all(&scratch);
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    println!(
        "store {}: {} shards of {} bytes ({} games each), {} per generation, {} writers",
        args.store,
        args.shards,
        bytes.len(),
        args.games_per_shard,
        args.per_generation,
        args.writers
    );
    println!(
        "{:>10} {:>11} {:>10} {:>10} {:>14} {:>12}",
        "generation", "shards ever", "upload s", "intake s", "intake s/1000", "window list s"
    );
    for r in &rows {
        println!(
            "{:>10} {:>11} {:>10.2} {:>10.2} {:>14.2} {:>12.3}",
            r.generation,
            r.shards_ever,
            r.upload_seconds,
            r.intake_seconds,
            r.intake_seconds_per_1000,
            r.window_list_seconds
        );
    }
    Ok(())
}
