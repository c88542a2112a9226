//! Alpha-beta benchmark: nodes per second from the start position, one
//! thread. Run with `cargo bench -p jungle-play`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use jungle_play::{AlphaBeta, Player};
use jungle_rules::{Game, Rules};

fn alphabeta_benches(c: &mut Criterion) {
    let rules = Rules::default();
    let game = Game::new(rules.clone());
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

criterion_group!(benches, alphabeta_benches);
criterion_main!(benches);
