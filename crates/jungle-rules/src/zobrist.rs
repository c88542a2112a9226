//! Zobrist keys: one per (piece, square) and one for North to move.
//! The hash covers what docs/RULES.md calls "the same position" (animals on
//! squares and the side to move), not the move counters.

use crate::piece::Piece;
use crate::square::{Square, NUM_SQUARES};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Rows of 64 (the last entry unused) so that an index masked to 6 bits
/// needs no bounds check on the make/unmake path.
const PIECE_KEYS: [[u64; 64]; 16] = {
    let mut keys = [[0u64; 64]; 16];
    let mut state = 0x4A55_4E47_4C45_5A30; // "JUNGLEZ0"
    let mut p = 0;
    while p < 16 {
        let mut s = 0;
        while s < NUM_SQUARES {
            let (next, key) = splitmix64(state);
            state = next;
            keys[p][s] = key;
            s += 1;
        }
        p += 1;
    }
    keys
};

/// Key xored in when North is to move.
pub const NORTH_TO_MOVE: u64 = splitmix64(0x5349_4445_5f4e_4f52).1;

/// The key of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_KEYS[piece.index() & 15][sq.index() & 63]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct() {
        let mut seen: HashSet<u64> = PIECE_KEYS
            .iter()
            .flat_map(|row| &row[..NUM_SQUARES])
            .copied()
            .collect();
        assert_eq!(seen.len(), 16 * NUM_SQUARES);
        assert!(seen.insert(NORTH_TO_MOVE));
    }
}
