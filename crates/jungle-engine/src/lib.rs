//! # jungle-engine
//!
//! `jungle engine`: the workspace as a process that GUIs talk to.
//!
//! - [`protocol`]: JCEI, the UCI-like text protocol of the jungine engine
//!   (`jcei`, `isready`, `position`, `go`, `stop`, `quit`, `d`, `perft`,
//!   `setoption`), parsed into [`protocol::Command`]s: the same types the
//!   `jcei:` player in `jungle-play` writes its commands with
//!   (`jungle_play::jcei_protocol`);
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
pub use jungle_play::jcei_protocol as protocol;
pub mod think;
