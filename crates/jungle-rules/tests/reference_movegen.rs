//! A second, deliberately plain move generator written straight from
//! docs/RULES.md (square by square, no bitboards, no tables), compared with the
//! engine on random positions under random rule sets.

use jungle_rules::{Animal, JumpRule, Piece, Position, Rules, Side, Square};
use proptest::prelude::*;

fn water(file: i32, rank: i32) -> bool {
    (3..=5).contains(&rank) && matches!(file, 1 | 2 | 4 | 5)
}

fn den_of(side: Side) -> (i32, i32) {
    match side {
        Side::South => (3, 0),
        Side::North => (3, 8),
    }
}

fn is_trap_of(side: Side, file: i32, rank: i32) -> bool {
    let r = match side {
        Side::South => [(2, 0), (4, 0), (3, 1)],
        Side::North => [(2, 8), (4, 8), (3, 7)],
    };
    r.contains(&(file, rank))
}

fn at(pos: &Position, file: i32, rank: i32) -> Option<Piece> {
    pos.piece_at(Square::from_coords(file as u8, rank as u8).unwrap())
}

fn can_capture(rules: &Rules, att: Piece, from: (i32, i32), def: Piece, to: (i32, i32)) -> bool {
    let side = att.side();
    // Rule 5: on an enemy trap, an attacker has rank 0 and takes nothing.
    if is_trap_of(!side, from.0, from.1) && !rules.trapped_can_capture {
        return false;
    }
    // Rule 3: no capture across the bank.
    if water(from.0, from.1) != water(to.0, to.1) && !rules.rat_capture_across_bank {
        return false;
    }
    // Rule 4: a defender on the attacker's traps has rank 0.
    if is_trap_of(side, to.0, to.1) {
        return true;
    }
    // Rule 2.
    match (att.animal(), def.animal()) {
        (Animal::Rat, Animal::Elephant) => return true,
        (Animal::Elephant, Animal::Rat) => return rules.elephant_captures_rat,
        _ => {}
    }
    // Rule 1.
    att.animal().rank() >= def.animal().rank()
}

fn jump_allowed(rules: &Rules, animal: Animal, vertical: bool) -> bool {
    let rule = match animal {
        Animal::Lion => rules.lion_jump,
        Animal::Tiger => rules.tiger_jump,
        Animal::Leopard => rules.leopard_jump,
        _ => JumpRule::None,
    };
    match rule {
        JumpRule::None => false,
        JumpRule::Vertical => vertical,
        JumpRule::Horizontal => !vertical,
        JumpRule::Both => true,
    }
}

fn reference_moves(pos: &Position, rules: &Rules) -> Vec<String> {
    let us = pos.side_to_move();
    // A finished game has no moves.
    for (sq, p) in pos.pieces() {
        let (f, r) = (sq.file() as i32, sq.rank() as i32);
        if (f, r) == den_of(!p.side()) {
            return Vec::new();
        }
    }
    if pos.occupied(Side::South).is_empty() || pos.occupied(Side::North).is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (sq, piece) in pos.pieces().filter(|(_, p)| p.side() == us) {
        let from = (sq.file() as i32, sq.rank() as i32);
        for (df, dr) in [(0, 1), (0, -1), (-1, 0), (1, 0)] {
            let mut to = (from.0 + df, from.1 + dr);
            if !(0..7).contains(&to.0) || !(0..9).contains(&to.1) {
                continue;
            }
            if water(to.0, to.1) && piece.animal() != Animal::Rat {
                if !jump_allowed(rules, piece.animal(), df == 0) {
                    continue;
                }
                let mut blocked = false;
                while water(to.0, to.1) {
                    blocked |= at(pos, to.0, to.1).is_some();
                    to = (to.0 + df, to.1 + dr);
                }
                if blocked {
                    continue;
                }
            }
            if to == den_of(us) {
                continue;
            }
            match at(pos, to.0, to.1) {
                Some(p) if p.side() == us => continue,
                Some(p) if !can_capture(rules, piece, from, p, to) => continue,
                _ => {}
            }
            let to_sq = Square::from_coords(to.0 as u8, to.1 as u8).unwrap();
            out.push(format!("{sq}{to_sq}"));
        }
    }
    out.sort();
    out
}

fn jump_rule() -> impl Strategy<Value = JumpRule> {
    prop_oneof![
        Just(JumpRule::None),
        Just(JumpRule::Vertical),
        Just(JumpRule::Horizontal),
        Just(JumpRule::Both)
    ]
}

fn rules() -> impl Strategy<Value = Rules> {
    (
        any::<bool>(),
        jump_rule(),
        jump_rule(),
        jump_rule(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(ecr, lion, tiger, leopard, tcc, bank)| Rules {
            elephant_captures_rat: ecr,
            lion_jump: lion,
            tiger_jump: tiger,
            leopard_jump: leopard,
            trapped_can_capture: tcc,
            rat_capture_across_bank: bank,
            ..Rules::default()
        })
}

/// A random legal placement: each of the 16 animals is on the board with
/// some probability, on a random square it may stand on.
fn position() -> impl Strategy<Value = Position> {
    (
        proptest::collection::vec((any::<bool>(), 0u8..63), 16),
        any::<bool>(),
    )
        .prop_filter_map("a valid placement", |(slots, north_to_move)| {
            let mut board = [None::<char>; 63];
            for (i, (present, sq)) in slots.into_iter().enumerate() {
                let piece = Piece::new(Side::BOTH[i / 8], Animal::ALL[i % 8]);
                let square = Square::new(sq).unwrap();
                let (f, r) = (square.file() as i32, square.rank() as i32);
                let ok = present
                    && board[sq as usize].is_none()
                    && (!water(f, r) || piece.animal() == Animal::Rat)
                    && (f, r) != den_of(piece.side());
                if ok {
                    board[sq as usize] = Some(piece.letter());
                }
            }
            let mut ranks = Vec::new();
            for rank in (0..9).rev() {
                let mut text = String::new();
                let mut empty = 0;
                for file in 0..7 {
                    match board[rank * 7 + file] {
                        Some(c) => {
                            if empty > 0 {
                                text.push_str(&empty.to_string());
                                empty = 0;
                            }
                            text.push(c);
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
                ranks.push(text);
            }
            let side = if north_to_move { "b" } else { "w" };
            Position::from_fen(&format!("{} {side}", ranks.join("/"))).ok()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn engine_agrees_with_the_plain_reading_of_the_rules(pos in position(), rules in rules()) {
        let mut engine: Vec<String> = pos.legal_moves(&rules).iter().map(|m| m.to_string()).collect();
        engine.sort();
        prop_assert_eq!(engine, reference_moves(&pos, &rules), "{}", pos.to_fen());
    }
}

#[test]
fn reference_agrees_on_the_start_position() {
    let rules = Rules::default();
    assert_eq!(reference_moves(&Position::start(), &rules).len(), 24);
}
