//! The fixed geometry of the board: water, traps, dens, single steps and river
//! jumps, all precomputed at compile time.

use crate::bitboard::Bitboard;
use crate::piece::Side;
use crate::square::{Square, FILES, NUM_SQUARES, RANKS};

/// One of the four orthogonal directions of a move, seen from South's seat.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Direction {
    /// Towards rank 9.
    Up = 0,
    /// Towards rank 1.
    Down = 1,
    /// Towards file `a`.
    Left = 2,
    /// Towards file `g`.
    Right = 3,
}

impl Direction {
    /// All directions in slot order (up, down, left, right).
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// Slot 0..4 of this direction.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether the direction runs along a file (up or down).
    #[inline]
    pub const fn is_vertical(self) -> bool {
        matches!(self, Direction::Up | Direction::Down)
    }

    /// The direction after a left-right mirror.
    pub const fn mirrored(self) -> Direction {
        match self {
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
            d => d,
        }
    }

    /// The direction after a top-to-bottom flip.
    pub const fn flipped(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            d => d,
        }
    }

    const fn delta(self) -> (i8, i8) {
        match self {
            Direction::Up => (0, 1),
            Direction::Down => (0, -1),
            Direction::Left => (-1, 0),
            Direction::Right => (1, 0),
        }
    }
}

const fn bit(file: u8, rank: u8) -> u64 {
    1u64 << (rank * FILES + file)
}

/// The two rivers: `b4 c4 b5 c5 b6 c6` and `e4 f4 e5 f5 e6 f6`.
pub const WATER: Bitboard = {
    let mut m = 0u64;
    let mut rank = 3;
    while rank <= 5 {
        m |= bit(1, rank) | bit(2, rank) | bit(4, rank) | bit(5, rank);
        rank += 1;
    }
    Bitboard(m)
};

/// All land squares.
pub const LAND: Bitboard = Bitboard(!WATER.0 & Bitboard::FULL.0);

/// Each side's den: South `d1`, North `d9`.
pub const DEN: [Bitboard; 2] = [Bitboard(bit(3, 0)), Bitboard(bit(3, 8))];

/// Each side's traps, around its den: South `c1 e1 d2`, North `c9 e9 d8`.
pub const TRAPS: [Bitboard; 2] = [
    Bitboard(bit(2, 0) | bit(4, 0) | bit(3, 1)),
    Bitboard(bit(2, 8) | bit(4, 8) | bit(3, 7)),
];

/// `side`'s den.
#[inline]
pub const fn den(side: Side) -> Bitboard {
    DEN[side.index()]
}

/// The traps that belong to `side` (dangerous for the other side's animals).
#[inline]
pub const fn traps(side: Side) -> Bitboard {
    TRAPS[side.index()]
}

/// Index used in the tables below for "no square".
const NONE: u8 = 64;

const fn offset(sq: usize, d: Direction) -> u8 {
    let file = (sq % FILES as usize) as i8;
    let rank = (sq / FILES as usize) as i8;
    let (df, dr) = d.delta();
    let (f, r) = (file + df, rank + dr);
    if f < 0 || f >= FILES as i8 || r < 0 || r >= RANKS as i8 {
        NONE
    } else {
        (r as u8) * FILES + f as u8
    }
}

const STEP_TABLE: [[u8; 4]; NUM_SQUARES] = {
    let mut t = [[NONE; 4]; NUM_SQUARES];
    let mut sq = 0;
    while sq < NUM_SQUARES {
        let mut d = 0;
        while d < 4 {
            t[sq][d] = offset(sq, Direction::ALL[d]);
            d += 1;
        }
        sq += 1;
    }
    t
};

/// For every square, the set of its orthogonal neighbours.
pub const STEPS: [Bitboard; NUM_SQUARES] = {
    let mut t = [Bitboard::EMPTY; NUM_SQUARES];
    let mut sq = 0;
    while sq < NUM_SQUARES {
        let mut m = 0u64;
        let mut d = 0;
        while d < 4 {
            let to = STEP_TABLE[sq][d];
            if to != NONE {
                m |= 1u64 << to;
            }
            d += 1;
        }
        t[sq] = Bitboard(m);
        sq += 1;
    }
    t
};

/// A river jump: where it lands and the water squares it passes over.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Jump {
    /// The first land square beyond the river.
    pub to: Square,
    /// The water squares passed over; any rat there blocks the jump.
    pub over: Bitboard,
    /// The direction of the jump.
    pub direction: Direction,
}

const fn jump_from(sq: usize, d: Direction) -> Option<Jump> {
    let mut cur = offset(sq, d);
    if cur == NONE || WATER.0 & (1u64 << cur) == 0 || WATER.0 & (1u64 << sq) != 0 {
        return None;
    }
    let mut over = 0u64;
    while cur != NONE && WATER.0 & (1u64 << cur) != 0 {
        over |= 1u64 << cur;
        cur = offset(cur as usize, d);
    }
    if cur == NONE {
        return None;
    }
    Some(Jump {
        to: Square::from_index_unchecked(cur),
        over: Bitboard(over),
        direction: d,
    })
}

/// For every square, the river jumps that start there, by direction slot.
pub const JUMPS: [[Option<Jump>; 4]; NUM_SQUARES] = {
    let mut t = [[None; 4]; NUM_SQUARES];
    let mut sq = 0;
    while sq < NUM_SQUARES {
        let mut d = 0;
        while d < 4 {
            t[sq][d] = jump_from(sq, Direction::ALL[d]);
            d += 1;
        }
        sq += 1;
    }
    t
};

/// Squares from which a jump in some direction starts.
pub const JUMP_ORIGINS: Bitboard = {
    let mut m = 0u64;
    let mut sq = 0;
    while sq < NUM_SQUARES {
        let mut d = 0;
        while d < 4 {
            if JUMPS[sq][d].is_some() {
                m |= 1u64 << sq;
            }
            d += 1;
        }
        sq += 1;
    }
    Bitboard(m)
};

/// The square one step from `sq` in direction `d`, if on the board.
#[inline]
pub fn step(sq: Square, d: Direction) -> Option<Square> {
    let to = STEP_TABLE[sq.index()][d.index()];
    (to != NONE).then(|| Square::from_index_unchecked(to))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(bb: Bitboard) -> Vec<String> {
        bb.into_iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn water_traps_and_dens_are_where_the_rules_say() {
        assert_eq!(
            WATER,
            Bitboard::from_names(&[
                "b4", "c4", "b5", "c5", "b6", "c6", "e4", "f4", "e5", "f5", "e6", "f6"
            ])
        );
        assert_eq!(names(DEN[0]), ["d1"]);
        assert_eq!(names(DEN[1]), ["d9"]);
        assert_eq!(TRAPS[0], Bitboard::from_names(&["c1", "e1", "d2"]));
        assert_eq!(TRAPS[1], Bitboard::from_names(&["c9", "e9", "d8"]));
        for f in ["a", "d", "g"] {
            for r in 1..=9 {
                let sq: Square = format!("{f}{r}").parse().unwrap();
                assert!(LAND.has(sq));
            }
        }
    }

    #[test]
    fn terrain_is_mirror_and_flip_symmetric() {
        assert_eq!(WATER.mirrored(), WATER);
        assert_eq!(WATER.flipped(), WATER);
        assert_eq!(DEN[0].flipped(), DEN[1]);
        assert_eq!(TRAPS[0].flipped(), TRAPS[1]);
        assert_eq!(TRAPS[0].mirrored(), TRAPS[0]);
    }

    #[test]
    fn steps_are_orthogonal_neighbours() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(STEPS[sq("a1").index()], Bitboard::from_names(&["a2", "b1"]));
        assert_eq!(
            STEPS[sq("d5").index()],
            Bitboard::from_names(&["d4", "d6", "c5", "e5"])
        );
        assert_eq!(STEPS[sq("g9").index()], Bitboard::from_names(&["g8", "f9"]));
    }

    #[test]
    fn the_twenty_jumps() {
        let mut all = Vec::new();
        for from in Square::all() {
            for j in JUMPS[from.index()].iter().flatten() {
                all.push(format!("{from}{}", j.to));
                assert_eq!(j.over & !WATER, Bitboard::EMPTY);
                assert_eq!(j.over.len(), if j.direction.is_vertical() { 3 } else { 2 });
            }
        }
        all.sort();
        let mut expected = vec![
            "b3b7", "b7b3", "c3c7", "c7c3", "e3e7", "e7e3", "f3f7", "f7f3", "a4d4", "d4a4", "d4g4",
            "g4d4", "a5d5", "d5a5", "d5g5", "g5d5", "a6d6", "d6a6", "d6g6", "g6d6",
        ];
        expected.sort();
        assert_eq!(all, expected);
        assert_eq!(JUMP_ORIGINS.len(), 17);
    }
}
