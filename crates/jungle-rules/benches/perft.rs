//! Move-generator benchmarks: perft of the start position counted move by
//! move (make/unmake, the library's `perft`, against a copy-make version kept
//! here for the comparison) and in bulk, and single-position move generation.
//! Run with `cargo bench -p jungle-rules`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use jungle_rules::{perft, perft_bulk, Position, Rules};
use std::hint::black_box;

/// Copy-make perft: each child is a fresh copy of its parent.
fn perft_copy_make(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        black_box(pos);
        return 1;
    }
    pos.legal_moves(rules)
        .iter()
        .map(|&mv| perft_copy_make(&pos.play(mv), rules, depth - 1))
        .sum()
}

fn perft_benches(c: &mut Criterion) {
    let rules = Rules::default();
    let start = Position::start();
    let depth = 5;
    let nodes = perft_bulk(&start, &rules, depth);
    let mut group = c.benchmark_group("perft5_start");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function("make_unmake", |b| {
        b.iter(|| perft(black_box(&start), &rules, depth))
    });
    group.bench_function("copy_make", |b| {
        b.iter(|| perft_copy_make(black_box(&start), &rules, depth))
    });
    group.bench_function("bulk", |b| {
        b.iter(|| perft_bulk(black_box(&start), &rules, depth))
    });
    group.finish();

    let midgame =
        Position::from_fen("1l4t/3d1c1/r1p1w1e/7/1R5/3L3/E1W1P2/1C1T1D1/7 b").expect("valid");
    c.bench_function("legal_moves_midgame", |b| {
        b.iter(|| black_box(&midgame).legal_moves(&rules))
    });
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
