//! The player trait: something that picks moves, and what it says about its
//! choice. Every player is deterministic for its seed.

use jungle_rules::{Game, Move};

/// A player's choice and what it thought of the position.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The move to play.
    pub mv: Move,
    /// Its value of the position for the side to move, in [-1, 1], if it has one.
    pub value: Option<f32>,
    /// Its distribution over the legal moves, if it searches one.
    pub policy: Vec<(Move, f32)>,
    /// The line it expects.
    pub pv: Vec<Move>,
}

impl Decision {
    /// A bare choice with nothing else to say.
    pub fn just(mv: Move) -> Decision {
        Decision {
            mv,
            value: None,
            policy: Vec::new(),
            pv: vec![mv],
        }
    }
}

/// Something that picks moves.
pub trait Player: Send {
    /// A short name such as `alphabeta:3`.
    fn name(&self) -> String;

    /// Picks a move in a game that is not over.
    fn choose(&mut self, game: &Game) -> Decision;

    /// Picks a move, or gives the game up with the reason (an external
    /// engine that crashed, timed out or answered an illegal move). Matches
    /// call this; players that cannot fail keep the default.
    fn try_choose(&mut self, game: &Game) -> Result<Decision, PlayerError> {
        Ok(self.choose(game))
    }
}

/// Why a player gave a game up.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    /// An external engine exited, stalled or answered an illegal move.
    #[error(transparent)]
    Engine(#[from] crate::jcei::EngineError),
}

/// Moves in generation order; the helpers below draw from them.
pub(crate) fn legal(game: &Game) -> Vec<Move> {
    game.legal_moves().iter().copied().collect()
}
