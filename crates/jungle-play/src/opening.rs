//! What every game between players starts from: a random opening, and the
//! seeds that make each game of a match or a generation its own.

use jungle_rules::{Game, Rules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Mixes a seed with indices into a new seed (splitmix64 finaliser).
pub fn derive_seed(seed: u64, a: u64, b: u64) -> u64 {
    let mut z =
        seed ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A game after `plies` uniformly random moves from the rule set's start,
/// drawn again (up to 100 times) if those moves end the game.
pub fn random_opening(rules: &Rules, plies: u32, seed: u64) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..100 {
        let mut game = Game::new(rules.clone());
        for _ in 0..plies {
            if game.is_over() {
                break;
            }
            let moves = game.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv).expect("legal");
        }
        if !game.is_over() {
            return game;
        }
    }
    Game::new(rules.clone())
}
