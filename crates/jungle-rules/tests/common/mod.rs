//! Helpers shared by the integration tests.
#![allow(dead_code)]

use jungle_rules::{Position, Rules, Square};

/// Builds a FEN from `(square, letter)` pairs and the side to move (`w`/`b`),
/// so test positions read as the squares they use.
pub fn fen(pieces: &[(&str, char)], side: &str) -> String {
    let mut grid = [['.'; 7]; 9];
    for &(sq, letter) in pieces {
        let sq: Square = sq.parse().unwrap();
        grid[sq.rank() as usize][sq.file() as usize] = letter;
    }
    let mut ranks = Vec::new();
    for rank in (0..9).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for c in grid[rank] {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push(c);
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    format!("{} {side}", ranks.join("/"))
}

/// The position of [`fen`].
pub fn pos(pieces: &[(&str, char)], side: &str) -> Position {
    Position::from_fen(&fen(pieces, side)).unwrap()
}

/// All legal moves as sorted text.
pub fn moves(p: &Position, rules: &Rules) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves(rules).iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// The legal moves of the animal on `from`, as sorted text.
pub fn moves_from(p: &Position, rules: &Rules, from: &str) -> Vec<String> {
    moves(p, rules)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

/// Sorted owned strings.
pub fn set(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Whether the move `text` is legal.
pub fn legal(p: &Position, rules: &Rules, text: &str) -> bool {
    moves(p, rules).iter().any(|m| m == text)
}
