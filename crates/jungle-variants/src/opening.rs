//! Openings shared by every variant.
//!
//! Each game pair gets one sequence of random plies, drawn under the
//! standard rules from the standard start with the first mover at the
//! bottom. A variant replays it from its own start: when North moves first,
//! every move is turned half a turn (the start position is symmetric under
//! that turn with the colours swapped), so the first mover makes the same
//! moves in its own view. A variant with its own start position, or one in
//! which the sequence stops being legal or ends the game, draws its own
//! random opening from the same seed instead.

use jungle_play::opening::random_opening;
use jungle_rules::{Game, Move, Rules, Side};

/// The shared random plies of the pair with `seed`, South first.
pub fn shared_opening(plies: u32, seed: u64) -> Vec<Move> {
    random_opening(&Rules::default(), plies, seed)
        .moves()
        .to_vec()
}

/// `mv` as the same move seen from the other side of the board.
fn half_turn(mv: Move) -> Move {
    mv.flipped().mirrored()
}

/// The game after the shared opening `moves` under `rules` (see the module
/// documentation); `plies` and `seed` draw the fallback opening.
pub fn opening_for(rules: &Rules, moves: &[Move], plies: u32, seed: u64) -> Game {
    if rules.start_fen.is_none() {
        let turn = rules.first_player == Side::North;
        let mut game = Game::new(rules.clone());
        let replayed = moves.iter().all(|&mv| {
            let mv = if turn { half_turn(mv) } else { mv };
            !game.is_over() && game.play(mv).is_ok()
        });
        if replayed && !game.is_over() {
            return game;
        }
    }
    random_opening(rules, plies, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_replays_the_shared_opening_in_the_first_movers_view() {
        for seed in 0..20 {
            let moves = shared_opening(4, seed);
            assert_eq!(moves.len(), 4);
            for name in Rules::preset_names() {
                let rules = Rules::preset(name).unwrap();
                let game = opening_for(&rules, &moves, 4, seed);
                let played: Vec<Move> = game.moves().to_vec();
                let expected: Vec<Move> = if rules.first_player == Side::North {
                    moves.iter().map(|&m| half_turn(m)).collect()
                } else {
                    moves.clone()
                };
                assert_eq!(played, expected, "{name}, seed {seed}");
            }
        }
    }

    #[test]
    fn a_half_turned_opening_reaches_the_half_turned_position() {
        let moves = shared_opening(6, 3);
        let south = opening_for(&Rules::default(), &moves, 6, 3);
        let north_rules = Rules {
            first_player: Side::North,
            ..Rules::default()
        };
        let north = opening_for(&north_rules, &moves, 6, 3);
        assert_eq!(
            north.position().flipped().mirrored().to_fen(),
            south.position().to_fen()
        );
    }

    #[test]
    fn a_start_position_of_its_own_gets_its_own_opening() {
        let rules = Rules {
            start_fen: Some("6e/3C3/w6/7/7/7/7/5D1/L6 w".into()),
            ..Rules::default()
        };
        let game = opening_for(&rules, &shared_opening(2, 1), 2, 1);
        assert_eq!(game.moves().len(), 2);
        assert_eq!(
            game.moves(),
            random_opening(&rules, 2, 1).moves(),
            "the fallback is the variant's own random opening"
        );
    }
}
