//! # jungle-rules
//!
//! The rules of Jungle (Dou Shou Qi) as written in docs/RULES.md:
//! the board as bitboards, every variant switch ([`Rules`]), exact legal move
//! generation, make/unmake with an incremental Zobrist hash, the game with its
//! end-of-game and draw rules ([`Game`]), FEN and move text, left-right
//! mirroring and the point-of-view flip, and `perft`.
//!
//! ```
//! use jungle_rules::{Game, Rules};
//! let mut game = Game::new(Rules::default());
//! let mv = game.position().parse_move("a3a4", game.rules()).unwrap();
//! game.play(mv).unwrap();
//! assert_eq!(game.position().to_fen(), "l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1");
//! ```

#![warn(missing_docs)]

mod bitboard;
mod fen;
mod game;
mod history;
mod invalid_key;
mod movegen;
mod moves;
mod outcome;
mod perft;
mod piece;
mod position;
mod rule_set;
mod rules;
mod square;
mod symmetry;
mod terrain;
mod zobrist;

pub use bitboard::{Bitboard, BitboardIter};
pub use fen::FenError;
pub use game::{EndReason, Game, GameError, Outcome};
pub use history::{end_of_game, legal_moves_in_history, repetitions};
pub use invalid_key::InvalidKey;
pub use moves::{moves_text, Move, MoveList, MoveParseError, MAX_MOVES};
pub use perft::{perft, perft_bulk, perft_divide};
pub use piece::{Animal, Piece, Side};
pub use position::{Position, Undo, START_FEN};
pub use rule_set::{
    rules_name, MixtureError, RuleMixture, RuleSet, WeightedRuleSet, OWN_RULES_NAME,
};
pub use rules::{JumpRule, NoMoveOutcome, RepetitionOutcome, Rules, RulesError, PRESETS};
pub use square::{Square, FILES, NUM_SQUARES, RANKS};
pub use terrain::{den, step, traps, Direction, Jump, DEN, JUMPS, LAND, STEPS, TRAPS, WATER};
