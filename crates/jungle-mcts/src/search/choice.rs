//! The finished search's answer: the move to play (with the temperature,
//! the proofs and the root safety check), the improved policy, the value
//! and the principal variation.

use super::*;

impl Search {
    /// The result of the finished search, and the move to play (drawn with
    /// the temperature under PUCT; Gumbel's pick otherwise).
    ///
    /// # Panics
    ///
    /// If no search has expanded the root yet.
    pub fn result(&mut self) -> SearchResult {
        let root = self.tree.nodes[0];
        let children = root.children();
        let kids = &self.tree.nodes[children.clone()];
        let moves: Vec<Move> = kids.iter().map(|c| c.mv).collect();
        let visits: Vec<u32> = kids.iter().map(|c| c.visits).collect();
        let total: u32 = visits.iter().sum();
        let visit_policy: Vec<f32> = if total > 0 {
            visits.iter().map(|&v| v as f32 / total as f32).collect()
        } else {
            vec![1.0 / moves.len() as f32; moves.len()]
        };
        let prior: Vec<f32> = if self.clean_priors.is_empty() {
            kids.iter().map(|c| c.prior).collect()
        } else {
            self.clean_priors.clone()
        };
        let (best_index, improved_policy) = match (self.root_win, &self.gumbel) {
            (Some(win), _) => {
                let mut target = vec![0.0; moves.len()];
                target[win] = 1.0;
                (win, target)
            }
            (None, Some(g)) => {
                let sigma = self.sigma();
                let logits: Vec<f32> = prior
                    .iter()
                    .zip(&sigma)
                    .map(|(p, s)| p.max(1e-12).ln() + s)
                    .collect();
                let count = |i: usize| visits[i] - self.base_visits[i];
                let most = g.considered.iter().map(|&i| count(i)).max().unwrap_or(0);
                let best = g.best_with_noise(&count, most, &sigma, self.played_noise);
                (best, softmax(&logits))
            }
            (None, None) => (self.pick_by_visits(&visits), visit_policy.clone()),
        };
        let best_index = self.avoid_proven_loss(best_index, &visits);
        let (best_index, forced_win) = self.safety_check(best_index, &visits, &moves);
        let chosen = root.first_child as usize + best_index;
        let (pv, (value, draw), (chosen_value, chosen_draw)) = match (self.root_win, forced_win) {
            (Some(win), _) => (vec![moves[win]], (1.0, 0.0), (1.0, 0.0)),
            (None, true) => (vec![moves[best_index]], (1.0, 0.0), (1.0, 0.0)),
            (None, false) => {
                let mean = root.q().map_or(0.0, |q| -q);
                let mean_draw = root.mean_draw().unwrap_or(0.0);
                // A child's values are for the side that moved into it:
                // the root's side to move. As the root's ranking reads them.
                let n = &self.tree.nodes[chosen];
                let chosen_value = self
                    .exact(n)
                    .or(n.q().map(|q| self.with_minimax(n, q)))
                    .unwrap_or(mean);
                let chosen_draw = match n.proven() {
                    Some(_) => n.draw,
                    None => n.mean_draw().unwrap_or(mean_draw),
                };
                (
                    self.principal_variation(chosen),
                    (mean, mean_draw),
                    (chosen_value, chosen_draw),
                )
            }
        };
        SearchResult {
            best: moves[best_index],
            pv,
            value,
            draw,
            chosen_value,
            chosen_draw,
            moves,
            visits,
            visit_policy,
            improved_policy,
            prior,
            simulations: self.done,
        }
    }

    /// With the solver, a pick proven to lose gives way to the most visited
    /// move that is not (ties to the higher prior), if there is one.
    pub(super) fn avoid_proven_loss(&self, pick: usize, visits: &[u32]) -> usize {
        let first = self.tree.nodes[0].first_child as usize;
        let lost = |i: usize| self.tree.nodes[first + i].proven_loss();
        if !self.config.solver || !lost(pick) {
            return pick;
        }
        (0..visits.len())
            .filter(|&i| !lost(i))
            .max_by(|&a, &b| self.preference(visits, a, b))
            .unwrap_or(pick)
    }

    /// The search's order of preference between root moves `a` and `b`
    /// (indices among the root's children): visits, then prior.
    pub(super) fn preference(&self, visits: &[u32], a: usize, b: usize) -> std::cmp::Ordering {
        let prior = |i: usize| self.tree.nodes[self.tree.nodes[0].first_child as usize + i].prior;
        visits[a]
            .cmp(&visits[b])
            .then(prior(a).total_cmp(&prior(b)))
    }

    /// The root safety check of `safety_moves` (off at 0 or when a move
    /// wins at once): the move to play and whether it is a forced win.
    pub(super) fn safety_check(
        &self,
        pick: usize,
        visits: &[u32],
        moves: &[Move],
    ) -> (usize, bool) {
        let depth = self.config.safety_moves;
        if depth == 0 || self.root_win.is_some() {
            return (pick, false);
        }
        let history = &self.history[..self.root_history_len];
        let mut forced = ForcedWins::new(&self.rules, history, self.config.safety_nodes);
        for moves_ahead in 1..=depth {
            if let Some(win) = forced.forced_win(&self.root_pos, moves_ahead) {
                let index = moves.iter().position(|&m| m == win).unwrap_or(pick);
                return (index, true);
            }
        }
        let loses =
            |forced: &mut ForcedWins, i: usize| forced.move_loses(&self.root_pos, moves[i], depth);
        if !loses(&mut forced, pick) {
            return (pick, false);
        }
        let mut others: Vec<usize> = (0..moves.len()).filter(|&i| i != pick).collect();
        others.sort_by(|&a, &b| self.preference(visits, b, a));
        let safe = others.into_iter().find(|&i| !loses(&mut forced, i));
        (safe.unwrap_or(pick), false)
    }

    pub(super) fn pick_by_visits(&mut self, visits: &[u32]) -> usize {
        let t = self.config.temperature;
        let most = visits.iter().copied().max().unwrap_or(0);
        if t <= 0.0 || most == 0 {
            // Most visits; ties go to the higher prior (first in order).
            let first = self.tree.nodes[0].first_child as usize;
            return (0..visits.len())
                .filter(|&i| visits[i] == most)
                .max_by(|&a, &b| {
                    self.tree.nodes[first + a]
                        .prior
                        .total_cmp(&self.tree.nodes[first + b].prior)
                        .then(b.cmp(&a))
                })
                .expect("a root move");
        }
        let weights: Vec<f64> = visits
            .iter()
            .map(|&v| (v as f64 / most as f64).powf(1.0 / t as f64))
            .collect();
        let sum: f64 = weights.iter().sum();
        let mut x = self.rng.random::<f64>() * sum;
        for (i, w) in weights.iter().enumerate() {
            x -= w;
            if x < 0.0 {
                return i;
            }
        }
        weights.len() - 1
    }

    /// The line through the root's child `child` (the move to play), then
    /// down the most visited children.
    pub(super) fn principal_variation(&self, child: usize) -> Vec<Move> {
        let mut pv = vec![self.tree.nodes[child].mv];
        let mut node = child;
        loop {
            let n = &self.tree.nodes[node];
            if n.state != NodeState::Expanded {
                break;
            }
            let best = n
                .children()
                .max_by_key(|&c| (self.tree.nodes[c].visits, std::cmp::Reverse(c)));
            match best {
                Some(c) if self.tree.nodes[c].visits > 0 => {
                    pv.push(self.tree.nodes[c].mv);
                    node = c;
                }
                _ => break,
            }
        }
        pv
    }
}
