//! How a game ended: the result and the rule that ended it (docs/RULES.md),
//! what a finished [`crate::Game`] and the end-of-game check of
//! [`crate::history`] both name.

use crate::piece::Side;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// An animal entered the enemy's den.
    Den,
    /// A side lost its last animal.
    Annihilation,
    /// The side to move had no legal move.
    NoMove,
    /// A position occurred for the `repetition`-th time.
    Repetition,
    /// `quiet_plies_limit` plies in a row without a capture.
    QuietLimit,
}

impl EndReason {
    /// All reasons, in the order the rules check them.
    pub const ALL: [EndReason; 5] = [
        EndReason::Den,
        EndReason::Annihilation,
        EndReason::NoMove,
        EndReason::Repetition,
        EndReason::QuietLimit,
    ];

    /// Snake-case name, as in JSON output: `den`, `annihilation`, `no_move`,
    /// `repetition`, `quiet_limit`.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Den => "den",
            EndReason::Annihilation => "annihilation",
            EndReason::NoMove => "no_move",
            EndReason::Repetition => "repetition",
            EndReason::QuietLimit => "quiet_limit",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The end of a game: the winner (`None` for a draw) and the reason.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Outcome {
    /// The side that won, or `None` for a draw.
    pub winner: Option<Side>,
    /// The rule that ended the game.
    pub reason: EndReason,
}

impl Outcome {
    /// The score for `side`: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn score_for(self, side: Side) -> f64 {
        match self.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} wins by {}", self.reason),
            None => write!(f, "draw by {}", self.reason),
        }
    }
}
