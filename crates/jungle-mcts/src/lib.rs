//! # jungle-mcts
//!
//! The search of jungle-zero, knowing nothing of networks: batched PUCT and
//! Gumbel root search over an [`Evaluator`] that judges *batches* of
//! positions, with the hand-written evaluation, the quiescence term, the
//! evaluation cache and the exact tactical checks it can use. Players, the
//! match arena and Elo are in `jungle-play`.
//!
//! ```
//! use jungle_mcts::{search, HeuristicEvaluator, Search, SearchConfig};
//! use jungle_rules::{Game, Rules};
//! let game = Game::new(Rules::default());
//! let config = SearchConfig { simulations: 64, ..SearchConfig::default() };
//! let mut tree = Search::new(Rules::default(), config, 7);
//! let result = search(&mut tree, &game, &mut HeuristicEvaluator);
//! assert_eq!(result.visits.iter().sum::<u32>(), 64);
//! ```

#![warn(missing_docs)]

pub mod cache;
mod config;
mod evaluator;
pub mod forced;
mod gumbel;
pub mod heuristic;
mod parallel;
pub mod profile;
pub mod quiescence;
mod search;
pub mod tactics;
mod tree;

pub use cache::{CacheCounters, CachedEvaluator};
pub use config::{
    check_simulations, RootSelection, SearchConfig, SearchKeyError, MAX_SIMULATIONS,
    PLAYER_SIMULATIONS, PLAY_SAFETY_MOVES,
};
pub use evaluator::{
    wdl_of, EvalInput, Evaluation, Evaluator, HeuristicEvaluator, UniformEvaluator,
};
pub use gumbel::{considered_visit_sequence, softmax};
pub use parallel::ParallelEvaluator;
pub use quiescence::{shift_value, WithQuiescence};
pub use search::{run_batched, run_round, search, RootLine, Search, SearchResult};
pub use tactics::{forced_loss, winning_move, wins_in_two};
