//! Squares of the 7x9 board: `a1 = 0`, `g1 = 6`, `a2 = 7`, ..., `g9 = 62`.

use std::fmt;

/// Number of files (columns), `a`..`g`.
pub const FILES: u8 = 7;
/// Number of ranks (rows), `1`..`9`.
pub const RANKS: u8 = 9;
/// Number of squares on the board.
pub const NUM_SQUARES: usize = (FILES * RANKS) as usize;

/// One of the 63 squares, index `rank * 7 + file`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The square with index `index`, or `None` if it is off the board.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < NUM_SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at `file` (0 = `a`) and `rank` (0 = rank `1`), if on the board.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// Builds a square from an index known to be below 63.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!((index as usize) < NUM_SQUARES);
        Square(index)
    }

    /// The index `rank * 7 + file`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File index, 0 (`a`) to 6 (`g`).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank index, 0 (rank `1`) to 8 (rank `9`).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The square mirrored left-right (file `a` <-> `g`).
    #[inline]
    pub const fn mirrored(self) -> Square {
        Square(self.rank() * FILES + (FILES - 1 - self.file()))
    }

    /// The square flipped top-to-bottom (rank `1` <-> `9`), as used for
    /// North's point of view.
    #[inline]
    pub const fn flipped(self) -> Square {
        Square((RANKS - 1 - self.rank()) * FILES + self.file())
    }

    /// All 63 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..NUM_SQUARES as u8).map(Square)
    }

    /// Parses two characters such as `a3`; `None` if they do not name a square.
    pub fn from_chars(file: char, rank: char) -> Option<Square> {
        let f = (file as u32).wrapping_sub('a' as u32);
        let r = (rank as u32).wrapping_sub('1' as u32);
        if f < FILES as u32 && r < RANKS as u32 {
            Square::from_coords(f as u8, r as u8)
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

impl std::str::FromStr for Square {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f), Some(r), None) => Square::from_chars(f, r).ok_or_else(|| {
                format!("`{s}` is not a square (expected a file a-g and a rank 1-9, e.g. `c3`)")
            }),
            _ => Err(format!(
                "`{s}` is not a square (expected two characters, a file a-g and a rank 1-9)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_follow_the_rules() {
        let sq = |s: &str| s.parse::<Square>().unwrap().index();
        assert_eq!(sq("a1"), 0);
        assert_eq!(sq("g1"), 6);
        assert_eq!(sq("a2"), 7);
        assert_eq!(sq("g9"), 62);
        assert_eq!(sq("d9"), 59);
    }

    #[test]
    fn display_round_trips() {
        for s in Square::all() {
            assert_eq!(s.to_string().parse::<Square>().unwrap(), s);
        }
    }

    #[test]
    fn mirror_and_flip_are_involutions() {
        for s in Square::all() {
            assert_eq!(s.mirrored().mirrored(), s);
            assert_eq!(s.flipped().flipped(), s);
        }
        assert_eq!("a1".parse::<Square>().unwrap().mirrored().to_string(), "g1");
        assert_eq!("c2".parse::<Square>().unwrap().flipped().to_string(), "c8");
    }

    #[test]
    fn bad_squares_are_rejected() {
        for bad in ["", "a", "h1", "a0", "a10", "A1", "1a", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }
}
