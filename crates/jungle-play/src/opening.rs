//! What every game between players starts from: a random opening, an
//! openings file, the opening a rule-variant comparison shares across its
//! rule sets, and the seeds that make each game of a match or a generation
//! its own.

use jungle_rules::{Game, Move, Rules, Side};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};

/// The largest openings file [`read_openings`] reads.
pub const MAX_OPENINGS_BYTES: u64 = 16 << 20;

/// Why an openings file was refused.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// The file could not be read.
    #[error("openings file `{}`: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not a game's opening moves under the rule set.
    #[error("openings file `{}`, line {line}: {problem}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// Its line, from 1.
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// The file holds no opening.
    #[error("openings file `{}` holds no opening (one a line: moves from the start, space separated)", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
}

/// Reads an openings file: one opening a line, its moves from the rule
/// set's start, space separated (`a3a4 g7g6`); blank lines and lines from
/// `#` are skipped. Each opening must be legal under `rules` and leave the
/// game running.
pub fn read_openings(path: &Path, rules: &Rules) -> Result<Vec<Vec<Move>>, OpeningsError> {
    let text = jungle_files::read_text_bounded(path, MAX_OPENINGS_BYTES).map_err(|source| {
        OpeningsError::Read {
            path: path.to_path_buf(),
            source,
        }
    })?;
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let refused = |problem: String| OpeningsError::Line {
            path: path.to_path_buf(),
            line: i + 1,
            problem,
        };
        let mut game = Game::new(rules.clone());
        for text in line.split_whitespace() {
            game.play_text(text)
                .map_err(|e| refused(format!("move `{text}`: {e}")))?;
        }
        if game.is_over() {
            return Err(refused("the game is over after these moves".to_string()));
        }
        openings.push(game.moves().to_vec());
    }
    if openings.is_empty() {
        return Err(OpeningsError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(openings)
}

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

// Openings shared by every rule set of a comparison (`jungle variants`).
//
// Each game pair gets one sequence of random plies, drawn under the
// standard rules from the standard start with the first mover at the
// bottom. A rule set replays it from its own start: when North moves first,
// every move is turned half a turn (the start position is symmetric under
// that turn with the colours swapped), so the first mover makes the same
// moves in its own view. A rule set with its own start position, or one in
// which the sequence stops being legal or ends the game, draws its own
// random opening from the same seed instead.

/// The shared random plies of the pair with `seed`, South first
/// ([`opening_for`] replays them under each rule set).
pub fn shared_opening(plies: u32, seed: u64) -> Vec<Move> {
    random_opening(&Rules::default(), plies, seed)
        .moves()
        .to_vec()
}

/// `mv` as the same move seen from the other side of the board.
fn half_turn(mv: Move) -> Move {
    mv.flipped().mirrored()
}

/// The game after the shared opening `moves` under `rules`, turned half a
/// turn when North moves first; a rule set with its own start position, or
/// one where the moves stop being legal or end the game, gets its own random
/// opening from `plies` and `seed` instead.
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
