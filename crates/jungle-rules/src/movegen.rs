//! Legal move generation for every rule and switch of docs/RULES.md.
//!
//! In Jungle every pseudo-legal move is legal (there is no check), so the
//! generator is exact. The one history-dependent rule,
//! `repetition_outcome = forbidden`, is applied by [`crate::Game`].

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::piece::Animal;
use crate::position::Position;
use crate::rules::Rules;
use crate::terrain::{DEN, JUMPS, JUMP_ORIGINS, LAND, STEPS, TRAPS, WATER};

const RAT: usize = Animal::Rat as usize;
const ELEPHANT: usize = Animal::Elephant as usize;
const LEOPARD: usize = Animal::Leopard as usize;
const LION: usize = Animal::Lion as usize;

impl Position {
    /// All legal moves of the side to move under `rules`, ignoring the draw
    /// rules (they need the game history). Empty when the position has a
    /// winner (den entered, a side annihilated).
    pub fn legal_moves(&self, rules: &Rules) -> MoveList {
        let mut list = MoveList::new();
        if self.winner().is_some() {
            return list;
        }
        let us = self.side_to_move();
        let them = !us;
        let own = self.occupied(us);
        let enemy = self.occupied(them);
        let all = own | enemy;

        // Enemy animals by kind, then "rank at most r" masks for the rank rule.
        let by_kind = self.animal_squares(them);
        let mut at_most = by_kind;
        for a in 1..8 {
            at_most[a] |= at_most[a - 1];
        }
        // Enemies on our traps have rank 0: anything may take them.
        let trapped_enemies = enemy & TRAPS[us.index()];
        let their_traps = TRAPS[them.index()];
        let land_targets = LAND & !own & !DEN[us.index()];
        let swim_targets = !own & !DEN[us.index()];

        let jump_dirs = [
            rules.leopard_jump.direction_mask(),
            rules.tiger_jump.direction_mask(),
            rules.lion_jump.direction_mask(),
        ];

        for from in own {
            let a = self.animal_index_at(from);
            let mut capturable = match a {
                RAT => at_most[RAT] | by_kind[ELEPHANT],
                ELEPHANT if !rules.elephant_captures_rat => at_most[ELEPHANT] & !by_kind[RAT],
                _ => at_most[a],
            } | trapped_enemies;
            if !rules.trapped_can_capture && their_traps.has(from) {
                capturable = Bitboard::EMPTY;
            }
            let targets = if a == RAT {
                if !rules.rat_capture_across_bank {
                    capturable &= if WATER.has(from) { WATER } else { LAND };
                }
                swim_targets & (!enemy | capturable)
            } else {
                land_targets & (!enemy | capturable)
            };
            for to in STEPS[from.index()] & targets {
                list.push(Move::new(from, to));
            }
            if (LEOPARD..=LION).contains(&a) && JUMP_ORIGINS.has(from) {
                let dirs = jump_dirs[a - LEOPARD];
                for (d, jump) in JUMPS[from.index()].iter().enumerate() {
                    if let Some(j) = jump {
                        if dirs & (1 << d) != 0 && (j.over & all).is_empty() && targets.has(j.to) {
                            list.push(Move::new(from, j.to));
                        }
                    }
                }
            }
        }
        list
    }
}
