//! Exact tactical checks a search can make at a leaf without the evaluator:
//! a move that wins at once, a position where every move lets the opponent
//! win at once, and a move after which every reply lets the mover win at
//! once. All follow from the rules alone.

use jungle_rules::{end_of_game, repetitions, Bitboard, Move, Position, Rules, Side, DEN, STEPS};

/// The index of a move in `moves` after which the side to move at `pos` has
/// won (its animal stands in the enemy den, or the enemy has no animals).
///
/// Such a move can never be forbidden by a repetition rule: the position it
/// makes cannot have occurred before, since the game would have ended there.
pub fn winning_move(pos: &Position, moves: &[Move]) -> Option<usize> {
    let me = pos.side_to_move();
    if !may_win_at_once(pos, me) {
        return None;
    }
    moves
        .iter()
        .position(|&mv| pos.play(mv).winner() == Some(me))
}

/// Whether `side` could have a move that wins at once in `pos`: one of its
/// animals stands next to the enemy den (no jump reaches a den), or the
/// enemy has one animal left. A quick filter before the exact test.
fn may_win_at_once(pos: &Position, side: Side) -> bool {
    let den = DEN[(!side).index()].first().expect("one den");
    !(STEPS[den.index()] & pos.occupied(side)).is_empty() || pos.occupied(!side).len() == 1
}

/// Whether every move in `moves` (the legal moves of `pos`, none of them an
/// immediate win) loses at once: after it the game either ends in a loss for
/// the mover (repetition as loss) or the opponent has a move that wins at
/// once. `history` holds the hashes of every position of the game up to and
/// including `pos`, so that a move that draws by repetition or by the quiet
/// rule is not taken for a loss. False when there are no moves.
pub fn forced_loss(pos: &Position, rules: &Rules, moves: &[Move], history: &[u64]) -> bool {
    let me = pos.side_to_move();
    // Our move cannot bring an enemy animal next to our den, nor leave us
    // with fewer animals: without either now, no move loses at once.
    if !may_win_at_once(pos, !me) {
        return false;
    }
    !moves.is_empty()
        && moves.iter().all(|mv| {
            let next = pos.play(*mv);
            let reps = repetitions(history, next.hash(), next.quiet_plies());
            match end_of_game(&next, rules, true, reps) {
                Some(outcome) => outcome.winner == Some(!me),
                None => winning_move(&next, &next.legal_moves(rules)).is_some(),
            }
        })
}

/// Squares from which an animal reaches a square next to `side`'s enemy
/// den in one step (or stands next to it already).
fn den_approach(side: Side) -> Bitboard {
    let den = DEN[(!side).index()].first().expect("one den");
    let mut near = STEPS[den.index()];
    for sq in STEPS[den.index()] {
        near |= STEPS[sq.index()];
    }
    near
}

/// Whether the side to move at `pos` wins in two moves whatever the
/// opponent does: it has a move (not ending the game) after which every
/// legal reply either ends the game in its favour or leaves it a move that
/// wins at once — a den threat that cannot be parried, two threats at
/// once, or the last enemy animal that cannot get away. `moves` are the
/// legal moves of `pos`, none of them an immediate win; `history` is as for
/// [`forced_loss`], so a move or reply that draws by repetition or by the
/// quiet rule is no win. Replies are the full legal set (a repetition rule
/// that forbids some of them can only help the attacker), so a `true` is
/// always a forced win.
pub fn wins_in_two(pos: &Position, rules: &Rules, moves: &[Move], history: &[u64]) -> bool {
    let me = pos.side_to_move();
    if (den_approach(me) & pos.occupied(me)).is_empty() && pos.occupied(!me).len() > 2 {
        return false;
    }
    moves.iter().any(|&mv| {
        let next = pos.play(mv);
        if !may_win_at_once(&next, me) {
            return false;
        }
        let reps = repetitions(history, next.hash(), next.quiet_plies());
        if end_of_game(&next, rules, true, reps).is_some() {
            return false;
        }
        let replies = next.legal_moves(rules);
        if replies.is_empty() {
            return false;
        }
        // The game's history up to `next`, only built for a real threat.
        let line: Vec<u64> = history.iter().copied().chain([next.hash()]).collect();
        replies.iter().all(|&reply| {
            let after = next.play(reply);
            let reps = repetitions(&line, after.hash(), after.quiet_plies());
            match end_of_game(&after, rules, true, reps) {
                Some(outcome) => outcome.winner == Some(me),
                None => winning_move(&after, &after.legal_moves(rules)).is_some(),
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str) -> Position {
        Position::from_fen(fen).expect("valid fen")
    }

    /// A check (`forced_loss` or `wins_in_two`) on a position with no
    /// history before it.
    fn holds(fen: &str, check: fn(&Position, &Rules, &[Move], &[u64]) -> bool) -> bool {
        let pos = position(fen);
        let rules = Rules::default();
        check(&pos, &rules, &pos.legal_moves(&rules), &[pos.hash()])
    }

    #[test]
    fn a_move_into_the_den_is_found() {
        // South's rat on d8, next to North's den.
        let pos = position("2t1e2/3R3/7/7/7/7/7/7/6L w");
        let moves = pos.legal_moves(&Rules::default());
        let win = winning_move(&pos, &moves).expect("a winning move");
        assert_eq!(moves[win].to_string(), "d8d9");
        let quiet = position("2t1e2/7/3R3/7/7/7/7/7/6L w");
        assert_eq!(
            winning_move(&quiet, &quiet.legal_moves(&Rules::default())),
            None
        );
    }

    #[test]
    fn two_den_threats_and_no_defender_lose() {
        // North's rat and cat stand beside South's den; South's lion is far.
        assert!(holds("6L/7/7/7/7/7/7/7/2r1c2 w 10", forced_loss));
        // One threat only: South's dog takes the cat on its trap.
        assert!(!holds("r5L/7/7/7/7/7/7/7/1Dc4 w 10", forced_loss));
    }

    #[test]
    fn a_move_that_draws_by_repetition_is_no_loss() {
        let rules = Rules::default();
        let pos = position("6L/7/7/7/7/7/7/7/2r1c2 w 10");
        let moves = pos.legal_moves(&rules);
        // The lion's step back to g8 repeats a position seen twice before.
        let back = pos.play(
            moves
                .iter()
                .copied()
                .find(|m| m.to_string() == "g9g8")
                .expect("g9g8"),
        );
        let history = [back.hash(), pos.hash(), back.hash(), pos.hash()];
        assert!(!forced_loss(&pos, &rules, &moves, &history));
    }

    #[test]
    fn an_unparried_den_threat_wins_in_two() {
        // South's rat on d7 steps to d8 beside North's den; North's tiger on
        // a1 is far from every square next to its den.
        let fen = "7/7/3R3/7/7/7/7/7/t6 w 10";
        let pos = position(fen);
        assert_eq!(
            winning_move(&pos, &pos.legal_moves(&Rules::default())),
            None
        );
        assert!(holds(fen, wins_in_two));
        // A North dog on c8 takes the rat on d8; a single threat that can
        // be taken is no win.
        assert!(!holds("7/2d4/3R3/7/7/7/7/7/7 w 10", wins_in_two));
        // Far from the den and against many animals: not even looked at.
        assert!(!holds("l5t/1d3c1/r1p1w1e/7/7/7/R6/7/7 w", wins_in_two));
    }

    #[test]
    fn a_threat_that_repeats_a_position_is_no_win() {
        let rules = Rules::default();
        let pos = position("7/7/3R3/7/7/7/7/7/t6 w 10");
        let moves = pos.legal_moves(&rules);
        // Every move of the rat toward the den repeats a position seen
        // twice before: each is a draw, not a threat.
        let history: Vec<u64> = moves
            .iter()
            .flat_map(|&mv| {
                let h = pos.play(mv).hash();
                [h, h]
            })
            .chain([pos.hash()])
            .collect();
        assert!(!wins_in_two(&pos, &rules, &moves, &history));
    }
}
