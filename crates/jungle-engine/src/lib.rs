//! # jungle-engine
//!
//! `jungle engine`: the workspace as a process that GUIs talk to.
//!
//! - [`protocol`]: JCEI, the UCI-like text protocol of the jungine engine
//!   (`jcei`, `isready`, `position`, `go`, `stop`, `quit`, `d`, `perft`,
//!   `setoption`), parsed into [`protocol::Command`]s;
//! - [`engine`]: the engine, which answers JCEI on stdin/stdout with
//!   alpha-beta search or, once a network is set, the network's search.
//!
//! The other direction, any JCEI engine as a player (`jcei:` specs), is in
//! `jungle-play` with every other player.

#![warn(missing_docs)]

pub mod engine;
pub mod protocol;
