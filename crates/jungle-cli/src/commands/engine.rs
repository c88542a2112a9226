//! `jungle engine`: the JCEI engine on stdin/stdout.

use super::shared::DeviceArgs;
use anyhow::{Context, Result};
use clap::Args;
use jungle_engine::engine::{run_engine, Engine};

/// Arguments of `jungle engine` (everything else is set with `setoption`).
#[derive(Args)]
pub struct EngineArgs {
    #[arg(long, help = concat!(
        "The player the engine plays (default alphabeta:6; `setoption name Player` changes it): ",
        jungle_play::player_forms!()
    ))]
    player: Option<String>,
    /// Where the network runs.
    #[command(flatten)]
    device: DeviceArgs,
}

/// Runs `jungle engine` until `quit` or the end of input.
pub fn run(args: &EngineArgs) -> Result<()> {
    let mut engine = Engine::new().on(args.device.open()?);
    if let Some(spec) = &args.player {
        engine.set_player_spec(spec).context("--player")?;
    }
    let stdin = std::io::BufReader::new(std::io::stdin());
    run_engine(engine, stdin, std::io::stdout())?;
    Ok(())
}
