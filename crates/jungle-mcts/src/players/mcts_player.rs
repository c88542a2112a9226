//! A player that runs the search with some evaluator: `mcts:SIMS` with the
//! heuristic evaluator here, network players in higher crates.

use super::{Decision, Player};
use crate::evaluator::Evaluator;
use crate::search::{search, Search};
use jungle_rules::Game;

/// Search plus evaluator; the tree is kept between moves of one game.
pub struct MctsPlayer<E: Evaluator + Send> {
    name: String,
    search: Search,
    evaluator: E,
}

impl<E: Evaluator + Send> MctsPlayer<E> {
    /// A player named `name` (as in its spec) searching with `evaluator`.
    pub fn new(name: String, search: Search, evaluator: E) -> MctsPlayer<E> {
        MctsPlayer {
            name,
            search,
            evaluator,
        }
    }
}

impl<E: Evaluator + Send> Player for MctsPlayer<E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &Game) -> Decision {
        let result = search(&mut self.search, game, &mut self.evaluator);
        Decision {
            mv: result.best,
            value: Some(result.value),
            policy: result
                .moves
                .iter()
                .copied()
                .zip(result.improved_policy.iter().copied())
                .collect(),
            pv: result.pv,
        }
    }
}
