//! `greedy`: enters the enemy den when it can, else makes the most valuable
//! capture, else a random move.

use crate::player::{legal, Decision, Player};
use jungle_mcts::heuristic::MATERIAL;
use jungle_rules::{Game, DEN};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One-ply greedy player.
pub struct Greedy {
    rng: ChaCha8Rng,
}

impl Greedy {
    /// A greedy player with its own seed (for ties and quiet positions).
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Player for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, game: &Game) -> Decision {
        let pos = game.position();
        let enemy_den = DEN[(!pos.side_to_move()).index()];
        let gain = |mv: &jungle_rules::Move| {
            if enemy_den.has(mv.to()) {
                i32::MAX
            } else {
                pos.piece_at(mv.to())
                    .map_or(0, |p| MATERIAL[p.animal().index()])
            }
        };
        let moves = legal(game);
        let best = moves.iter().map(gain).max().expect("a legal move");
        let top: Vec<_> = moves.into_iter().filter(|m| gain(m) == best).collect();
        Decision::just(top[self.rng.random_range(0..top.len())])
    }
}
