//! Shards of earlier format versions, read into today's records so that a
//! run started before a format change still trains on its games.
//!
//! Version 1 (before the records kept their search's surprise) and version
//! 2 (before they kept its draw probability): the same layout with
//! [`MoveRecordV1`] or [`MoveRecordV2`] in place of [`MoveRecord`].

use crate::record::{GameRecord, MoveRecord};
use jungle_rules::{EndReason, Rules, Side};
use serde::Deserialize;

/// A move record of format version 1.
#[derive(Deserialize)]
pub(crate) struct MoveRecordV1 {
    mv: u16,
    full_search: bool,
    root_value: f32,
    target: Vec<(u16, f32)>,
}

impl From<MoveRecordV1> for MoveRecord {
    fn from(m: MoveRecordV1) -> MoveRecord {
        MoveRecord {
            mv: m.mv,
            full_search: m.full_search,
            root_value: m.root_value,
            target: m.target,
            surprise: None,
            root_draw: None,
        }
    }
}

/// A move record of format version 2.
#[derive(Deserialize)]
pub(crate) struct MoveRecordV2 {
    mv: u16,
    full_search: bool,
    root_value: f32,
    target: Vec<(u16, f32)>,
    surprise: Option<f32>,
}

impl From<MoveRecordV2> for MoveRecord {
    fn from(m: MoveRecordV2) -> MoveRecord {
        MoveRecord {
            mv: m.mv,
            full_search: m.full_search,
            root_value: m.root_value,
            target: m.target,
            surprise: m.surprise,
            root_draw: None,
        }
    }
}

/// A game record of an earlier version, its moves of type `M`.
#[derive(Deserialize)]
struct GameRecordOf<M> {
    start_fen: String,
    moves: Vec<M>,
    winner: Option<Side>,
    reason: Option<EndReason>,
    checkpoint: String,
    seed: u64,
}

/// The body of a shard of an earlier version, its moves of type `M`.
#[derive(Deserialize)]
pub(crate) struct LegacyBody<M> {
    rules: Rules,
    game_count: u32,
    games: Vec<GameRecordOf<M>>,
}

impl<M: Into<MoveRecord>> LegacyBody<M> {
    /// The rule set, the game count and the games as today's records
    /// (what the version did not keep is `None`).
    pub(crate) fn into_parts(self) -> (Rules, u32, Vec<GameRecord>) {
        let games = self
            .games
            .into_iter()
            .map(|g| GameRecord {
                start_fen: g.start_fen,
                moves: g.moves.into_iter().map(Into::into).collect(),
                winner: g.winner,
                reason: g.reason,
                checkpoint: g.checkpoint,
                seed: g.seed,
            })
            .collect();
        (self.rules, self.game_count, games)
    }
}
