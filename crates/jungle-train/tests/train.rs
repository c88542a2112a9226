//! Training on a fixed small set of self-play positions lowers both the
//! policy and the value loss; samples carry valid targets, mirrored too.

use jungle_mcts::HeuristicEvaluator;
use jungle_net::encoding::{Encoding, POLICY_SLOTS};
use jungle_net::{cpu_device, NetConfig, SHORT_TERM_LAMBDA, SURVIVAL_OUTPUTS};
use jungle_rules::{RuleMixture, RuleSet, Rules};
use jungle_selfplay::{
    read_shard, run_selfplay, shard_files, GameList, GameRecord, SelfPlayConfig, SelfPlayStats,
};
use jungle_train::Trainer;
use jungle_train::WeightDecay;
use jungle_train::{
    alive_mask, game_positions, game_positions_where, game_samples, td_returns, Batch, ValueTargets,
};

fn games(tag: &str) -> Vec<GameRecord> {
    let dir = std::env::temp_dir().join(format!("jungle-train-games-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = SelfPlayConfig {
        workers: 1,
        games_in_flight: 8,
        full_simulations: 24,
        cheap_simulations: 8,
        full_search_fraction: 0.5,
        max_plies: 120,
        cheap_search_noise: false,
        ..SelfPlayConfig::default()
    };
    let stats = SelfPlayStats::default();
    run_selfplay(
        &cfg,
        &RuleMixture::single(RuleSet::new("standard", Rules::default())),
        vec![HeuristicEvaluator],
        &GameList::new(8, 11),
        &dir,
        "heuristic",
        &stats,
        &|_| {},
    )
    .unwrap();
    let mut games = Vec::new();
    for path in shard_files(&dir).unwrap() {
        games.extend(read_shard(&path, Some(&Rules::default())).unwrap().games);
    }
    std::fs::remove_dir_all(&dir).unwrap();
    games
}

#[test]
fn samples_are_well_formed_and_mirrored() {
    let games = games("samples");
    let rules = Rules::default();
    for (game, encoding) in games.iter().zip(Encoding::ALL.iter().cycle()) {
        let plain = game_samples(game, &rules, *encoding, false).unwrap();
        let both = game_samples(game, &rules, *encoding, true).unwrap();
        assert_eq!(both.len(), 2 * plain.len());
        assert_eq!(plain.len(), game.positions());
        for s in &both {
            assert_eq!(s.planes.len(), encoding.input_len());
            assert_eq!(s.policy.len(), POLICY_SLOTS);
            assert!((s.policy.iter().sum::<f32>() - 1.0).abs() < 1e-3);
            assert!((s.wdl.iter().sum::<f32>() - 1.0).abs() < 1e-6);
            assert!(s.moves_left > 0.0);
        }
        // A sample and its mirror differ unless the position is symmetric.
        for pair in both.chunks(2) {
            assert_eq!(pair[0].wdl, pair[1].wdl);
        }
    }
}

#[test]
fn training_on_a_fixed_set_lowers_both_losses() {
    let rules = Rules::default();
    let samples: Vec<_> = games("fit")
        .iter()
        .flat_map(|g| game_samples(g, &rules, Encoding::Exchange, true).unwrap())
        .collect();
    assert!(samples.len() >= 64, "{} samples", samples.len());
    let batch = Batch::new(&samples);
    let config = NetConfig::new()
        .with_blocks(1)
        .with_filters(16)
        .with_policy_filters(8)
        .with_value_filters(8)
        .with_value_hidden(16)
        .with_survival_head(Some(true))
        .with_short_term_head(Some(true))
        .with_tactical_planes(Some(true))
        .with_exchange_planes(Some(true));
    // A fixed initialisation: the check is about training, not about luck
    // (the only test here that initialises a network, so the seed holds).
    let device = cpu_device();
    device.seed(5);
    let mut trainer = Trainer::new(&config, &device, 3e-3, WeightDecay::l2(1e-4));
    let before = trainer.measure(&batch);
    for _ in 0..80 {
        trainer.step(&batch);
    }
    let after = trainer.measure(&batch);
    assert!(
        after.policy < 0.8 * before.policy,
        "policy {before:?} -> {after:?}"
    );
    assert!(
        after.value < 0.8 * before.value,
        "value {before:?} -> {after:?}"
    );
    assert!(
        after.moves_left < before.moves_left,
        "moves left {before:?} -> {after:?}"
    );
    assert!(
        after.survival < 0.8 * before.survival,
        "survival {before:?} -> {after:?}"
    );
    assert!(
        after.short_term < 0.8 * before.short_term,
        "short-term {before:?} -> {after:?}"
    );
}

#[test]
fn short_term_targets_are_the_short_horizon_td_returns() {
    let rules = Rules::default();
    let mut differ = 0;
    for game in &games("short-term") {
        // Every ply's position, searched or not, in order.
        let all = game_positions_where(game, &rules, ValueTargets::default(), |_| true).unwrap();
        assert_eq!(all.len(), game.moves.len());
        let first_mover = all[0].position.side_to_move();
        let returns = td_returns(game, first_mover, SHORT_TERM_LAMBDA);
        for (p, r) in all.iter().zip(&returns) {
            assert_eq!(p.short_term_wdl, *r);
            assert!((r.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{r:?}");
            differ += usize::from(p.short_term_wdl != p.wdl);
        }
        // The last move's target is the result itself.
        let last = all.last().unwrap();
        assert_eq!(last.short_term_wdl, last.wdl);
        // The samples carry the same targets.
        let samples = game_samples(game, &rules, Encoding::Base, false).unwrap();
        let searched = game_positions(game, &rules).unwrap();
        for (s, p) in samples.iter().zip(&searched) {
            assert_eq!(s.short_term_wdl, p.short_term_wdl);
        }
    }
    // The searches, not the result alone, make the targets.
    assert!(differ > 0);
}

#[test]
fn survival_targets_follow_the_game() {
    let rules = Rules::default();
    for game in &games("survival") {
        let samples = game_samples(game, &rules, Encoding::Base, true).unwrap();
        let positions = game_positions(game, &rules).unwrap();
        for (p, pair) in positions.iter().zip(samples.chunks(2)) {
            // Mirroring does not change which animals live.
            assert_eq!(pair[0].survival, pair[1].survival);
            assert_eq!(pair[0].survival.len(), SURVIVAL_OUTPUTS);
            let now = alive_mask(&p.position, p.position.side_to_move()) as u32;
            let near = p.survival & 0xffff;
            let end = p.survival >> 16;
            // Animals do not come back: whoever lives later lives now,
            // and whoever lives at the end lives at the near horizon.
            assert_eq!(near & !now, 0, "{:?}", p.position);
            assert_eq!(end & !near, 0, "{:?}", p.position);
            for (i, &t) in pair[0].survival.iter().enumerate() {
                assert_eq!(t, (p.survival >> i & 1) as f32);
            }
        }
    }
}

/// The error of `game_positions` on `game` with the targets of ply `ply`
/// edited by `edit`.
fn corrupted(game: &GameRecord, ply: usize, edit: fn(&mut [(u16, f32)])) -> String {
    let mut bad = game.clone();
    edit(&mut bad.moves[ply].target);
    game_positions(&bad, &Rules::default())
        .expect_err("refused")
        .to_string()
}

#[test]
fn bad_targets_are_errors_not_panics() {
    let game = games("bad-targets")
        .into_iter()
        .find(|g| {
            g.moves
                .iter()
                .any(|m| m.full_search && !m.target.is_empty())
        })
        .expect("a game with a target");
    let ply = game
        .moves
        .iter()
        .position(|m| !m.target.is_empty())
        .unwrap();
    // A same-square move (a1a1), a move from an empty square, NaN and a
    // target that does not sum to one.
    let e = corrupted(&game, ply, |t| t[0].0 = 0);
    assert!(e.contains(&format!("ply {ply}")), "{e}");
    let e = corrupted(&game, ply, |t| t[0].0 = (20 << 6) | 21);
    assert!(
        e.contains(&format!("ply {ply}")) && e.contains("target"),
        "{e}"
    );
    let e = corrupted(&game, ply, |t| t[0].1 = f32::NAN);
    assert!(e.contains("probability NaN"), "{e}");
    let e = corrupted(&game, ply, |t| t.iter_mut().for_each(|p| p.1 *= 0.5));
    assert!(e.contains("sums to"), "{e}");
    assert!(game_samples(&game, &Rules::default(), Encoding::Base, false).is_ok());
}
