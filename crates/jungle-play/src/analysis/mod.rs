//! Analysis as a service, after KataGo's JSON analysis engine: one JSON
//! query per line (id, position and moves, rule set, player,
//! simulations, multipv, moves to analyse), one JSON answer per line
//! (the value and win/draw/loss, the move to play, and per move: visits,
//! value, win/draw/loss, prior, policy, principal variation). Many
//! queries are searched at once, their leaves judged together
//! ([`server`]); a malformed query gets an error line with its id.

pub mod answer;
pub mod query;
pub mod server;

pub use answer::{Answer, Line};
pub use query::{Defaults, Query, MAX_CACHED_PLAYERS};
pub use server::{serve, Analyzer, Reply};
