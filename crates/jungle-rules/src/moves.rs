//! Moves, their text form (`a3a4`) and a fixed-capacity move list.

use crate::square::Square;
use crate::terrain::Direction;
use std::fmt;

/// A move from one square to another (a step or a river jump), packed in 16 bits.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move(u16);

impl Move {
    /// The move `from` -> `to`. Says nothing about legality.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | ((to.index() as u16) << 6))
    }

    /// The square the animal leaves.
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 63) as u8)
    }

    /// The square the animal arrives on.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked(((self.0 >> 6) & 63) as u8)
    }

    /// The direction of the move; `None` only for a move that is not
    /// orthogonal (never legal).
    pub fn direction(self) -> Option<Direction> {
        let (f, t) = (self.from(), self.to());
        if f.file() == t.file() && f.rank() != t.rank() {
            Some(if t.rank() > f.rank() {
                Direction::Up
            } else {
                Direction::Down
            })
        } else if f.rank() == t.rank() && f.file() != t.file() {
            Some(if t.file() > f.file() {
                Direction::Right
            } else {
                Direction::Left
            })
        } else {
            None
        }
    }

    /// Whether the move covers more than one square (a river jump).
    pub fn is_jump(self) -> bool {
        let (f, t) = (self.from(), self.to());
        f.file().abs_diff(t.file()) + f.rank().abs_diff(t.rank()) > 1
    }

    /// The move mirrored left-right.
    pub const fn mirrored(self) -> Move {
        Move::new(self.from().mirrored(), self.to().mirrored())
    }

    /// The move flipped top-to-bottom.
    pub const fn flipped(self) -> Move {
        Move::new(self.from().flipped(), self.to().flipped())
    }

    /// Parses move text: the from-square and the to-square, e.g. `a3a4` or
    /// the jump `b3b7`. Checks the syntax only; see
    /// [`crate::Position::parse_move`] for legality.
    pub fn parse(text: &str) -> Result<Move, MoveParseError> {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != 4 {
            return Err(MoveParseError::Length {
                text: text.to_string(),
                len: chars.len(),
            });
        }
        let square = |i: usize| -> Result<Square, MoveParseError> {
            let (f, r) = (chars[i], chars[i + 1]);
            if !('a'..='g').contains(&f) {
                return Err(MoveParseError::File {
                    text: text.to_string(),
                    column: i + 1,
                    found: f,
                });
            }
            Square::from_chars(f, r).ok_or(MoveParseError::Rank {
                text: text.to_string(),
                column: i + 2,
                found: r,
            })
        };
        let (from, to) = (square(0)?, square(2)?);
        if from == to {
            return Err(MoveParseError::SameSquare {
                text: text.to_string(),
            });
        }
        Ok(Move::new(from, to))
    }
}

/// Moves as text, space separated (`a3a4 g7g6`): how game records and
/// openings files spell a game.
pub fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl std::str::FromStr for Move {
    type Err = MoveParseError;
    fn from_str(s: &str) -> Result<Move, MoveParseError> {
        Move::parse(s)
    }
}

/// Why move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveParseError {
    /// Not four characters.
    #[error("move `{text}`: expected 4 characters (from-square and to-square, e.g. `a3a4`), found {len}")]
    Length {
        /// The text given.
        text: String,
        /// Its length in characters.
        len: usize,
    },
    /// A file letter outside `a`..`g`.
    #[error("move `{text}`: character {column} is `{found}`, expected a file `a`..`g`")]
    File {
        /// The text given.
        text: String,
        /// 1-based character position.
        column: usize,
        /// The character found.
        found: char,
    },
    /// A rank digit outside `1`..`9`.
    #[error("move `{text}`: character {column} is `{found}`, expected a rank `1`..`9`")]
    Rank {
        /// The text given.
        text: String,
        /// 1-based character position.
        column: usize,
        /// The character found.
        found: char,
    },
    /// From- and to-square are the same.
    #[error("move `{text}`: the from-square and the to-square are the same")]
    SameSquare {
        /// The text given.
        text: String,
    },
    /// Well formed, but not legal in the position.
    #[error("move `{text}` is not legal in {fen}")]
    Illegal {
        /// The text given.
        text: String,
        /// The position it was played in.
        fen: String,
    },
}

/// Most moves any position can have: 8 animals x 4 directions.
pub const MAX_MOVES: usize = 32;

/// A list of at most [`MAX_MOVES`] moves, kept on the stack.
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: u8,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move(0); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len as usize] = mv;
        self.len += 1;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    /// Keeps only the moves for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len as usize {
            let mv = self.moves[i];
            if keep(mv) {
                self.moves[n] = mv;
                n += 1;
            }
        }
        self.len = n as u8;
    }

    /// Whether `mv` is in the list.
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_text_spells_a_game_as_it_is_read() {
        let text = "a3a4 g7g6 a4a5";
        let moves: Vec<Move> = text.split(' ').map(|m| m.parse().unwrap()).collect();
        assert_eq!(moves_text(&moves), text);
        assert_eq!(moves_text(&[]), "");
    }

    #[test]
    fn text_round_trips() {
        for text in ["a3a4", "b3b7", "d4g4", "g9f9"] {
            assert_eq!(Move::parse(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn directions_and_jumps() {
        let m = |t| Move::parse(t).unwrap();
        assert_eq!(m("a3a4").direction(), Some(Direction::Up));
        assert_eq!(m("b7b3").direction(), Some(Direction::Down));
        assert_eq!(m("d4a4").direction(), Some(Direction::Left));
        assert_eq!(m("d4e4").direction(), Some(Direction::Right));
        assert_eq!(m("a1b2").direction(), None);
        assert!(m("b3b7").is_jump());
        assert!(!m("a3a4").is_jump());
        assert_eq!(m("a3b3").mirrored(), m("g3f3"));
        assert_eq!(m("a3a4").flipped(), m("a7a6"));
    }

    #[test]
    fn malformed_text_says_what_and_where() {
        let e = |t| Move::parse(t).unwrap_err().to_string();
        assert!(e("a3a").contains("expected 4 characters"));
        assert!(e("a3a45").contains("found 5"));
        assert!(e("").contains("found 0"));
        assert!(e("h3a4").contains("character 1 is `h`"));
        assert!(e("a3A4").contains("character 3 is `A`"));
        assert!(e("a0a4").contains("character 2 is `0`"));
        assert!(e("a3a:").contains("character 4"));
        assert!(e("a3a3").contains("same"));
        assert!(e("a3é4").contains("character 3"));
    }
}
