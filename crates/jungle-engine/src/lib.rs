//! # jungle-engine
//!
//! The roads out of the workspace that run as processes:
//!
//! - [`protocol`]: JCEI, the UCI-like text protocol of the jungine engine
//!   (`jcei`, `isready`, `position`, `go`, `stop`, `quit`, `d`, `perft`,
//!   `setoption`), parsed into [`protocol::Command`]s;
//! - [`engine`]: `jungle engine`, which answers JCEI on stdin/stdout with
//!   alpha-beta search or, once a network is set, the network's search;
//! - [`client`]: any JCEI engine as a player (`jcei:COMMAND[:MOVETIME_MS]`),
//!   which forfeits a game when the engine crashes, stalls or answers an
//!   illegal move;
//! - [`spec`]: one parser for every player spec (baselines, `net:`, `jcei:`).

#![warn(missing_docs)]

pub mod client;
pub mod engine;
pub mod protocol;
pub mod spec;

pub use spec::{parse_player, PLAYER_FORMS};
