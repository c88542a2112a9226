//! `jungle selfplay`: write game shards with a network, and
//! `jungle shards stats`: read them back.

use super::shared::{load_rules, DeviceArgs};
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use jungle_net::{cpu_device, load_checkpoint, InferenceNet, NetConfig};
use jungle_rules::{RuleMixture, RuleSet};
use jungle_selfplay::{
    read_shard, run_selfplay, shard_files, shard_stats, GameList, SelfPlayConfig, SelfPlayStats,
    ShardStats,
};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Arguments of `jungle selfplay`.
#[derive(Args)]
pub struct SelfPlayArgs {
    /// The network: a checkpoint (prefix, .json or .bpk).
    #[arg(
        long,
        conflicts_with = "random_net",
        required_unless_present = "random_net"
    )]
    checkpoint: Option<PathBuf>,
    /// Play with a freshly initialised 6x64 network instead (seeded by --seed).
    #[arg(long)]
    random_net: bool,
    /// Games to play.
    #[arg(long)]
    games: u64,
    /// Directory for the shards (created; existing shards are kept, and
    /// games of this --seed already there are not played again).
    #[arg(long)]
    out: PathBuf,
    /// A toml file with a `[selfplay]` table (see configs/selfplay.toml).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Rule set; default: the checkpoint's (every rule set of its training
    /// mixture, drawn by their weights), or standard.
    #[arg(long)]
    variant: Option<String>,
    /// Worker threads (overrides the config; default one per core).
    #[arg(long)]
    workers: Option<usize>,
    /// Seed of the games: game i's seed derives from it, so a run with
    /// the same seed into the same --out plays only the games missing there
    /// (use another seed to add games).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Where the network runs (on a GPU, `gpu_games_in_flight` games per
    /// worker).
    #[command(flatten)]
    device: DeviceArgs,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    selfplay: SelfPlayConfig,
}

/// Reads the `[selfplay]` table of a config file.
pub fn load_selfplay_config(path: &Path) -> Result<SelfPlayConfig> {
    let name = path.display();
    let text = jungle_files::read_text_bounded(path, jungle_files::MAX_SETTINGS_BYTES)
        .with_context(|| format!("reading config `{name}`"))?;
    let file: ConfigFile = toml::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "config `{name}`: {} (expected a [selfplay] table)",
            e.message().trim()
        )
    })?;
    file.selfplay
        .validate()
        .map_err(|e| anyhow::anyhow!("config `{name}`: [selfplay] {e}"))?;
    Ok(file.selfplay)
}

/// Runs `jungle selfplay`.
pub fn run(args: &SelfPlayArgs) -> Result<()> {
    let compute = args.device.open()?;
    let config = match &args.config {
        Some(path) => load_selfplay_config(path)?,
        None => SelfPlayConfig::default(),
    };
    let mut config = config.for_device(compute.is_gpu());
    if let Some(w) = args.workers {
        if w == 0 {
            bail!("--workers must be at least 1");
        }
        config.workers = w;
    }
    let device = cpu_device();
    let (net, name, trained) = match &args.checkpoint {
        Some(path) => {
            let ck = load_checkpoint(path, &device)?;
            (ck.net, path.display().to_string(), Some(ck.meta))
        }
        None => {
            device.seed(args.seed);
            (
                NetConfig::new().init(&device),
                "random-net".to_string(),
                None,
            )
        }
    };
    // --variant, else every rule set the checkpoint was trained under.
    let mixture = match (&args.variant, trained) {
        (Some(v), _) => RuleMixture::single(RuleSet::new(v, load_rules(v)?)),
        (None, Some(meta)) => meta.trained_mixture(),
        (None, None) => RuleMixture::single(RuleSet::new("standard", load_rules("standard")?)),
    };
    // Games of this job (this seed) already in --out are kept, not played
    // again: a killed `selfplay` run again with the same arguments finishes.
    let mut games = GameList::new(args.games, args.seed);
    if args.out.exists() {
        let mut seeds = Vec::new();
        for path in shard_files(&args.out)? {
            if let Ok(shard) = read_shard(&path, None) {
                seeds.extend(shard.games.iter().map(|g| g.seed));
            }
        }
        let found = games.mark_played(seeds);
        if found > 0 {
            println!(
                "{found} of the {} games of seed {} are already in {}: playing the other {}",
                args.games,
                args.seed,
                args.out.display(),
                games.remaining()
            );
        }
    }
    let stats = SelfPlayStats::default();
    let evaluators = config.evaluators(&InferenceNet::new(&net, &compute), &stats.cache)?;
    let workers = evaluators.len();

    let bar = ProgressBar::new(games.remaining());
    bar.set_style(
        ProgressStyle::with_template(
            "selfplay {bar:30} {pos}/{len} games [{elapsed} < {eta}] {msg}",
        )
        .expect("valid template"),
    );
    if games.remaining() == 0 {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    let started = Instant::now();
    let report = run_selfplay(
        &config,
        &mixture,
        evaluators,
        &games,
        &args.out,
        &name,
        &stats,
        &|s| {
            bar.set_position(s.games.load(Ordering::Relaxed));
            bar.set_message(progress_line(s, started.elapsed().as_secs_f64()));
        },
    )?;
    bar.finish_and_clear();
    let secs = report.seconds.max(1e-9);
    let games = stats.games.load(Ordering::Relaxed);
    println!(
        "self-play with {name}: {games} games in {:.1} s, {workers} workers x {} games in flight",
        report.seconds, config.games_in_flight
    );
    println!("  {}", progress_line(&stats, secs));
    println!(
        "  {:.0} games/hour; {} training positions; {} evaluator calls, mean batch {:.1}, {:.1}% answered by the cache",
        games as f64 * 3600.0 / secs,
        stats.positions.load(Ordering::Relaxed),
        stats.calls.load(Ordering::Relaxed),
        stats.evaluations.load(Ordering::Relaxed) as f64
            / stats.calls.load(Ordering::Relaxed).max(1) as f64,
        100.0 * stats.cache.hit_rate()
    );
    println!(
        "  {} shard(s) written to {}",
        report.shards.len(),
        args.out.display()
    );
    Ok(())
}

fn progress_line(s: &SelfPlayStats, seconds: f64) -> String {
    let games = s.games.load(Ordering::Relaxed);
    let plies = s.plies.load(Ordering::Relaxed);
    let secs = seconds.max(1e-9);
    format!(
        "{:.0} positions/s, {:.0} evals/s, mean length {:.0}, South/draw/North {}/{}/{}",
        plies as f64 / secs,
        s.evaluations.load(Ordering::Relaxed) as f64 / secs,
        if games > 0 {
            plies as f64 / games as f64
        } else {
            0.0
        },
        s.results.south_wins.load(Ordering::Relaxed),
        s.results.draws.load(Ordering::Relaxed),
        s.results.north_wins.load(Ordering::Relaxed),
    )
}

/// Arguments of `jungle shards`.
#[derive(Args)]
pub struct ShardsArgs {
    #[command(subcommand)]
    command: ShardsCommand,
}

#[derive(Subcommand)]
enum ShardsCommand {
    /// Games, positions, results, lengths and rule sets of a shard directory
    /// and its subfolders (a run's generations), with a check of every
    /// checksum and of games found twice (exit status 1 if any shard is bad
    /// or any game repeated).
    Stats {
        /// The directory.
        dir: PathBuf,
        /// Also replay every game through the rules.
        #[arg(long)]
        verify: bool,
        /// Print one JSON object (files, games, positions, plies, results,
        /// bad files, bad and duplicate games) instead of the text report.
        #[arg(long)]
        json: bool,
    },
    /// Write the training positions of a shard directory (and its
    /// subfolders) as NumPy arrays in one .npz file: input planes, policy
    /// targets, legal-move masks, results, plies left (docs/guide/python.md).
    Export(super::shards_export::ExportArgs),
}

/// Runs `jungle shards`.
pub fn run_shards(args: &ShardsArgs) -> Result<()> {
    let (dir, verify, json) = match &args.command {
        ShardsCommand::Stats { dir, verify, json } => (dir, verify, json),
        ShardsCommand::Export(export) => return super::shards_export::run_export(export),
    };
    let s = shard_stats(dir, *verify)?;
    if *json {
        println!("{}", stats_json(dir, &s));
    } else {
        print_stats(dir, &s, *verify);
    }
    if !s.bad_files.is_empty() || !s.bad_games.is_empty() || s.duplicate_games > 0 {
        bail!(
            "{} bad shard(s), {} bad game(s), {} repeated game(s)",
            s.bad_files.len(),
            s.bad_games.len(),
            s.duplicate_games
        );
    }
    Ok(())
}

/// The report of `jungle shards stats --json`.
fn stats_json(dir: &Path, s: &ShardStats) -> serde_json::Value {
    serde_json::json!({
        "dir": dir.display().to_string(),
        "good_files": s.good_files,
        "bad_files": s.bad_files.iter().map(|(path, problem)| serde_json::json!({
            "path": path.display().to_string(),
            "problem": problem,
        })).collect::<Vec<_>>(),
        "games": s.games,
        "positions": s.positions,
        "plies": s.plies,
        "max_plies": s.max_plies,
        "results": {"south": s.results[0], "draw": s.results[1], "north": s.results[2]},
        "reasons": s.reasons,
        "duplicate_games": s.duplicate_games,
        "bad_games": s.bad_games,
    })
}

/// The text report of `jungle shards stats`.
fn print_stats(dir: &Path, s: &ShardStats, verify: bool) {
    println!(
        "{}: {} shard(s) read, {} bad",
        dir.display(),
        s.good_files,
        s.bad_files.len()
    );
    println!(
        "games {}  training positions {}  plies {}  mean length {:.1}  longest {}",
        s.games,
        s.positions,
        s.plies,
        s.mean_plies(),
        s.max_plies
    );
    println!(
        "South/draw/North {}/{}/{}",
        s.results[0], s.results[1], s.results[2]
    );
    let reasons: Vec<String> = s.reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
    println!("ended  {}", reasons.join(", "));
    for (rules, games) in &s.rule_sets {
        let toml = rules.to_toml();
        let line: Vec<&str> = toml.lines().map(str::trim).collect();
        println!("rules ({games} games): {}", line.join(", "));
    }
    if s.duplicate_games > 0 {
        println!(
            "REPEATED {} game(s) found more than once",
            s.duplicate_games
        );
    }
    if verify {
        println!(
            "replayed {} games: {} disagree with their record",
            s.games,
            s.bad_games.len()
        );
        for bad in &s.bad_games {
            println!("  {bad}");
        }
    }
    for (path, problem) in &s.bad_files {
        println!("BAD {}: {problem}", path.display());
    }
}
