//! Which child a walk takes: PUCT with first-play urgency below the root
//! (and at it with `root = "puct"`), Gumbel sequential halving at the root.

use super::*;

/// Per-search state of Gumbel root selection.
pub(super) struct GumbelRoot {
    /// Gumbel noise plus log-prior of each root child.
    pub(super) score: Vec<f32>,
    /// The Gumbel noise alone (0 without noise), so the played move can
    /// weigh it differently from the search.
    pub(super) noise: Vec<f32>,
    /// Root children sampled for sequential halving (indices into the children).
    pub(super) considered: Vec<usize>,
    pub(super) schedule: Vec<u32>,
}

impl GumbelRoot {
    /// Among the considered root children whose visit count (as `count`
    /// gives it) is `target`, the one with the highest Gumbel score plus
    /// sigma(completed Q).
    pub(super) fn best_with_count(
        &self,
        count: &dyn Fn(usize) -> u32,
        target: u32,
        sigma: &[f32],
    ) -> usize {
        self.best_with_noise(count, target, sigma, 1.0)
    }

    /// [`GumbelRoot::best_with_count`] with the Gumbel noise scaled by
    /// `noise_scale` (mctx's `gumbel_scale`): 1 is the search's own
    /// ranking, 0 the move of the largest log-prior plus sigma(Q).
    pub(super) fn best_with_noise(
        &self,
        count: &dyn Fn(usize) -> u32,
        target: u32,
        sigma: &[f32],
        noise_scale: f32,
    ) -> usize {
        let rank = |i: usize| self.score[i] - (1.0 - noise_scale) * self.noise[i] + sigma[i];
        self.considered
            .iter()
            .copied()
            .filter(|&i| count(i) == target)
            .max_by(|&a, &b| rank(a).total_cmp(&rank(b)))
            .expect("a considered move has the target count")
    }
}

impl Search {
    /// PUCT with first-play urgency and virtual loss; with the solver, a
    /// proven node counts at its exact value and a proven-lost move is
    /// never chosen.
    pub(super) fn puct_child(&self, node: usize) -> usize {
        let nodes = &self.tree.nodes;
        let parent = &nodes[node];
        let children = parent.children();
        let parent_visits = (parent.visits + parent.in_flight).max(1) as f32;
        let sqrt_n = parent_visits.sqrt();
        let parent_q = parent.q().map_or(0.0, |q| -q);
        let visited_mass: f32 = nodes[children.clone()]
            .iter()
            .filter(|c| c.visits + c.in_flight > 0)
            .map(|c| c.prior)
            .sum();
        let fpu = parent_q - self.config.fpu_reduction * visited_mass.sqrt();
        let vl = self.config.virtual_loss;
        let cpuct = self.config.cpuct;
        let mut best = children.start;
        let mut best_score = f32::NEG_INFINITY;
        for c in children {
            let child = &nodes[c];
            if self.config.solver && child.proven_loss() {
                // Never worth a visit; if every move is lost, the first stays.
                continue;
            }
            let n = child.visits + child.in_flight;
            let q = self
                .exact(child)
                .or_else(|| {
                    child
                        .q_with_virtual_loss(vl)
                        .map(|q| self.with_minimax(child, q))
                })
                .unwrap_or(fpu);
            let score = q + cpuct * child.prior * sqrt_n / (1.0 + n as f32);
            if score > best_score {
                best_score = score;
                best = c;
            }
        }
        best
    }

    /// A visited child's mean `q` blended with its minimax value by
    /// `minimax_weight` (`q` itself when the weight is 0 or the child is
    /// not evaluated yet).
    pub(super) fn with_minimax(&self, child: &Node, q: f32) -> f32 {
        let w = self.config.minimax_weight;
        if w > 0.0 && child.evaluated() {
            (1.0 - w) * q + w * child.minimax
        } else {
            q
        }
    }

    /// With the solver, a proven node's exact value stands in for its mean.
    pub(super) fn exact(&self, node: &Node) -> Option<f32> {
        self.config.solver.then(|| node.proven()).flatten()
    }

    /// The root child the sequential-halving schedule asks for next.
    pub(super) fn gumbel_child(&self) -> usize {
        let gumbel = self.gumbel.as_ref().expect("gumbel root");
        let first = self.tree.nodes[0].first_child as usize;
        let sigma = self.sigma();
        let index = (self.started as usize).min(gumbel.schedule.len() - 1);
        let wanted = gumbel.schedule[index];
        let count = |i: usize| {
            let c = &self.tree.nodes[first + i];
            c.visits - self.base_visits[i] + c.in_flight
        };
        let fewest = gumbel
            .considered
            .iter()
            .map(|&i| count(i))
            .min()
            .unwrap_or(0);
        let target = if gumbel.considered.iter().any(|&i| count(i) == wanted) {
            wanted
        } else {
            fewest
        };
        first + gumbel.best_with_count(&count, target, &sigma)
    }

    /// sigma(completed Q) of every root child.
    pub(super) fn sigma(&self) -> Vec<f32> {
        let root = &self.tree.nodes[0];
        let prior_of = |i: usize, c: usize| {
            self.clean_priors
                .get(i)
                .copied()
                .unwrap_or(self.tree.nodes[c].prior)
        };
        let edges: Vec<RootEdge> = root
            .children()
            .enumerate()
            .map(|(i, c)| {
                let n = &self.tree.nodes[c];
                RootEdge {
                    prior: prior_of(i, c),
                    visits: n.visits,
                    q: self
                        .exact(n)
                        .or(n.q().map(|q| self.with_minimax(n, q)))
                        .unwrap_or(0.0),
                }
            })
            .collect();
        transformed_completed_q(
            &edges,
            -root.value,
            self.config.gumbel_c_visit,
            self.config.gumbel_c_scale,
        )
    }
}
