//! # jungle-play
//!
//! Everything that plays whole games between players, above the search and
//! the network:
//!
//! - one typed [`PlayerSpec`] for every player a command takes (`random`,
//!   `greedy`, `alphabeta:DEPTH`, `mcts:SIMS`, `net:CHECKPOINT`,
//!   `jcei:COMMAND`; [`PLAYER_FORMS`]), parsed from and printed to text,
//!   and the [`PlayerFactory`] each loads into;
//! - the players behind the [`Player`] trait: the baselines that anchor the
//!   Elo scale, [`SearchPlayer`] (the search with any evaluator, the
//!   network's included) and external JCEI engines ([`jcei`]), which
//!   forfeit a game when they crash, stall or answer an illegal move;
//! - analysis of positions as a service ([`analysis`]), many queries
//!   sharing the network's batches;
//! - matches between two players ([`arena`]) from shared random openings
//!   ([`opening`]), their statistics ([`stats`]) and Elo fitted over many
//!   matches ([`elo`]).

#![warn(missing_docs)]

pub mod adjudication;
mod alphabeta;
pub mod analysis;
pub mod arena;
pub mod elo;
mod engine_error;
pub mod game_record;
mod greedy;
pub mod jcei;
pub mod jcei_protocol;
pub mod line_reader;
mod load;
mod net_player;
pub mod opening;
mod player;
mod playing_net;
mod random;
mod search_player;
pub mod shipped;
mod spec;
pub mod sprt;
pub mod stats;
pub mod tournament;

pub use alphabeta::{AlphaBeta, RootAnalysis};
pub use greedy::Greedy;
pub use jungle_encoding::Wdl;
pub use load::{load_player, load_player_on};
pub use net_player::NetPlayers;
pub use player::{Decision, Player, PlayerError, PlayerFactory, SearchParts};
pub use playing_net::PlayingNet;
pub use random::RandomPlayer;
pub use search_player::SearchPlayer;
pub use spec::{NetSpec, PlayerSpec, SearchSpec, SpecError, PLAYER_EVAL_CACHE, PLAYER_FORMS};
