//! One search tree per game, stepped in rounds so that many trees share one
//! evaluator call: [`Search::collect`] walks down to leaves (several per tree,
//! kept apart by virtual loss) and [`Search::apply`] expands them with the
//! evaluator's answers. [`run_batched`] drives a set of searches to the end.

mod backup;
mod choice;
mod lines;
mod select;
mod walk;

use crate::config::{RootSelection, SearchConfig};
use crate::evaluator::{wdl_of, EvalInput, Evaluation, Evaluator};
use crate::forced::ForcedWins;
use crate::gumbel::{considered_visit_sequence, softmax, transformed_completed_q, RootEdge};
use crate::profile::{self, Phase};
use crate::quiescence::quiescence_value;
use crate::tactics::{forced_loss, winning_move, wins_in_two};
use crate::tree::{Node, NodeState, Tree};
use jungle_rules::{
    end_of_game, legal_moves_in_history, repetitions, Game, Move, MoveList, Position, Rules,
};
pub use lines::RootLine;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Gamma, Gumbel};
use select::GumbelRoot;

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
    /// Mean draw probability of the root's visits (0 for a win found at
    /// once): with `value`, the search's own win/draw/loss
    /// ([`SearchResult::wdl`]).
    pub draw: f32,
    /// Value of the move chosen to play for the side to move, in [-1, 1]:
    /// its Q as the root's ranking reads it (exact when proven, blended
    /// with its minimax value under `minimax_weight`; 1 for a win found at
    /// once), or the root's mean when it has no visits. Sequential halving's forced visits to weak
    /// moves drag the root mean below it.
    pub chosen_value: f32,
    /// Mean draw probability below the chosen move (exact when proven),
    /// or the root's when it has no visits.
    pub chosen_draw: f32,
    /// The move the search chose to play.
    pub best: Move,
    /// Principal variation: the chosen move, then the most visited line below it.
    pub pv: Vec<Move>,
    /// Simulations run for this move.
    pub simulations: u32,
}

impl SearchResult {
    /// The search's own win/draw/loss at the root for the side to move:
    /// its mean value with its mean draw probability ([`wdl_of`]).
    pub fn wdl(&self) -> [f32; 3] {
        wdl_of(self.value, self.draw)
    }
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
    /// Simulations of the current search: given to [`Search::begin`] (as
    /// mctx's policies take `num_simulations`), not kept in the config.
    budget: u32,
    started: u32,
    done: u32,
    pending: Vec<Pending>,
    paths: Vec<u32>,
    /// Whether the configured root noise (Dirichlet or Gumbel) is applied.
    root_noise: bool,
    /// The Gumbel noise's weight in the choice of the move to play
    /// ([`Search::set_played_noise`]).
    played_noise: f32,
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
            budget: 1,
            started: 0,
            done: 0,
            pending: Vec::new(),
            paths: Vec::new(),
            root_noise: true,
            played_noise: 1.0,
            root_win: None,
        }
    }

    /// The settings.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Changes the move-choice temperature (PUCT mode), e.g. for the opening.
    pub fn set_temperature(&mut self, temperature: f32) {
        self.config.temperature = temperature.max(0.0);
    }

    /// Changes how many root moves a Gumbel search considers (sequential
    /// halving starts from them); takes effect at the next
    /// [`Search::begin`].
    pub fn set_considered(&mut self, considered: u32) {
        self.config.gumbel_considered = considered.max(2);
    }

    /// Scales the Gumbel noise in the choice of the move to play (1: the
    /// search's own ranking, as mctx with `gumbel_scale = 1`; less: closer
    /// to the best-valued move), leaving the noise that drew the
    /// considered moves alone; read when the result is taken.
    pub fn set_played_noise(&mut self, scale: f32) {
        self.played_noise = scale.clamp(0.0, 1.0);
    }

    /// Turns the configured root noise (Dirichlet in PUCT mode, the Gumbel
    /// sample in Gumbel mode) on or off for the next searches, e.g. off for
    /// the cheap searches of playout-cap randomisation; takes effect at the
    /// next [`Search::begin`].
    pub fn set_root_noise(&mut self, on: bool) {
        self.root_noise = on;
    }

    /// Starts a search of `simulations` (at least one) for the game's
    /// current position, keeping the subtree of the moves played since the
    /// last search when the game continues it. The budget is the caller's
    /// for each search: a player passes its configured
    /// [`SearchConfig::simulations`], self-play a full or a cheap budget
    /// (playout-cap randomisation), the engine its chunks.
    ///
    /// # Panics
    ///
    /// If the game is over.
    pub fn begin(&mut self, game: &Game, simulations: u32) {
        assert!(!game.is_over(), "no search in a finished game");
        self.budget = simulations.max(1);
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
                let noise: Vec<f32> = children
                    .clone()
                    .map(|_| {
                        if self.root_noise && self.config.gumbel_noise {
                            gumbel.sample(&mut self.rng)
                        } else {
                            0.0
                        }
                    })
                    .collect();
                let score: Vec<f32> = children
                    .zip(&noise)
                    .map(|(c, g)| g + self.tree.nodes[c].prior.max(1e-12).ln())
                    .collect();
                let m = (self.config.gumbel_considered as usize).min(n);
                let mut order: Vec<usize> = (0..n).collect();
                order.sort_by(|&a, &b| score[b].total_cmp(&score[a]));
                order.truncate(m);
                let schedule = considered_visit_sequence(m, self.budget as usize);
                self.gumbel = Some(GumbelRoot {
                    score,
                    noise,
                    considered: order,
                    schedule,
                });
            }
        }
    }

    /// Bytes the tree's arena holds now (its capacity, which the kept
    /// subtree carries from move to move).
    pub fn tree_bytes(&self) -> usize {
        self.tree.nodes.capacity() * std::mem::size_of::<crate::tree::Node>()
    }

    /// The most bytes the tree's arena can hold after `simulations` more:
    /// each expands at most one node into [`jungle_rules::MAX_MOVES`]
    /// children, and a full arena doubles when it grows.
    pub fn tree_bytes_after(&self, simulations: u64) -> usize {
        let nodes = &self.tree.nodes;
        let needed =
            nodes.len() as u64 + simulations.saturating_mul(jungle_rules::MAX_MOVES as u64);
        let mut capacity = nodes.capacity().max(1) as u64;
        while capacity < needed {
            capacity = capacity.saturating_mul(2);
        }
        usize::try_from(capacity.saturating_mul(std::mem::size_of::<crate::tree::Node>() as u64))
            .unwrap_or(usize::MAX)
    }

    /// Whether the budget is spent (or the root has a move that wins at once).
    pub fn is_finished(&self) -> bool {
        self.tree.nodes[0].state == NodeState::Expanded
            && (self.done >= self.budget || self.root_win.is_some())
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
        self.tree.nodes[0].state == NodeState::Expanded && self.started >= self.budget
    }

    /// The queued leaves, in queue order.
    pub fn pending_inputs(&self) -> impl Iterator<Item = EvalInput<'_>> {
        self.pending.iter().map(|p| EvalInput {
            position: &p.position,
            legal_moves: p.moves.as_slice(),
            repetitions: p.repetitions,
            rules: &self.rules,
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
            let (value, draw) = (eval.value(), eval.wdl[1]);
            self.tree.expand(node, leaf.moves.as_slice(), &eval.policy);
            let n = &mut self.tree.nodes[node];
            n.value = -value;
            n.minimax = -leaf.quiescence;
            let was_root = node == 0;
            let start = leaf.path_start as usize;
            self.backup(start, leaf.path_len as usize, value, draw);
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
}

/// One round over `searches`: each unfinished search queues its leaves, one
/// evaluator call judges all of them, and each search expands its own.
/// Returns the number of positions evaluated (0 when no search queued any).
pub fn run_round<E: Evaluator + ?Sized>(searches: &mut [&mut Search], evaluator: &mut E) -> usize {
    for s in searches.iter_mut() {
        if !s.is_finished() {
            let _t = profile::time(Phase::Select);
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
    let _t = profile::time(Phase::Backup);
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

/// Searches one game's position with the configured budget
/// ([`SearchConfig::simulations`]) and returns the result.
pub fn search<E: Evaluator + ?Sized>(
    search: &mut Search,
    game: &Game,
    evaluator: &mut E,
) -> SearchResult {
    let simulations = search.config.simulations;
    search.run(game, simulations, evaluator)
}

impl Search {
    /// Searches the game's position with `simulations` to the end (one
    /// evaluator call a round) and returns the result.
    pub fn run<E: Evaluator + ?Sized>(
        &mut self,
        game: &Game,
        simulations: u32,
        evaluator: &mut E,
    ) -> SearchResult {
        self.begin(game, simulations);
        run_batched(std::slice::from_mut(self), evaluator);
        self.result()
    }
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

    #[test]
    fn the_played_move_weighs_the_noise_as_told() {
        // Two finalists with equal visits: the noise decides at scale 1,
        // the log-prior plus sigma(Q) at scale 0.
        let root = GumbelRoot {
            score: vec![3.0, 1.5, -5.0],
            noise: vec![2.5, 0.0, 0.0],
            considered: vec![0, 1],
            schedule: vec![],
        };
        let count = |_: usize| 4;
        let sigma = [0.0, 0.5, 9.0];
        assert_eq!(root.best_with_count(&count, 4, &sigma), 0);
        assert_eq!(root.best_with_noise(&count, 4, &sigma, 1.0), 0);
        assert_eq!(root.best_with_noise(&count, 4, &sigma, 0.0), 1);
        assert_eq!(root.best_with_noise(&count, 4, &sigma, 0.5), 1);

        // In a search: the considered moves and the improved policy do not
        // depend on the weight; the played move does, for some seeds.
        let rules = Rules::default();
        let game = Game::new(rules.clone());
        let config = SearchConfig {
            root: crate::RootSelection::Gumbel,
            gumbel_noise: true,
            gumbel_considered: 8,
            ..SearchConfig::for_play(32)
        };
        let mut differ = 0;
        for seed in 0..12 {
            let run = |weight: f32| {
                let mut tree = Search::new(rules.clone(), config.clone(), seed);
                tree.set_played_noise(weight);
                search(&mut tree, &game, &mut crate::HeuristicEvaluator)
            };
            let (full, none) = (run(1.0), run(0.0));
            assert_eq!(full.improved_policy, none.improved_policy, "seed {seed}");
            assert_eq!(full.visits, none.visits, "seed {seed}");
            differ += usize::from(full.best != none.best);
        }
        assert!(differ > 0, "the weight never changed the played move");
    }
}
