//! The baseline players: each does what its name says, is deterministic for
//! its seed, and stronger settings beat weaker ones.

use jungle_play::arena::{run_match, ArenaConfig, MatchGame, MatchSummary};
use jungle_play::{load_player, PlayerFactory};
use jungle_rules::{Game, Rules};

fn spec(s: &str) -> Box<dyn PlayerFactory> {
    load_player(s).unwrap()
}

fn choose(player: &str, fen: &str, seed: u64) -> String {
    let rules = Rules::default();
    let game = Game::from_fen(rules.clone(), fen).unwrap();
    spec(player)
        .build(&rules, seed)
        .choose(&game)
        .mv
        .to_string()
}

fn summary(a: &str, b: &str, games: u32, seed: u64) -> MatchSummary {
    let cfg = ArenaConfig::new(Rules::default(), games, seed);
    let records = run_match(spec(a).as_ref(), spec(b).as_ref(), &cfg, &|_| {});
    MatchSummary::new(a, b, &records)
}

#[test]
fn greedy_enters_the_den_or_takes_the_best_capture() {
    // Den entry beats taking the elephant.
    let fen = "6e/3C3/w6/7/7/7/7/5D1/L6 w";
    for seed in 0..5 {
        assert_eq!(choose("greedy", fen, seed), "d8d9");
    }
    // Rat a5 can take the elephant a6; the lion can take the cat.
    let fen = "2l4/7/7/e6/R6/7/2c4/2L4/7 w";
    for seed in 0..5 {
        assert_eq!(choose("greedy", fen, seed), "a5a6");
    }
}

#[test]
fn searching_players_find_den_entries_and_defences() {
    let den = "6e/3C3/w6/7/7/7/7/5D1/L6 w";
    let defend = "6e/7/w6/7/7/7/7/7/1Dc3L w";
    for player in ["alphabeta:1", "alphabeta:3", "mcts:200"] {
        assert_eq!(choose(player, den, 1), "d8d9", "{player}");
        assert_eq!(choose(player, defend, 1), "b1c1", "{player}");
    }
}

#[test]
fn players_are_deterministic_for_a_seed() {
    for player in ["random", "greedy", "alphabeta:2", "mcts:50"] {
        let cfg = ArenaConfig::new(Rules::default(), 2, 11);
        let p = spec(player);
        let once = run_match(p.as_ref(), spec("random").as_ref(), &cfg, &|_| {});
        let twice = run_match(p.as_ref(), spec("random").as_ref(), &cfg, &|_| {});
        let moves = |r: &Vec<MatchGame>| r.iter().map(|g| g.moves.clone()).collect::<Vec<_>>();
        assert_eq!(moves(&once), moves(&twice), "{player}");
    }
}

#[test]
fn alphabeta_3_beats_random() {
    let s = summary("alphabeta:3", "random", 20, 1);
    assert!(s.a_wins >= 19, "{s:?}");
}

#[test]
fn alphabeta_4_scores_more_than_alphabeta_1() {
    let s = summary("alphabeta:4", "alphabeta:1", 40, 2);
    assert!(s.score > 0.5, "{s:?}");
}

#[test]
fn mcts_beats_random() {
    let s = summary("mcts:100", "random", 10, 3);
    assert!(s.a_wins >= 9, "{s:?}");
}

#[test]
fn match_summary_adds_up() {
    let s = summary("greedy", "random", 12, 4);
    assert_eq!(s.games, 12);
    assert_eq!(s.a_wins + s.draws + s.b_wins, 12);
    assert_eq!(s.reasons.values().sum::<u32>(), 12);
    assert!(s.score_ci95[0] <= s.score && s.score <= s.score_ci95[1]);
    assert!(s.elo_ci95[0] <= s.elo && s.elo <= s.elo_ci95[1]);
    assert!(s.mean_plies >= 4.0);
}

#[test]
fn a_match_times_every_move_each_player_chose() {
    let cfg = ArenaConfig::new(Rules::default(), 4, 5);
    let records = run_match(
        spec("alphabeta:3").as_ref(),
        spec("random").as_ref(),
        &cfg,
        &|_| {},
    );
    for r in &records {
        let (a, b) = (r.a_time(), r.b_time());
        assert_eq!(a.moves + b.moves + cfg.opening_plies, r.plies, "{r:?}");
        assert!(a.moves.abs_diff(b.moves) <= 1, "{r:?}");
        assert!(a.seconds > 0.0 && b.seconds >= 0.0, "{r:?}");
    }
    // A depth-3 search takes far longer per move than a random pick.
    let s = MatchSummary::new("alphabeta:3", "random", &records);
    assert!(s.a_ms_per_move > 10.0 * s.b_ms_per_move, "{s:?}");
}

#[test]
fn a_match_resumed_at_a_game_plays_the_games_it_would_have_played() {
    let mut cfg = ArenaConfig::new(Rules::default(), 6, 5);
    let (a, b) = (spec("greedy"), spec("alphabeta:1"));
    let whole = run_match(a.as_ref(), b.as_ref(), &cfg, &|_| {});
    cfg.first_game = 4;
    let rest = run_match(a.as_ref(), b.as_ref(), &cfg, &|_| {});
    assert_eq!(rest.len(), 2);
    for (r, w) in rest.iter().zip(&whole[4..]) {
        assert_eq!((r.index, r.a_side, &r.moves), (w.index, w.a_side, &w.moves));
    }
}
