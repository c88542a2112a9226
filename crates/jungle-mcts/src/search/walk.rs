//! One descent from the root to a leaf: queued for the evaluator, or
//! scored at once when the position is over or a tactical check decides it.

use super::*;

impl Search {
    /// One descent from the root.
    pub(super) fn walk(&mut self) -> Walk {
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
                    let n = &self.tree.nodes[node];
                    let (value, draw) = (-n.value, n.draw);
                    return self.score_terminal(path_start, value, draw);
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
    pub(super) fn reach_leaf(&mut self, path_start: usize, node: usize, pos: Position) -> Walk {
        // Counted apart from the descent it is part of (Select).
        let checks = profile::time(Phase::LeafChecks);
        // `history` ends with this position's own hash.
        let earlier = &self.history[..self.history.len() - 1];
        let reps = repetitions(earlier, pos.hash(), pos.quiet_plies());
        let moves = legal_moves_in_history(&pos, &self.rules, &self.history);
        if node != 0 {
            let outcome = end_of_game(&pos, &self.rules, !moves.is_empty(), reps);
            let drawn = outcome.is_some_and(|o| o.winner.is_none());
            let value = match outcome {
                // A draw is worth `draw_value` to the side that moved into
                // it, so minus that to the side to move here.
                Some(_) if drawn => Some(-self.config.draw_value),
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
                drop(checks);
                let n = &mut self.tree.nodes[node];
                n.state = NodeState::Terminal;
                let draw = if drawn { 1.0 } else { 0.0 };
                n.value = -value;
                n.draw = draw;
                n.minimax = -value;
                return self.score_terminal(path_start, value, draw);
            }
            self.started += 1;
        }
        drop(checks);
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

    pub(super) fn score_terminal(&mut self, path_start: usize, value: f32, draw: f32) -> Walk {
        let len = self.paths.len() - path_start;
        self.backup(path_start, len, value, draw);
        self.paths.truncate(path_start);
        self.started += 1;
        self.done += 1;
        Walk::Scored
    }
}
