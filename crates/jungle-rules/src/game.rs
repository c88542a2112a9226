//! A game: the rule set, the start position, the moves played and every
//! position since, with the end-of-game rules of docs/RULES.md (den,
//! annihilation, no move, repetition, quiet-move limit) checked after every
//! move, in that order.

use crate::fen::FenError;
use crate::history::{end_of_game, legal_moves_in_history, repetitions};
use crate::moves::{Move, MoveList, MoveParseError};
pub use crate::outcome::{EndReason, Outcome};
use crate::position::Position;
use crate::rules::Rules;

/// Why a move could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game has already ended.
    #[error("the game is over ({outcome}); no more moves can be played")]
    GameOver {
        /// How it ended.
        outcome: Outcome,
    },
    /// The move is not legal here (including a repetition the rules forbid).
    #[error("move {mv} is not legal in {fen}; legal moves: {legal}")]
    IllegalMove {
        /// The move.
        mv: Move,
        /// The position.
        fen: String,
        /// The legal moves, space separated.
        legal: String,
    },
    /// The move text is malformed.
    #[error(transparent)]
    Parse(#[from] MoveParseError),
}

/// A game in progress or finished.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    /// Every position of the game; the first is the start, the last the current one.
    positions: Vec<Position>,
    /// The hash of each position in `positions`.
    hashes: Vec<u64>,
    moves: Vec<Move>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game from the rule set's start position.
    pub fn new(rules: Rules) -> Game {
        let start = rules.start_position();
        Game::from_position(rules, start)
    }

    /// A new game from `start`; if `start` already ends the game, the game is over.
    pub fn from_position(rules: Rules, start: Position) -> Game {
        let mut game = Game {
            rules,
            positions: vec![start],
            hashes: vec![start.hash()],
            moves: Vec::new(),
            outcome: None,
        };
        game.outcome = game.evaluate();
        game
    }

    /// A new game from a position string.
    pub fn from_fen(rules: Rules, fen: &str) -> Result<Game, FenError> {
        Ok(Game::from_position(rules, Position::from_fen(fen)?))
    }

    /// The rule set.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a start position")
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position so far, the start first and the current one last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The legal moves now: none once the game is over; under
    /// `repetition_outcome = forbidden`, without the moves that would
    /// complete the repetition.
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome.is_some() {
            return MoveList::new();
        }
        self.moves_with_history()
    }

    /// Plays a legal move and returns the outcome if the move ended the game.
    pub fn play(&mut self, mv: Move) -> Result<Option<Outcome>, GameError> {
        if let Some(outcome) = self.outcome {
            return Err(GameError::GameOver { outcome });
        }
        let legal = self.moves_with_history();
        if !legal.contains(mv) {
            return Err(GameError::IllegalMove {
                mv,
                fen: self.position().to_fen(),
                legal: legal
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            });
        }
        let next = self.position().play(mv);
        self.positions.push(next);
        self.hashes.push(next.hash());
        self.moves.push(mv);
        self.outcome = self.evaluate();
        Ok(self.outcome)
    }

    /// Parses move text and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Option<Outcome>, GameError> {
        self.play(Move::parse(text)?)
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.hashes.pop();
        self.outcome = self.evaluate();
        Some(mv)
    }

    /// The hashes of every position so far, the start first.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// How many times the current position (animals and side to move) has
    /// occurred in this game, counting the current occurrence.
    pub fn repetition_count(&self) -> u32 {
        let (current, earlier) = self
            .hashes
            .split_last()
            .expect("a game has a start position");
        repetitions(earlier, *current, self.position().quiet_plies())
    }

    fn moves_with_history(&self) -> MoveList {
        legal_moves_in_history(self.position(), &self.rules, &self.hashes)
    }

    fn evaluate(&self) -> Option<Outcome> {
        let has_move = !self.moves_with_history().is_empty();
        end_of_game(
            self.position(),
            &self.rules,
            has_move,
            self.repetition_count(),
        )
    }
}
