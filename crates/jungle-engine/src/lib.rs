//! # jungle-engine
//!
//! `jungle engine`: the workspace as a process that GUIs talk to.
//!
//! - [`protocol`]: JCEI, the UCI-like text protocol of the jungine engine
//!   (`jcei`, `isready`, `position`, `go`, `stop`, `quit`, `d`, `perft`,
//!   `setoption`), parsed into [`protocol::Command`]s;
//! - [`engine`]: the engine, which answers JCEI on stdin/stdout with any
//!   player: alpha-beta, a network's search, any player spec;
//! - [`clock`]: the time manager (how long a `go` with clocks thinks);
//! - [`think`]: one `go`: its limits, the searches and their `info` lines.
//!
//! The other direction, any JCEI engine as a player (`jcei:` specs), is in
//! `jungle-play` with every other player.

#![warn(missing_docs)]

pub mod clock;
pub mod engine;
pub mod protocol;
pub mod think;
