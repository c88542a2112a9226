//! The player trait: something that picks moves, and what it says about its
//! choice; the factories that build a fresh player per game, and what a
//! searching player is made of. Every player is deterministic for its seed.

use jungle_mcts::{Evaluator, SearchConfig};
use jungle_rules::{Game, Move, RuleMixture, Rules};

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

/// Builds fresh players, one per game and seat, so games can run in parallel.
pub trait PlayerFactory: Send + Sync {
    /// The spec text, e.g. `alphabeta:3`.
    fn name(&self) -> String;

    /// A new player for one game under `rules`, deterministic for `seed`.
    fn build(&self, rules: &Rules, seed: u64) -> Box<dyn Player>;

    /// For a player that searches (`net:`, `mcts:`), its search's settings
    /// and evaluators, so a caller can drive many searches itself with
    /// one evaluator between them (the analysis server batches the leaves
    /// of every query in flight); `None` for the others.
    fn search_parts(&self) -> Option<&dyn SearchParts> {
        None
    }

    /// For a player that learned (`net:`), the rule sets its network was
    /// trained under; `None` for players that play every rule set alike.
    fn training(&self) -> Option<&RuleMixture> {
        None
    }
}

/// What a searching player is made of.
pub trait SearchParts: Send + Sync {
    /// Its search's settings (simulations and options from its spec).
    fn search_config(&self) -> &SearchConfig;

    /// A new evaluator (with its value terms and cache for a network); it
    /// judges each position under its own game's rules.
    fn evaluator(&self) -> Box<dyn Evaluator + Send>;
}

/// Why a player gave a game up.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    /// An external engine exited, stalled or answered an illegal move.
    #[error(transparent)]
    Engine(#[from] crate::engine_error::EngineError),
}

/// Moves in generation order; the helpers below draw from them.
pub(crate) fn legal(game: &Game) -> Vec<Move> {
    game.legal_moves().iter().copied().collect()
}
