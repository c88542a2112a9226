//! A position: animals on squares, the side to move and the move counters.
//! Moves are made in place with [`Position::make_move`] and taken back with
//! [`Position::unmake_move`]; [`Position::play`] is copy-make.

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveParseError};
use crate::piece::{Piece, Side};
use crate::rules::Rules;
use crate::square::Square;
use crate::terrain::DEN;
use crate::zobrist;
use std::fmt;

/// Byte stored in the mailbox for an empty square.
const EMPTY: u8 = 0xFF;

/// Square index stored for an animal that is not on the board: bit 63 of a
/// [`Bitboard`] lies off the 63-square board, so `1 << OFF_BOARD` masked to
/// the board is empty.
const OFF_BOARD: u8 = 63;

/// A Jungle position. One animal of each kind per side at most.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// Mailbox: the piece byte on each square, or `EMPTY`.
    board: [u8; 64],
    /// Squares held by each side.
    occupied: [Bitboard; 2],
    /// The square of each piece (by [`Piece::index`]), or `OFF_BOARD`: one
    /// animal of each kind per side, so the move generator finds the enemy
    /// ranks without reading the mailbox.
    squares: [u8; 16],
    /// Zobrist hash of the animals and the side to move.
    hash: u64,
    /// Plies since the last capture.
    quiet_plies: u32,
    /// Full-move number; starts at 1 and grows after each North move.
    fullmove: u32,
    side: Side,
}

/// What [`Position::make_move`] returns so the move can be taken back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: u8,
    moving: u8,
    quiet_plies: u32,
    fullmove: u32,
    /// The hash and the occupancy before the move, restored as they were
    /// rather than xored back.
    hash: u64,
    occupied: [Bitboard; 2],
}

impl Undo {
    /// The animal the move captured, if any.
    pub fn captured(self) -> Option<Piece> {
        piece_from_byte(self.captured)
    }
}

#[inline]
fn piece_from_byte(b: u8) -> Option<Piece> {
    (b != EMPTY).then(|| Piece::from_byte(b))
}

/// The standard start position of docs/RULES.md.
pub const START_FEN: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1";

impl Position {
    /// An empty board with `side` to move (not a legal game position by itself).
    pub(crate) fn empty(side: Side) -> Position {
        let mut pos = Position {
            board: [EMPTY; 64],
            occupied: [Bitboard::EMPTY; 2],
            squares: [OFF_BOARD; 16],
            hash: 0,
            quiet_plies: 0,
            fullmove: 1,
            side: Side::South,
        };
        pos.set_side_to_move(side);
        pos
    }

    /// The standard start position, South to move.
    pub fn start() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// Puts `piece` on an empty square (used by the FEN reader).
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.board[sq.index()] == EMPTY);
        self.board[sq.index()] = piece.index() as u8;
        self.squares[piece.index()] = sq.index() as u8;
        self.occupied[piece.side().index()] |= Bitboard::from_square(sq);
        self.hash ^= zobrist::piece_key(piece, sq);
    }

    /// Sets the counters (used by the FEN reader).
    pub(crate) fn set_counters(&mut self, quiet_plies: u32, fullmove: u32) {
        self.quiet_plies = quiet_plies;
        self.fullmove = fullmove;
    }

    /// Sets the side to move, keeping the hash right.
    pub fn set_side_to_move(&mut self, side: Side) {
        if side != self.side {
            self.hash ^= zobrist::NORTH_TO_MOVE;
            self.side = side;
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        piece_from_byte(self.board[sq.index()])
    }

    /// The [`crate::Animal::index`] of the animal on an occupied square
    /// (either side's); meaningless for an empty one.
    #[inline]
    pub(crate) fn animal_index_at(&self, sq: Square) -> usize {
        (self.board[sq.index() & 63] & 7) as usize
    }

    /// Squares held by `side`.
    #[inline]
    pub fn occupied(&self, side: Side) -> Bitboard {
        self.occupied[side.index()]
    }

    /// Squares held by either side.
    #[inline]
    pub fn occupied_all(&self) -> Bitboard {
        self.occupied[0] | self.occupied[1]
    }

    /// The square of `piece`, if it is on the board.
    #[inline]
    pub fn square_of(&self, piece: Piece) -> Option<Square> {
        let index = self.squares[piece.index()];
        (index != OFF_BOARD).then(|| Square::from_index_unchecked(index))
    }

    /// The squares of `side`'s animals, indexed by [`crate::Animal::index`]:
    /// a one-square set, or empty for an animal that was captured.
    #[inline]
    pub fn animal_squares(&self, side: Side) -> [Bitboard; 8] {
        let base = side.index() * 8;
        std::array::from_fn(|a| {
            Bitboard((1u64 << (self.squares[base + a] & 63)) & Bitboard::FULL.0)
        })
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// Plies since the last capture.
    #[inline]
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// The full-move number.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The Zobrist hash (animals and side to move), kept incrementally.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash computed from scratch; always equals [`Position::hash`].
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Side::North {
            zobrist::NORTH_TO_MOVE
        } else {
            0
        };
        for sq in self.occupied_all() {
            h ^= zobrist::piece_key(self.piece_at(sq).expect("occupied"), sq);
        }
        h
    }

    /// The winner if the position itself ends the game: an animal stands in
    /// the enemy's den, or a side has no animals left.
    #[inline]
    pub fn winner(&self) -> Option<Side> {
        let [south, north] = self.occupied;
        if !(south & DEN[1]).is_empty() || north.is_empty() {
            Some(Side::South)
        } else if !(north & DEN[0]).is_empty() || south.is_empty() {
            Some(Side::North)
        } else {
            None
        }
    }

    /// Makes a legal move in place (no legality check) and returns what
    /// [`Position::unmake_move`] needs to take it back.
    #[inline]
    pub fn make_move(&mut self, mv: Move) -> Undo {
        let (from, to) = (mv.from(), mv.to());
        let moving = self.board[from.index()];
        let captured = self.board[to.index()];
        let undo = Undo {
            captured,
            moving,
            quiet_plies: self.quiet_plies,
            fullmove: self.fullmove,
            hash: self.hash,
            occupied: self.occupied,
        };
        let us = self.side.index();
        let piece = Piece::from_byte(moving);
        self.occupied[us] ^= Bitboard::from_square(from) | Bitboard::from_square(to);
        self.hash ^= zobrist::piece_key(piece, from)
            ^ zobrist::piece_key(piece, to)
            ^ zobrist::NORTH_TO_MOVE;
        self.squares[moving as usize & 15] = to.index() as u8;
        if captured == EMPTY {
            self.quiet_plies = self.quiet_plies.saturating_add(1);
        } else {
            self.occupied[us ^ 1] ^= Bitboard::from_square(to);
            self.hash ^= zobrist::piece_key(Piece::from_byte(captured), to);
            self.squares[captured as usize & 15] = OFF_BOARD;
            self.quiet_plies = 0;
        }
        self.board[to.index()] = moving;
        self.board[from.index()] = EMPTY;
        if self.side == Side::North {
            self.fullmove = self.fullmove.wrapping_add(1);
        }
        self.side = !self.side;
        undo
    }

    /// Takes back `mv`, made with [`Position::make_move`] which returned `undo`.
    #[inline]
    pub fn unmake_move(&mut self, mv: Move, undo: Undo) {
        let (from, to) = (mv.from(), mv.to());
        self.side = !self.side;
        self.fullmove = undo.fullmove;
        self.occupied = undo.occupied;
        self.hash = undo.hash;
        self.board[from.index()] = undo.moving;
        self.board[to.index()] = undo.captured;
        self.squares[undo.moving as usize & 15] = from.index() as u8;
        if undo.captured != EMPTY {
            self.squares[undo.captured as usize & 15] = to.index() as u8;
        }
        self.quiet_plies = undo.quiet_plies;
    }

    /// Copy-make: the position after the legal move `mv`.
    #[inline]
    pub fn play(&self, mv: Move) -> Position {
        let mut next = *self;
        next.make_move(mv);
        next
    }

    /// Parses move text and checks that the move is legal here under `rules`.
    pub fn parse_move(&self, text: &str, rules: &Rules) -> Result<Move, MoveParseError> {
        let mv = Move::parse(text)?;
        if self.legal_moves(rules).contains(mv) {
            Ok(mv)
        } else {
            Err(MoveParseError::Illegal {
                text: text.to_string(),
                fen: self.to_fen(),
            })
        }
    }

    /// The pieces on the board with their squares, South's first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Side::BOTH.into_iter().flat_map(move |side| {
            self.occupied(side)
                .into_iter()
                .map(move |sq| (sq, self.piece_at(sq).expect("occupied")))
        })
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

/// A board diagram, rank 9 at the top, with water `~`, traps `#` and dens `@`.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::terrain::{TRAPS, WATER};
        for rank in (0..9u8).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..7u8 {
                let sq = Square::from_coords(file, rank).expect("on board");
                let c = match self.piece_at(sq) {
                    Some(p) => p.letter(),
                    None if WATER.has(sq) => '~',
                    None if (TRAPS[0] | TRAPS[1]).has(sq) => '#',
                    None if (DEN[0] | DEN[1]).has(sq) => '@',
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g")?;
        write!(f, "{} to move; {}", self.side, self.to_fen())
    }
}
