//! One search tree per game, stepped in rounds so that many trees share one
//! evaluator call: [`Search::collect`] walks down to leaves (several per tree,
//! kept apart by virtual loss) and [`Search::apply`] expands them with the
//! evaluator's answers. [`run_batched`] drives a set of searches to the end.

use crate::config::{RootSelection, SearchConfig};
use crate::evaluator::{EvalInput, Evaluation, Evaluator};
use crate::forced::ForcedWins;
use crate::gumbel::{considered_visit_sequence, softmax, transformed_completed_q, RootEdge};
use crate::quiescence::quiescence_value;
use crate::tactics::{forced_loss, winning_move, wins_in_two};
use crate::tree::{Node, NodeState, Tree};
use jungle_rules::{
    end_of_game, legal_moves_in_history, repetitions, Game, Move, MoveList, Position, Rules,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Gamma, Gumbel};

/// What a finished search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The root's legal moves; every vector below follows this order.
    pub moves: Vec<Move>,
    /// Visits of each move (including visits kept from the previous move's tree).
    pub visits: Vec<u32>,
    /// The visit distribution.
    pub visit_policy: Vec<f32>,
    /// The training target: Gumbel's completed-Q improved policy, or the
    /// visit distribution under PUCT.
    pub improved_policy: Vec<f32>,
    /// The evaluator's prior at the root (before noise).
    pub prior: Vec<f32>,
    /// Mean value of the root for the side to move, in [-1, 1].
    pub value: f32,
    /// The move the search chose to play.
    pub best: Move,
    /// Principal variation: the chosen move, then the most visited line below it.
    pub pv: Vec<Move>,
    /// Simulations run for this move.
    pub simulations: u32,
}

/// A leaf waiting for the evaluator.
struct Pending {
    node: u32,
    path_start: u32,
    path_len: u32,
    position: Position,
    moves: MoveList,
    repetitions: u32,
    /// The squashed quiescence score for the side to move (with
    /// `minimax_weight`; 0 otherwise).
    quiescence: f32,
}

/// Per-search state of Gumbel root selection.
struct GumbelRoot {
    /// Gumbel noise plus log-prior of each root child.
    score: Vec<f32>,
    /// Root children sampled for sequential halving (indices into the children).
    considered: Vec<usize>,
    schedule: Vec<u32>,
}

impl GumbelRoot {
    /// Among the considered root children whose visit count (as `count`
    /// gives it) is `target`, the one with the highest Gumbel score plus
    /// sigma(completed Q).
    fn best_with_count(&self, count: &dyn Fn(usize) -> u32, target: u32, sigma: &[f32]) -> usize {
        self.considered
            .iter()
            .copied()
            .filter(|&i| count(i) == target)
            .max_by(|&a, &b| (self.score[a] + sigma[a]).total_cmp(&(self.score[b] + sigma[b])))
            .expect("a considered move has the target count")
    }
}

/// The search of one game.
pub struct Search {
    config: SearchConfig,
    rules: Rules,
    rng: ChaCha8Rng,
    tree: Tree,
    root_pos: Position,
    /// Hashes of the game's positions up to the root, then of the path being walked.
    history: Vec<u64>,
    root_history_len: usize,
    /// Root priors before noise, restored before the next move's noise.
    clean_priors: Vec<f32>,
    /// Visits of each root child when this move's search began.
    base_visits: Vec<u32>,
    gumbel: Option<GumbelRoot>,
    started: u32,
    done: u32,
    pending: Vec<Pending>,
    paths: Vec<u32>,
    /// Whether the configured root noise (Dirichlet or Gumbel) is applied.
    root_noise: bool,
    /// Index of a root move that wins at once (with `win_check`) or is
    /// proven to win (with `solver`).
    root_win: Option<usize>,
}

/// What one walk from the root ended in.
enum Walk {
    /// A leaf was queued for the evaluator.
    Queued,
    /// A terminal position was scored and backed up.
    Scored,
    /// The walk met a leaf already queued: stop collecting this round.
    Collision,
}

impl Search {
    /// A search for games under `rules`; `seed` fixes its noise and choices.
    pub fn new(rules: Rules, config: SearchConfig, seed: u64) -> Search {
        Search {
            config,
            rules,
            rng: ChaCha8Rng::seed_from_u64(seed),
            tree: Tree::new(),
            root_pos: Position::start(),
            history: Vec::new(),
            root_history_len: 0,
            clean_priors: Vec::new(),
            base_visits: Vec::new(),
            gumbel: None,
            started: 0,
            done: 0,
            pending: Vec::new(),
            paths: Vec::new(),
            root_noise: true,
            root_win: None,
        }
    }

    /// The settings.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Changes the simulation budget (e.g. for playout-cap randomisation);
    /// takes effect at the next [`Search::begin`].
    pub fn set_simulations(&mut self, simulations: u32) {
        self.config.simulations = simulations.max(1);
    }

    /// Changes the move-choice temperature (PUCT mode), e.g. for the opening.
    pub fn set_temperature(&mut self, temperature: f32) {
        self.config.temperature = temperature.max(0.0);
    }

    /// Turns the configured root noise (Dirichlet in PUCT mode, the Gumbel
    /// sample in Gumbel mode) on or off for the next searches, e.g. off for
    /// the cheap searches of playout-cap randomisation; takes effect at the
    /// next [`Search::begin`].
    pub fn set_root_noise(&mut self, on: bool) {
        self.root_noise = on;
    }

    /// Starts the search for the game's current position, keeping the
    /// subtree of the moves played since the last search when the game
    /// continues it.
    ///
    /// # Panics
    ///
    /// If the game is over.
    pub fn begin(&mut self, game: &Game) {
        assert!(!game.is_over(), "no search in a finished game");
        self.restore_clean_priors();
        // A kept node scored without the evaluator (a win found by
        // `win_check`) has no children: start afresh there. One the solver
        // proved keeps its children, and with them the proof.
        let kept = self.config.reuse_tree && self.follow(game);
        let root = &mut self.tree.nodes[0];
        if !kept || (root.state == NodeState::Terminal && root.num_children == 0) {
            self.tree = Tree::new();
        } else if root.state == NodeState::Terminal {
            root.state = NodeState::Expanded;
        }
        self.root_pos = *game.position();
        self.history.clear();
        self.history.extend_from_slice(game.hashes());
        self.root_history_len = self.history.len();
        self.started = 0;
        self.done = 0;
        self.pending.clear();
        self.paths.clear();
        self.gumbel = None;
        self.root_win = None;
        if self.tree.nodes[0].state == NodeState::Expanded {
            self.prepare_root();
        }
    }

    /// Moves the root down along the moves the game played since the last
    /// search; false if the tree does not hold them.
    fn follow(&mut self, game: &Game) -> bool {
        let known = self.root_history_len;
        let hashes = game.hashes();
        if known == 0 || hashes.len() < known || hashes[..known] != self.history[..known] {
            return false;
        }
        for &mv in &game.moves()[known - 1..] {
            match self.tree.child_with_move(0, mv) {
                Some(child) => self.tree.reroot(child),
                None => return false,
            }
        }
        true
    }

    fn restore_clean_priors(&mut self) {
        if self.clean_priors.is_empty() {
            return;
        }
        let children = self.tree.nodes[0].children();
        for (c, &p) in children.zip(&self.clean_priors) {
            self.tree.nodes[c].prior = p;
        }
        self.clean_priors.clear();
    }

    /// Root noise and the Gumbel sample, once the root has children.
    fn prepare_root(&mut self) {
        let children = self.tree.nodes[0].children();
        if self.config.win_check {
            let moves: Vec<Move> = children.clone().map(|c| self.tree.nodes[c].mv).collect();
            self.root_win = winning_move(&self.root_pos, &moves);
        }
        if self.config.solver {
            // A proof kept from the previous move's tree.
            self.note_root_win();
        }
        self.base_visits = children
            .clone()
            .map(|c| self.tree.nodes[c].visits)
            .collect();
        let n = children.len();
        match self.config.root {
            RootSelection::Puct
                if self.root_noise && self.config.dirichlet_fraction > 0.0 && n > 1 =>
            {
                let gamma = Gamma::new(self.config.dirichlet_alpha, 1.0).expect("validated alpha");
                let noise: Vec<f32> = (0..n).map(|_| gamma.sample(&mut self.rng)).collect();
                let sum: f32 = noise.iter().sum::<f32>().max(f32::MIN_POSITIVE);
                let f = self.config.dirichlet_fraction;
                self.clean_priors = children.clone().map(|c| self.tree.nodes[c].prior).collect();
                for (c, eta) in children.zip(noise) {
                    let p = &mut self.tree.nodes[c].prior;
                    *p = (1.0 - f) * *p + f * eta / sum;
                }
            }
            RootSelection::Puct => {}
            RootSelection::Gumbel => {
                let gumbel = Gumbel::new(0.0f32, 1.0).expect("valid");
                let score: Vec<f32> = children
                    .map(|c| {
                        let g = if self.root_noise && self.config.gumbel_noise {
                            gumbel.sample(&mut self.rng)
                        } else {
                            0.0
                        };
                        g + self.tree.nodes[c].prior.max(1e-12).ln()
                    })
                    .collect();
                let m = (self.config.gumbel_considered as usize).min(n);
                let mut order: Vec<usize> = (0..n).collect();
                order.sort_by(|&a, &b| score[b].total_cmp(&score[a]));
                order.truncate(m);
                let schedule = considered_visit_sequence(m, self.config.simulations as usize);
                self.gumbel = Some(GumbelRoot {
                    score,
                    considered: order,
                    schedule,
                });
            }
        }
    }

    /// Whether the budget is spent (or the root has a move that wins at once).
    pub fn is_finished(&self) -> bool {
        self.tree.nodes[0].state == NodeState::Expanded
            && (self.done >= self.config.simulations || self.root_win.is_some())
    }

    /// Walks to up to `leaves_per_round` new leaves and queues them.
    pub fn collect(&mut self) {
        let mut queued = 0;
        while queued < self.config.leaves_per_round && !self.budget_spent() {
            match self.walk() {
                Walk::Queued => queued += 1,
                Walk::Scored => {}
                Walk::Collision => break,
            }
        }
    }

    fn budget_spent(&self) -> bool {
        self.tree.nodes[0].state == NodeState::Expanded && self.started >= self.config.simulations
    }

    /// The queued leaves, in queue order.
    pub fn pending_inputs(&self) -> impl Iterator<Item = EvalInput<'_>> {
        self.pending.iter().map(|p| EvalInput {
            position: &p.position,
            legal_moves: p.moves.as_slice(),
            repetitions: p.repetitions,
        })
    }

    /// Number of queued leaves.
    pub fn pending_len(&self) -> usize {
        self.pending.len()
    }

    /// Expands the queued leaves with their evaluations (in queue order) and
    /// backs the values up.
    ///
    /// # Panics
    ///
    /// If the number of evaluations or of a policy's entries is wrong.
    pub fn apply(&mut self, evals: &[Evaluation]) {
        assert_eq!(
            evals.len(),
            self.pending.len(),
            "one evaluation per queued leaf"
        );
        let pending = std::mem::take(&mut self.pending);
        for (leaf, eval) in pending.iter().zip(evals) {
            assert_eq!(
                eval.policy.len(),
                leaf.moves.len(),
                "one prior per legal move"
            );
            let node = leaf.node as usize;
            let value = eval.value();
            self.tree.expand(node, leaf.moves.as_slice(), &eval.policy);
            let n = &mut self.tree.nodes[node];
            n.value = -value;
            n.minimax = -leaf.quiescence;
            let was_root = node == 0;
            let start = leaf.path_start as usize;
            self.backup(start, leaf.path_len as usize, value);
            if was_root {
                self.prepare_root();
            } else {
                self.done += 1;
            }
        }
        // Keep the allocation for the next round.
        self.pending = pending;
        self.pending.clear();
        self.paths.clear();
    }

    /// Adds `value` (for the side to move at the leaf) along a path, undoing
    /// its virtual loss.
    fn backup(&mut self, path_start: usize, path_len: usize, value: f32) {
        let mut v = -value;
        for i in (path_start..path_start + path_len).rev() {
            let n = &mut self.tree.nodes[self.paths[i] as usize];
            n.in_flight -= 1;
            n.visits += 1;
            n.value_sum += v;
            v = -v;
        }
        if self.config.minimax_weight > 0.0 {
            self.back_up_minimax(path_start, path_len);
        }
        if self.config.solver {
            self.propagate_proof(path_start, path_len);
        }
    }

    /// Implicit minimax backups: each node above the path's end takes the
    /// best of its evaluated children's minimax values, for its side to move.
    fn back_up_minimax(&mut self, path_start: usize, path_len: usize) {
        for i in (path_start..path_start + path_len - 1).rev() {
            let node = self.paths[i] as usize;
            if let Some(best) = self.tree.best_child_minimax(node) {
                self.tree.nodes[node].minimax = -best;
            }
        }
    }

    /// MCTS-solver: walking up from the end of a path while the node below
    /// is proven, proves its parent when the parent's side to move has a
    /// proven win, or when every move there is proven (the parent is then
    /// worth the best of them). At the root, a proven win is played at once.
    fn propagate_proof(&mut self, path_start: usize, path_len: usize) {
        for i in (path_start + 1..path_start + path_len).rev() {
            let child = self.paths[i] as usize;
            if self.tree.nodes[child].state != NodeState::Terminal {
                return;
            }
            let parent = self.paths[i - 1] as usize;
            if parent == 0 {
                self.note_root_win();
                return;
            }
            let Some(best) = self.proven_best(parent) else {
                return;
            };
            let n = &mut self.tree.nodes[parent];
            n.state = NodeState::Terminal;
            // From the point of view of the side that moved into `parent`.
            n.value = -best;
            n.minimax = -best;
        }
    }

    /// The value of `node` for its side to move if its children prove it:
    /// a win when one child is a proven win, the best child when all are
    /// proven; `None` otherwise.
    fn proven_best(&self, node: usize) -> Option<f32> {
        let kids = &self.tree.nodes[self.tree.nodes[node].children()];
        if kids.iter().any(|c| c.proven().is_some_and(|v| v >= 1.0)) {
            return Some(1.0);
        }
        let best = kids
            .iter()
            .map(|c| c.proven())
            .try_fold(f32::NEG_INFINITY, |best, v| v.map(|v| best.max(v)))?;
        best.is_finite().then_some(best)
    }

    /// Sets `root_win` to a root move proven to win, if there is one.
    fn note_root_win(&mut self) {
        if self.root_win.is_none() {
            self.root_win = self.tree.nodes[0]
                .children()
                .position(|c| self.tree.nodes[c].proven().is_some_and(|v| v >= 1.0));
        }
    }

    /// One descent from the root.
    fn walk(&mut self) -> Walk {
        let path_start = self.paths.len();
        let mut pos = self.root_pos;
        self.history.truncate(self.root_history_len);
        let mut node = 0usize;
        loop {
            self.paths.push(node as u32);
            self.tree.nodes[node].in_flight += 1;
            match self.tree.nodes[node].state {
                NodeState::Expanded => {
                    let child = if node == 0 && self.gumbel.is_some() {
                        self.gumbel_child()
                    } else {
                        self.puct_child(node)
                    };
                    pos.make_move(self.tree.nodes[child].mv);
                    self.history.push(pos.hash());
                    node = child;
                }
                NodeState::Terminal => {
                    let value = -self.tree.nodes[node].value;
                    return self.score_terminal(path_start, value);
                }
                NodeState::Pending => {
                    for i in path_start..self.paths.len() {
                        self.tree.nodes[self.paths[i] as usize].in_flight -= 1;
                    }
                    self.paths.truncate(path_start);
                    return Walk::Collision;
                }
                NodeState::Unexpanded => return self.reach_leaf(path_start, node, pos),
            }
        }
    }

    /// A new leaf: score it if the game is over there, else queue it.
    fn reach_leaf(&mut self, path_start: usize, node: usize, pos: Position) -> Walk {
        // `history` ends with this position's own hash.
        let earlier = &self.history[..self.history.len() - 1];
        let reps = repetitions(earlier, pos.hash(), pos.quiet_plies());
        let moves = legal_moves_in_history(&pos, &self.rules, &self.history);
        if node != 0 {
            let outcome = end_of_game(&pos, &self.rules, !moves.is_empty(), reps);
            let value = match outcome {
                // A draw is worth `draw_value` to the side that moved into
                // it, so minus that to the side to move here.
                Some(outcome) if outcome.winner.is_none() => Some(-self.config.draw_value),
                Some(outcome) => Some(outcome.score_for(pos.side_to_move()) as f32 * 2.0 - 1.0),
                None if self.config.win_check && winning_move(&pos, &moves).is_some() => Some(1.0),
                None if self.config.loss_check
                    && forced_loss(&pos, &self.rules, &moves, &self.history) =>
                {
                    Some(-1.0)
                }
                None if self.config.win_in_two_check
                    && wins_in_two(&pos, &self.rules, &moves, &self.history) =>
                {
                    Some(1.0)
                }
                None => None,
            };
            if let Some(value) = value {
                let n = &mut self.tree.nodes[node];
                n.state = NodeState::Terminal;
                n.value = -value;
                n.minimax = -value;
                return self.score_terminal(path_start, value);
            }
            self.started += 1;
        }
        self.tree.nodes[node].state = NodeState::Pending;
        let quiescence = if self.config.minimax_weight > 0.0 {
            quiescence_value(&pos, &self.rules)
        } else {
            0.0
        };
        self.pending.push(Pending {
            node: node as u32,
            path_start: path_start as u32,
            path_len: (self.paths.len() - path_start) as u32,
            position: pos,
            moves,
            repetitions: reps,
            quiescence,
        });
        Walk::Queued
    }

    fn score_terminal(&mut self, path_start: usize, value: f32) -> Walk {
        let len = self.paths.len() - path_start;
        self.backup(path_start, len, value);
        self.paths.truncate(path_start);
        self.started += 1;
        self.done += 1;
        Walk::Scored
    }

    /// PUCT with first-play urgency and virtual loss; with the solver, a
    /// proven node counts at its exact value and a proven-lost move is
    /// never chosen.
    fn puct_child(&self, node: usize) -> usize {
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
    fn with_minimax(&self, child: &Node, q: f32) -> f32 {
        let w = self.config.minimax_weight;
        if w > 0.0 && child.evaluated() {
            (1.0 - w) * q + w * child.minimax
        } else {
            q
        }
    }

    /// With the solver, a proven node's exact value stands in for its mean.
    fn exact(&self, node: &Node) -> Option<f32> {
        self.config.solver.then(|| node.proven()).flatten()
    }

    /// The root child the sequential-halving schedule asks for next.
    fn gumbel_child(&self) -> usize {
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
    fn sigma(&self) -> Vec<f32> {
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
                (g.best_with_count(&count, most, &sigma), softmax(&logits))
            }
            (None, None) => (self.pick_by_visits(&visits), visit_policy.clone()),
        };
        let best_index = self.avoid_proven_loss(best_index, &visits);
        let (best_index, forced_win) = self.safety_check(best_index, &visits, &moves);
        let (pv, value) = match (self.root_win, forced_win) {
            (Some(win), _) => (vec![moves[win]], 1.0),
            (None, true) => (vec![moves[best_index]], 1.0),
            (None, false) => (
                self.principal_variation(root.first_child as usize + best_index),
                root.q().map_or(0.0, |q| -q),
            ),
        };
        SearchResult {
            best: moves[best_index],
            pv,
            value,
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
    fn avoid_proven_loss(&self, pick: usize, visits: &[u32]) -> usize {
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
    fn preference(&self, visits: &[u32], a: usize, b: usize) -> std::cmp::Ordering {
        let prior = |i: usize| self.tree.nodes[self.tree.nodes[0].first_child as usize + i].prior;
        visits[a]
            .cmp(&visits[b])
            .then(prior(a).total_cmp(&prior(b)))
    }

    /// The root safety check of `safety_moves` (off at 0 or when a move
    /// wins at once): the move to play and whether it is a forced win.
    fn safety_check(&self, pick: usize, visits: &[u32], moves: &[Move]) -> (usize, bool) {
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

    fn pick_by_visits(&mut self, visits: &[u32]) -> usize {
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
    fn principal_variation(&self, child: usize) -> Vec<Move> {
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

/// One round over `searches`: each unfinished search queues its leaves, one
/// evaluator call judges all of them, and each search expands its own.
/// Returns the number of positions evaluated (0 when no search queued any).
pub fn run_round<E: Evaluator + ?Sized>(searches: &mut [&mut Search], evaluator: &mut E) -> usize {
    for s in searches.iter_mut() {
        if !s.is_finished() {
            s.collect();
        }
    }
    let inputs: Vec<EvalInput<'_>> = searches.iter().flat_map(|s| s.pending_inputs()).collect();
    let n = inputs.len();
    if n == 0 {
        return 0;
    }
    let evals = evaluator.evaluate(&inputs);
    drop(inputs);
    let mut offset = 0;
    for s in searches.iter_mut() {
        let k = s.pending_len();
        s.apply(&evals[offset..offset + k]);
        offset += k;
    }
    n
}

/// Runs every search to the end, each round gathering the queued leaves of
/// all of them into one evaluator call. Returns the number of calls.
pub fn run_batched<E: Evaluator + ?Sized>(searches: &mut [Search], evaluator: &mut E) -> usize {
    let mut refs: Vec<&mut Search> = searches.iter_mut().collect();
    let mut calls = 0;
    while refs.iter().any(|s| !s.is_finished()) {
        if run_round(&mut refs, evaluator) > 0 {
            calls += 1;
        }
    }
    calls
}

/// Searches one game's position to the end and returns the result.
pub fn search<E: Evaluator + ?Sized>(
    search: &mut Search,
    game: &Game,
    evaluator: &mut E,
) -> SearchResult {
    search.begin(game);
    run_batched(std::slice::from_mut(search), evaluator);
    search.result()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluator::UniformEvaluator;

    #[test]
    fn each_evaluated_node_holds_the_minimax_of_its_children() {
        let rules = Rules::default();
        // South's lion beside North's wolf, North's elephant behind it.
        let game = Game::from_fen(rules.clone(), "r6/7/7/7/7/3e3/2Lw3/7/7 w").unwrap();
        let config = SearchConfig {
            simulations: 300,
            minimax_weight: 0.5,
            ..SearchConfig::for_play(300)
        };
        let mut tree = Search::new(rules, config, 3);
        search(&mut tree, &game, &mut UniformEvaluator);
        let nodes = &tree.tree.nodes;
        let mut inner = 0;
        for (i, node) in nodes.iter().enumerate() {
            // A leaf expanded but not yet walked through keeps its own score.
            if let (NodeState::Expanded, Some(best)) = (node.state, tree.tree.best_child_minimax(i))
            {
                assert_eq!(node.minimax, -best);
                inner += 1;
            }
        }
        assert!(inner > 20, "{inner} inner nodes");
        for end in nodes.iter().filter(|n| n.state == NodeState::Terminal) {
            assert_eq!(end.minimax, end.value, "an end's minimax is exact");
        }
    }
}
