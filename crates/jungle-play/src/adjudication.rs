//! Ending decided games early, as cutechess-cli adjudicates: a game whose
//! winner is no longer in doubt is scored for it without playing it out.
//! Two rules, each off unless asked for: the forced-win search proves a win
//! for the side to move ([`jungle_mcts::forced::ForcedWins`]), or one side
//! holds a material lead ([`jungle_mcts::heuristic::MATERIAL`] points: a
//! rat 350, an elephant 1000) for a number of plies in a row.

use jungle_mcts::forced::ForcedWins;
use jungle_mcts::heuristic::MATERIAL;
use jungle_rules::{Game, Position, Side};
use serde::{Deserialize, Serialize};

/// Nodes (move generations) the forced-win search may spend on each
/// position: a few milliseconds.
pub const SOLVER_NODES: u64 = 20_000;

/// Which games are ended early; the default ends none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Adjudication {
    /// A win the side to move is proven to have within this many of its
    /// own moves ends the game as its win; 0 = off.
    pub solver_moves: u32,
    /// A material lead of at least this many points ...; 0 = off.
    pub material_margin: i32,
    /// ... held by one side for this many plies in a row ends the game as
    /// its win.
    pub material_plies: u32,
}

/// The rule that ended a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdjudicationRule {
    /// The forced-win search proved a win.
    Solver,
    /// A material lead was held.
    Material,
}

impl AdjudicationRule {
    /// The end reason's name: `adjudicated_solver` or `adjudicated_material`.
    pub fn reason_name(self) -> &'static str {
        match self {
            AdjudicationRule::Solver => "adjudicated_solver",
            AdjudicationRule::Material => "adjudicated_material",
        }
    }
}

/// A game ended by adjudication.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudicated {
    /// The side scored as the winner.
    pub winner: Side,
    /// Why.
    pub rule: AdjudicationRule,
}

/// `side`'s material in points.
pub fn material(pos: &Position, side: Side) -> i32 {
    pos.occupied(side)
        .into_iter()
        .map(|sq| MATERIAL[pos.piece_at(sq).expect("occupied").animal().index()])
        .sum()
}

/// Adjudication through one game: asked before every move.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Adjudication,
    /// The side leading by the margin in the positions just seen, and in
    /// how many of them in a row.
    leader: Option<Side>,
    held: u32,
}

impl Adjudicator {
    /// An adjudicator for one game.
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            leader: None,
            held: 0,
        }
    }

    /// Whether the game, not over, is decided in its current position (the
    /// side to move about to choose).
    pub fn check(&mut self, game: &Game) -> Option<Adjudicated> {
        let pos = game.position();
        if self.rules.material_margin > 0 && self.rules.material_plies > 0 {
            let lead = material(pos, Side::South) - material(pos, Side::North);
            let leader = if lead >= self.rules.material_margin {
                Some(Side::South)
            } else if -lead >= self.rules.material_margin {
                Some(Side::North)
            } else {
                None
            };
            self.held = match leader {
                Some(_) if leader == self.leader => self.held + 1,
                Some(_) => 1,
                None => 0,
            };
            self.leader = leader;
            if let Some(winner) = leader.filter(|_| self.held >= self.rules.material_plies) {
                return Some(Adjudicated {
                    winner,
                    rule: AdjudicationRule::Material,
                });
            }
        }
        if self.rules.solver_moves > 0 {
            let mut search = ForcedWins::new(game.rules(), game.hashes(), SOLVER_NODES);
            if search.forced_win(pos, self.rules.solver_moves).is_some() {
                return Some(Adjudicated {
                    winner: pos.side_to_move(),
                    rule: AdjudicationRule::Solver,
                });
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::Rules;

    /// South up an elephant, South to move.
    const UP_AN_ELEPHANT: &str = "l5t/1d3c1/r1p1w2/7/7/7/E1W1P1R/1C3D1/T5L w";

    #[test]
    fn a_material_lead_decides_only_when_held_long_enough() {
        let mut game = Game::from_fen(Rules::default(), UP_AN_ELEPHANT).unwrap();
        assert_eq!(
            material(game.position(), Side::South) - material(game.position(), Side::North),
            1000
        );
        let rules = Adjudication {
            material_margin: 1000,
            material_plies: 3,
            ..Adjudication::default()
        };
        let mut adjudicator = Adjudicator::new(rules);
        assert_eq!(adjudicator.check(&game), None);
        let mv = game.legal_moves()[0];
        game.play(mv).unwrap();
        assert_eq!(adjudicator.check(&game), None);
        let mv = game.legal_moves()[0];
        game.play(mv).unwrap();
        assert_eq!(
            adjudicator.check(&game),
            Some(Adjudicated {
                winner: Side::South,
                rule: AdjudicationRule::Material
            })
        );
        // A bigger margin than the lead, or the rule off: never.
        for rules in [
            Adjudication {
                material_margin: 1001,
                material_plies: 1,
                ..Adjudication::default()
            },
            Adjudication::default(),
        ] {
            let game = Game::from_fen(Rules::default(), UP_AN_ELEPHANT).unwrap();
            assert_eq!(Adjudicator::new(rules).check(&game), None);
        }
    }

    #[test]
    fn the_solver_decides_a_proven_win_for_the_side_to_move() {
        // South's cat next to North's den, South to move: a win in one.
        let game = Game::from_fen(Rules::default(), "2C4/7/7/7/7/7/7/7/l6 w").unwrap();
        let solver = |moves| Adjudication {
            solver_moves: moves,
            ..Adjudication::default()
        };
        assert_eq!(
            Adjudicator::new(solver(1)).check(&game),
            Some(Adjudicated {
                winner: Side::South,
                rule: AdjudicationRule::Solver
            })
        );
        assert_eq!(Adjudicator::new(solver(0)).check(&game), None);
        // The start: nothing is proven.
        let start = Game::new(Rules::default());
        assert_eq!(Adjudicator::new(solver(3)).check(&start), None);
    }
}
