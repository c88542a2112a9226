//! The reference that labels the suite's positions: alpha-beta with
//! quiescence at a fixed depth (its best move, every move within a margin
//! of it, its score) and the exact forced-win solver
//! ([`jungle_mcts::forced`]) where it reaches. Each position is labelled
//! on its own (no game history), the way the probe then asks about it.

use jungle_mcts::forced::ForcedWins;
use jungle_play::{AlphaBeta, RootAnalysis};
use jungle_rules::{Game, Position, Rules};
use serde::{Deserialize, Serialize};

/// A label's outcome class for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The side to move stands to win.
    Win,
    /// Neither side stands clearly better.
    Draw,
    /// The side to move stands to lose.
    Loss,
}

/// A value at or beyond this (either sign) is a decisive class: about 190
/// points, two-thirds of a rat's worth, on the evaluation's scale.
pub const DECISIVE_VALUE: f32 = 0.3;

impl Outcome {
    /// The class of a reference value in [-1, 1]: a win at or above
    /// [`DECISIVE_VALUE`], a loss at or below its negative, a draw between.
    pub fn of_value(value: f32) -> Outcome {
        if value >= DECISIVE_VALUE {
            Outcome::Win
        } else if value <= -DECISIVE_VALUE {
            Outcome::Loss
        } else {
            Outcome::Draw
        }
    }

    /// Its index in a win/draw/loss triple.
    pub fn index(self) -> usize {
        match self {
            Outcome::Win => 0,
            Outcome::Draw => 1,
            Outcome::Loss => 2,
        }
    }
}

/// How the reference searches (recorded in the suite's header).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabellerSettings {
    /// Alpha-beta's depth in plies (plus its capture quiescence search).
    pub depth: u32,
    /// Moves scoring within this many points of the best are good ones.
    pub margin: i32,
    /// The solver looks for forced wins within this many own moves.
    pub solver_moves: u32,
    /// The solver's budget of move generations per position.
    pub solver_nodes: u64,
}

impl Default for LabellerSettings {
    /// The standard suite's settings (docs/probe.md gives their cost).
    fn default() -> LabellerSettings {
        LabellerSettings {
            depth: 7,
            margin: 60,
            solver_moves: 3,
            solver_nodes: 200_000,
        }
    }
}

/// What the reference says of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// Alpha-beta's analysis.
    pub analysis: RootAnalysis,
    /// The outcome class.
    pub outcome: Outcome,
    /// The fewest own moves of a forced win found, with the moves that
    /// keep it.
    pub forced_win: Option<(u32, Vec<jungle_rules::Move>)>,
    /// The number of legal moves.
    pub legal: u32,
}

impl Label {
    /// The label as a suite line for `pos`, drawn `ply` plies into a game
    /// of `source`.
    pub fn to_position(
        &self,
        pos: &Position,
        ply: u32,
        phase: crate::Phase,
        source: &str,
    ) -> crate::LabelledPosition {
        let a = &self.analysis;
        crate::LabelledPosition {
            fen: pos.to_fen(),
            phase,
            ply,
            source: source.to_string(),
            legal: self.legal,
            best: a.best.to_string(),
            good: a.near.iter().map(|(m, _)| m.to_string()).collect(),
            score: a.score,
            value: a.value(),
            outcome: self.outcome,
            forced_win: self.forced_win.as_ref().map(|(n, _)| *n),
            winning: self.forced_win.as_ref().map_or(Vec::new(), |(_, w)| {
                w.iter().map(ToString::to_string).collect()
            }),
        }
    }
}

/// Labels positions under one rule set.
pub struct Labeller {
    settings: LabellerSettings,
    rules: Rules,
}

impl Labeller {
    /// A labeller with these settings.
    pub fn new(settings: LabellerSettings, rules: Rules) -> Labeller {
        Labeller { settings, rules }
    }

    /// Its settings.
    pub fn settings(&self) -> &LabellerSettings {
        &self.settings
    }

    /// Labels `pos` (whose game must not be over), taken without history.
    pub fn label(&self, pos: &Position) -> Label {
        let s = &self.settings;
        let game = Game::from_position(self.rules.clone(), *pos);
        let mut search = AlphaBeta::new(s.depth, self.rules.clone(), 0);
        let analysis = search.analyse(&game, s.margin);
        let mut solver = ForcedWins::new(&self.rules, game.hashes(), s.solver_nodes);
        let forced_win = (1..=s.solver_moves).find_map(|n| {
            solver.forced_win(pos, n)?;
            let winning = game
                .legal_moves()
                .iter()
                .copied()
                .filter(|&mv| solver.move_wins(pos, mv, n))
                .collect::<Vec<_>>();
            (!winning.is_empty()).then_some((n, winning))
        });
        let value = if forced_win.is_some() {
            1.0
        } else {
            analysis.value()
        };
        Label {
            legal: game.legal_moves().len() as u32,
            outcome: Outcome::of_value(value),
            analysis,
            forced_win,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_den_entry_in_one_is_labelled_a_forced_win() {
        // South's lion one step from North's den (d9), South to move.
        let pos = Position::from_fen("2L1d2/7/7/7/7/7/7/7/7 w 0 1").unwrap();
        let labeller = Labeller::new(LabellerSettings::default(), Rules::default());
        let label = labeller.label(&pos);
        assert_eq!(label.outcome, Outcome::Win);
        assert!(label.analysis.is_proven());
        let (n, winning) = label.forced_win.expect("the solver sees it");
        assert_eq!(n, 1);
        assert!(winning.contains(&label.analysis.best));
    }
}
