//! `jungle engine`: the JCEI engine on stdin/stdout.

use anyhow::Result;
use clap::Args;

/// Arguments of `jungle engine` (none: everything is set with `setoption`).
#[derive(Args)]
pub struct EngineArgs {}

/// Runs `jungle engine` until `quit` or the end of input.
pub fn run(_args: &EngineArgs) -> Result<()> {
    let stdin = std::io::BufReader::new(std::io::stdin());
    jungle_engine::engine::run_engine(stdin, std::io::stdout().lock())?;
    Ok(())
}
