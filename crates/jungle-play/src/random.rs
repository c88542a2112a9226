//! `random`: a uniformly random legal move.

use crate::player::{legal, Decision, Player};
use jungle_rules::Game;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays a uniformly random legal move.
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    /// A random player with its own seed.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, game: &Game) -> Decision {
        let moves = legal(game);
        Decision::just(moves[self.rng.random_range(0..moves.len())])
    }
}
