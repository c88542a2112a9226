//! A set of squares as the low 63 bits of a `u64`.

use crate::square::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares; bit `i` stands for the square with index `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 63 squares.
    pub const FULL: Bitboard = Bitboard((1u64 << 63) - 1);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u64 << sq.index())
    }

    /// Builds a set from square names; panics on a bad name (for constants and tests).
    pub fn from_names(names: &[&str]) -> Bitboard {
        names.iter().fold(Bitboard::EMPTY, |bb, n| {
            bb | Bitboard::from_square(n.parse().expect("valid square name"))
        })
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        self.0 & (1u64 << sq.index()) != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest square of the set, if any.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The set mirrored left-right.
    pub fn mirrored(self) -> Bitboard {
        self.into_iter().fold(Bitboard::EMPTY, |bb, s| {
            bb | Bitboard::from_square(s.mirrored())
        })
    }

    /// The set flipped top-to-bottom.
    pub fn flipped(self) -> Bitboard {
        self.into_iter().fold(Bitboard::EMPTY, |bb, s| {
            bb | Bitboard::from_square(s.flipped())
        })
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(self.into_iter().map(|s| s.to_string()))
            .finish()
    }
}

/// Iterates the squares of a set from the lowest index up.
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let idx = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square::from_index_unchecked(idx))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;

    #[inline]
    fn into_iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_in_index_order() {
        let bb = Bitboard::from_names(&["g9", "a1", "d5"]);
        let names: Vec<String> = bb.into_iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["a1", "d5", "g9"]);
        assert_eq!(bb.len(), 3);
        assert_eq!(bb.first().unwrap().to_string(), "a1");
    }

    #[test]
    fn complement_stays_on_the_board() {
        assert_eq!(!Bitboard::EMPTY, Bitboard::FULL);
        assert_eq!((!Bitboard::FULL).0, 0);
        assert_eq!(Bitboard::FULL.len(), 63);
    }

    #[test]
    fn mirror_and_flip() {
        let bb = Bitboard::from_names(&["a1", "c4"]);
        assert_eq!(bb.mirrored(), Bitboard::from_names(&["g1", "e4"]));
        assert_eq!(bb.flipped(), Bitboard::from_names(&["a9", "c6"]));
    }
}
