//! Shards of earlier format versions, read into today's records so that a
//! run started before a format change still trains on its games.
//!
//! Version 1 (before the records kept their search's surprise): the same
//! layout with [`MoveRecordV1`] in place of [`MoveRecord`].

use crate::record::{GameRecord, MoveRecord};
use jungle_rules::{EndReason, Rules, Side};
use serde::Deserialize;

/// A move record of format version 1.
#[derive(Deserialize)]
struct MoveRecordV1 {
    mv: u16,
    full_search: bool,
    root_value: f32,
    target: Vec<(u16, f32)>,
}

/// A game record of format version 1.
#[derive(Deserialize)]
struct GameRecordV1 {
    start_fen: String,
    moves: Vec<MoveRecordV1>,
    winner: Option<Side>,
    reason: Option<EndReason>,
    checkpoint: String,
    seed: u64,
}

/// The body of a version-1 shard.
#[derive(Deserialize)]
pub(crate) struct BodyV1 {
    rules: Rules,
    game_count: u32,
    games: Vec<GameRecordV1>,
}

impl BodyV1 {
    /// The rule set, the game count and the games as today's records (no
    /// surprise known).
    pub(crate) fn into_parts(self) -> (Rules, u32, Vec<GameRecord>) {
        let games = self
            .games
            .into_iter()
            .map(|g| GameRecord {
                start_fen: g.start_fen,
                moves: g
                    .moves
                    .into_iter()
                    .map(|m| MoveRecord {
                        mv: m.mv,
                        full_search: m.full_search,
                        root_value: m.root_value,
                        target: m.target,
                        surprise: None,
                    })
                    .collect(),
                winner: g.winner,
                reason: g.reason,
                checkpoint: g.checkpoint,
                seed: g.seed,
            })
            .collect();
        (self.rules, self.game_count, games)
    }
}
