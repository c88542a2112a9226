//! `jungle carry`: a stopped run's resume set copied to a root of its own,
//! to move the run to a machine that shares no store with this one.

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `jungle carry`.
#[derive(Args)]
pub struct CarryArgs {
    /// Run name: its files in ROOT/checkpoints/NAME and ROOT/data/NAME.
    #[arg(long, default_value = "main")]
    run: String,
    /// Root directory the run is in.
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// The folder to copy it to, a root of its own (TO/checkpoints/NAME,
    /// TO/data/NAME), which must not hold the run yet.
    #[arg(long)]
    to: PathBuf,
}

/// Runs `jungle carry`.
pub fn run(args: &CarryArgs) -> Result<()> {
    let carried = jungle_train::carry_run(&args.root, &args.run, &args.to)?;
    println!(
        "carried run `{}` at generation {} (step {}) to {}: {} files, {:.1} MB, the shards of {} generations",
        args.run,
        carried.generation,
        carried.step,
        args.to.display(),
        carried.files,
        carried.bytes as f64 / 1e6,
        carried.generations
    );
    println!(
        "resume it there with `jungle train --root {} --run {}` (or move its checkpoints/ and data/ into another root)",
        args.to.display(),
        args.run
    );
    Ok(())
}
