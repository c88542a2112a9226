//! The hand-written evaluation behind `alphabeta:DEPTH` and `mcts:SIMS`:
//! material, distance to the enemy den, den threats and trap safety, in
//! points from the side to move's point of view (a rat is about 300).

use jungle_rules::{Animal, Position, Side, Square, DEN, STEPS, TRAPS, WATER};

/// Material value of each animal, rat first.
pub const MATERIAL: [i32; 8] = [350, 200, 300, 350, 500, 800, 900, 1000];

/// Points per step closer to the enemy den, by animal.
const ADVANCE: [i32; 8] = [6, 4, 5, 5, 7, 10, 10, 8];

/// Bonus for an animal next to the enemy den that no enemy can take.
const DEN_THREAT: i32 = 400;

/// Manhattan distance between two squares.
#[inline]
fn distance(a: Square, b: Square) -> i32 {
    (a.file() as i32 - b.file() as i32).abs() + (a.rank() as i32 - b.rank() as i32).abs()
}

/// The score of `side`'s animals alone.
fn side_score(pos: &Position, side: Side) -> i32 {
    let enemy = pos.occupied(!side);
    let enemy_den = DEN[(!side).index()].first().expect("one den");
    let enemy_traps = TRAPS[(!side).index()];
    let mut score = 0;
    for sq in pos.occupied(side) {
        let animal = pos.piece_at(sq).expect("occupied").animal();
        let a = animal.index();
        score += MATERIAL[a];
        let d = distance(sq, enemy_den);
        score += ADVANCE[a] * (16 - d);
        let attacked = !(STEPS[sq.index()] & enemy).is_empty();
        if enemy_traps.has(sq) {
            // Next to the den (every square next to a den is a trap): a
            // threat to enter, unless an enemy next to it takes it first.
            if attacked {
                score -= MATERIAL[a] / 2;
            } else {
                score += DEN_THREAT;
            }
        } else if d == 2 && !attacked {
            score += DEN_THREAT / 8;
        }
        if animal == Animal::Rat && WATER.has(sq) {
            score += 20;
        }
    }
    score
}

/// The evaluation in points from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    side_score(pos, us) - side_score(pos, !us)
}

/// Squashes points to a value in (-1, 1).
#[inline]
pub fn to_value(points: i32) -> f32 {
    (points as f32 / 600.0).tanh()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Position::start()), 0);
    }

    #[test]
    fn material_counts() {
        let up_an_elephant =
            Position::from_fen("l5t/1d3c1/r1p1w2/7/7/7/E1W1P1R/1C3D1/T5L w").unwrap();
        assert!(evaluate(&up_an_elephant) > 800);
        let mut flipped = up_an_elephant;
        flipped.set_side_to_move(Side::North);
        assert_eq!(evaluate(&flipped), -evaluate(&up_an_elephant));
    }

    #[test]
    fn an_unanswered_den_threat_scores_high() {
        let threat = Position::from_fen("2C4/7/7/7/7/7/7/7/l6 w").unwrap();
        let far = Position::from_fen("7/7/7/7/3C3/7/7/7/l6 w").unwrap();
        assert!(evaluate(&threat) > evaluate(&far) + DEN_THREAT / 2);
    }
}
