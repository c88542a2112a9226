//! A small exact search for forced wins: can the side to move win within
//! `n` of its own moves (`2n - 1` plies) whatever the opponent does? An
//! AND-OR search over the rules alone (no evaluator), used to check a
//! search's chosen move at the root: the move must not hand the opponent a
//! forced win that an alternative avoids.
//!
//! A side wins by entering the enemy den, taking the last enemy animal, or
//! leaving the enemy without a move (under `no_move = "loss"`); draws by
//! repetition and by the quiet-move limit end a line as no win. The search
//! only looks at attackers that could possibly arrive in time: an animal
//! more moves from the enemy den than are left (steps and river jumps on an
//! empty board), with more enemy animals left than moves, cannot win by den
//! or annihilation. A win by leaving the enemy without a move is found only
//! in the lines the search looks at (never on the attacker's last move), so
//! a forced win found is always real, while a rare forced no-move win may
//! go unseen.

use crate::tactics::winning_move;
use jungle_rules::{
    end_of_game, legal_moves_in_history, repetitions, Move, MoveList, Position, Rules, Side, DEN,
    JUMPS, NUM_SQUARES, STEPS,
};
use std::sync::OnceLock;

/// For each side, the fewest moves from every square to the den that side
/// attacks, on an empty board where every animal may step anywhere (water
/// included) and jump the river: a lower bound for any real animal.
fn den_distance() -> &'static [[u8; NUM_SQUARES]; 2] {
    static TABLE: OnceLock<[[u8; NUM_SQUARES]; 2]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [[u8::MAX; NUM_SQUARES]; 2];
        for side in Side::BOTH {
            let dist = &mut table[side.index()];
            let target = DEN[(!side).index()].first().expect("one den").index();
            dist[target] = 0;
            let mut frontier = vec![target];
            while !frontier.is_empty() {
                let mut next = Vec::new();
                for sq in frontier {
                    let d = dist[sq] + 1;
                    let jumps = JUMPS[sq].iter().flatten().map(|j| j.to.index());
                    for to in STEPS[sq].into_iter().map(|s| s.index()).chain(jumps) {
                        if dist[to] == u8::MAX {
                            dist[to] = d;
                            next.push(to);
                        }
                    }
                }
                frontier = next;
            }
        }
        table
    })
}

/// Whether `side` (to move or not) could possibly win within `moves` of
/// its own moves by den or annihilation in `pos`.
fn could_win_within(pos: &Position, side: Side, moves: u32) -> bool {
    if moves == 0 {
        return false;
    }
    if pos.occupied(!side).len() <= moves {
        return true;
    }
    let dist = &den_distance()[side.index()];
    pos.occupied(side)
        .into_iter()
        .any(|sq| u32::from(dist[sq.index()]) <= moves)
}

/// How a line stands after a move: over (with the winner, `None` for a
/// draw) or going on with these legal moves for the side to move.
enum After {
    Over(Option<Side>),
    Going(MoveList),
}

/// The search for forced wins from one position of a game, with a budget
/// of nodes (move generations) shared by every question asked of it. When
/// the budget runs out every answer is "not proven": a forced win or a
/// losing move it reports is always real.
pub struct ForcedWins<'a> {
    rules: &'a Rules,
    /// The hashes of every position of the game up to the one searched,
    /// then of the line being looked at.
    line: Vec<u64>,
    nodes: u64,
    node_limit: u64,
}

impl<'a> ForcedWins<'a> {
    /// A search for games under `rules`; `history` holds the hashes of every
    /// position of the game up to and including the one to be searched.
    pub fn new(rules: &'a Rules, history: &[u64], node_limit: u64) -> ForcedWins<'a> {
        ForcedWins {
            rules,
            line: history.to_vec(),
            nodes: 0,
            node_limit,
        }
    }

    /// Nodes (move generations) searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the node budget has run out.
    pub fn exhausted(&self) -> bool {
        self.nodes >= self.node_limit
    }

    /// A move with which the side to move at `pos` wins within `moves` of
    /// its own moves whatever the opponent does, if one is found. The game
    /// must not be over at `pos`.
    pub fn forced_win(&mut self, pos: &Position, moves: u32) -> Option<Move> {
        let legal = legal_moves_in_history(pos, self.rules, &self.line);
        self.attacker_wins(pos, &legal, moves)
    }

    /// Whether playing `mv` at `pos` is found to win within `moves` of the
    /// side to move's own moves (this one counted) whatever the opponent
    /// does.
    pub fn move_wins(&mut self, pos: &Position, mv: Move, moves: u32) -> bool {
        let me = pos.side_to_move();
        self.wins_after(pos, mv, me, |search, next, replies| {
            moves > 1 && search.defender_loses(next, replies, moves - 1, me)
        })
    }

    /// Whether playing `mv` at `pos` is found to let the opponent force a
    /// win within `moves` of its own moves (or loses at once).
    pub fn move_loses(&mut self, pos: &Position, mv: Move, moves: u32) -> bool {
        let them = !pos.side_to_move();
        self.wins_after(pos, mv, them, |search, next, theirs| {
            search.attacker_wins(next, theirs, moves).is_some()
        })
    }

    /// Plays `mv` at `pos` and asks whether `side` wins there: at once if
    /// the game ends, else as `going` says of the new position and the legal
    /// moves of its side to move.
    fn wins_after(
        &mut self,
        pos: &Position,
        mv: Move,
        side: Side,
        going: impl FnOnce(&mut Self, &Position, &[Move]) -> bool,
    ) -> bool {
        let next = pos.play(mv);
        self.line.push(next.hash());
        let won = match self.after(&next) {
            After::Over(winner) => winner == Some(side),
            After::Going(moves) => going(self, &next, &moves),
        };
        self.line.pop();
        won
    }

    /// The state after the move that made `pos` (its hash last in `line`).
    fn after(&mut self, pos: &Position) -> After {
        self.nodes += 1;
        let moves = legal_moves_in_history(pos, self.rules, &self.line);
        let earlier = &self.line[..self.line.len() - 1];
        let reps = repetitions(earlier, pos.hash(), pos.quiet_plies());
        match end_of_game(pos, self.rules, !moves.is_empty(), reps) {
            Some(outcome) => After::Over(outcome.winner),
            None => After::Going(moves),
        }
    }

    /// The OR node: the side to move at `pos` (the game not over, its legal
    /// moves `moves`) forces a win within `budget` of its moves.
    fn attacker_wins(&mut self, pos: &Position, moves: &[Move], budget: u32) -> Option<Move> {
        let me = pos.side_to_move();
        if self.exhausted() || !could_win_within(pos, me, budget) {
            return None;
        }
        if budget == 1 {
            return winning_move(pos, moves).map(|i| moves[i]);
        }
        moves.iter().copied().find(|&mv| {
            self.wins_after(pos, mv, me, |search, next, replies| {
                search.defender_loses(next, replies, budget - 1, me)
            })
        })
    }

    /// The AND node: every reply at `pos` (the defender to move, its legal
    /// moves `replies`) leaves `attacker` a forced win within `budget` moves.
    fn defender_loses(
        &mut self,
        pos: &Position,
        replies: &[Move],
        budget: u32,
        attacker: Side,
    ) -> bool {
        if !could_win_within(pos, attacker, budget) {
            return false;
        }
        replies.iter().all(|&reply| {
            !self.exhausted()
                && self.wins_after(pos, reply, attacker, |search, next, moves| {
                    search.attacker_wins(next, moves, budget).is_some()
                })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str) -> Position {
        Position::from_fen(fen).expect("valid fen")
    }

    fn play(pos: &Position, text: &str) -> Move {
        pos.legal_moves(&Rules::default())
            .iter()
            .copied()
            .find(|m| m.to_string() == text)
            .expect("a legal move")
    }

    /// South's rat on d6 reaches North's den in three moves (d7, d8, d9);
    /// North's tiger on a1 needs three to reach South's den, one too many.
    const RACE: &str = "7/7/7/3R3/7/7/7/7/t6 w 10";

    #[test]
    fn the_side_a_move_ahead_wins_the_den_race() {
        let rules = Rules::default();
        let pos = position(RACE);
        let mut search = ForcedWins::new(&rules, &[pos.hash()], u64::MAX);
        assert_eq!(search.forced_win(&pos, 2), None, "three moves are needed");
        let win = search.forced_win(&pos, 3).expect("a forced win in three");
        assert_eq!(win.to_string(), "d6d7");
        // Any other rat move loses the race to the tiger.
        assert!(!search.move_loses(&pos, play(&pos, "d6d7"), 3));
        for other in ["d6d5", "d6c6", "d6e6"] {
            assert!(search.move_loses(&pos, play(&pos, other), 3), "{other}");
            assert!(!search.move_loses(&pos, play(&pos, other), 2), "{other}");
        }
        assert!(search.nodes() > 0);
    }

    #[test]
    fn a_guard_beside_the_trap_stops_the_rat() {
        let rules = Rules::default();
        // North to move: its cat on b8 can step to c8, beside the trap d8.
        let pos = position("7/1c5/7/3R3/7/7/6t/7/7 b 10");
        let mut search = ForcedWins::new(&rules, &[pos.hash()], u64::MAX);
        assert_eq!(search.forced_win(&pos, 4), None);
        let losing: Vec<String> = pos
            .legal_moves(&rules)
            .iter()
            .filter(|&&m| search.move_loses(&pos, m, 3))
            .map(|m| m.to_string())
            .collect();
        assert_eq!(losing, ["b8b7", "b8a8", "b8b9"]);
        // With the cat already on c8, South's rat has no forced win.
        let guarded = position("7/2c4/7/3R3/7/7/6t/7/7 w 10");
        assert_eq!(search.forced_win(&guarded, 4), None);
    }

    #[test]
    fn a_move_that_repeats_a_position_is_no_win() {
        let rules = Rules::default();
        let pos = position(RACE);
        // The position after d6d7 has occurred twice before: a third time
        // draws, and no other rat move wins in three.
        let seen = pos.play(play(&pos, "d6d7")).hash();
        let history = [seen, pos.hash(), seen, pos.hash()];
        let mut search = ForcedWins::new(&rules, &history, u64::MAX);
        assert_eq!(search.forced_win(&pos, 3), None);
    }

    #[test]
    fn an_exhausted_budget_proves_nothing() {
        let rules = Rules::default();
        let pos = position(RACE);
        let mut search = ForcedWins::new(&rules, &[pos.hash()], 10);
        assert_eq!(search.forced_win(&pos, 3), None);
        assert!(search.exhausted());
        assert!(!search.move_loses(&pos, play(&pos, "d6d5"), 3));
    }

    #[test]
    fn a_side_with_no_animal_near_the_den_is_not_searched() {
        let rules = Rules::default();
        let pos = position("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w");
        let mut search = ForcedWins::new(&rules, &[pos.hash()], u64::MAX);
        assert_eq!(search.forced_win(&pos, 2), None);
        assert_eq!(search.nodes(), 0, "no animal within two moves of the den");
        let to_north_den = |sq: &str| {
            let sq: jungle_rules::Square = sq.parse().expect("a square");
            den_distance()[Side::South.index()][sq.index()]
        };
        assert_eq!(to_north_den("d9"), 0);
        assert_eq!(to_north_den("d8"), 1);
        // b3 to b7 is one river jump, then four steps.
        assert_eq!(to_north_den("b3"), 5);
    }
}
