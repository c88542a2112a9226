//! The end-of-game rules that need the game's history (repetition, and the
//! `forbidden` repetition outcome), as free functions over a slice of
//! position hashes, so that [`crate::Game`] and a search walking its own
//! path share one implementation.

use crate::moves::MoveList;
use crate::outcome::{EndReason, Outcome};
use crate::position::Position;
use crate::rules::{NoMoveOutcome, RepetitionOutcome, Rules};
use crate::terrain::DEN;

/// How many times a position occurs, counting itself: `earlier` holds the
/// hashes of every position before it, oldest first. Only the positions
/// since the last capture (`quiet_plies` back) can be equal to it.
#[inline]
pub fn repetitions(earlier: &[u64], hash: u64, quiet_plies: u32) -> u32 {
    let start = earlier.len().saturating_sub(quiet_plies as usize);
    earlier[start..].iter().filter(|&&h| h == hash).count() as u32 + 1
}

/// The legal moves of `pos` given its history: `history` holds the hashes of
/// every position of the game up to and including `pos`. Under
/// `repetition_outcome = forbidden`, moves that would make a position occur
/// for the `repetition`-th time are left out.
pub fn legal_moves_in_history(pos: &Position, rules: &Rules, history: &[u64]) -> MoveList {
    let mut moves = pos.legal_moves(rules);
    if rules.repetition > 0 && rules.repetition_outcome == RepetitionOutcome::Forbidden {
        moves.retain(|mv| {
            let next = pos.play(mv);
            next.quiet_plies() == 0
                || repetitions(history, next.hash(), next.quiet_plies()) < rules.repetition
        });
    }
    moves
}

/// The end-of-game rules of docs/RULES.md, checked in their order (den,
/// annihilation, no move, repetition, quiet-move limit) for `pos`, given
/// whether the side to move has a legal move (after the `forbidden` filter)
/// and how many times `pos` has occurred.
pub fn end_of_game(
    pos: &Position,
    rules: &Rules,
    has_legal_move: bool,
    repetitions: u32,
) -> Option<Outcome> {
    let to_move = pos.side_to_move();
    if let Some(winner) = pos.winner() {
        let in_den = !(pos.occupied(winner) & DEN[(!winner).index()]).is_empty();
        let reason = if in_den {
            EndReason::Den
        } else {
            EndReason::Annihilation
        };
        return Some(Outcome {
            winner: Some(winner),
            reason,
        });
    }
    if !has_legal_move {
        let winner = match rules.no_move {
            NoMoveOutcome::Loss => Some(!to_move),
            NoMoveOutcome::Draw => None,
        };
        return Some(Outcome {
            winner,
            reason: EndReason::NoMove,
        });
    }
    if rules.repetition > 0 && repetitions >= rules.repetition {
        let winner = match rules.repetition_outcome {
            RepetitionOutcome::Draw => None,
            // The side that just moved completed the repetition: it loses.
            RepetitionOutcome::MoverLoses => Some(to_move),
            // Such moves are never played; a start position cannot repeat.
            RepetitionOutcome::Forbidden => return None,
        };
        return Some(Outcome {
            winner,
            reason: EndReason::Repetition,
        });
    }
    if rules.quiet_plies_limit > 0 && pos.quiet_plies() >= rules.quiet_plies_limit {
        return Some(Outcome {
            winner: None,
            reason: EndReason::QuietLimit,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetitions_look_back_only_to_the_last_capture() {
        let earlier = [7, 1, 7, 2, 7];
        assert_eq!(repetitions(&earlier, 7, 10), 4);
        assert_eq!(repetitions(&earlier, 7, 2), 2);
        assert_eq!(repetitions(&earlier, 7, 0), 1);
        assert_eq!(repetitions(&earlier, 9, 10), 1);
    }
}
