//! `perft`: the number of legal move sequences of a given length, the
//! standard check of a move generator. Draw rules are ignored (they need the
//! history); a position with a winner has no moves.
//!
//! The headline count makes every move, the leaves included, with
//! make/unmake on one position: measured faster than copy-make (criterion,
//! perft(5) of the start: 130 M nodes/s against 107 M for copy-make).

use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use std::hint::black_box;

/// Counts move by move: every move is made, the last ply's included.
pub fn perft(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    let mut pos = *pos;
    perft_in_place(&mut pos, rules, depth)
}

fn perft_in_place(pos: &mut Position, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        black_box(&*pos);
        return 1;
    }
    let moves = pos.legal_moves(rules);
    if depth == 1 {
        // The leaves are made and taken back here rather than one call
        // deeper: the same work without a call per leaf.
        for &mv in &moves {
            let undo = pos.make_move(mv);
            black_box(&*pos);
            pos.unmake_move(mv, undo);
        }
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &mv in &moves {
        let undo = pos.make_move(mv);
        nodes += perft_in_place(pos, rules, depth - 1);
        pos.unmake_move(mv, undo);
    }
    nodes
}

/// Bulk counting: the last ply's moves are counted, not made.
pub fn perft_bulk(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves(rules).len() as u64,
        _ => pos
            .legal_moves(rules)
            .iter()
            .map(|&mv| perft_bulk(&pos.play(mv), rules, depth - 1))
            .sum(),
    }
}

/// Perft split by the first move: `(move, nodes)` in move-generation order.
pub fn perft_divide(pos: &Position, rules: &Rules, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves(rules)
        .iter()
        .map(|&mv| (mv, perft(&pos.play(mv), rules, depth - 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: [u64; 5] = [24, 576, 12_240, 260_099, 5_111_620];

    #[test]
    fn start_position_matches_rules_md() {
        let (pos, rules) = (Position::start(), Rules::default());
        assert_eq!(perft(&pos, &rules, 0), 1);
        for (i, &expected) in TABLE.iter().enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(perft(&pos, &rules, depth), expected, "depth {depth}");
        }
    }

    #[test]
    fn bulk_and_divide_agree() {
        let (pos, rules) = (Position::start(), Rules::default());
        for depth in 0..=4 {
            let n = perft(&pos, &rules, depth);
            assert_eq!(perft_bulk(&pos, &rules, depth), n);
            if depth > 0 {
                let divide = perft_divide(&pos, &rules, depth);
                assert_eq!(divide.len(), 24);
                assert_eq!(divide.iter().map(|x| x.1).sum::<u64>(), n);
            }
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "slow in debug; runs in release")]
    fn depth_six() {
        let (pos, rules) = (Position::start(), Rules::default());
        assert_eq!(perft(&pos, &rules, 6), 100_453_636);
        assert_eq!(perft_bulk(&pos, &rules, 6), 100_453_636);
    }
}
