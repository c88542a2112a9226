//! `jungle`: the command line of jungle-zero, one subcommand per job.

mod commands;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Train Jungle (Dou Shou Qi) agents from scratch by self-play.
#[derive(Parser)]
#[command(name = "jungle", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences of a given length (move-generator check and speed).
    Perft(commands::perft::PerftArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => commands::perft::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
