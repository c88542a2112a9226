//! Sides, animals and pieces (an animal of a side).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A player. South sits at the bottom (den `d1`), North at the top (den `d9`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The bottom player; upper-case letters, `w` in a FEN.
    South = 0,
    /// The top player; lower-case letters, `b` in a FEN.
    North = 1,
}

impl Side {
    /// Both sides, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// 0 for South, 1 for North.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// Lower-case name, as in configs: `south` or `north`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
        }
    }
}

impl std::ops::Not for Side {
    type Output = Side;
    #[inline]
    fn not(self) -> Side {
        self.opponent()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An animal kind; the discriminant plus one is its rank (rat 1 ... elephant 8).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Animal {
    /// Rank 1; swims, and may capture the elephant.
    Rat = 0,
    /// Rank 2.
    Cat = 1,
    /// Rank 3.
    Dog = 2,
    /// Rank 4.
    Wolf = 3,
    /// Rank 5.
    Leopard = 4,
    /// Rank 6; jumps rivers.
    Tiger = 5,
    /// Rank 7; jumps rivers.
    Lion = 6,
    /// Rank 8; may not capture the rat (by default).
    Elephant = 7,
}

impl Animal {
    /// All animals from the weakest up.
    pub const ALL: [Animal; 8] = [
        Animal::Rat,
        Animal::Cat,
        Animal::Dog,
        Animal::Wolf,
        Animal::Leopard,
        Animal::Tiger,
        Animal::Lion,
        Animal::Elephant,
    ];

    /// 0 (rat) to 7 (elephant).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The animal with index `i` (0..8).
    #[inline]
    pub const fn from_index(i: usize) -> Animal {
        Animal::ALL[i]
    }

    /// The rank of docs/RULES.md: 1 (rat) to 8 (elephant).
    #[inline]
    pub const fn rank(self) -> u8 {
        self as u8 + 1
    }

    /// Upper-case letter (South's); North uses the lower case.
    pub const fn letter(self) -> char {
        match self {
            Animal::Rat => 'R',
            Animal::Cat => 'C',
            Animal::Dog => 'D',
            Animal::Wolf => 'W',
            Animal::Leopard => 'P',
            Animal::Tiger => 'T',
            Animal::Lion => 'L',
            Animal::Elephant => 'E',
        }
    }

    /// The animal for an upper- or lower-case letter.
    pub fn from_letter(c: char) -> Option<Animal> {
        Animal::ALL
            .into_iter()
            .find(|a| a.letter() == c.to_ascii_uppercase())
    }

    /// Lower-case English name.
    pub const fn name(self) -> &'static str {
        match self {
            Animal::Rat => "rat",
            Animal::Cat => "cat",
            Animal::Dog => "dog",
            Animal::Wolf => "wolf",
            Animal::Leopard => "leopard",
            Animal::Tiger => "tiger",
            Animal::Lion => "lion",
            Animal::Elephant => "elephant",
        }
    }
}

impl fmt::Display for Animal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An animal of a side, packed in one byte: `side * 8 + animal`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece(u8);

impl Piece {
    /// The piece `animal` of `side`.
    #[inline]
    pub const fn new(side: Side, animal: Animal) -> Piece {
        Piece(side as u8 * 8 + animal as u8)
    }

    /// Owner of the piece.
    #[inline]
    pub const fn side(self) -> Side {
        if self.0 < 8 {
            Side::South
        } else {
            Side::North
        }
    }

    /// Kind of the piece.
    #[inline]
    pub const fn animal(self) -> Animal {
        Animal::from_index((self.0 & 7) as usize)
    }

    /// The piece whose [`Piece::index`] is `b` (`b < 16`).
    #[inline]
    pub(crate) const fn from_byte(b: u8) -> Piece {
        debug_assert!(b < 16);
        Piece(b)
    }

    /// 0..16, for tables indexed by piece.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// FEN letter: upper case for South, lower case for North.
    pub const fn letter(self) -> char {
        let c = self.animal().letter();
        match self.side() {
            Side::South => c,
            Side::North => c.to_ascii_lowercase(),
        }
    }

    /// The piece for a FEN letter.
    pub fn from_letter(c: char) -> Option<Piece> {
        let animal = Animal::from_letter(c)?;
        let side = if c.is_ascii_uppercase() {
            Side::South
        } else {
            Side::North
        };
        Some(Piece::new(side, animal))
    }

    /// The same animal owned by the other side.
    #[inline]
    pub const fn recolored(self) -> Piece {
        Piece(self.0 ^ 8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_the_table() {
        assert_eq!(Animal::Elephant.rank(), 8);
        assert_eq!(Animal::Lion.rank(), 7);
        assert_eq!(Animal::Tiger.rank(), 6);
        assert_eq!(Animal::Leopard.rank(), 5);
        assert_eq!(Animal::Wolf.rank(), 4);
        assert_eq!(Animal::Dog.rank(), 3);
        assert_eq!(Animal::Cat.rank(), 2);
        assert_eq!(Animal::Rat.rank(), 1);
    }

    #[test]
    fn letters_round_trip() {
        for side in Side::BOTH {
            for a in Animal::ALL {
                let p = Piece::new(side, a);
                assert_eq!(Piece::from_letter(p.letter()), Some(p));
                assert_eq!(p.side(), side);
                assert_eq!(p.animal(), a);
                assert_eq!(p.recolored().side(), !side);
            }
        }
        assert_eq!(Piece::from_letter('x'), None);
        assert_eq!(Piece::new(Side::North, Animal::Leopard).letter(), 'p');
    }
}
