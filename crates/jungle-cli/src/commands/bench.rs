//! `jungle bench`: the standard speed measurements in one table.

use anyhow::Result;
use clap::{Args, Subcommand};
use jungle_mcts::{search, RootSelection, Search, SearchConfig, UniformEvaluator};
use jungle_play::{AlphaBeta, Player};
use jungle_rules::{perft, perft_bulk, Game, Position, Rules};
use serde::Serialize;
use std::time::Instant;

/// Arguments of `jungle bench`.
#[derive(Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    what: Option<BenchWhat>,
    /// Print JSON instead of a table.
    #[arg(long, global = true)]
    json: bool,
}

#[derive(Subcommand)]
enum BenchWhat {
    /// Network inference (positions/s by batch size) and training (samples/s), on the CPU kernels it names (JUNGLE_KERNELS=plain|avx2|avx512 forces a set).
    Net(super::bench_net::BenchNetArgs),
    /// Self-play of a config for a fixed time with a fixed network: games
    /// per hour, leaves and evaluations per second, batch, cache, memory,
    /// and where the time goes.
    Selfplay(super::bench_selfplay::BenchSelfPlayArgs),
    /// The trainer's intake of workers' shards from a store (list, fetch,
    /// check, delete) by generation, as the shards ever written grow.
    Store(super::bench_store::BenchStoreArgs),
}

#[derive(Serialize)]
struct Row {
    name: &'static str,
    what: &'static str,
    count: u64,
    seconds: f64,
    per_second: f64,
}

fn row(name: &'static str, what: &'static str, f: impl FnOnce() -> u64) -> Row {
    let started = Instant::now();
    let count = f();
    let seconds = started.elapsed().as_secs_f64();
    Row {
        name,
        what,
        count,
        seconds,
        per_second: count as f64 / seconds.max(1e-9),
    }
}

/// Runs `jungle bench` (one thread, a few seconds) or `jungle bench net`.
pub fn run(args: &BenchArgs) -> Result<()> {
    match &args.what {
        Some(BenchWhat::Net(net)) => return super::bench_net::run(net, args.json),
        Some(BenchWhat::Selfplay(sp)) => return super::bench_selfplay::run(sp, args.json),
        Some(BenchWhat::Store(st)) => return super::bench_store::run(st, args.json),
        None => {}
    }
    let rules = Rules::default();
    let start = Position::start();
    let game = Game::new(rules.clone());
    let tree_work = |root| {
        let config = SearchConfig {
            simulations: 20_000,
            root,
            reuse_tree: false,
            ..SearchConfig::default()
        };
        let mut tree = Search::new(rules.clone(), config, 1);
        search(&mut tree, &game, &mut UniformEvaluator).simulations as u64
    };
    let rows = vec![
        row("perft(6) start", "nodes, every leaf made", || {
            perft(&start, &rules, 6)
        }),
        row("perft(6) start, bulk", "nodes", || {
            perft_bulk(&start, &rules, 6)
        }),
        row("PUCT, uniform evaluator", "simulations", || {
            tree_work(RootSelection::Puct)
        }),
        row("Gumbel, uniform evaluator", "simulations", || {
            tree_work(RootSelection::Gumbel)
        }),
        row("alphabeta:6 from the start", "nodes", || {
            let mut player = AlphaBeta::new(6, rules.clone(), 1);
            player.choose(&game);
            player.nodes()
        }),
    ];
    if args.json {
        println!("{}", serde_json::to_string(&rows)?);
        return Ok(());
    }
    println!(
        "{:<30} {:>12} {:>9} {:>14}  unit",
        "benchmark", "count", "seconds", "per second"
    );
    for r in &rows {
        println!(
            "{:<30} {:>12} {:>9.3} {:>14.0}  {}",
            r.name, r.count, r.seconds, r.per_second, r.what
        );
    }
    println!("one thread, --release build");
    Ok(())
}
