//! Self-play end to end on a tiny network: determinism, batching, shard
//! integrity, and replays that reproduce every recorded result.

use jungle_mcts::{EvalInput, Evaluation, Evaluator, HeuristicEvaluator};
use jungle_net::{cpu_device, NetConfig, NetEvaluator, PolicyValueNet};
use jungle_rules::{RuleMixture, RuleSet, Rules};
use jungle_selfplay::shard::encode_shard;
use jungle_selfplay::{
    read_shard, run_selfplay, shard_files, shard_stats, verify_game, GameList, SelfPlayConfig,
    SelfPlayStats,
};
use std::path::{Path, PathBuf};

fn tiny_net() -> PolicyValueNet {
    let device = cpu_device();
    device.seed(5);
    NetConfig::new()
        .with_blocks(1)
        .with_filters(8)
        .with_policy_filters(4)
        .with_value_filters(4)
        .with_value_hidden(8)
        .init(&device)
}

fn small_config(in_flight: usize) -> SelfPlayConfig {
    SelfPlayConfig {
        workers: 1,
        games_in_flight: in_flight,
        full_simulations: 12,
        cheap_simulations: 4,
        max_plies: 60,
        games_per_shard: 3,
        cheap_search_noise: false,
        ..SelfPlayConfig::default()
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-selfplay-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn play<E: Evaluator + Send>(
    dir: &Path,
    cfg: &SelfPlayConfig,
    evaluator: E,
    games: u64,
    seed: u64,
) {
    let stats = SelfPlayStats::default();
    run_selfplay(
        cfg,
        &RuleMixture::single(RuleSet::new("standard", Rules::default())),
        vec![evaluator],
        &GameList::new(games, seed),
        dir,
        "tiny",
        &stats,
        &|_| {},
    )
    .unwrap();
}

#[test]
fn one_worker_same_seed_same_net_gives_identical_shards() {
    let net = tiny_net();
    let (a, b) = (temp_dir("det-a"), temp_dir("det-b"));
    let cfg = small_config(4);
    play(&a, &cfg, NetEvaluator::new(&net), 7, 42);
    play(&b, &cfg, NetEvaluator::new(&net), 7, 42);
    let (fa, fb) = (shard_files(&a).unwrap(), shard_files(&b).unwrap());
    assert_eq!(fa.len(), 3, "7 games in shards of 3: 3 + 3 + 1");
    for (x, y) in fa.iter().zip(&fb) {
        assert_eq!(
            std::fs::read(x).unwrap(),
            std::fs::read(y).unwrap(),
            "{}",
            x.display()
        );
    }
    // Running again adds to the directory.
    play(&a, &cfg, NetEvaluator::new(&net), 2, 43);
    assert_eq!(shard_files(&a).unwrap().len(), 4);
    for d in [a, b] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn replays_reproduce_results_and_targets_are_distributions() {
    let net = tiny_net();
    let dir = temp_dir("replay");
    let cfg = SelfPlayConfig {
        full_search_fraction: 0.5,
        max_plies: 400,
        ..small_config(6)
    };
    play(&dir, &cfg, NetEvaluator::new(&net), 6, 1);
    let stats = shard_stats(&dir, true).unwrap();
    assert_eq!(stats.games, 6);
    assert!(
        stats.bad_files.is_empty() && stats.bad_games.is_empty(),
        "{:?} {:?}",
        stats.bad_files,
        stats.bad_games
    );
    assert!(stats.positions > 0 && stats.positions < stats.plies);
    let mut targets = 0;
    for path in shard_files(&dir).unwrap() {
        for game in read_shard(&path, Some(&Rules::default())).unwrap().games {
            verify_game(&game, &Rules::default()).unwrap();
            targets += game.moves.iter().filter(|m| !m.target.is_empty()).count();
            assert!(game
                .moves
                .iter()
                .all(|m| m.full_search != m.target.is_empty()));
        }
    }
    assert_eq!(targets as u64, stats.positions);
    std::fs::remove_dir_all(dir).unwrap();
}

fn games_in(dir: &Path) -> Vec<jungle_selfplay::GameRecord> {
    shard_files(dir)
        .unwrap()
        .iter()
        .flat_map(|p| read_shard(p, None).unwrap().games)
        .collect()
}

#[test]
fn a_resumed_job_plays_only_its_missing_games_and_stats_count_duplicates() {
    let (full, part) = (temp_dir("resume-full"), temp_dir("resume-part"));
    let cfg = small_config(2);
    play(&full, &cfg, HeuristicEvaluator, 5, 5);
    let all = games_in(&full);
    assert_eq!(all.len(), 5);
    let mut list = GameList::new(5, 5);
    let kept = [&all[1], &all[3]];
    assert_eq!(list.mark_played(kept.iter().map(|g| g.seed)), 2);
    // Seeds of other jobs are not games of this one.
    assert_eq!(list.mark_played([1, 2, 3]), 0);
    assert_eq!(list.remaining(), 3);
    let stats = SelfPlayStats::default();
    run_selfplay(
        &cfg,
        &RuleMixture::single(RuleSet::new("standard", Rules::default())),
        vec![HeuristicEvaluator],
        &list,
        &part,
        "tiny",
        &stats,
        &|_| {},
    )
    .unwrap();
    let rest = games_in(&part);
    assert_eq!(rest.len(), 3);
    for game in &rest {
        assert!(
            all.contains(game),
            "game {} is not the one it would have been",
            game.seed
        );
        assert!(!kept.contains(&game), "game {} was played again", game.seed);
    }
    assert_eq!(shard_stats(&part, false).unwrap().duplicate_games, 0);
    // The first job's shards beside the second's: the three games are there twice.
    std::fs::rename(&full, part.join("first")).unwrap();
    let both = shard_stats(&part, false).unwrap();
    assert_eq!((both.games, both.duplicate_games), (8, 3));
    std::fs::remove_dir_all(part).unwrap();
}

#[test]
fn a_tampered_replay_is_caught() {
    let net = tiny_net();
    let dir = temp_dir("tamper");
    play(&dir, &small_config(2), NetEvaluator::new(&net), 2, 3);
    let shard = read_shard(&shard_files(&dir).unwrap()[0], None).unwrap();
    let mut game = shard.games[0].clone();
    game.winner = match game.winner {
        Some(_) => None,
        None => Some(jungle_rules::Side::South),
    };
    assert!(verify_game(&game, &Rules::default()).is_err());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn damaged_truncated_and_foreign_shards_are_rejected() {
    let net = tiny_net();
    let dir = temp_dir("damage");
    play(&dir, &small_config(2), NetEvaluator::new(&net), 2, 9);
    let path = shard_files(&dir).unwrap()[0].clone();
    let bytes = std::fs::read(&path).unwrap();
    let check = |name: &str, data: &[u8], expected: Option<&Rules>, needle: &str| {
        let p = dir.join(name);
        std::fs::write(&p, data).unwrap();
        let e = read_shard(&p, expected).unwrap_err().to_string();
        assert!(e.contains(name) && e.contains(needle), "{e}");
    };
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 0x10;
    check("flipped.bin", &flipped, None, "checksum");
    check("truncated.bin", &bytes[..bytes.len() - 9], None, "checksum");
    check("tiny.bin", &bytes[..5], None, "too short");
    assert!(read_shard(&dir.join("tiny.bin"), None).unwrap_err().damaged);
    assert!(
        !read_shard(&dir.join("missing.bin"), None)
            .unwrap_err()
            .damaged
    );
    let mut magic = bytes.clone();
    magic[0] = b'X';
    check("magic.bin", &magic, None, "magic");
    let mut version = bytes.clone();
    version[8] = 99;
    check("version.bin", &version, None, "version 99");
    let other = Rules::preset("trap-attack").unwrap();
    let games = read_shard(&path, None).unwrap().games;
    check(
        "foreign.bin",
        &encode_shard(&other, &games),
        Some(&Rules::default()),
        "another rule set",
    );
    let stats = shard_stats(&dir, false).unwrap();
    assert_eq!(stats.bad_files.len(), 5, "{:?}", stats.bad_files);
    assert_eq!(stats.rule_sets.len(), 2);
    std::fs::remove_dir_all(dir).unwrap();
}

/// Counts the batch sizes the evaluator sees.
struct Counting<E> {
    inner: E,
    batches: std::sync::Arc<std::sync::Mutex<Vec<usize>>>,
}

impl<E: Evaluator> Evaluator for Counting<E> {
    fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
        self.batches.lock().unwrap().push(batch.len());
        self.inner.evaluate(batch)
    }
}

#[test]
fn with_g_games_per_worker_batches_are_at_least_0_8_g() {
    let g = 16;
    let batches = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let dir = temp_dir("batching");
    let evaluator = Counting {
        inner: jungle_mcts::HeuristicEvaluator,
        batches: batches.clone(),
    };
    // More games than slots, so slots are refilled as games end.
    play(&dir, &small_config(g), evaluator, 3 * g as u64, 5);
    let b = batches.lock().unwrap();
    let mean = b.iter().sum::<usize>() as f64 / b.len() as f64;
    // The tail, when fewer than g games are left, drags the mean down a little.
    assert!(
        mean >= 0.8 * g as f64,
        "mean batch {mean:.1} over {} calls",
        b.len()
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn committed_config_file_holds_the_defaults() {
    #[derive(serde::Deserialize)]
    struct File {
        selfplay: SelfPlayConfig,
    }
    let text = include_str!("../../../configs/selfplay.toml");
    let file: File = toml::from_str(text).unwrap();
    assert_eq!(file.selfplay, SelfPlayConfig::default());
    file.selfplay.validate().unwrap();
}

#[test]
fn a_shard_never_replaces_another_and_an_unreadable_folder_is_an_error() {
    let net = tiny_net();
    let dir = temp_dir("no-replace");
    play(&dir, &small_config(2), NetEvaluator::new(&net), 2, 3);
    let first = shard_files(&dir).unwrap();
    assert_eq!(first.len(), 1);
    let before = std::fs::read(&first[0]).unwrap();
    let games = read_shard(&first[0], None).unwrap().games;
    // A writer that still thinks shard 0 is free (another process took it).
    let (path, next) =
        jungle_selfplay::write_new_shard(&dir, 0, &Rules::default(), &games[..1]).unwrap();
    assert_eq!(path.file_name().unwrap(), "shard-000001.bin");
    assert_eq!(next, 2);
    assert_eq!(std::fs::read(&first[0]).unwrap(), before, "shard 0 kept");
    assert_eq!(jungle_selfplay::next_shard_index(&dir).unwrap(), 2);
    // A folder that does not exist yet starts at 0; a path that cannot be
    // read as a folder is an error, not shard 0.
    assert_eq!(
        jungle_selfplay::next_shard_index(&dir.join("new")).unwrap(),
        0
    );
    let e = jungle_selfplay::next_shard_index(&first[0]).unwrap_err();
    assert!(e.to_string().contains("shard-000000.bin"), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// The moves of every game in `dir`'s shards, game by game.
fn moves_in(dir: &Path) -> Vec<Vec<u16>> {
    moves_in_records(&games_in(dir))
}

#[test]
fn the_cheap_searches_keys_change_the_games_and_their_defaults_do_not() {
    let dir = |name: &str| temp_dir(&format!("cheap-{name}"));
    let base = SelfPlayConfig {
        cheap_search_noise: true,
        ..small_config(4)
    };
    let explicit = SelfPlayConfig {
        cheap_considered: base.search.gumbel_considered,
        played_move_noise: 1.0,
        ..base.clone()
    };
    let changed = SelfPlayConfig {
        cheap_considered: 2,
        played_move_noise: 0.0,
        ..base.clone()
    };
    let mut games = Vec::new();
    for (name, cfg) in [
        ("base", &base),
        ("explicit", &explicit),
        ("changed", &changed),
    ] {
        let out = dir(name);
        play(&out, cfg, HeuristicEvaluator, 4, 9);
        games.push(moves_in(&out));
        std::fs::remove_dir_all(out).unwrap();
    }
    assert_eq!(games[0], games[1], "the defaults are today's behaviour");
    assert_ne!(games[0], games[2], "the keys reach the searches");
}

#[test]
fn the_chosen_root_value_changes_the_records_not_the_games() {
    let base = small_config(4);
    let chosen = SelfPlayConfig {
        root_value: jungle_selfplay::RootValue::Chosen,
        ..base.clone()
    };
    let mut runs = Vec::new();
    for (name, cfg) in [("mean", &base), ("chosen", &chosen)] {
        let out = temp_dir(&format!("root-value-{name}"));
        play(&out, cfg, HeuristicEvaluator, 3, 11);
        runs.push(games_in(&out));
        std::fs::remove_dir_all(out).unwrap();
    }
    let values = |games: &[jungle_selfplay::GameRecord]| -> Vec<f32> {
        games
            .iter()
            .flat_map(|g| {
                g.moves
                    .iter()
                    .filter(|m| m.full_search)
                    .map(|m| m.root_value)
            })
            .collect()
    };
    let (mean, chosen) = (values(&runs[0]), values(&runs[1]));
    assert_eq!(moves_in_records(&runs[0]), moves_in_records(&runs[1]));
    assert!(!mean.is_empty());
    assert!(
        chosen.iter().all(|v| (-1.0..=1.0).contains(v)),
        "{chosen:?}"
    );
    // Sequential halving's forced visits pull the mean below the played
    // move's value: the chosen values are higher on the whole.
    let sum = |v: &[f32]| v.iter().sum::<f32>();
    assert!(
        sum(&chosen) > sum(&mean),
        "{} vs {}",
        sum(&chosen),
        sum(&mean)
    );
}

fn moves_in_records(games: &[jungle_selfplay::GameRecord]) -> Vec<Vec<u16>> {
    games
        .iter()
        .map(|g| g.moves.iter().map(|m| m.mv).collect())
        .collect()
}

/// Reads the fixture `name` of format `version` (2 games of
/// `jungle selfplay`, ply cap 24, `networks/bench-4x32`, written by the
/// binary of that version), checks that its games replay and that it
/// rewrites as today's version unchanged; returns its move records.
fn read_old_shard(name: &str, version: u32) -> Vec<jungle_selfplay::MoveRecord> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[8..12], &version.to_le_bytes(), "{name}'s version");
    let shard = read_shard(&path, Some(&Rules::default())).unwrap();
    assert_eq!(shard.games.len(), 2);
    for game in &shard.games {
        verify_game(game, &Rules::default()).unwrap();
    }
    let again = encode_shard(&shard.rules, &shard.games);
    assert_eq!(
        &again[8..12],
        &jungle_selfplay::shard::SHARD_VERSION.to_le_bytes()
    );
    assert_eq!(jungle_selfplay::shard::SHARD_VERSION, 3);
    let decoded = jungle_selfplay::shard::decode_shard(&path, &again).unwrap();
    assert_eq!(decoded.games, shard.games);
    shard.games.into_iter().flat_map(|g| g.moves).collect()
}

#[test]
fn a_version_1_shard_is_read_without_surprises_or_draws() {
    let moves = read_old_shard("shard-v1.bin", 1);
    assert!(moves
        .iter()
        .all(|m| m.surprise.is_none() && m.root_draw.is_none()));
    assert!(moves.iter().any(|m| m.full_search && !m.target.is_empty()));
}

#[test]
fn a_version_2_shard_is_read_with_its_surprises_and_without_draws() {
    let moves = read_old_shard("shard-v2.bin", 2);
    assert!(moves.iter().all(|m| m.root_draw.is_none()));
    assert!(moves
        .iter()
        .filter(|m| m.full_search)
        .all(|m| m.surprise.is_some() && !m.target.is_empty()));
    assert!(moves.iter().any(|m| m.full_search));
}

#[test]
fn searched_moves_record_their_draw_probability() {
    let dir = temp_dir("root-draw");
    play(&dir, &small_config(2), HeuristicEvaluator, 2, 5);
    let games = games_in(&dir);
    let plies = games.iter().map(|g| g.moves.len()).sum::<usize>();
    let searched: Vec<f32> = games
        .iter()
        .flat_map(|g| &g.moves)
        .filter_map(|m| m.root_draw)
        .collect();
    // The random opening plies are not searched: no draw recorded.
    assert!(!searched.is_empty() && searched.len() < plies);
    assert!(
        searched.iter().all(|d| (0.0..=1.0).contains(d)),
        "{searched:?}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn full_searches_record_their_surprise() {
    let dir = temp_dir("surprise");
    play(&dir, &small_config(2), HeuristicEvaluator, 2, 5);
    let games = games_in(&dir);
    let moves: Vec<_> = games.iter().flat_map(|g| &g.moves).collect();
    assert!(moves.iter().any(|m| m.full_search));
    for m in moves {
        match (m.full_search, m.surprise) {
            (true, Some(kl)) => assert!(kl.is_finite() && kl >= 0.0, "{kl}"),
            (false, None) => {}
            other => panic!("full search {} with surprise {:?}", other.0, other.1),
        }
    }
    // A uniform prior and a target on one move: ln(n).
    let kl = jungle_selfplay::record::surprise(&[0.0, 1.0, 0.0, 0.0], &[0.25; 4]);
    assert!((kl - 4f32.ln()).abs() < 1e-6, "{kl}");
    assert_eq!(
        jungle_selfplay::record::surprise(&[0.5, 0.5], &[0.5, 0.5]),
        0.0
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[cfg(unix)]
#[test]
fn folders_are_walked_without_following_symlinks() {
    let dir = temp_dir("walk");
    std::fs::create_dir_all(dir.join("gen-000001")).unwrap();
    std::fs::write(dir.join("a.bin"), b"").unwrap();
    std::fs::write(dir.join("gen-000001/b.bin"), b"").unwrap();
    // A link back to the top and one to itself: no loop.
    std::os::unix::fs::symlink(&dir, dir.join("gen-000001/up")).unwrap();
    std::os::unix::fs::symlink(dir.join("self"), dir.join("self")).unwrap();
    let files = jungle_selfplay::shard::shard_files_within(&dir).unwrap();
    assert_eq!(files, [dir.join("a.bin"), dir.join("gen-000001/b.bin")]);
    std::fs::remove_dir_all(&dir).unwrap();
}
