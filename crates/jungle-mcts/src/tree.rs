//! The search tree: nodes in one arena, children stored contiguously.

use jungle_rules::{Move, Square};

/// Where a node stands in its life.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum NodeState {
    /// Not yet looked at.
    Unexpanded,
    /// Sent to the evaluator; children come with the answer.
    Pending,
    /// Has children.
    Expanded,
    /// The game is over here; `terminal_value` holds the result.
    Terminal,
}

/// One node: the move that leads to it and the statistics of that edge.
/// Values are from the point of view of the side that played `mv`, so a
/// parent picks the child with the highest value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub mv: Move,
    pub prior: f32,
    /// Evaluator value of this node's position, for the side that played `mv`.
    pub value: f32,
    pub visits: u32,
    pub in_flight: u32,
    pub value_sum: f32,
    /// Exact draw probability of a terminal node (1 for a drawn end, 0 for
    /// a decided one, a proven child's for a node the solver proved); read
    /// only once the node is terminal. Draws are the same for both sides,
    /// so it needs no sign.
    pub draw: f32,
    /// Sum of the draw probabilities backed up through this node.
    pub draw_sum: f32,
    /// With `minimax_weight`: the minimax of the quiescence values at the
    /// leaves below (the exact value once the node is terminal), for the
    /// side that played `mv`; read only once the node is expanded or terminal.
    pub minimax: f32,
    pub first_child: u32,
    pub num_children: u8,
    pub state: NodeState,
}

impl Node {
    fn new(mv: Move, prior: f32) -> Node {
        Node {
            mv,
            prior,
            value: 0.0,
            visits: 0,
            in_flight: 0,
            value_sum: 0.0,
            draw: 0.0,
            draw_sum: 0.0,
            minimax: 0.0,
            first_child: 0,
            num_children: 0,
            state: NodeState::Unexpanded,
        }
    }

    /// Index range of the children in the arena.
    #[inline]
    pub fn children(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + self.num_children as usize
    }

    /// Mean value with in-flight visits counted as losses of `virtual_loss`.
    #[inline]
    pub fn q_with_virtual_loss(&self, virtual_loss: f32) -> Option<f32> {
        let n = self.visits + self.in_flight;
        (n > 0).then(|| (self.value_sum - self.in_flight as f32 * virtual_loss) / n as f32)
    }

    /// Mean value of the finished visits.
    #[inline]
    pub fn q(&self) -> Option<f32> {
        (self.visits > 0).then(|| self.value_sum / self.visits as f32)
    }

    /// Mean draw probability of the finished visits.
    #[inline]
    pub fn mean_draw(&self) -> Option<f32> {
        (self.visits > 0).then(|| self.draw_sum / self.visits as f32)
    }

    /// The exact value of a node whose result is known (the game is over
    /// there, or the solver proved it); `None` otherwise.
    #[inline]
    pub fn proven(&self) -> Option<f32> {
        (self.state == NodeState::Terminal).then_some(self.value)
    }

    /// Whether the node has been evaluated (expanded, or scored as an end).
    #[inline]
    pub fn evaluated(&self) -> bool {
        matches!(self.state, NodeState::Expanded | NodeState::Terminal)
    }

    /// Whether the side that played `mv` loses for certain.
    #[inline]
    pub fn proven_loss(&self) -> bool {
        self.proven().is_some_and(|v| v <= -1.0)
    }
}

/// The arena; node 0 is the root.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    pub nodes: Vec<Node>,
}

/// The root's `mv` is never read; any square pair will do.
fn root_placeholder() -> Move {
    let a1 = Square::new(0).expect("a1");
    Move::new(a1, a1)
}

impl Tree {
    /// A tree holding only an unexpanded root.
    pub fn new() -> Tree {
        Tree {
            nodes: vec![Node::new(root_placeholder(), 1.0)],
        }
    }

    /// Gives `node` one child per move with the given priors.
    pub fn expand(&mut self, node: usize, moves: &[Move], priors: &[f32]) {
        let first = self.nodes.len() as u32;
        self.nodes
            .extend(moves.iter().zip(priors).map(|(&mv, &p)| Node::new(mv, p)));
        let n = &mut self.nodes[node];
        n.first_child = first;
        n.num_children = moves.len() as u8;
        n.state = NodeState::Expanded;
    }

    /// The best minimax value among `node`'s evaluated children, for the
    /// side to move at `node`; `None` while none is evaluated.
    pub fn best_child_minimax(&self, node: usize) -> Option<f32> {
        self.nodes[self.nodes[node].children()]
            .iter()
            .filter(|c| c.evaluated())
            .map(|c| c.minimax)
            .reduce(f32::max)
    }

    /// The child of `node` reached by `mv`.
    pub fn child_with_move(&self, node: usize, mv: Move) -> Option<usize> {
        self.nodes[node]
            .children()
            .find(|&c| self.nodes[c].mv == mv)
    }

    /// Makes `child` the root, keeping only its subtree (compacted).
    pub fn reroot(&mut self, child: usize) {
        let mut nodes = Vec::with_capacity(self.nodes.len());
        nodes.push(self.nodes[child]);
        let mut i = 0;
        while i < nodes.len() {
            let old = nodes[i];
            if old.num_children > 0 {
                nodes[i].first_child = nodes.len() as u32;
                nodes.extend_from_slice(&self.nodes[old.children()]);
            }
            i += 1;
        }
        nodes[0].mv = root_placeholder();
        nodes[0].prior = 1.0;
        self.nodes = nodes;
    }
}
