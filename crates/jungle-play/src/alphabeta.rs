//! `alphabeta:DEPTH`: iterative-deepening negamax with alpha-beta pruning, a
//! transposition table, move ordering (table move, den entries, captures by
//! victim value) and a capture quiescence search over the hand-written
//! evaluation. The game's draw rules are applied inside the search.

use crate::player::{legal, Decision, Player};
use jungle_mcts::heuristic;
use jungle_mcts::quiescence::{order_moves, quiescence, QUIESCENCE_PLIES, WIN};
use jungle_rules::{end_of_game, legal_moves_in_history, repetitions, Game, Move, Position, Rules};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Above this a score is a forced result, not an evaluation.
const WIN_THRESHOLD: i32 = WIN - 1000;
/// log2 of the transposition table's entries.
const TT_BITS: u32 = 18;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct TtEntry {
    key: u64,
    score: i32,
    depth: u8,
    bound: Bound,
    best: Option<Move>,
}

/// The alpha-beta baseline player.
pub struct AlphaBeta {
    depth: u32,
    rules: Rules,
    rng: ChaCha8Rng,
    tt: Vec<Option<TtEntry>>,
    history: Vec<u64>,
    nodes: u64,
    /// Set from outside to end the search early (`jungle engine`'s `stop`).
    abort: Option<Arc<AtomicBool>>,
    /// Whether the search under way saw `abort` set.
    aborted: bool,
}

impl AlphaBeta {
    /// A player searching `depth` plies (plus captures) under `rules`.
    pub fn new(depth: u32, rules: Rules, seed: u64) -> AlphaBeta {
        AlphaBeta {
            depth: depth.max(1),
            rules,
            rng: ChaCha8Rng::seed_from_u64(seed),
            tt: vec![None; 1 << TT_BITS],
            history: Vec::new(),
            nodes: 0,
            abort: None,
            aborted: false,
        }
    }

    /// The same player, stopping its search when `abort` is set (read about
    /// every 1024 nodes): the move is then the best of the last depth it
    /// finished, or depth 1's.
    pub fn with_abort(mut self, abort: Arc<AtomicBool>) -> AlphaBeta {
        self.abort = Some(abort);
        self
    }

    /// Whether the last search was cut short by the abort flag.
    pub fn was_aborted(&self) -> bool {
        self.aborted
    }

    /// Looks at the abort flag every 1024 nodes.
    fn should_abort(&mut self) -> bool {
        if !self.aborted && self.nodes.is_multiple_of(1024) {
            self.aborted = self
                .abort
                .as_ref()
                .is_some_and(|a| a.load(Ordering::Relaxed));
        }
        self.aborted
    }

    /// Nodes visited since the player was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn slot(key: u64) -> usize {
        (key >> (64 - TT_BITS)) as usize
    }

    fn probe(&self, key: u64) -> Option<TtEntry> {
        self.tt[Self::slot(key)].filter(|e| e.key == key)
    }

    fn store(&mut self, entry: TtEntry) {
        self.tt[Self::slot(entry.key)] = Some(entry);
    }

    /// Terminal score for the side to move, or `None` while the game goes on.
    fn terminal(&self, pos: &Position, has_move: bool, ply: u32) -> Option<i32> {
        let earlier = &self.history[..self.history.len() - 1];
        let reps = repetitions(earlier, pos.hash(), pos.quiet_plies());
        end_of_game(pos, &self.rules, has_move, reps).map(|o| match o.winner {
            Some(w) if w == pos.side_to_move() => WIN - ply as i32,
            Some(_) => -(WIN - ply as i32),
            None => 0,
        })
    }

    fn negamax(&mut self, pos: &Position, depth: u32, mut alpha: i32, beta: i32, ply: u32) -> i32 {
        self.nodes += 1;
        if self.should_abort() {
            return 0;
        }
        let moves = legal_moves_in_history(pos, &self.rules, &self.history);
        if let Some(score) = self.terminal(pos, !moves.is_empty(), ply) {
            return score;
        }
        if depth == 0 {
            return quiescence(
                pos,
                &self.rules,
                alpha,
                beta,
                ply,
                QUIESCENCE_PLIES,
                &mut self.nodes,
            );
        }
        let key = pos.hash();
        let entry = self.probe(key);
        if let Some(e) = entry {
            if e.depth as u32 >= depth {
                match e.bound {
                    Bound::Exact => return e.score,
                    Bound::Lower if e.score >= beta => return e.score,
                    Bound::Upper if e.score <= alpha => return e.score,
                    _ => {}
                }
            }
        }
        let mut ordered: Vec<Move> = moves.iter().copied().collect();
        order_moves(pos, &mut ordered, entry.and_then(|e| e.best));
        let alpha_start = alpha;
        let mut best = i32::MIN;
        let mut best_move = None;
        for mv in ordered {
            let child = pos.play(mv);
            self.history.push(child.hash());
            let score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
            self.history.pop();
            if score > best {
                best = score;
                best_move = Some(mv);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha_start {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.store(TtEntry {
            key,
            score: best,
            depth: depth as u8,
            bound,
            best: best_move,
        });
        best
    }

    fn principal_variation(&self, root: &Position, first: Move) -> Vec<Move> {
        let mut pv = vec![first];
        let mut pos = root.play(first);
        while pv.len() < self.depth as usize {
            match self.probe(pos.hash()).and_then(|e| e.best) {
                Some(mv) if pos.legal_moves(&self.rules).contains(mv) => {
                    pv.push(mv);
                    pos = pos.play(mv);
                }
                _ => break,
            }
        }
        pv
    }
}

/// What a deep search says of a position's root moves: the best move, its
/// score and every move that scores within a margin of it
/// ([`AlphaBeta::analyse`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RootAnalysis {
    /// The best move found.
    pub best: Move,
    /// Its score in the evaluation's points for the side to move (a rat is
    /// about 300); a forced result is within 1000 of +-[`WIN`].
    pub score: i32,
    /// Every move scoring within the margin of the best (for a forced
    /// result, as fast a win or as slow a loss), with its exact score,
    /// best first (the best included).
    pub near: Vec<(Move, i32)>,
    /// Nodes the analysis visited.
    pub nodes: u64,
}

impl RootAnalysis {
    /// Whether the score is a forced result (a win or loss the search saw
    /// to the end), not an evaluation.
    pub fn is_proven(&self) -> bool {
        self.score.abs() >= WIN_THRESHOLD
    }

    /// The score as a value in [-1, 1] (a forced result is +-1).
    pub fn value(&self) -> f32 {
        if self.is_proven() {
            self.score.signum() as f32
        } else {
            heuristic::to_value(self.score)
        }
    }
}

impl AlphaBeta {
    /// Analyses the position `game` stands at: iterative deepening to one
    /// ply short of the player's depth (for move ordering), then every
    /// root move at the full depth with the window narrowed to the best
    /// score found so far minus `margin`, so each move within `margin` of
    /// the best gets its exact score and the others only a bound. The game
    /// must not be over.
    pub fn analyse(&mut self, game: &Game, margin: i32) -> RootAnalysis {
        let depth = self.depth;
        let nodes_before = self.nodes;
        let ordered = if depth > 1 {
            self.depth = depth - 1;
            let first = self.choose(game).mv;
            self.depth = depth;
            let mut moves = legal(game);
            if let Some(i) = moves.iter().position(|&m| m == first) {
                moves[..=i].rotate_right(1);
            }
            moves
        } else {
            legal(game)
        };
        self.history.clear();
        self.history.extend_from_slice(game.hashes());
        let pos = *game.position();
        let mut best: Option<(Move, i32)> = None;
        let mut near: Vec<(Move, i32)> = Vec::new();
        for mv in ordered {
            let cut = best.map_or(-WIN - 1, |(_, s)| s.saturating_sub(margin));
            let child = pos.play(mv);
            self.history.push(child.hash());
            let score = -self.negamax(&child, depth - 1, -WIN - 1, -cut, 1);
            self.history.pop();
            if score > cut {
                near.push((mv, score));
                if best.is_none_or(|(_, s)| score > s) {
                    best = Some((mv, score));
                }
            }
        }
        let (best, score) = best.expect("a game that is not over has a move");
        // A forced result keeps only the moves as fast (or as slow to
        // lose) as the best: a slower win is still a win, but not the move.
        let floor = if score.abs() >= WIN_THRESHOLD {
            score
        } else {
            score.saturating_sub(margin)
        };
        near.retain(|&(_, s)| s >= floor);
        near.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        RootAnalysis {
            best,
            score,
            near,
            nodes: self.nodes - nodes_before,
        }
    }
}

impl Player for AlphaBeta {
    fn name(&self) -> String {
        format!("alphabeta:{}", self.depth)
    }

    fn choose(&mut self, game: &Game) -> Decision {
        self.history.clear();
        self.history.extend_from_slice(game.hashes());
        let pos = *game.position();
        let mut root = legal(game);
        // The seed decides between equally good moves.
        root.shuffle(&mut self.rng);
        let mut best_score = 0;
        self.aborted = false;
        for depth in 1..=self.depth {
            let mut alpha = -WIN - 1;
            let mut best_index = 0;
            for (i, &mv) in root.iter().enumerate() {
                let child = pos.play(mv);
                self.history.push(child.hash());
                let score = -self.negamax(&child, depth - 1, -WIN - 1, -alpha, 1);
                self.history.pop();
                if score > alpha {
                    alpha = score;
                    best_index = i;
                }
            }
            // An aborted depth is not finished: keep the one before. Depth
            // 1's pick is kept even when cut short, so a move is always
            // returned.
            if self.aborted && depth > 1 {
                break;
            }
            root[..=best_index].rotate_right(1);
            best_score = alpha;
            if alpha.abs() >= WIN_THRESHOLD {
                break;
            }
        }
        let best = root[0];
        let value = if best_score.abs() >= WIN_THRESHOLD {
            best_score.signum() as f32
        } else {
            heuristic::to_value(best_score)
        };
        Decision {
            mv: best,
            value: Some(value),
            policy: Vec::new(),
            pv: self.principal_variation(&pos, best),
        }
    }
}
