//! What every game between players starts from: a random opening, and the
//! seeds that make each game of a match or a generation its own.

use jungle_rules::{Game, Move, Rules};
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
