//! Reading back a shard directory: totals, results, lengths, rule sets, and
//! a check of every file (and, on request, a replay of every game).

use crate::record::{unpack_move, GameRecord};
use crate::shard::{read_shard, shard_files_within, ShardError};
use jungle_rules::{EndReason, FenError, Game, GameError, Move, Outcome, Rules, Side};
use std::collections::{BTreeMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// What a shard directory holds.
#[derive(Clone, Debug, Default)]
pub struct ShardStats {
    /// Shards that read back whole.
    pub good_files: usize,
    /// Shards that failed, with the reason.
    pub bad_files: Vec<(PathBuf, String)>,
    /// Games.
    pub games: u64,
    /// Training positions (full-search moves).
    pub positions: u64,
    /// Plies.
    pub plies: u64,
    /// Longest game in plies.
    pub max_plies: usize,
    /// Games won by South, drawn, won by North.
    pub results: [u64; 3],
    /// Games per end reason (`ply_cap` for stopped games).
    pub reasons: BTreeMap<String, u64>,
    /// Each rule set present (as toml) with its number of games.
    pub rule_sets: Vec<(Rules, u64)>,
    /// Games whose replay disagreed with the record (only with `verify`).
    pub bad_games: Vec<String>,
    /// Games found more than once (same seed, start and moves), counted
    /// once per extra copy: a game played or written twice.
    pub duplicate_games: u64,
}

impl ShardStats {
    /// Mean game length in plies.
    pub fn mean_plies(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.plies as f64 / self.games as f64
        }
    }
}

/// Why a recorded game does not replay.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BadGame {
    /// The start position does not read.
    #[error("start position: {0}")]
    Start(#[from] FenError),
    /// A played move's code is not a move.
    #[error("ply {ply}: move code {code} is off the board")]
    MoveCode {
        /// The ply.
        ply: usize,
        /// The code.
        code: u16,
    },
    /// A target's move code is not a move.
    #[error("ply {ply}: bad target move code {code}")]
    TargetCode {
        /// The ply.
        ply: usize,
        /// The code.
        code: u16,
    },
    /// A target names a move that is not legal there.
    #[error("ply {ply}: target move {mv} is not legal")]
    IllegalTarget {
        /// The ply.
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// A target probability outside [0, 1] (or NaN).
    #[error("ply {ply}: target probability {p}")]
    Probability {
        /// The ply.
        ply: usize,
        /// The probability.
        p: f32,
    },
    /// The target does not sum to 1.
    #[error("ply {ply}: target sums to {sum}")]
    Sum {
        /// The ply.
        ply: usize,
        /// Its sum.
        sum: f32,
    },
    /// The played move is not legal.
    #[error("ply {ply}: {source}")]
    IllegalMove {
        /// The ply.
        ply: usize,
        /// The rules' verdict.
        source: GameError,
    },
    /// The replay ends otherwise than the record says.
    #[error("replay ends with {replay:?}, the record says winner {winner:?} by {reason:?}")]
    Result {
        /// How the replay ended.
        replay: Option<Outcome>,
        /// The recorded winner.
        winner: Option<Side>,
        /// The recorded reason.
        reason: Option<EndReason>,
    },
}

/// Replays a game through the rules: every move legal, the recorded result
/// reached, every training target a distribution over legal moves only.
pub fn verify_game(record: &GameRecord, rules: &Rules) -> Result<(), BadGame> {
    let mut game = Game::from_fen(rules.clone(), &record.start_fen)?;
    for (ply, m) in record.moves.iter().enumerate() {
        let legal = game.legal_moves();
        let mv = unpack_move(m.mv).ok_or(BadGame::MoveCode { ply, code: m.mv })?;
        if !m.target.is_empty() {
            let mut sum = 0.0;
            for &(code, p) in &m.target {
                let t = unpack_move(code).ok_or(BadGame::TargetCode { ply, code })?;
                if !legal.contains(t) {
                    return Err(BadGame::IllegalTarget { ply, mv: t });
                }
                if !(0.0..=1.0 + 1e-5).contains(&p) {
                    return Err(BadGame::Probability { ply, p });
                }
                sum += p;
            }
            if (sum - 1.0).abs() > 1e-3 {
                return Err(BadGame::Sum { ply, sum });
            }
        }
        game.play(mv)
            .map_err(|source| BadGame::IllegalMove { ply, source })?;
    }
    let outcome = game.outcome();
    let (winner, reason) = (outcome.and_then(|o| o.winner), outcome.map(|o| o.reason));
    if winner != record.winner || reason != record.reason {
        return Err(BadGame::Result {
            replay: outcome,
            winner: record.winner,
            reason: record.reason,
        });
    }
    Ok(())
}

/// What makes a game the same game: its seed, start and moves.
fn game_identity(game: &GameRecord) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    game.seed.hash(&mut hasher);
    game.start_fen.hash(&mut hasher);
    for m in &game.moves {
        m.mv.hash(&mut hasher);
    }
    hasher.finish()
}

/// Reads every shard of `dir` and its subfolders (a run's generation
/// folders); with `verify`, replays every game too.
pub fn shard_stats(dir: &Path, verify: bool) -> Result<ShardStats, ShardError> {
    let mut stats = ShardStats::default();
    let mut seen = HashSet::new();
    for path in shard_files_within(dir)? {
        let shard = match read_shard(&path, None) {
            Ok(shard) => shard,
            Err(e) => {
                stats.bad_files.push((path, e.problem));
                continue;
            }
        };
        stats.good_files += 1;
        match stats.rule_sets.iter_mut().find(|(r, _)| *r == shard.rules) {
            Some((_, n)) => *n += shard.games.len() as u64,
            None => stats
                .rule_sets
                .push((shard.rules.clone(), shard.games.len() as u64)),
        }
        for (i, game) in shard.games.iter().enumerate() {
            stats.games += 1;
            if !seen.insert(game_identity(game)) {
                stats.duplicate_games += 1;
            }
            stats.plies += game.plies() as u64;
            stats.positions += game.positions() as u64;
            stats.max_plies = stats.max_plies.max(game.plies());
            let r = match game.winner {
                Some(Side::South) => 0,
                None => 1,
                Some(Side::North) => 2,
            };
            stats.results[r] += 1;
            let reason = game.reason.map_or("ply_cap", |r| r.name());
            *stats.reasons.entry(reason.to_string()).or_default() += 1;
            if verify {
                if let Err(e) = verify_game(game, &shard.rules) {
                    stats
                        .bad_games
                        .push(format!("{} game {i}: {e}", path.display()));
                }
            }
        }
    }
    Ok(stats)
}
