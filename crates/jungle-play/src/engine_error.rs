//! What goes wrong with an external engine (a `jcei:` player): the error
//! the client returns and a player's [`crate::PlayerError`] carries, in a
//! file of its own so that the player trait does not depend on the client.

use std::path::PathBuf;
use std::time::Duration;

/// What went wrong with an external engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The process could not be started.
    #[error("cannot start engine `{command}`: {source}")]
    Start {
        /// The command line.
        command: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The rule-set file for the engine could not be written.
    #[error("{}: {source}", path.display())]
    RulesFile {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The engine closed its input or output.
    #[error("the engine exited{}", before.map(|w| format!(" before `{w}`")).unwrap_or_default())]
    Exited {
        /// The answer that was awaited, if any.
        before: Option<&'static str>,
    },
    /// The engine did not answer in time.
    #[error("no `{word}` within {} ms", timeout.as_millis())]
    Timeout {
        /// The answer awaited.
        word: &'static str,
        /// How long it was awaited.
        timeout: Duration,
    },
    /// The engine answered a command with an error.
    #[error("the engine refused `{command}`: {answer}")]
    Refused {
        /// The command sent.
        command: String,
        /// Its answer.
        answer: String,
    },
    /// The engine's clock ran out.
    #[error("lost on time: the move took {spent_ms} ms with {left_ms} ms on the clock")]
    FlagFall {
        /// How long the move took (or was waited for).
        spent_ms: u64,
        /// The time that was left.
        left_ms: u64,
    },
    /// The engine sent a line longer than [`crate::jcei::MAX_ENGINE_LINE`] bytes (or
    /// bytes without a line end).
    #[error("the engine sent a line of more than {limit} bytes")]
    LineTooLong {
        /// The bound.
        limit: usize,
    },
    /// The engine named a move that is not legal.
    #[error("illegal move `{mv}` in {fen}")]
    IllegalMove {
        /// The move text given.
        mv: String,
        /// The position.
        fen: String,
    },
}
