//! What self-play writes down: per move, the move, the search's training
//! target (sparse, over legal moves), the root value, whether it was a
//! full search and how far its target is from the network's prior; per game, the start, the result, who played and the seed.

use jungle_rules::{EndReason, Move, Side, Square};
use serde::{Deserialize, Serialize};

/// A move packed as `from | to << 6` (square indices).
pub fn pack_move(mv: Move) -> u16 {
    mv.from().index() as u16 | ((mv.to().index() as u16) << 6)
}

/// The move of [`pack_move`]; `None` if a square index is off the board.
pub fn unpack_move(code: u16) -> Option<Move> {
    let from = Square::new((code & 63) as u8)?;
    let to = Square::new((code >> 6) as u8)?;
    Some(Move::new(from, to))
}

/// One move of a self-play game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The move played ([`pack_move`]).
    pub mv: u16,
    /// A full search (a training target) or a cheap one (playout-cap
    /// randomisation: not a target).
    pub full_search: bool,
    /// Root value of the search for the side to move, in [-1, 1].
    pub root_value: f32,
    /// The training target over the legal moves with non-zero mass:
    /// `(packed move, probability)`; empty for cheap searches.
    pub target: Vec<(u16, f32)>,
    /// How much the search changed the network's mind: the KL divergence
    /// of the target from the network's prior at the root, in nats
    /// ([`surprise`]); `None` for cheap searches and for records read from
    /// shards of format version 1, which did not keep it.
    pub surprise: Option<f32>,
    /// The search's draw probability at the root (as `root_value` reads
    /// it: the mean, or the chosen move's), so that with `root_value` it
    /// gives the search's own win/draw/loss (`jungle_mcts::wdl_of`);
    /// `None` for records read from shards of format versions 1 and 2,
    /// which did not keep it.
    pub root_draw: Option<f32>,
}

/// KL(target || prior) in nats over the root's moves, `target` and
/// `prior` in the same order (the prior floored at 1e-12 so that a move
/// the network ruled out cannot make it infinite).
pub fn surprise(target: &[f32], prior: &[f32]) -> f32 {
    let kl: f64 = target
        .iter()
        .zip(prior)
        .filter(|(t, _)| **t > 0.0)
        .map(|(t, p)| f64::from(*t) * (f64::from(*t) / f64::from(p.max(1e-12))).ln())
        .sum();
    kl.max(0.0) as f32
}

/// One finished self-play game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The position the game started from; random opening plies are the
    /// first moves, recorded with empty targets.
    pub start_fen: String,
    /// Every move.
    pub moves: Vec<MoveRecord>,
    /// The winner, `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended; `None` if it was stopped at the ply cap.
    pub reason: Option<EndReason>,
    /// The checkpoint that played it (path, or `random-net`).
    pub checkpoint: String,
    /// The game's seed.
    pub seed: u64,
}

impl GameRecord {
    /// Plies played.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// Moves that are training targets.
    pub fn positions(&self) -> usize {
        self.moves.iter().filter(|m| m.full_search).count()
    }
}
