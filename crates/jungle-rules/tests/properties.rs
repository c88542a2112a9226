//! Property tests over random legal play: games always end under the draw
//! rules with the result the rules give; FEN round-trips; mirrored and
//! flipped positions have equal perft; the incremental Zobrist hash equals
//! the from-scratch hash after every move and unmove, and the per-piece
//! squares agree with the board.

use jungle_rules::{
    perft, Animal, Bitboard, EndReason, Game, NoMoveOutcome, Piece, Position, RepetitionOutcome,
    Rules, Side, DEN,
};
use proptest::prelude::*;

/// A tiny deterministic generator so a proptest seed fixes a whole game.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

fn rule_sets() -> Vec<Rules> {
    let mut all: Vec<Rules> = Rules::preset_names()
        .map(|n| Rules::preset(n).unwrap())
        .collect();
    all.push(Rules {
        repetition_outcome: RepetitionOutcome::Forbidden,
        no_move: NoMoveOutcome::Draw,
        leopard_jump: jungle_rules::JumpRule::Both,
        elephant_captures_rat: true,
        quiet_plies_limit: 60,
        ..Rules::default()
    });
    all
}

/// A position after `plies` random legal moves from the start.
fn random_position(seed: u64, plies: usize) -> Position {
    let rules = Rules::default();
    let mut rng = SplitMix(seed);
    let mut pos = Position::start();
    for _ in 0..plies {
        let moves = pos.legal_moves(&rules);
        if moves.is_empty() {
            break;
        }
        pos = pos.play(moves[rng.below(moves.len())]);
    }
    pos
}

/// Checks that the recorded outcome is the one the rules give.
fn check_outcome(game: &Game) {
    let outcome = game.outcome().expect("game over");
    let pos = game.position();
    let rules = game.rules();
    let mover = !pos.side_to_move();
    match outcome.reason {
        EndReason::Den => {
            let w = outcome.winner.expect("den has a winner");
            assert!(!(pos.occupied(w) & DEN[(!w).index()]).is_empty());
        }
        EndReason::Annihilation => {
            let w = outcome.winner.expect("annihilation has a winner");
            assert!(pos.occupied(!w).is_empty());
        }
        EndReason::NoMove => {
            if rules.repetition_outcome != RepetitionOutcome::Forbidden {
                assert!(pos.legal_moves(rules).is_empty());
            }
            let expected = match rules.no_move {
                NoMoveOutcome::Loss => Some(mover),
                NoMoveOutcome::Draw => None,
            };
            assert_eq!(outcome.winner, expected);
        }
        EndReason::Repetition => {
            assert!(game.repetition_count() >= rules.repetition);
            let expected = match rules.repetition_outcome {
                RepetitionOutcome::Draw => None,
                RepetitionOutcome::MoverLoses => Some(pos.side_to_move()),
                RepetitionOutcome::Forbidden => panic!("a forbidden repetition was played"),
            };
            assert_eq!(outcome.winner, expected);
        }
        EndReason::QuietLimit => {
            assert!(pos.quiet_plies() >= rules.quiet_plies_limit);
            assert_eq!(outcome.winner, None);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_games_end_with_the_right_result(seed in any::<u64>(), which in 0usize..rule_sets().len()) {
        let rules = rule_sets()[which].clone();
        let limit = rules.quiet_plies_limit as usize;
        let mut game = Game::new(rules);
        let mut rng = SplitMix(seed);
        // A capture at least every `limit` plies, at most 15 captures.
        let bound = 16 * (limit + 1);
        while !game.is_over() {
            prop_assert!(game.moves().len() <= bound, "game did not end within {} plies", bound);
            let moves = game.legal_moves();
            prop_assert!(!moves.is_empty());
            let mv = moves[rng.below(moves.len())];
            game.play(mv).unwrap();
            prop_assert_eq!(game.position().hash(), game.position().compute_hash());
        }
        check_outcome(&game);
        prop_assert!(game.legal_moves().is_empty());
    }

    #[test]
    fn fen_round_trips(seed in any::<u64>(), plies in 0usize..150) {
        let pos = random_position(seed, plies);
        let fen = pos.to_fen();
        let back = Position::from_fen(&fen).unwrap();
        prop_assert_eq!(back, pos);
        prop_assert_eq!(back.to_fen(), fen);
    }

    #[test]
    fn mirrored_and_flipped_positions_have_equal_perft(seed in any::<u64>(), plies in 0usize..80, which in 0usize..rule_sets().len()) {
        let rules = rule_sets()[which].clone();
        let pos = random_position(seed, plies);
        let n = perft(&pos, &rules, 3);
        prop_assert_eq!(perft(&pos.mirrored(), &rules, 3), n);
        prop_assert_eq!(perft(&pos.flipped(), &rules, 3), n);
        let mut mirrored: Vec<String> = pos.legal_moves(&rules).iter().map(|m| m.mirrored().to_string()).collect();
        let mut direct: Vec<String> = pos.mirrored().legal_moves(&rules).iter().map(|m| m.to_string()).collect();
        mirrored.sort();
        direct.sort();
        prop_assert_eq!(mirrored, direct);
    }

    #[test]
    fn incremental_hash_matches_after_every_move_and_unmove(seed in any::<u64>(), plies in 1usize..200) {
        let rules = Rules::default();
        let mut rng = SplitMix(seed);
        let start = Position::start();
        let mut pos = start;
        let mut stack = Vec::new();
        for _ in 0..plies {
            let moves = pos.legal_moves(&rules);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let before = pos;
            let undo = pos.make_move(mv);
            prop_assert_eq!(pos.hash(), pos.compute_hash());
            prop_assert_eq!(pos, before.play(mv));
            // The per-piece squares agree with the mailbox.
            let on_board: Vec<_> = pos.pieces().collect();
            for &(sq, piece) in &on_board {
                prop_assert_eq!(pos.square_of(piece), Some(sq));
                let kind = pos.animal_squares(piece.side())[piece.animal().index()];
                prop_assert_eq!(kind, Bitboard::from_square(sq));
            }
            let placed = Side::BOTH
                .iter()
                .flat_map(|&side| Animal::ALL.map(|a| Piece::new(side, a)))
                .filter(|&piece| pos.square_of(piece).is_some())
                .count();
            prop_assert_eq!(placed, on_board.len());
            stack.push((mv, undo, before));
        }
        while let Some((mv, undo, before)) = stack.pop() {
            pos.unmake_move(mv, undo);
            prop_assert_eq!(pos, before);
            prop_assert_eq!(pos.hash(), pos.compute_hash());
        }
        prop_assert_eq!(pos, start);
    }

    #[test]
    fn fen_reader_never_panics(text in "\\PC{0,60}") {
        let _ = Position::from_fen(&text);
    }

    #[test]
    fn fen_reader_never_panics_on_near_fens(text in "[rcdwptleRCDWPTLE1-9/ ]{0,40} [wbx] [0-9]{0,3} [0-9]{0,3}") {
        let _ = Position::from_fen(&text);
    }

    #[test]
    fn move_parser_never_panics(text in "\\PC{0,8}") {
        let _ = jungle_rules::Move::parse(&text);
        let _ = Position::start().parse_move(&text, &Rules::default());
    }
}
