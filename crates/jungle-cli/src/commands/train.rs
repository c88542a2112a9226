//! `jungle train`: the main job; `jungle elo`: refit and redraw a run's Elo.

use anyhow::{anyhow, Result};
use clap::Args;
use jungle_train::config::TrainConfig;
use jungle_train::elo::Rating;
use jungle_train::run::{read_state, report, Run, RunPaths};
use std::path::PathBuf;

/// Arguments of `jungle train`.
#[derive(Args)]
pub struct TrainArgs {
    /// Training config (toml); default: the embedded configs/default.toml.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Run name: shards in ROOT/data/NAME, checkpoints in ROOT/checkpoints/NAME.
    #[arg(long, default_value = "main")]
    run: String,
    /// Root directory of data/ and checkpoints/.
    #[arg(long, default_value = ".")]
    root: PathBuf,
}

/// Arguments of `jungle elo`.
#[derive(Args)]
pub struct EloArgs {
    /// Run name.
    #[arg(long, default_value = "main")]
    run: String,
    /// Root directory of data/ and checkpoints/.
    #[arg(long, default_value = ".")]
    root: PathBuf,
}

/// Prints the Elo table.
fn print_table(ratings: &[Rating]) {
    println!("{:<16} {:>7} {:>8} {:>6}", "player", "games", "Elo", "+-");
    for r in ratings {
        println!(
            "{:<16} {:>7} {:>+8.0} {:>6.0}",
            r.player,
            r.games,
            r.elo,
            1.96 * r.stderr
        );
    }
}

/// Runs `jungle train`.
pub fn run(args: &TrainArgs) -> Result<()> {
    let config = match &args.config {
        Some(path) => TrainConfig::from_file(path).map_err(|e| anyhow!(e))?,
        None => TrainConfig::default_config(),
    };
    let mut run = Run::open(&args.root, &args.run, config, false).map_err(|e| anyhow!(e))?;
    let state = run.state();
    if state.generation > 0 {
        println!(
            "resuming run `{}` after generation {} (step {}, {} games, {:.1} min)",
            args.run,
            state.generation,
            state.step,
            state.games,
            state.seconds / 60.0
        );
    }
    let ratings = run.run().map_err(|e| anyhow!(e))?;
    let state = run.state();
    println!();
    println!(
        "run `{}`: {} generations, {} games, {} samples trained, {:.1} min",
        args.run,
        state.generation,
        state.games,
        state.samples_seen,
        state.seconds / 60.0
    );
    print_table(&ratings);
    println!("plots and elo.csv in {}", run.paths().checkpoints.display());
    Ok(())
}

/// Runs `jungle elo`.
pub fn run_elo(args: &EloArgs) -> Result<()> {
    let paths = RunPaths::new(&args.root, &args.run);
    let state = read_state(&paths).map_err(|e| anyhow!("run `{}`: {e}", args.run))?;
    let ratings = report(&paths, &state).map_err(|e| anyhow!(e))?;
    if ratings.is_empty() {
        println!("no evaluation games yet in {}", paths.matches().display());
        return Ok(());
    }
    print_table(&ratings);
    println!(
        "wrote elo.csv and the plots in {}",
        paths.checkpoints.display()
    );
    Ok(())
}
