//! Position strings (FEN) as docs/RULES.md defines them: ranks 9 down to 1 split by
//! `/`, digits for runs of empty squares, upper case South, lower case North,
//! the side to move (`w` South, `b` North), then optionally the plies since the
//! last capture and the full-move number. The reader takes the short form; the
//! writer always writes all four fields.

use crate::bitboard::Bitboard;
use crate::piece::{Animal, Piece, Side};
use crate::position::Position;
use crate::square::{Square, FILES, RANKS};
use crate::terrain::{DEN, WATER};

/// Why a position string was rejected: what was wrong, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid FEN `{fen}`: {problem}")]
pub struct FenError {
    /// The string given.
    pub fen: String,
    /// What was wrong and where.
    pub problem: String,
}

impl FenError {
    /// The error for `fen` with `problem`.
    fn new(fen: &str, problem: String) -> FenError {
        FenError {
            fen: fen.to_string(),
            problem,
        }
    }
}

impl Position {
    /// Reads a position string; accepts 2, 3 or 4 fields.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let err = |problem: String| FenError::new(fen, problem);
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(2..=4).contains(&fields.len()) {
            return Err(err(format!(
                "expected 2 to 4 space-separated fields (board, side to move, [quiet plies], [full-move number]), found {}",
                fields.len()
            )));
        }
        let side = match fields[1] {
            "w" => Side::South,
            "b" => Side::North,
            other => {
                return Err(err(format!(
                    "field 2 (side to move) is `{other}`, expected `w` (South) or `b` (North)"
                )))
            }
        };
        let mut pos = Position::empty(side);
        parse_board(fen, fields[0], &mut pos)?;
        let quiet = match fields.get(2) {
            Some(text) => parse_counter(fen, text, "field 3 (plies since the last capture)", 0)?,
            None => 0,
        };
        let fullmove = match fields.get(3) {
            Some(text) => parse_counter(fen, text, "field 4 (full-move number)", 1)?,
            None => 1,
        };
        pos.set_counters(quiet, fullmove);
        check_sanity(fen, &pos)?;
        Ok(pos)
    }

    /// Writes the position string with all four fields.
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(40);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let sq = Square::from_coords(file, rank).expect("on board");
                match self.piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(p.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let side = match self.side_to_move() {
            Side::South => 'w',
            Side::North => 'b',
        };
        format!(
            "{out} {side} {} {}",
            self.quiet_plies(),
            self.fullmove_number()
        )
    }
}

fn parse_board(fen: &str, board: &str, pos: &mut Position) -> Result<(), FenError> {
    let err = |problem: String| FenError::new(fen, problem);
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != RANKS as usize {
        return Err(err(format!(
            "the board has {} ranks separated by `/`, expected 9",
            ranks.len()
        )));
    }
    let mut seen = [[false; 8]; 2];
    for (i, text) in ranks.iter().enumerate() {
        let rank = RANKS - 1 - i as u8;
        let name = rank + 1;
        let mut file: u8 = 0;
        for (col, c) in text.chars().enumerate() {
            let col = col + 1;
            let width = match c {
                '1'..='7' => c as u8 - b'0',
                _ => match Piece::from_letter(c) {
                    Some(_) => 1,
                    None => {
                        return Err(err(format!(
                            "rank {name}, character {col} is `{c}`, expected an animal letter (E L T P W D C R; upper case South, lower case North) or a digit 1-7"
                        )))
                    }
                },
            };
            if file + width > FILES {
                return Err(err(format!(
                    "rank {name} (`{text}`) runs past file g at character {col}: a rank holds exactly 7 squares"
                )));
            }
            if let Some(piece) = Piece::from_letter(c) {
                let sq = Square::from_coords(file, rank).expect("checked above");
                let seen_it = &mut seen[piece.side().index()][piece.animal().index()];
                if *seen_it {
                    return Err(err(format!(
                        "a second {} {} on {sq} (rank {name}, character {col}): each side has at most one of each animal",
                        piece.side(),
                        piece.animal()
                    )));
                }
                *seen_it = true;
                pos.put(sq, piece);
            }
            file += width;
        }
        if file != FILES {
            return Err(err(format!(
                "rank {name} (`{text}`) describes {file} squares, expected 7"
            )));
        }
    }
    Ok(())
}

fn parse_counter(fen: &str, text: &str, field: &str, min: u32) -> Result<u32, FenError> {
    let value = if text.bytes().all(|b| b.is_ascii_digit()) {
        text.parse::<u32>().ok()
    } else {
        None
    };
    match value {
        Some(v) if v >= min => Ok(v),
        _ => Err(FenError::new(
            fen,
            format!("{field} is `{text}`, expected a whole number of at least {min}"),
        )),
    }
}

/// Rejects boards no game can reach: a non-rat in water, an animal in its
/// own den, an empty board, or both dens entered.
fn check_sanity(fen: &str, pos: &Position) -> Result<(), FenError> {
    let err = |problem: String| FenError::new(fen, problem);
    for (sq, piece) in pos.pieces() {
        if WATER.has(sq) && piece.animal() != Animal::Rat {
            return Err(err(format!(
                "{} {} on {sq}: only the rat may stand in water",
                piece.side(),
                piece.animal()
            )));
        }
        if DEN[piece.side().index()].has(sq) {
            return Err(err(format!(
                "{} {} on {sq}: no animal may stand in its own den",
                piece.side(),
                piece.animal()
            )));
        }
    }
    if pos.occupied_all() == Bitboard::EMPTY {
        return Err(err("the board has no animals".to_string()));
    }
    let south_in = !(pos.occupied(Side::South) & DEN[1]).is_empty();
    let north_in = !(pos.occupied(Side::North) & DEN[0]).is_empty();
    if south_in && north_in {
        return Err(err("both sides stand in the enemy's den".to_string()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::START_FEN;

    #[test]
    fn start_position_reads_and_writes() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(pos.to_fen(), START_FEN);
        let at = |s: &str| pos.piece_at(s.parse().unwrap()).map(|p| p.letter());
        for (sq, letter) in [
            ("a9", 'l'),
            ("g9", 't'),
            ("b8", 'd'),
            ("f8", 'c'),
            ("a7", 'r'),
            ("c7", 'p'),
            ("e7", 'w'),
            ("g7", 'e'),
            ("a1", 'T'),
            ("g1", 'L'),
            ("b2", 'C'),
            ("f2", 'D'),
            ("a3", 'E'),
            ("c3", 'W'),
            ("e3", 'P'),
            ("g3", 'R'),
        ] {
            assert_eq!(at(sq), Some(letter), "{sq}");
        }
        assert_eq!(pos.occupied_all().len(), 16);
        assert_eq!(pos.side_to_move(), Side::South);
    }

    #[test]
    fn short_form_is_accepted_and_completed() {
        let pos = Position::from_fen("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b").unwrap();
        assert_eq!(
            pos.to_fen(),
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1"
        );
        let pos = Position::from_fen("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 17").unwrap();
        assert_eq!(pos.quiet_plies(), 17);
        assert_eq!(pos.fullmove_number(), 1);
    }

    #[test]
    fn errors_say_where() {
        let e = |f: &str| Position::from_fen(f).unwrap_err().problem;
        assert!(e("").contains("found 0"));
        assert!(e("7/7/7/7/7/7/7/7/3L3").contains("found 1"));
        assert!(e("7/7/7/7/7/7/7/3L3 w").contains("8 ranks"));
        assert!(e("7/7/7/7/7/7/7/7/3L3 x").contains("`x`"));
        assert!(e("7/7/7/7/7/7/7/7/3X3 w").contains("rank 1, character 2 is `X`"));
        assert!(e("7/7/7/7/7/7/7/7/3L4 w").contains("rank 1"));
        assert!(e("7/7/7/7/7/7/7/7/3L2 w").contains("describes 6 squares"));
        assert!(e("7/7/7/7/7/7/7/7/3L3 w -1").contains("field 3"));
        assert!(e("7/7/7/7/7/7/7/7/3L3 w 0 0").contains("field 4"));
        assert!(e("7/7/7/7/7/7/7/7/3L3 w 0 1 x").contains("found 5"));
        assert!(e("7/7/7/7/7/7/7/7/L1L4 w").contains("second south lion on c1"));
        assert!(e("7/7/7/1L5/7/7/7/7/7 w").contains("only the rat"));
        assert!(e("7/7/7/7/7/7/7/7/3R3 w").contains("own den"));
        assert!(e("7/7/7/7/7/7/7/7/7 w").contains("no animals"));
        assert!(e("3R3/7/7/7/7/7/7/7/3r3 w").contains("both sides"));
    }
}
