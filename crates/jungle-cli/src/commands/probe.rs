//! `jungle probe`: scores checkpoints (the bare network, and with
//! `--simulations` its search) and any players on the labelled position
//! suite, in seconds to minutes rather than the hour of games a match
//! costs (docs/probe.md).

use crate::commands::shared::parse_player;
use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use jungle_net::{cpu_device, load_checkpoint, Compute, NetEvaluator};
use jungle_probe::metrics::{Estimate, PROBE_SCORE};
use jungle_probe::{probe_network, probe_player, MetricTable, Suite};
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `jungle probe`.
#[derive(Args)]
pub struct ProbeArgs {
    /// Checkpoints to probe (a prefix, or its .bpk or .json): the bare
    /// network, one forward pass a position.
    checkpoints: Vec<PathBuf>,
    /// Also probe each checkpoint's search at this many simulations
    /// (`net:CHECKPOINT:N`): the moves it plays.
    #[arg(long)]
    simulations: Option<u32>,
    /// Also probe these players (any player spec: `alphabeta:4`,
    /// `net:CKPT:200:material=0.6`; repeatable): the moves they play.
    #[arg(long = "player", value_name = "SPEC")]
    players: Vec<String>,
    /// The suite (default: the standard suite built into the binary,
    /// suites/standard.jsonl).
    #[arg(long)]
    suite: Option<PathBuf>,
    /// Probe one position in n only (a fixed sub-suite with the suite's
    /// mix of phases and pairings, for quick looks).
    #[arg(long, default_value_t = 1)]
    every: usize,
    /// Worker threads for the players' searches (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print the full results (by phase, with standard errors) as JSON.
    #[arg(long)]
    json: bool,
}

/// One probed thing's results.
#[derive(Serialize)]
struct Row {
    /// The checkpoint or player.
    name: String,
    /// `network` (bare) or `player`.
    kind: &'static str,
    positions: usize,
    seconds: f64,
    metrics: MetricTable,
}

/// The bare network's columns: the probe's score first (the first screen),
/// then its parts and the other metrics.
const NETWORK_METRICS: [&str; 6] = [
    PROBE_SCORE,
    "policy_top1",
    "policy_mass",
    "value_sign",
    "value_logloss",
    "forced_top1",
];
const PLAYER_METRICS: [&str; 2] = ["moves_found", "forced_found"];

fn cell(e: Option<Estimate>) -> String {
    e.map_or("-".to_string(), |e| {
        format!("{:.3}+-{:.3}", e.mean, e.stderr)
    })
}

fn print_table(rows: &[&Row], metrics: &[&str]) {
    print!("{:<44}", "");
    for m in metrics {
        print!(" {m:>15}");
    }
    println!(" {:>8}", "seconds");
    for row in rows {
        print!("{:<44}", row.name);
        for &m in metrics {
            print!(" {:>15}", cell(row.metrics.named(m)));
        }
        println!(" {:>8.1}", row.seconds);
    }
}

fn bar(len: usize, quiet: bool) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    if quiet {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("{msg} {bar:30} {pos}/{len} positions [{elapsed} < {eta}]")
            .expect("valid template"),
    );
    bar
}

/// Runs `jungle probe`.
pub fn run(args: &ProbeArgs) -> Result<()> {
    if args.checkpoints.is_empty() && args.players.is_empty() {
        anyhow::bail!("nothing to probe: name checkpoints, or players with --player SPEC");
    }
    if args.every == 0 {
        anyhow::bail!("--every: 0, expected 1 or more");
    }
    let suite = match &args.suite {
        Some(path) => Suite::read(path)?,
        None => Suite::standard()?,
    }
    .every(args.every);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("starting the worker threads")?;
    let mut rows = Vec::new();
    let mut players: Vec<String> = Vec::new();
    for checkpoint in &args.checkpoints {
        let ck = load_checkpoint(checkpoint, &cpu_device())?;
        let mut evaluator = NetEvaluator::new(&ck.net);
        let probe = probe_network(&mut evaluator, &suite);
        rows.push(Row {
            name: checkpoint.display().to_string(),
            kind: "network",
            positions: probe.positions,
            seconds: probe.seconds,
            metrics: probe.metrics,
        });
        if let Some(n) = args.simulations {
            players.push(format!("net:{}:{n}", checkpoint.display()));
        }
    }
    players.extend(args.players.iter().cloned());
    let compute = Compute::cpu();
    for spec in &players {
        let player = parse_player(spec, &compute).with_context(|| format!("player `{spec}`"))?;
        let bar = bar(suite.entries.len(), args.json);
        bar.set_message(spec.clone());
        let probe = pool.install(|| probe_player(player.as_ref(), &suite, &|| bar.inc(1)));
        bar.finish_and_clear();
        rows.push(Row {
            name: spec.clone(),
            kind: "player",
            positions: probe.positions,
            seconds: probe.seconds,
            metrics: probe.metrics,
        });
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    println!(
        "suite {}: {} positions (one in {} of {}), labels by alpha-beta depth {} (margin {} points) and the solver ({} moves)",
        suite.origin.display(),
        suite.entries.len(),
        args.every,
        suite.header.positions,
        suite.header.labeller.depth,
        suite.header.labeller.margin,
        suite.header.labeller.solver_moves,
    );
    let networks: Vec<&Row> = rows.iter().filter(|r| r.kind == "network").collect();
    if !networks.is_empty() {
        println!("\nbare networks (probe_score = (policy_mass + value_sign) / 2, the first screen; value_logloss: lower is better; +- one standard error over positions)");
        print_table(&networks, &NETWORK_METRICS);
    }
    let searched: Vec<&Row> = rows.iter().filter(|r| r.kind == "player").collect();
    if !searched.is_empty() {
        println!("\nplayers (the move each plays)");
        print_table(&searched, &PLAYER_METRICS);
    }
    Ok(())
}
