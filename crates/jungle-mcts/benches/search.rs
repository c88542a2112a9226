//! Search benchmarks: PUCT and Gumbel tree work with a trivial evaluator
//! (simulations per second, one thread), and alpha-beta nodes per second.
//! Run with `cargo bench -p jungle-mcts`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use jungle_mcts::players::AlphaBeta;
use jungle_mcts::{search, Player, RootSelection, Search, SearchConfig, UniformEvaluator};
use jungle_rules::{Game, Rules};

fn search_benches(c: &mut Criterion) {
    let rules = Rules::default();
    let game = Game::new(rules.clone());
    let simulations = 4000;
    let mut group = c.benchmark_group("tree_work_uniform_evaluator");
    group.throughput(Throughput::Elements(simulations as u64));
    group.sample_size(20);
    for (name, root) in [
        ("puct", RootSelection::Puct),
        ("gumbel", RootSelection::Gumbel),
    ] {
        let config = SearchConfig {
            simulations,
            root,
            reuse_tree: false,
            ..SearchConfig::default()
        };
        group.bench_function(name, |b| {
            let mut tree = Search::new(rules.clone(), config.clone(), 1);
            b.iter(|| search(&mut tree, &game, &mut UniformEvaluator))
        });
    }
    group.finish();

    let depth = 5;
    let mut probe = AlphaBeta::new(depth, rules.clone(), 1);
    probe.choose(&game);
    let mut group = c.benchmark_group("alphabeta");
    group.throughput(Throughput::Elements(probe.nodes()));
    group.sample_size(10);
    group.bench_function("depth5_start", |b| {
        b.iter(|| AlphaBeta::new(depth, rules.clone(), 1).choose(&game))
    });
    group.finish();
}

criterion_group!(benches, search_benches);
criterion_main!(benches);
