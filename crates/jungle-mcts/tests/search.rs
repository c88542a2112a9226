//! The search finds what it must: den entries, defences, captures; Gumbel
//! with few simulations; batching across trees; tree reuse; determinism.

use jungle_mcts::{
    forced_loss, run_batched, search, winning_move, wins_in_two, EvalInput, Evaluation, Evaluator,
    HeuristicEvaluator, RootSelection, Search, SearchConfig, UniformEvaluator,
};
use jungle_rules::{Game, Rules};

/// The plain search: without the exact win and loss checks at leaves nor
/// the solver, so that the tests below see what the tree search itself
/// finds.
fn config(simulations: u32) -> SearchConfig {
    SearchConfig {
        simulations,
        win_check: false,
        loss_check: false,
        win_in_two_check: false,
        solver: false,
        ..SearchConfig::default()
    }
}

fn best(fen: &str, cfg: SearchConfig, evaluator: &mut dyn Evaluator, seed: u64) -> String {
    let game = Game::from_fen(Rules::default(), fen).unwrap();
    let mut tree = Search::new(Rules::default(), cfg, seed);
    search(&mut tree, &game, evaluator).best.to_string()
}

/// South: cat d8 next to North's den, lion a1, dog f2; North: elephant g9, wolf a7.
const DEN_IN_ONE: &str = "6e/3C3/w6/7/7/7/7/5D1/L6 w";

#[test]
fn finds_a_den_entry_in_one() {
    assert_eq!(
        best(DEN_IN_ONE, config(200), &mut UniformEvaluator, 1),
        "d8d9"
    );
    assert_eq!(
        best(DEN_IN_ONE, config(200), &mut HeuristicEvaluator, 1),
        "d8d9"
    );
}

#[test]
fn stops_the_opponents_den_entry_in_one() {
    // A North cat on South's trap c1 threatens d1; only the dog on b1 can take it.
    let fen = "6e/7/w6/7/7/7/7/7/1Dc3L w";
    assert_eq!(best(fen, config(400), &mut UniformEvaluator, 2), "b1c1");
    assert_eq!(best(fen, config(400), &mut HeuristicEvaluator, 2), "b1c1");
}

#[test]
fn takes_a_free_elephant_with_the_rat() {
    let fen = "2l4/7/7/e6/R6/7/7/7/2L4 w";
    assert_eq!(best(fen, config(200), &mut HeuristicEvaluator, 3), "a5a6");
}

#[test]
fn uniform_evaluator_prefers_a_winning_capture() {
    // Taking North's last animal wins at once (annihilation).
    let fen = "7/7/7/7/3w3/3T3/7/1C5/7 w";
    assert_eq!(best(fen, config(800), &mut UniformEvaluator, 4), "d4d5");
}

/// The pick and the share of visits that `capture` got, with implicit
/// minimax backups of weight `weight` over the uniform evaluator.
fn minimax_pick(fen: &str, capture: &str, weight: f32) -> (String, f32) {
    let game = Game::from_fen(Rules::default(), fen).unwrap();
    let cfg = SearchConfig {
        minimax_weight: weight,
        ..config(300)
    };
    let mut tree = Search::new(Rules::default(), cfg, 7);
    let result = search(&mut tree, &game, &mut UniformEvaluator);
    let i = result.moves.iter().position(|m| m.to_string() == capture);
    (result.best.to_string(), result.visit_policy[i.unwrap()])
}

#[test]
fn minimax_backups_take_a_free_wolf_and_leave_a_defended_one() {
    // South's lion c3 beside North's wolf d3 (South's rat on g1): the
    // uniform evaluator sees nothing, the quiescence values below do.
    let free = "r6/7/7/7/7/7/2Lw3/7/6R w";
    let (plain, plain_share) = minimax_pick(free, "c3d3", 0.0);
    let (pick, share) = minimax_pick(free, "c3d3", 0.5);
    assert_eq!(pick, "c3d3", "without the weight: {plain}");
    assert!(share > plain_share + 0.2, "{share} vs {plain_share}");
    // North's elephant on d4 retakes: the lion does not take.
    let defended = "r6/7/7/7/7/3e3/2Lw3/7/6R w";
    let (_, plain_share) = minimax_pick(defended, "c3d3", 0.0);
    let (pick, share) = minimax_pick(defended, "c3d3", 0.5);
    assert_ne!(pick, "c3d3");
    assert!(share < plain_share, "{share} vs {plain_share}");
}

#[test]
fn gumbel_with_16_simulations_finds_the_only_winning_move() {
    for seed in 0..8 {
        let cfg = SearchConfig {
            root: RootSelection::Gumbel,
            gumbel_noise: true,
            ..config(16)
        };
        let game = Game::from_fen(Rules::default(), DEN_IN_ONE).unwrap();
        let mut tree = Search::new(Rules::default(), cfg, seed);
        let result = search(&mut tree, &game, &mut UniformEvaluator);
        assert_eq!(result.best.to_string(), "d8d9", "seed {seed}");
        assert_eq!(result.simulations, 16);
        // The improved policy puts most mass on the winning move.
        let i = result
            .moves
            .iter()
            .position(|m| m.to_string() == "d8d9")
            .unwrap();
        assert!(
            result.improved_policy[i] > 0.5,
            "{:?}",
            result.improved_policy
        );
        let sum: f32 = result.improved_policy.iter().sum();
        assert!((sum - 1.0).abs() < 1e-4);
    }
}

#[test]
fn win_check_plays_a_den_entry_without_searching() {
    let cfg = SearchConfig {
        root: RootSelection::Gumbel,
        gumbel_noise: true,
        ..SearchConfig::default()
    };
    assert!(cfg.win_check);
    let game = Game::from_fen(Rules::default(), DEN_IN_ONE).unwrap();
    let mut tree = Search::new(Rules::default(), cfg, 5);
    let mut counting = Counting::default();
    let result = search(&mut tree, &game, &mut counting);
    assert_eq!(result.best.to_string(), "d8d9");
    assert_eq!(result.pv.len(), 1);
    assert_eq!(result.value, 1.0);
    // Only the root was evaluated.
    assert_eq!(result.simulations, 0);
    assert_eq!(counting.batches, vec![1]);
    let i = result
        .moves
        .iter()
        .position(|m| m.to_string() == "d8d9")
        .unwrap();
    assert_eq!(result.improved_policy[i], 1.0);
    assert_eq!(result.improved_policy.iter().sum::<f32>(), 1.0);
}

/// Records, for every position sent to it, whether the side to move could
/// win at once there and whether every move there loses at once.
#[derive(Default)]
struct Tactics {
    won: usize,
    lost: usize,
    won_in_two: usize,
    seen: usize,
}

impl Evaluator for Tactics {
    fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
        for input in batch {
            let (pos, moves) = (input.position, input.legal_moves);
            self.seen += 1;
            if winning_move(pos, moves).is_some() {
                self.won += 1;
            } else if forced_loss(pos, &Rules::default(), moves, &[pos.hash()]) {
                self.lost += 1;
            } else if wins_in_two(pos, &Rules::default(), moves, &[pos.hash()]) {
                self.won_in_two += 1;
            }
        }
        UniformEvaluator.evaluate(batch)
    }
}

fn tactics_seen(fen: &str, win_check: bool, loss_check: bool) -> (Tactics, String) {
    let cfg = SearchConfig {
        win_check,
        loss_check,
        ..config(300)
    };
    let mut tactics = Tactics::default();
    let best = best(fen, cfg, &mut tactics, 7);
    (tactics, best)
}

#[test]
fn win_and_loss_checks_keep_decided_leaves_from_the_evaluator() {
    // North's cat on South's trap c1 threatens the den; South's dog on b1
    // takes it. North's rat on e2 then steps to e1 (or d2), a threat the
    // dog on c1 can only meet on d2.
    let fen = "6L/7/7/7/7/7/7/4r2/1Dc4 w";
    let (off, _) = tactics_seen(fen, false, false);
    assert!(
        off.won > 0 && off.lost > 0,
        "won {} lost {}",
        off.won,
        off.lost
    );
    let (win_only, best) = tactics_seen(fen, true, false);
    assert_eq!(win_only.won, 0);
    assert!(win_only.lost > 0);
    assert_eq!(best, "b1c1");
    let (both, best) = tactics_seen(fen, true, true);
    assert_eq!((both.won, both.lost), (0, 0), "of {}", both.seen);
    assert_eq!(best, "b1c1");
}

#[test]
fn win_in_two_check_keeps_won_in_two_leaves_from_the_evaluator() {
    // South's rat on d6, two steps from d8 beside North's den; North's
    // tiger on a1 is far away.
    let fen = "7/7/7/3R3/7/7/7/7/t6 w 10";
    let seen = |win_in_two_check: bool| {
        let cfg = SearchConfig {
            win_check: true,
            loss_check: true,
            win_in_two_check,
            ..config(300)
        };
        let mut tactics = Tactics::default();
        best(fen, cfg, &mut tactics, 5);
        tactics
    };
    let off = seen(false);
    assert!(off.won_in_two > 0, "of {}", off.seen);
    let on = seen(true);
    assert_eq!(on.won_in_two, 0, "of {}", on.seen);
}

/// South's rat on d6 wins in three moves (d7, d8, then the den d9);
/// North's tiger on a1 is too far away to matter.
const RAT_WINS_IN_THREE: &str = "7/7/7/3R3/7/7/7/7/t6 w 10";

/// The exact leaf checks on, win in two off: proofs deeper than the
/// checks come from the solver alone.
fn solver_config(solver: bool, simulations: u32) -> SearchConfig {
    SearchConfig {
        win_check: true,
        loss_check: true,
        win_in_two_check: false,
        solver,
        ..config(simulations)
    }
}

#[test]
fn the_solver_proves_a_win_in_three_and_stops_searching() {
    let game = Game::from_fen(Rules::default(), RAT_WINS_IN_THREE).unwrap();
    let mut tree = Search::new(Rules::default(), solver_config(true, 2000), 3);
    let result = search(&mut tree, &game, &mut UniformEvaluator);
    assert_eq!(result.best.to_string(), "d6d7");
    assert_eq!(result.value, 1.0, "a proven win");
    assert_eq!((result.draw, result.wdl()), (0.0, [1.0, 0.0, 0.0]));
    assert!(result.simulations < 2000, "{}", result.simulations);
    let i = result.moves.iter().position(|&m| m == result.best).unwrap();
    assert_eq!(result.improved_policy[i], 1.0);

    // Without the solver the same search spends its budget and only
    // approaches the win.
    let mut plain = Search::new(Rules::default(), solver_config(false, 2000), 3);
    let result = search(&mut plain, &game, &mut UniformEvaluator);
    assert_eq!(result.simulations, 2000);
    assert!(result.value < 1.0, "{}", result.value);
}

#[test]
fn a_proof_survives_in_the_reused_tree() {
    let mut game = Game::from_fen(Rules::default(), RAT_WINS_IN_THREE).unwrap();
    let mut tree = Search::new(Rules::default(), solver_config(true, 2000), 3);
    let first = search(&mut tree, &game, &mut UniformEvaluator);
    game.play(first.best).unwrap();
    game.play("a1a2".parse().unwrap()).unwrap();
    let mut counting = Counting::default();
    let second = search(&mut tree, &game, &mut counting);
    assert_eq!(second.best.to_string(), "d7d8");
    assert_eq!(second.value, 1.0);
    assert_eq!(second.simulations, 0, "the kept proof decides at once");
    assert!(counting.batches.is_empty(), "{:?}", counting.batches);
}

/// Uniform, except that the first legal move whose text starts with the
/// given prefix (a from-square, or a whole move) gets nearly all the prior.
struct PriorOn(&'static str);

impl Evaluator for PriorOn {
    fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
        let mut evals = UniformEvaluator.evaluate(batch);
        for (input, eval) in batch.iter().zip(&mut evals) {
            let chosen = |i: usize| input.legal_moves[i].to_string().starts_with(self.0);
            if let Some(k) = (0..input.legal_moves.len()).find(|&i| chosen(i)) {
                eval.policy.iter_mut().for_each(|p| *p = 0.001);
                eval.policy[k] = 1.0;
                let sum: f32 = eval.policy.iter().sum();
                eval.policy.iter_mut().for_each(|p| *p /= sum);
            }
        }
        evals
    }
}

#[test]
fn the_solver_never_revisits_a_proven_lost_move() {
    // North's cat on c1 threatens South's den; only the dog's capture
    // b1c1 stops it, but the prior points at the lion on g1.
    let fen = "6e/7/w6/7/7/7/7/7/1Dc3L w";
    let run = |solver: bool| {
        let cfg = SearchConfig {
            loss_check: false,
            ..solver_config(solver, 60)
        };
        let game = Game::from_fen(Rules::default(), fen).unwrap();
        let mut tree = Search::new(Rules::default(), cfg, 4);
        search(&mut tree, &game, &mut PriorOn("g1"))
    };
    let with = run(true);
    assert_eq!(with.best.to_string(), "b1c1");
    let lion = with
        .moves
        .iter()
        .position(|m| m.from().to_string() == "g1")
        .unwrap();
    assert_eq!(with.visits[lion], 1, "{:?}", with.visits);
    // Without it the prior keeps drawing visits to the lost move.
    let without = run(false);
    assert!(without.visits[lion] > 10, "{:?}", without.visits);
}

/// Counts calls and batch sizes.
#[derive(Default)]
struct Counting {
    batches: Vec<usize>,
}

impl Evaluator for Counting {
    fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
        self.batches.push(batch.len());
        UniformEvaluator.evaluate(batch)
    }
}

#[test]
fn k_games_in_flight_give_batches_of_k() {
    let k = 8;
    let game = Game::new(Rules::default());
    let mut searches: Vec<Search> = (0..k)
        .map(|i| Search::new(Rules::default(), config(32), i as u64))
        .collect();
    for s in &mut searches {
        s.begin(&game, 32);
    }
    let mut counting = Counting::default();
    run_batched(&mut searches, &mut counting);
    assert!(!counting.batches.is_empty());
    assert!(
        counting.batches.iter().all(|&b| b == k),
        "{:?}",
        counting.batches
    );
    // One root evaluation plus one per simulation, per tree.
    assert_eq!(counting.batches.len(), 33);
}

#[test]
fn several_leaves_per_tree_with_virtual_loss() {
    let (k, leaves) = (4, 8);
    let game = Game::new(Rules::default());
    let cfg = SearchConfig {
        simulations: 64,
        leaves_per_round: leaves,
        ..SearchConfig::default()
    };
    let mut searches: Vec<Search> = (0..k)
        .map(|i| Search::new(Rules::default(), cfg.clone(), i as u64))
        .collect();
    for s in &mut searches {
        s.begin(&game, 64);
    }
    let mut counting = Counting::default();
    run_batched(&mut searches, &mut counting);
    // After the root round, each call carries up to k * leaves positions.
    let after_root = &counting.batches[1..];
    let mean = after_root.iter().sum::<usize>() as f64 / after_root.len() as f64;
    assert!(mean >= 0.8 * (k * leaves) as f64, "{:?}", counting.batches);
    for s in &mut searches {
        let r = s.result();
        assert_eq!(r.visits.iter().sum::<u32>(), 64);
    }
}

#[test]
fn the_tree_is_reused_after_moves_are_played() {
    let mut game = Game::new(Rules::default());
    let mut tree = Search::new(Rules::default(), config(400), 5);
    let first = search(&mut tree, &game, &mut HeuristicEvaluator);
    game.play(first.pv[0]).unwrap();
    game.play(first.pv[1]).unwrap();
    tree.begin(&game, 400);
    let kept = tree.result().visits.iter().sum::<u32>();
    assert!(kept > 0, "the subtree of the expected line is kept");
    run_batched(std::slice::from_mut(&mut tree), &mut HeuristicEvaluator);
    let second = tree.result();
    assert_eq!(second.simulations, 400);
    assert_eq!(second.visits.iter().sum::<u32>(), kept + 400);
    // Without reuse, the counts start from zero.
    let mut fresh = Search::new(
        Rules::default(),
        SearchConfig {
            reuse_tree: false,
            ..config(400)
        },
        5,
    );
    let r = search(&mut fresh, &game, &mut HeuristicEvaluator);
    assert_eq!(r.visits.iter().sum::<u32>(), 400);
}

#[test]
fn search_is_deterministic_for_a_seed_with_noise_and_temperature() {
    let cfg = SearchConfig {
        simulations: 100,
        dirichlet_fraction: 0.25,
        temperature: 1.0,
        ..SearchConfig::default()
    };
    let game = Game::new(Rules::default());
    let run = |seed| {
        search(
            &mut Search::new(Rules::default(), cfg.clone(), seed),
            &game,
            &mut HeuristicEvaluator,
        )
    };
    assert_eq!(run(9), run(9));
    let differ = (0..6).any(|s| run(s).visits != run(9).visits);
    assert!(differ, "noise depends on the seed");
}

#[test]
fn a_forced_draw_by_repetition_is_scored_as_a_draw() {
    // With repetition = 2, South's dog shuffle repeats at once: every line
    // from the root ends in a draw within two plies, or loses material.
    let rules = Rules {
        repetition: 2,
        ..Rules::default()
    };
    let mut game = Game::from_fen(rules.clone(), "6d/7/7/7/7/7/7/7/6D w").unwrap();
    for mv in ["g1g2", "g9g8"] {
        game.play_text(mv).unwrap();
    }
    let mut tree = Search::new(rules, config(300), 1);
    let r = search(&mut tree, &game, &mut UniformEvaluator);
    // Going back to g1 repeats the start: a draw, scored exactly 0.
    let back = r
        .moves
        .iter()
        .position(|m| m.to_string() == "g2g1")
        .unwrap();
    assert!(r.visits[back] > 0);
    assert!(r.value.abs() < 0.5, "value {}", r.value);
    // The drawn ends carry their draw mass to the root (the uniform
    // evaluator's leaves carry none), and the win/draw/loss reads it.
    let drawn = r.draw;
    assert!(drawn > 0.05 && drawn <= 1.0, "draw {drawn}");
    let wdl = r.wdl();
    assert!((wdl[1] - drawn).abs() < 1e-6 && (wdl.iter().sum::<f32>() - 1.0).abs() < 1e-5);
}

/// Uniform priors and one win/draw/loss for every position.
struct Drawish([f32; 3]);

impl Evaluator for Drawish {
    fn evaluate(&mut self, batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
        batch
            .iter()
            .map(|input| Evaluation {
                wdl: self.0,
                ..Evaluation::uniform(input.legal_moves.len(), 0.0)
            })
            .collect()
    }
}

#[test]
fn the_search_backs_up_its_leaves_draw_mass() {
    let game = Game::new(Rules::default());
    for (wdl, draw) in [([0.2, 0.6, 0.2], 0.6), ([0.5, 0.1, 0.4], 0.1)] {
        let mut tree = Search::new(Rules::default(), config(64), 1);
        let r = search(&mut tree, &game, &mut Drawish(wdl));
        // No game ends within reach of the start: every leaf is the
        // evaluator's, so the root's mean draw is exactly theirs.
        assert!((r.draw - draw).abs() < 1e-4, "{} vs {draw}", r.draw);
        assert!((r.chosen_draw - draw).abs() < 1e-4, "{}", r.chosen_draw);
        let w = r.wdl();
        assert!(
            (w[0] - w[2] - r.value).abs() < 1e-5 && (w[1] - draw).abs() < 1e-4,
            "{w:?}"
        );
    }
}

#[test]
fn root_noise_can_be_switched_off_per_search() {
    // From the start under uniform priors every move ties, so the Gumbel
    // sample alone picks the move: with noise on, seeds disagree; off, the
    // choice is the same for every seed.
    let cfg = SearchConfig {
        simulations: 16,
        root: RootSelection::Gumbel,
        gumbel_noise: true,
        ..SearchConfig::default()
    };
    let game = Game::new(Rules::default());
    let choice = |seed: u64, noise: bool| {
        let mut tree = Search::new(Rules::default(), cfg.clone(), seed);
        tree.set_root_noise(noise);
        search(&mut tree, &game, &mut HeuristicEvaluator).best
    };
    let noisy: std::collections::HashSet<_> = (0..12).map(|s| choice(s, true)).collect();
    let quiet: std::collections::HashSet<_> = (0..12).map(|s| choice(s, false)).collect();
    assert!(noisy.len() > 1, "noise on: {noisy:?}");
    assert_eq!(quiet.len(), 1, "noise off: {quiet:?}");
}

/// The move South picks after the tiger and the lion have stepped back and
/// forth, so that g2g1 would repeat a position a third time (a draw).
fn pick_beside_a_repetition(draw_value: f32) -> String {
    let mut game = Game::from_fen(Rules::default(), "t6/7/7/7/7/7/7/7/6L b 10").unwrap();
    for mv in ["a9a8", "g1g2", "a8a9", "g2g1", "a9a8", "g1g2", "a8a9"] {
        game.play_text(mv).unwrap();
    }
    let cfg = SearchConfig {
        draw_value,
        ..config(200)
    };
    let mut tree = Search::new(Rules::default(), cfg, 3);
    search(&mut tree, &game, &mut UniformEvaluator)
        .best
        .to_string()
}

#[test]
fn draw_value_steers_toward_or_away_from_a_repetition() {
    assert_eq!(pick_beside_a_repetition(0.5), "g2g1");
    assert_ne!(pick_beside_a_repetition(-0.5), "g2g1");
}

/// The plain search with the root safety check of `moves` own moves.
fn safety_config(moves: u32, simulations: u32) -> SearchConfig {
    SearchConfig {
        safety_moves: moves,
        ..config(simulations)
    }
}

#[test]
fn the_safety_check_plays_a_forced_win_the_search_missed() {
    let game = Game::from_fen(Rules::default(), RAT_WINS_IN_THREE).unwrap();
    let run = |moves: u32| {
        let mut tree = Search::new(Rules::default(), safety_config(moves, 4), 5);
        search(&mut tree, &game, &mut PriorOn("d6d5"))
    };
    let without = run(0);
    assert_eq!(without.best.to_string(), "d6d5", "the prior's move");
    let with = run(3);
    assert_eq!(with.best.to_string(), "d6d7");
    assert_eq!(with.value, 1.0, "a forced win");
    assert_eq!(with.pv, vec![with.best]);
    assert_eq!(
        with.improved_policy, without.improved_policy,
        "the training target is the search's own"
    );
    // Two moves ahead is not far enough to see it.
    assert_eq!(run(2).best.to_string(), "d6d5");
}

#[test]
fn the_safety_check_avoids_a_move_that_loses_in_three() {
    // North to move: South's rat on d6 runs for the den d9; North's cat on
    // b8 must stay within reach of the trap d8 (b8c8, or keep still and
    // move the tiger), while b8b9, b8a8 and b8b7 lose.
    let fen = "7/1c5/7/3R3/7/7/6t/7/7 b 10";
    let game = Game::from_fen(Rules::default(), fen).unwrap();
    let run = |moves: u32| {
        let mut tree = Search::new(Rules::default(), safety_config(moves, 4), 6);
        search(&mut tree, &game, &mut PriorOn("b8b9"))
    };
    assert_eq!(run(0).best.to_string(), "b8b9", "the prior's move");
    let checked = run(3);
    let safe = checked.best.to_string();
    assert!(
        ["b8c8", "g3g2", "g3f3", "g3g4"].contains(&safe.as_str()),
        "{safe}"
    );
    assert_eq!(
        checked.pv[0], checked.best,
        "the line starts with the move played"
    );
    assert_eq!(
        run(2).best.to_string(),
        "b8b9",
        "the loss is three moves deep"
    );
}
