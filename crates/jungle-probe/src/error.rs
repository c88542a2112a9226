//! The errors of reading a suite: each names the file, the line and what
//! was expected.

use std::path::PathBuf;

/// A suite file that cannot be read or is damaged.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// The file could not be read.
    #[error("position suite `{path}`: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not what a suite holds.
    #[error("position suite `{path}`, line {line}: {problem}")]
    Line {
        /// The file.
        path: PathBuf,
        /// The line (1-based).
        line: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// The file holds a different number of positions than its header says
    /// (a file cut short or pasted together).
    #[error("position suite `{path}`: its header promises {promised} positions, the file holds {found} (a damaged or cut file)")]
    Count {
        /// The file.
        path: PathBuf,
        /// What the header says.
        promised: usize,
        /// What the file holds.
        found: usize,
    },
}
