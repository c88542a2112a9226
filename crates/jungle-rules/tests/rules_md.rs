//! One test per numbered rule of docs/RULES.md and per variant switch, each on
//! positions built from FEN, checking the exact legal moves or the exact
//! outcome.

mod common;

use common::{fen, legal, moves, moves_from, pos, set};
use jungle_rules::{
    EndReason, Game, GameError, JumpRule, NoMoveOutcome, Outcome, RepetitionOutcome, Rules, Side,
};

fn std_rules() -> Rules {
    Rules::default()
}

// ---------------------------------------------------------------- Moving

#[test]
fn moving_1_one_square_orthogonally_no_pass() {
    // A lone South dog on d3: exactly the four orthogonal steps.
    let p = pos(&[("d3", 'D'), ("g9", 'r')], "w");
    assert_eq!(
        moves(&p, &std_rules()),
        set(&["d3d2", "d3d4", "d3c3", "d3e3"])
    );
    // North moves its own animals only.
    let p = pos(&[("d3", 'D'), ("a8", 'w')], "b");
    assert_eq!(moves(&p, &std_rules()), set(&["a8a9", "a8a7", "a8b8"]));
}

#[test]
fn moving_2_no_animal_enters_its_own_den() {
    let p = pos(&[("d2", 'C'), ("g9", 'r')], "w");
    assert_eq!(moves(&p, &std_rules()), set(&["d2d3", "d2c2", "d2e2"]));
    let p = pos(&[("d8", 'c'), ("c1", 'D'), ("e9", 'R')], "b");
    assert_eq!(
        moves_from(&p, &std_rules(), "d8"),
        set(&["d8d7", "d8c8", "d8e8"])
    );
    // ... but may enter the enemy's den.
    let p = pos(&[("d8", 'C'), ("a1", 'r')], "w");
    assert!(legal(&p, &std_rules(), "d8d9"));
}

#[test]
fn moving_3_no_animal_moves_onto_its_own_side() {
    let p = pos(&[("d3", 'D'), ("d4", 'C'), ("c3", 'W'), ("g9", 'r')], "w");
    assert_eq!(moves_from(&p, &std_rules(), "d3"), set(&["d3d2", "d3e3"]));
}

#[test]
fn moving_4_only_the_rat_enters_water() {
    let rules = std_rules();
    let p = pos(&[("a4", 'D'), ("g4", 'R'), ("a9", 'r')], "w");
    assert_eq!(moves_from(&p, &rules, "a4"), set(&["a4a3", "a4a5"]));
    assert_eq!(moves_from(&p, &rules, "g4"), set(&["g4g3", "g4g5", "g4f4"]));
    // A rat in the river moves one square at a time, into, through and out.
    let p = pos(&[("b5", 'R'), ("g9", 'r')], "w");
    assert_eq!(moves(&p, &rules), set(&["b5b4", "b5b6", "b5a5", "b5c5"]));
    // The rat never jumps.
    let p = pos(&[("b3", 'R'), ("g9", 'r')], "w");
    assert_eq!(moves(&p, &rules), set(&["b3b2", "b3b4", "b3a3", "b3c3"]));
}

#[test]
fn moving_5_lion_and_tiger_jump_rivers() {
    let rules = std_rules();
    // Vertical: b3 -> b7 over b4 b5 b6; the steps into water are not allowed.
    let p = pos(&[("b3", 'L'), ("g9", 'r')], "w");
    assert_eq!(moves(&p, &rules), set(&["b3b2", "b3a3", "b3c3", "b3b7"]));
    // Horizontal from the middle file: both rivers.
    let p = pos(&[("d5", 'T'), ("a9", 'r')], "w");
    assert_eq!(moves(&p, &rules), set(&["d5d4", "d5d6", "d5a5", "d5g5"]));
    // North's tiger jumps down.
    let p = pos(&[("f7", 't'), ("a1", 'R')], "b");
    assert_eq!(moves(&p, &rules), set(&["f7f8", "f7e7", "f7g7", "f7f3"]));
    // From the edge file.
    let p = pos(&[("g6", 'L'), ("a1", 'r')], "w");
    assert_eq!(moves(&p, &rules), set(&["g6g5", "g6g7", "g6d6"]));
}

#[test]
fn moving_5_a_jump_is_blocked_by_a_rat_of_either_side() {
    let rules = std_rules();
    let own_rat = pos(&[("b3", 'L'), ("b5", 'R'), ("g9", 'r')], "w");
    assert!(!legal(&own_rat, &rules, "b3b7"));
    let enemy_rat = pos(&[("b3", 'L'), ("b6", 'r'), ("g9", 'c')], "w");
    assert!(!legal(&enemy_rat, &rules, "b3b7"));
    let horizontal = pos(&[("a4", 'T'), ("c4", 'r'), ("g9", 'c')], "w");
    assert_eq!(
        moves_from(&horizontal, &rules, "a4"),
        set(&["a4a3", "a4a5"])
    );
    // A rat in the other river does not block.
    let other_river = pos(&[("a4", 'T'), ("e4", 'r'), ("g9", 'c')], "w");
    assert!(legal(&other_river, &rules, "a4d4"));
}

#[test]
fn moving_5_a_jump_captures_weaker_but_not_stronger() {
    let rules = std_rules();
    let weaker = pos(&[("b3", 'L'), ("b7", 't'), ("g9", 'r')], "w");
    assert!(legal(&weaker, &rules, "b3b7"));
    let equal = pos(&[("b3", 'L'), ("b7", 'l'), ("g9", 'r')], "w");
    assert!(legal(&equal, &rules, "b3b7"));
    let stronger = pos(&[("b3", 'L'), ("b7", 'e'), ("g9", 'r')], "w");
    assert!(!legal(&stronger, &rules, "b3b7"));
    let own = pos(&[("b3", 'L'), ("b7", 'C'), ("g9", 'r')], "w");
    assert!(!legal(&own, &rules, "b3b7"));
    let mut game =
        Game::from_fen(rules, &fen(&[("d5", 'T'), ("g5", 'w'), ("a9", 'r')], "w")).unwrap();
    game.play_text("d5g5").unwrap();
    assert!(game.position().occupied(Side::North).len() == 1);
}

// ------------------------------------------------------------- Capturing

#[test]
fn capturing_1_rank_rule_equal_ranks_capture_each_other() {
    let rules = std_rules();
    let wolf = |enemy: char| pos(&[("d5", 'W'), ("d6", enemy), ("a1", 'R')], "w");
    assert!(legal(&wolf('d'), &rules, "d5d6"));
    assert!(legal(&wolf('w'), &rules, "d5d6"));
    assert!(!legal(&wolf('p'), &rules, "d5d6"));
    assert!(!legal(&wolf('e'), &rules, "d5d6"));
    // Same from North's side.
    let p = pos(&[("d6", 'w'), ("d5", 'W'), ("a9", 'r')], "b");
    assert!(legal(&p, &rules, "d6d5"));
}

#[test]
fn capturing_2_rat_takes_elephant_elephant_does_not_take_rat() {
    let rules = std_rules();
    let p = pos(&[("a5", 'R'), ("a6", 'e'), ("g1", 'L'), ("g9", 'l')], "w");
    assert!(legal(&p, &rules, "a5a6"));
    let p = pos(&[("a5", 'R'), ("a6", 'e'), ("g1", 'L'), ("g9", 'l')], "b");
    assert_eq!(moves_from(&p, &rules, "a6"), set(&["a6a7"]));
}

#[test]
fn switch_elephant_captures_rat() {
    let p = pos(&[("a5", 'R'), ("a6", 'e'), ("g1", 'L'), ("g9", 'l')], "b");
    assert!(!legal(&p, &std_rules(), "a6a5"));
    let on = Rules {
        elephant_captures_rat: true,
        ..Rules::default()
    };
    assert!(legal(&p, &on, "a6a5"));
    // The rat still takes the elephant.
    let p = pos(&[("a5", 'R'), ("a6", 'e'), ("g1", 'L'), ("g9", 'l')], "w");
    assert!(legal(&p, &on, "a5a6"));
    // Not a rat in water: the bank rule still holds.
    let p = pos(&[("b5", 'R'), ("a5", 'e'), ("g1", 'L'), ("g9", 'l')], "b");
    assert!(!legal(&p, &on, "a5b5"));
}

#[test]
fn capturing_3_no_capture_across_the_bank() {
    let rules = std_rules();
    // Rat in water vs rat on land, both directions.
    let water_attacks_land = pos(&[("b5", 'R'), ("a5", 'r')], "w");
    assert_eq!(
        moves(&water_attacks_land, &rules),
        set(&["b5b4", "b5b6", "b5c5"])
    );
    let land_attacks_water = pos(&[("b5", 'R'), ("a5", 'r')], "b");
    assert_eq!(moves(&land_attacks_water, &rules), set(&["a5a4", "a5a6"]));
    // Rat in water takes rat in water.
    let both_in_water = pos(&[("b5", 'R'), ("b6", 'r')], "w");
    assert!(legal(&both_in_water, &rules, "b5b6"));
    // Rat takes elephant from land, not from water.
    let from_land = pos(&[("a4", 'R'), ("a5", 'e'), ("g9", 'l')], "w");
    assert!(legal(&from_land, &rules, "a4a5"));
    let from_water = pos(&[("b5", 'R'), ("a5", 'e'), ("g9", 'l')], "w");
    assert!(!legal(&from_water, &rules, "b5a5"));
    // A land animal cannot reach a rat in water at all.
    let lion = pos(&[("a5", 'L'), ("b5", 'r')], "w");
    assert_eq!(moves(&lion, &rules), set(&["a5a4", "a5a6"]));
}

#[test]
fn switch_rat_capture_across_bank() {
    let on = Rules {
        rat_capture_across_bank: true,
        ..Rules::default()
    };
    let water_attacks_land = pos(&[("b5", 'R'), ("a5", 'r')], "w");
    assert!(legal(&water_attacks_land, &on, "b5a5"));
    let land_attacks_water = pos(&[("b5", 'R'), ("a5", 'r')], "b");
    assert!(legal(&land_attacks_water, &on, "a5b5"));
    let from_water = pos(&[("b5", 'R'), ("a5", 'e'), ("g9", 'l')], "w");
    assert!(legal(&from_water, &on, "b5a5"));
    // Ranks still apply: a rat in water cannot take a cat on the bank.
    let cat = pos(&[("b5", 'R'), ("a5", 'c'), ("g9", 'l')], "w");
    assert!(!legal(&cat, &on, "b5a5"));
}

#[test]
fn capturing_4_an_animal_on_an_enemy_trap_has_rank_zero() {
    let rules = std_rules();
    // North elephant on South's trap d2: a South rat takes it.
    let p = pos(&[("d2", 'e'), ("d3", 'R'), ("g9", 'l')], "w");
    assert!(legal(&p, &rules, "d3d2"));
    // A South cat too.
    let p = pos(&[("d2", 'l'), ("c2", 'C'), ("g9", 'e')], "w");
    assert!(legal(&p, &rules, "c2d2"));
    // An elephant takes a rat standing on the elephant's own side's trap.
    let p = pos(&[("e1", 'r'), ("e2", 'E'), ("g9", 'l')], "w");
    assert!(legal(&p, &rules, "e2e1"));
    // The rank returns when it leaves: on d3 the elephant is safe from the cat.
    let p = pos(&[("d3", 'e'), ("c3", 'C'), ("g9", 'l')], "w");
    assert!(!legal(&p, &rules, "c3d3"));
    // Own traps do nothing: a South lion on its own trap d2 is safe from a tiger.
    let p = pos(&[("d2", 'L'), ("d3", 't'), ("g9", 'e')], "b");
    assert!(!legal(&p, &rules, "d3d2"));
    // North's traps work the same way for North.
    let p = pos(&[("d8", 'E'), ("d7", 'r'), ("a1", 'L')], "b");
    assert!(legal(&p, &rules, "d7d8"));
}

#[test]
fn capturing_5_a_trapped_animal_cannot_capture() {
    let rules = std_rules();
    // A North lion on South's trap d2 next to a South dog.
    let p = pos(&[("d2", 'l'), ("d3", 'D'), ("g1", 'R')], "b");
    // It may step off the trap (or into the den), but not take the dog.
    assert_eq!(moves(&p, &rules), set(&["d2c2", "d2e2", "d2d1"]));
    // A trapped rat next to an elephant.
    let p = pos(&[("c1", 'r'), ("b1", 'E'), ("g9", 'l')], "b");
    assert_eq!(moves_from(&p, &rules, "c1"), set(&["c1c2", "c1d1"]));
}

#[test]
fn switch_trapped_can_capture() {
    let on = Rules::preset("trap-attack").unwrap();
    let p = pos(&[("d2", 'l'), ("d3", 'D'), ("g1", 'R')], "b");
    assert_eq!(moves(&p, &on), set(&["d2c2", "d2e2", "d2d1", "d2d3"]));
    // With its normal rank and the normal rules: a trapped rat takes an elephant.
    let p = pos(&[("c1", 'r'), ("b1", 'E'), ("g9", 'l')], "b");
    assert_eq!(moves_from(&p, &on, "c1"), set(&["c1c2", "c1b1", "c1d1"]));
    // ... but not a stronger animal that is not an elephant.
    let p = pos(&[("c1", 'r'), ("b1", 'L'), ("g9", 'l')], "b");
    assert_eq!(moves_from(&p, &on, "c1"), set(&["c1c2", "c1d1"]));
    // The trapped animal itself is still rank 0 to its enemies.
    let p = pos(&[("d2", 'l'), ("d3", 'R'), ("g9", 'e')], "w");
    assert!(legal(&p, &on, "d3d2"));
}

// ----------------------------------------------------------- End of game

#[test]
fn end_1_den_entry_wins_at_once() {
    let mut game = Game::from_fen(
        std_rules(),
        &fen(&[("d8", 'C'), ("a1", 'l'), ("a9", 'e')], "w"),
    )
    .unwrap();
    let outcome = game.play_text("d8d9").unwrap();
    assert_eq!(
        outcome,
        Some(Outcome {
            winner: Some(Side::South),
            reason: EndReason::Den
        })
    );
    assert!(game.legal_moves().is_empty());
    assert!(game.position().legal_moves(game.rules()).is_empty());
    assert!(matches!(
        game.play_text("a1a2"),
        Err(GameError::GameOver { .. })
    ));
    // North entering South's den.
    let mut game = Game::from_fen(std_rules(), &fen(&[("e1", 'r'), ("g1", 'L')], "b")).unwrap();
    assert_eq!(
        game.play_text("e1d1").unwrap().unwrap().winner,
        Some(Side::North)
    );
}

#[test]
fn end_2_annihilation() {
    let mut game = Game::from_fen(
        std_rules(),
        &fen(&[("d5", 'L'), ("d6", 'r'), ("a1", 'C')], "w"),
    )
    .unwrap();
    let outcome = game.play_text("d5d6").unwrap();
    assert_eq!(
        outcome,
        Some(Outcome {
            winner: Some(Side::South),
            reason: EndReason::Annihilation
        })
    );
}

fn boxed_in() -> (Game, Game) {
    // South's tiger closes the North cat's last exit; the cat cannot take
    // the lion or the tiger.
    let f = fen(&[("a9", 'c'), ("a8", 'L'), ("b8", 'T'), ("g1", 'D')], "w");
    let play = |rules: Rules| {
        let mut g = Game::from_fen(rules, &f).unwrap();
        g.play_text("b8b9").unwrap();
        g
    };
    (
        play(Rules::default()),
        play(Rules {
            no_move: NoMoveOutcome::Draw,
            ..Rules::default()
        }),
    )
}

#[test]
fn end_3_no_move_loses() {
    let (game, _) = boxed_in();
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            winner: Some(Side::South),
            reason: EndReason::NoMove
        })
    );
}

#[test]
fn switch_no_move_draw() {
    let (_, game) = boxed_in();
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            winner: None,
            reason: EndReason::NoMove
        })
    );
}

/// Dogs walk g1-g2-g1 and a9-a8-a9: the start recurs after plies 4 and 8.
fn shuffle(rules: Rules, plies: usize) -> (Game, Vec<Result<Option<Outcome>, GameError>>) {
    let mut game = Game::from_fen(rules, &fen(&[("g1", 'D'), ("a9", 'd')], "w")).unwrap();
    let cycle = ["g1g2", "a9a8", "g2g1", "a8a9"];
    let results = (0..plies).map(|i| game.play_text(cycle[i % 4])).collect();
    (game, results)
}

#[test]
fn end_4_third_repetition_draws() {
    let (game, results) = shuffle(Rules::default(), 8);
    assert!(results[..7].iter().all(|r| *r == Ok(None)));
    assert_eq!(
        results[7],
        Ok(Some(Outcome {
            winner: None,
            reason: EndReason::Repetition
        }))
    );
    assert_eq!(game.repetition_count(), 3);
}

#[test]
fn switch_repetition_outcome_mover_loses() {
    let rules = Rules {
        repetition_outcome: RepetitionOutcome::MoverLoses,
        ..Rules::default()
    };
    let (_, results) = shuffle(rules, 8);
    // North's eighth-ply move completed the repetition: North loses.
    assert_eq!(
        results[7],
        Ok(Some(Outcome {
            winner: Some(Side::South),
            reason: EndReason::Repetition
        }))
    );
}

#[test]
fn switch_repetition_outcome_forbidden() {
    let rules = Rules {
        repetition_outcome: RepetitionOutcome::Forbidden,
        ..Rules::default()
    };
    let (game, results) = shuffle(rules.clone(), 7);
    assert!(results.iter().all(|r| *r == Ok(None)));
    let moves: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(
        set(&moves.iter().map(String::as_str).collect::<Vec<_>>()),
        set(&["a8a7", "a8b8"])
    );
    let (_, results) = shuffle(rules, 8);
    assert!(matches!(results[7], Err(GameError::IllegalMove { .. })));
}

#[test]
fn switch_repetition_count() {
    let off = Rules {
        repetition: 0,
        ..Rules::default()
    };
    let (game, results) = shuffle(off, 12);
    assert!(results.iter().all(|r| *r == Ok(None)));
    assert_eq!(game.repetition_count(), 4);
    let two = Rules {
        repetition: 2,
        ..Rules::default()
    };
    let (_, results) = shuffle(two, 4);
    assert_eq!(
        results[3],
        Ok(Some(Outcome {
            winner: None,
            reason: EndReason::Repetition
        }))
    );
}

#[test]
fn forbidden_repetition_can_leave_no_move() {
    // The North cat walks a9-b9-c9 while South's dog steps g1-f1-g1. On c9
    // the cat's only move, back to b9, would repeat the position after the
    // first ply: forbidden (repetition = 2), so North has no legal move and
    // loses (no_move = loss), although the position alone has a move.
    let rules = Rules {
        repetition: 2,
        repetition_outcome: RepetitionOutcome::Forbidden,
        ..Rules::default()
    };
    let f = fen(&[("a9", 'c'), ("a7", 'L'), ("c8", 'T'), ("g1", 'D')], "b");
    let mut game = Game::from_fen(rules, &f).unwrap();
    for mv in ["a9b9", "g1f1", "b9c9"] {
        assert_eq!(game.play_text(mv), Ok(None));
    }
    let outcome = game.play_text("f1g1").unwrap();
    assert_eq!(
        outcome,
        Some(Outcome {
            winner: Some(Side::South),
            reason: EndReason::NoMove
        })
    );
    assert_eq!(moves(game.position(), game.rules()), set(&["c9b9"]));
}

#[test]
fn end_5_quiet_move_limit() {
    let f = |quiet: u32| {
        format!(
            "{} {quiet} 40",
            fen(&[("g1", 'D'), ("a9", 'd'), ("c5", 'r'), ("c4", 'R')], "w")
        )
    };
    let mut game = Game::from_fen(Rules::default(), &f(199)).unwrap();
    assert_eq!(
        game.play_text("g1g2").unwrap(),
        Some(Outcome {
            winner: None,
            reason: EndReason::QuietLimit
        })
    );
    // A capture on the 200th ply resets the counter instead.
    let mut game = Game::from_fen(Rules::default(), &f(199)).unwrap();
    assert_eq!(game.play_text("c4c5").unwrap(), None);
    assert_eq!(game.position().quiet_plies(), 0);
    // A den entry on the 200th ply wins: den comes first.
    let den = format!("{} 199 40", fen(&[("d8", 'C'), ("a1", 'l')], "w"));
    let mut game = Game::from_fen(Rules::default(), &den).unwrap();
    assert_eq!(
        game.play_text("d8d9").unwrap().unwrap().reason,
        EndReason::Den
    );
}

#[test]
fn switch_quiet_plies_limit() {
    let f = |quiet: u32| format!("{} {quiet} 40", fen(&[("g1", 'D'), ("a9", 'd')], "w"));
    let hundred = Rules {
        quiet_plies_limit: 100,
        ..Rules::default()
    };
    let mut game = Game::from_fen(hundred.clone(), &f(98)).unwrap();
    assert_eq!(game.play_text("g1g2").unwrap(), None);
    assert_eq!(
        game.play_text("a9a8").unwrap().unwrap().reason,
        EndReason::QuietLimit
    );
    let off = Rules {
        quiet_plies_limit: 0,
        repetition: 0,
        ..Rules::default()
    };
    let mut game = Game::from_fen(off, &f(5000)).unwrap();
    assert_eq!(game.play_text("g1g2").unwrap(), None);
    // A start position already past the limit is over.
    let game = Game::from_fen(hundred, &f(100)).unwrap();
    assert_eq!(game.outcome().unwrap().reason, EndReason::QuietLimit);
}

// ------------------------------------------------------- Other switches

#[test]
fn switch_lion_jump() {
    let p = pos(&[("b3", 'L'), ("d5", 'l'), ("g9", 'r'), ("g1", 'R')], "w");
    let q = pos(&[("b3", 'L'), ("d5", 'l'), ("g9", 'r'), ("g1", 'R')], "b");
    let case = |rule: JumpRule| {
        let rules = Rules {
            lion_jump: rule,
            ..Rules::default()
        };
        (
            legal(&p, &rules, "b3b7"),
            legal(&q, &rules, "d5a5"),
            legal(&q, &rules, "d5g5"),
        )
    };
    assert_eq!(case(JumpRule::None), (false, false, false));
    assert_eq!(case(JumpRule::Vertical), (true, false, false));
    assert_eq!(case(JumpRule::Horizontal), (false, true, true));
    assert_eq!(case(JumpRule::Both), (true, true, true));
}

#[test]
fn switch_tiger_jump() {
    let vertical = Rules::preset("vertical-tiger").unwrap();
    let p = pos(&[("d5", 'T'), ("c3", 't'), ("g9", 'r')], "w");
    assert_eq!(moves_from(&p, &vertical, "d5"), set(&["d5d4", "d5d6"]));
    let q = pos(&[("d5", 'T'), ("c3", 't'), ("g9", 'r')], "b");
    assert!(legal(&q, &vertical, "c3c7"));
    let none = Rules {
        tiger_jump: JumpRule::None,
        ..Rules::default()
    };
    assert!(!legal(&q, &none, "c3c7"));
    // The lion keeps both jumps.
    let l = pos(&[("d5", 'L'), ("g9", 'r')], "w");
    assert!(legal(&l, &vertical, "d5a5"));
}

#[test]
fn switch_leopard_jump() {
    let p = pos(&[("b3", 'P'), ("d4", 'p'), ("g9", 'r'), ("g1", 'R')], "w");
    let q = pos(&[("b3", 'P'), ("d4", 'p'), ("g9", 'r'), ("g1", 'R')], "b");
    assert!(!legal(&p, &Rules::default(), "b3b7"));
    assert!(!legal(&q, &Rules::default(), "d4g4"));
    let both = Rules {
        leopard_jump: JumpRule::Both,
        ..Rules::default()
    };
    assert!(legal(&p, &both, "b3b7"));
    assert_eq!(
        moves_from(&q, &both, "d4"),
        set(&["d4d3", "d4d5", "d4a4", "d4g4"])
    );
    let vertical = Rules {
        leopard_jump: JumpRule::Vertical,
        ..Rules::default()
    };
    assert!(legal(&p, &vertical, "b3b7") && !legal(&q, &vertical, "d4a4"));
}

#[test]
fn switch_first_player() {
    let north_first = Rules {
        first_player: Side::North,
        ..Rules::default()
    };
    let game = Game::new(north_first);
    assert_eq!(game.position().side_to_move(), Side::North);
    let moves: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(moves.len(), 24);
    assert!(moves.iter().all(|m| game
        .position()
        .piece_at(m[..2].parse().unwrap())
        .unwrap()
        .side()
        == Side::North));
    assert_eq!(
        Game::new(Rules::default()).position().side_to_move(),
        Side::South
    );
}

#[test]
fn rule_set_start_fen() {
    let rules = Rules {
        start_fen: Some(fen(&[("d7", 'L'), ("a9", 'r')], "w")),
        ..Rules::default()
    };
    let game = Game::new(rules);
    assert_eq!(game.position().occupied_all().len(), 2);
}

#[test]
fn start_position_has_24_moves() {
    assert_eq!(Game::new(Rules::default()).legal_moves().len(), 24);
}

// ---------------------------------------------------------------- The document

#[test]
fn docs_rules_md_names_every_switch_and_preset() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/RULES.md"))
        .expect("docs/RULES.md is the project's rules reference");
    // Every key of a rule set (start_fen set, so no key is left out).
    let rules = Rules {
        start_fen: Some(jungle_rules::Position::start().to_fen()),
        ..Rules::default()
    };
    let table: toml::Table = toml::from_str(&toml::to_string(&rules).unwrap()).unwrap();
    assert_eq!(
        table.len(),
        12,
        "a switch was added: describe it in docs/RULES.md"
    );
    for key in table.keys() {
        assert!(
            doc.contains(&format!("`{key}`")),
            "docs/RULES.md lacks `{key}`"
        );
    }
    for preset in Rules::preset_names() {
        assert!(
            doc.contains(&format!("`{preset}`")),
            "docs/RULES.md lacks preset `{preset}`"
        );
    }
}
