//! A player that runs the search with some evaluator: `mcts:SIMS` with the
//! heuristic evaluator, `net:` players with a network.

use crate::player::{Decision, Player};
use jungle_mcts::{search, Evaluator, Search};
use jungle_rules::Game;

/// Search plus evaluator; the tree is kept between moves of one game.
pub struct SearchPlayer<E: Evaluator + Send> {
    name: String,
    search: Search,
    evaluator: E,
}

impl<E: Evaluator + Send> SearchPlayer<E> {
    /// A player named `name` (as in its spec) searching with `evaluator`.
    pub fn new(name: String, search: Search, evaluator: E) -> SearchPlayer<E> {
        SearchPlayer {
            name,
            search,
            evaluator,
        }
    }
}

impl<E: Evaluator + Send> Player for SearchPlayer<E> {
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
