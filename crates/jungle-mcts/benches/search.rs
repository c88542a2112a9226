//! Search benchmarks: PUCT and Gumbel tree work with a trivial evaluator
//! (simulations per second, one thread) and the forced-win search of the root safety check (move generations per
//! second).
//! Run with `cargo bench -p jungle-mcts`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use jungle_mcts::forced::ForcedWins;
use jungle_mcts::{search, RootSelection, Search, SearchConfig, UniformEvaluator};
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

    // A late middle game of the network against alphabeta:4 (ply 125,
    // North to move) with animals near both dens: the safety check's work
    // for one move, three moves deep — a forced win looked for, then every
    // move checked.
    let mut late = Game::new(rules.clone());
    for mv in LATE_GAME.split_whitespace() {
        late.play_text(mv).expect("a legal move");
    }
    let check = |game: &Game| {
        let mut forced = ForcedWins::new(game.rules(), game.hashes(), u64::MAX);
        let pos = *game.position();
        forced.forced_win(&pos, 3);
        for &mv in game.legal_moves().iter() {
            forced.move_loses(&pos, mv, 3);
        }
        forced.nodes()
    };
    let mut group = c.benchmark_group("forced_wins");
    group.throughput(Throughput::Elements(check(&late)));
    group.sample_size(20);
    group.bench_function("late_game_every_move_3", |b| b.iter(|| check(&late)));
    group.finish();
}

/// The first 125 plies of a game of the `ref1h` network against alphabeta:4.
const LATE_GAME: &str = "a3a2 e7e8 b2b1 g9g8 g3f3 c7b7 f3f4 f8f9 g1f1 g7f7 f1e1 a7a6 e1e2 a6a5 \
    e2d2 a5a4 d2d3 a4a3 a2b2 b7a7 d3d4 a7a6 a1a2 b8b7 a2a3 a9b9 a3a4 b9c9 a4a5 c9c8 a5a6 e8d8 \
    a6d6 g8g7 b2b3 f7e7 e3d3 g7f7 f4f5 f9e9 d6d5 f7g7 f5f6 e9f9 f2f3 g7f7 f3e3 f9e9 b1b2 e9f9 \
    b2c2 f9e9 c2d2 e9e8 c3c2 f7f8 b3c3 f8g8 f6e6 g8f8 d5d6 e7d7 d6a6 d7d6 a6a7 c8b8 d4a4 b8c8 \
    a7b7 f8f7 e6f6 f7e7 f6e6 e7d7 a4a5 d7c7 b7a7 e8f8 a7a8 d6d7 a8a9 f8f7 a5a6 d8e8 a6a7 c8b8 \
    e6d6 d7d8 d6c6 d8c8 d3d4 e8e9 c3d3 c8d8 d4d5 d8d7 c6d6 d7d8 d6e6 d8d7 e6d6 d7d8 d6e6 d8d7 \
    d5d4 e9f9 e6d6 d7d8 d6c6 c7c8 d4d5 f9e9 d3d4 e9f9 d5d6 d8d7 d4d5 c8c9 c6c7 d7d6 d5d6 f9e9 \
    d6d7 c9c8 c7c6";

criterion_group!(benches, search_benches);
criterion_main!(benches);
