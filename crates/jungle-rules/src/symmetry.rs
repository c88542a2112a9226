//! The board's two symmetries: the left-right mirror (data augmentation) and
//! the top-to-bottom flip with colours swapped (North's point of view).

use crate::piece::Side;
use crate::position::Position;

impl Position {
    /// The position mirrored left-right (file `a` <-> `g`). The board is
    /// symmetric, so the mirror is legal and has the same value; moves map
    /// with [`crate::Move::mirrored`].
    pub fn mirrored(&self) -> Position {
        let mut out = Position::empty(self.side_to_move());
        for (sq, piece) in self.pieces() {
            out.put(sq.mirrored(), piece);
        }
        out.set_counters(self.quiet_plies(), self.fullmove_number());
        out
    }

    /// The position seen from the other side: ranks flipped top-to-bottom,
    /// South's animals become North's and back, and the other side is to
    /// move. North-to-move positions flipped this way are South-to-move, so
    /// one network plays both seats; moves map with [`crate::Move::flipped`].
    pub fn flipped(&self) -> Position {
        let mut out = Position::empty(!self.side_to_move());
        for (sq, piece) in self.pieces() {
            out.put(sq.flipped(), piece.recolored());
        }
        out.set_counters(self.quiet_plies(), self.fullmove_number());
        out
    }

    /// The position from the side to move's point of view: unchanged for
    /// South, [`Position::flipped`] for North.
    pub fn from_mover_view(&self) -> Position {
        match self.side_to_move() {
            Side::South => *self,
            Side::North => self.flipped(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;
    use crate::rules::Rules;

    #[test]
    fn start_mirror_and_flip() {
        let start = Position::start();
        assert_eq!(
            start.mirrored().to_fen(),
            "t5l/1c3d1/e1w1p1r/7/7/7/R1P1W1E/1D3C1/L5T w 0 1"
        );
        // Flipping South's start gives North-to-move's mirror image.
        assert_eq!(
            start.flipped().to_fen(),
            "t5l/1c3d1/e1w1p1r/7/7/7/R1P1W1E/1D3C1/L5T b 0 1"
        );
        assert_eq!(start.flipped().flipped(), start);
        assert_eq!(start.mirrored().mirrored(), start);
        assert_eq!(start.flipped().hash(), start.flipped().compute_hash());
    }

    /// The legal moves of `pos`, each passed through `map`, sorted.
    fn mapped_moves(pos: &Position, map: fn(Move) -> Move) -> Vec<Move> {
        let mut v: Vec<Move> = pos
            .legal_moves(&Rules::default())
            .iter()
            .map(|&m| map(m))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn moves_map_under_mirror_and_flip() {
        let pos = Position::from_fen("7/7/7/3L3/7/R6/7/3r3/7 b").unwrap();
        let same = |m| m;
        assert_eq!(
            mapped_moves(&pos, Move::mirrored),
            mapped_moves(&pos.mirrored(), same)
        );
        assert_eq!(
            mapped_moves(&pos, Move::flipped),
            mapped_moves(&pos.from_mover_view(), same)
        );
        assert_eq!(pos.from_mover_view().side_to_move(), Side::South);
    }
}
