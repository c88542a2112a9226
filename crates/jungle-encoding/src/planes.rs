//! The network's input planes and move encoding.
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
//! | 38 | squares our animals can move to now (captures and den entry included) |
//! | 39 | squares the opponent's animals could move to, were it their turn |
//! | 40 | our animals the opponent could take (39 and ours) |
//! | 41 | the opponent's animals we can take now (38 and theirs) |
//! | 42 | our animals the opponent could take with no retake: after the capture none of ours can move onto that square |
//! | 43 | the opponent's animals we can take with no retake |
//!
//! Planes 38-41 are the *tactical planes* of [`Encoding::Tactical`]
//! (encoding version 2), rule-derived features in the spirit of KataGo's
//! liberty and ladder planes: what each side reaches in one move, river
//! jumps and the rank and trap rules included, which a small network would
//! otherwise spend many games learning. Planes 42-43, the *exchange planes*
//! of [`Encoding::Exchange`] (version 3), look one ply further: a capture
//! the other side cannot answer by taking the capturer back (a loose animal,
//! a free capture). [`Encoding::Base`] (version 1) has planes 0-37 only. A
//! network's encoding follows from its first layer's input channels.
//!
//! Moves: 252 policy slots, `direction * 63 + from_square`, both in the
//! mover's view (directions up, down, left, right); a river jump uses the
//! slot of its direction.

use jungle_rules::{
    Animal, Bitboard, Direction, JumpRule, Move, NoMoveOutcome, Position, RepetitionOutcome, Rules,
    Side, DEN, NUM_SQUARES, TRAPS, WATER,
};

/// The newest encoding version; bumped whenever the planes or the move
/// slots change meaning (see [`Encoding::version`]).
pub const ENCODING_VERSION: u32 = 3;
/// Board squares per plane.
pub const SQUARES: usize = NUM_SQUARES;
/// Input planes of every encoding (0-37).
pub const BASE_PLANES: usize = 38;
/// The tactical planes (38-41) of [`Encoding::Tactical`].
pub const TACTICAL_PLANES: usize = 4;
/// The exchange planes (42-43) of [`Encoding::Exchange`].
pub const EXCHANGE_PLANES: usize = 2;
/// Policy slots: 63 from-squares x 4 directions.
pub const POLICY_SLOTS: usize = 4 * SQUARES;

/// Which input planes a network reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Version 1: planes 0-37.
    Base,
    /// Version 2: planes 0-37, then the tactical planes 38-41.
    Tactical,
    /// Version 3: planes 0-41, then the exchange planes 42-43.
    Exchange,
}

impl Encoding {
    /// Every encoding, oldest first.
    pub const ALL: [Encoding; 3] = [Encoding::Base, Encoding::Tactical, Encoding::Exchange];

    /// The encoding version written in checkpoints and exports.
    pub fn version(self) -> u32 {
        match self {
            Encoding::Base => 1,
            Encoding::Tactical => 2,
            Encoding::Exchange => 3,
        }
    }

    /// The encoding of a version number, if this build knows it.
    pub fn from_version(version: u32) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.version() == version)
    }

    /// The encoding with this many input planes, if any.
    pub fn from_planes(planes: usize) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.planes() == planes)
    }

    /// Input planes.
    pub fn planes(self) -> usize {
        match self {
            Encoding::Base => BASE_PLANES,
            Encoding::Tactical => BASE_PLANES + TACTICAL_PLANES,
            Encoding::Exchange => BASE_PLANES + TACTICAL_PLANES + EXCHANGE_PLANES,
        }
    }

    /// Floats in one encoded position.
    pub fn input_len(self) -> usize {
        self.planes() * SQUARES
    }

    /// What every plane holds, for the export description.
    pub fn plane_names(self) -> Vec<String> {
        let mut names = base_plane_names();
        let extra = &EXTRA_PLANE_NAMES[..self.planes() - BASE_PLANES];
        names.extend(extra.iter().map(|name| name.to_string()));
        names
    }

    /// Writes the planes of `pos` (occurring for the `repetitions`-th
    /// time) into `out`, which must hold [`Encoding::input_len`] floats.
    pub fn encode(self, pos: &Position, repetitions: u32, rules: &Rules, out: &mut [f32]) {
        assert_eq!(
            out.len(),
            self.input_len(),
            "one position is {} floats",
            self.input_len()
        );
        let view = pos.from_mover_view();
        encode_base(&view, repetitions, rules, out);
        if self != Encoding::Base {
            let exchange = self == Encoding::Exchange;
            encode_tactical(&view, rules, exchange, &mut out[BASE_PLANES * SQUARES..]);
        }
    }
}

/// The names of planes 38-43 (tactical, then exchange), in order.
const EXTRA_PLANE_NAMES: [&str; TACTICAL_PLANES + EXCHANGE_PLANES] = [
    "squares our animals can move to",
    "squares the opponent's animals could move to",
    "our animals the opponent could take",
    "the opponent's animals we can take",
    "our animals the opponent could take with no retake",
    "the opponent's animals we can take with no retake",
];

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

/// The names of planes 0-37.
fn base_plane_names() -> Vec<String> {
    let mut names = Vec::with_capacity(BASE_PLANES);
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

/// Sets the squares of `squares` to 1 in `plane` (63 floats).
fn fill_set(plane: &mut [f32], squares: Bitboard) {
    for sq in squares {
        plane[sq.index()] = 1.0;
    }
}

/// Planes 0-37 of `view` (the position in the mover's view) into `out`.
fn encode_base(view: &Position, repetitions: u32, rules: &Rules, out: &mut [f32]) {
    out.fill(0.0);
    for (sq, piece) in view.pieces() {
        let side_offset = if piece.side() == Side::South { 0 } else { 8 };
        out[(side_offset + piece.animal().index()) * SQUARES + sq.index()] = 1.0;
    }
    // After the 16 animal planes, in order: terrain, counters, switches.
    let mut planes = out.chunks_exact_mut(SQUARES).skip(16);
    let mut next = || planes.next().expect("38 planes");
    for squares in [WATER, TRAPS[0], TRAPS[1], DEN[0], DEN[1]] {
        fill_set(next(), squares);
    }
    let limit = if rules.quiet_plies_limit > 0 {
        rules.quiet_plies_limit
    } else {
        200
    };
    let quiet = (view.quiet_plies() as f32 / limit as f32).min(1.0);
    let repeated = (repetitions.saturating_sub(1)).min(2) as f32 / 2.0;
    for value in [quiet, repeated].into_iter().chain(switch_values(rules)) {
        next().fill(value);
    }
}

/// Squares the moves of `moves` go to.
fn targets(moves: &[Move]) -> Bitboard {
    moves.iter().fold(Bitboard::EMPTY, |bb, mv| {
        bb | Bitboard::from_square(mv.to())
    })
}

/// Squares of the captures among `moves` (played from `pos`) after which
/// the other side has no move onto the capturing animal's square.
fn unanswered_captures(pos: &Position, moves: &[Move], rules: &Rules) -> Bitboard {
    let victims = pos.occupied(pos.side_to_move().opponent());
    let mut loose = Bitboard::EMPTY;
    for &mv in moves {
        let to = Bitboard::from_square(mv.to());
        if (victims & to).is_empty() || !(loose & to).is_empty() {
            continue;
        }
        let after = pos.play(mv);
        if (targets(after.legal_moves(rules).as_slice()) & to).is_empty() {
            loose |= to;
        }
    }
    loose
}

/// The tactical planes 38-41 of `view` (the position in the mover's view,
/// South to move) into `out` (four planes), then with `exchange` the
/// exchange planes 42-43 (two more).
fn encode_tactical(view: &Position, rules: &Rules, exchange: bool, out: &mut [f32]) {
    let our_moves = view.legal_moves(rules);
    let mut other = *view;
    other.set_side_to_move(Side::North);
    let their_moves = other.legal_moves(rules);
    let ours = targets(our_moves.as_slice());
    let theirs = targets(their_moves.as_slice());
    let tactical = [
        ours,
        theirs,
        theirs & view.occupied(Side::South),
        ours & view.occupied(Side::North),
    ];
    let loose = exchange.then(|| {
        [
            unanswered_captures(&other, their_moves.as_slice(), rules),
            unanswered_captures(view, our_moves.as_slice(), rules),
        ]
    });
    let sets = tactical.into_iter().chain(loose.into_iter().flatten());
    for (plane, squares) in out.chunks_exact_mut(SQUARES).zip(sets) {
        fill_set(plane, squares);
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
        for e in Encoding::ALL {
            assert_eq!(e.plane_names().len(), e.planes());
            assert_eq!(Encoding::from_planes(e.planes()), Some(e));
            assert_eq!(Encoding::from_version(e.version()), Some(e));
        }
        assert_eq!(21 + 2 + SWITCH_PLANES.len(), BASE_PLANES);
        assert_eq!(
            Encoding::from_version(ENCODING_VERSION),
            Some(Encoding::Exchange)
        );
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
