//! The network's input planes and move encoding, version [`ENCODING_VERSION`].
//!
//! Everything is drawn from the point of view of the side to move: a North
//! position is flipped top-to-bottom with colours swapped first
//! ([`Position::from_mover_view`]), so "us" always sits at the bottom with
//! its den on `d1`, and one network plays both seats.
//!
//! Planes, each 9 ranks x 7 files, rank 1 first, in this order:
//!
//! | planes | meaning |
//! |---|---|
//! | 0-7 | our animals, one plane each: rat, cat, dog, wolf, leopard, tiger, lion, elephant |
//! | 8-15 | the opponent's animals, same order |
//! | 16 | water |
//! | 17 | our traps (c1 e1 d2) |
//! | 18 | the opponent's traps (c9 e9 d8) |
//! | 19 | our den (d1) |
//! | 20 | the opponent's den (d9) |
//! | 21 | plies since the last capture / quiet-move limit (/ 200 if the limit is off), at most 1 |
//! | 22 | earlier occurrences of this position: 0, 0.5 (seen once before), 1 (twice or more) |
//! | 23-37 | the rule set, one constant plane per switch (see [`SWITCH_PLANES`]) |
//!
//! Moves: 252 policy slots, `direction * 63 + from_square`, both in the
//! mover's view (directions up, down, left, right); a river jump uses the
//! slot of its direction.

use jungle_rules::{
    Animal, Direction, JumpRule, Move, NoMoveOutcome, Position, RepetitionOutcome, Rules, Side,
    NUM_SQUARES, TRAPS, WATER,
};

/// Bumped whenever the planes or the move slots change meaning.
pub const ENCODING_VERSION: u32 = 1;
/// Board squares per plane.
pub const SQUARES: usize = NUM_SQUARES;
/// Input planes.
pub const PLANES: usize = 38;
/// Policy slots: 63 from-squares x 4 directions.
pub const POLICY_SLOTS: usize = 4 * SQUARES;
/// Floats in one encoded position.
pub const INPUT_LEN: usize = PLANES * SQUARES;

/// The switch planes 23-37, in order, with what a 1 means.
pub const SWITCH_PLANES: [&str; 15] = [
    "elephant_captures_rat",
    "lion_jump includes vertical",
    "lion_jump includes horizontal",
    "tiger_jump includes vertical",
    "tiger_jump includes horizontal",
    "leopard_jump includes vertical",
    "leopard_jump includes horizontal",
    "trapped_can_capture",
    "rat_capture_across_bank",
    "first_player = north",
    "no_move = draw",
    "repetition_outcome = mover-loses",
    "repetition_outcome = forbidden",
    "repetition (count / 3; 0 = off)",
    "quiet_plies_limit (plies / 200; 0 = off)",
];

/// What every plane holds, for the export description.
pub fn plane_names() -> Vec<String> {
    let mut names = Vec::with_capacity(PLANES);
    for who in ["our", "opponent's"] {
        for a in Animal::ALL {
            names.push(format!("{who} {a}"));
        }
    }
    for terrain in [
        "water",
        "our traps",
        "opponent's traps",
        "our den",
        "opponent's den",
    ] {
        names.push(terrain.to_string());
    }
    names.push("plies since the last capture / quiet limit".to_string());
    names.push("earlier occurrences of this position (0, 0.5, 1)".to_string());
    names.extend(SWITCH_PLANES.iter().map(|s| format!("rule: {s}")));
    names
}

/// The constant values of the switch planes for a rule set.
pub fn switch_values(rules: &Rules) -> [f32; 15] {
    let jumps = |j: JumpRule| {
        (
            matches!(j, JumpRule::Vertical | JumpRule::Both) as u8 as f32,
            matches!(j, JumpRule::Horizontal | JumpRule::Both) as u8 as f32,
        )
    };
    let (lv, lh) = jumps(rules.lion_jump);
    let (tv, th) = jumps(rules.tiger_jump);
    let (pv, ph) = jumps(rules.leopard_jump);
    let flag = |b: bool| b as u8 as f32;
    [
        flag(rules.elephant_captures_rat),
        lv,
        lh,
        tv,
        th,
        pv,
        ph,
        flag(rules.trapped_can_capture),
        flag(rules.rat_capture_across_bank),
        flag(rules.first_player == Side::North),
        flag(rules.no_move == NoMoveOutcome::Draw),
        flag(rules.repetition_outcome == RepetitionOutcome::MoverLoses),
        flag(rules.repetition_outcome == RepetitionOutcome::Forbidden),
        rules.repetition as f32 / 3.0,
        rules.quiet_plies_limit as f32 / 200.0,
    ]
}

/// Writes the planes of `pos` (occurring for the `repetitions`-th time)
/// into `out`, which must hold [`INPUT_LEN`] floats.
pub fn encode(pos: &Position, repetitions: u32, rules: &Rules, out: &mut [f32]) {
    assert_eq!(out.len(), INPUT_LEN, "one position is {INPUT_LEN} floats");
    out.fill(0.0);
    let view = pos.from_mover_view();
    for (sq, piece) in view.pieces() {
        let side_offset = if piece.side() == Side::South { 0 } else { 8 };
        out[(side_offset + piece.animal().index()) * SQUARES + sq.index()] = 1.0;
    }
    let mut fill_set = |plane: usize, squares: jungle_rules::Bitboard| {
        for sq in squares {
            out[plane * SQUARES + sq.index()] = 1.0;
        }
    };
    fill_set(16, WATER);
    fill_set(17, TRAPS[0]);
    fill_set(18, TRAPS[1]);
    fill_set(19, jungle_rules::DEN[0]);
    fill_set(20, jungle_rules::DEN[1]);
    let limit = if rules.quiet_plies_limit > 0 {
        rules.quiet_plies_limit
    } else {
        200
    };
    let quiet = (pos.quiet_plies() as f32 / limit as f32).min(1.0);
    let repeated = (repetitions.saturating_sub(1)).min(2) as f32 / 2.0;
    let mut constants = vec![quiet, repeated];
    constants.extend_from_slice(&switch_values(rules));
    for (i, value) in constants.into_iter().enumerate() {
        out[(21 + i) * SQUARES..(22 + i) * SQUARES].fill(value);
    }
}

/// The policy slot of a move played by `mover`.
#[inline]
pub fn move_slot(mv: Move, mover: Side) -> usize {
    let mv = match mover {
        Side::South => mv,
        Side::North => mv.flipped(),
    };
    let direction: Direction = mv.direction().expect("legal moves are orthogonal");
    direction.index() * SQUARES + mv.from().index()
}

/// The from-square and direction (as played, not in the mover's view) of
/// a policy slot for `mover`; the legal move with these is the slot's move.
pub fn slot_origin(slot: usize, mover: Side) -> (jungle_rules::Square, Direction) {
    assert!(slot < POLICY_SLOTS, "slot {slot} out of range");
    let square = jungle_rules::Square::new((slot % SQUARES) as u8).expect("on board");
    let direction = Direction::ALL[slot / SQUARES];
    match mover {
        Side::South => (square, direction),
        Side::North => (square.flipped(), direction.flipped()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plane_table_is_complete() {
        assert_eq!(plane_names().len(), PLANES);
        assert_eq!(21 + 2 + SWITCH_PLANES.len(), PLANES);
    }

    #[test]
    fn standard_switches() {
        let v = switch_values(&Rules::default());
        assert_eq!(
            v,
            [0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0]
        );
    }
}
