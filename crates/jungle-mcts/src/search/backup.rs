//! Backing a value up the path just walked (undoing its virtual loss), the
//! implicit-minimax blend, and the MCTS-solver's proofs.

use super::*;

impl Search {
    /// Adds `value` (for the side to move at the leaf) and the leaf's draw
    /// probability `draw` along a path, undoing its virtual loss.
    pub(super) fn backup(&mut self, path_start: usize, path_len: usize, value: f32, draw: f32) {
        let mut v = -value;
        for i in (path_start..path_start + path_len).rev() {
            let n = &mut self.tree.nodes[self.paths[i] as usize];
            n.in_flight -= 1;
            n.visits += 1;
            n.value_sum += v;
            n.draw_sum += draw;
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
    pub(super) fn back_up_minimax(&mut self, path_start: usize, path_len: usize) {
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
    pub(super) fn propagate_proof(&mut self, path_start: usize, path_len: usize) {
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
            let Some((best, draw)) = self.proven_best(parent) else {
                return;
            };
            let n = &mut self.tree.nodes[parent];
            n.state = NodeState::Terminal;
            // From the point of view of the side that moved into `parent`.
            n.value = -best;
            n.draw = draw;
            n.minimax = -best;
        }
    }

    /// The value of `node` for its side to move and its draw probability
    /// if its children prove it: a win when one child is a proven win, the
    /// best child when all are proven; `None` otherwise.
    pub(super) fn proven_best(&self, node: usize) -> Option<(f32, f32)> {
        let kids = &self.tree.nodes[self.tree.nodes[node].children()];
        if kids.iter().any(|c| c.proven().is_some_and(|v| v >= 1.0)) {
            return Some((1.0, 0.0));
        }
        let mut best: Option<&Node> = None;
        for c in kids {
            let v = c.proven()?;
            if best.is_none_or(|b| v > b.value) {
                best = Some(c);
            }
        }
        best.map(|b| (b.value, b.draw))
    }

    /// Sets `root_win` to a root move proven to win, if there is one.
    pub(super) fn note_root_win(&mut self) {
        if self.root_win.is_none() {
            self.root_win = self.tree.nodes[0]
                .children()
                .position(|c| self.tree.nodes[c].proven().is_some_and(|v| v >= 1.0));
        }
    }
}
