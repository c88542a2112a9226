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
    /// The main job: self-play -> train -> evaluate, resumable; Elo curve and plots.
    Train(commands::train::TrainArgs),
    /// Refit a run's Elo from its matches.jsonl (elo.csv and the plots) and show its course by thirds: games, draws, repetitions, losses.
    Elo(commands::train::EloArgs),
    /// Self-play for a run published to a store (`train --store URL --selfplay external`): plays with its newest network, uploads the shards; any number at once.
    Worker(commands::worker::WorkerArgs),
    /// Copy a stopped run's resume set (state, records, current checkpoint, the replay window's shards) to another root, to resume it on a machine that shares no store.
    Carry(commands::carry::CarryArgs),
    /// Count move sequences of a given length (move-generator check and speed).
    Perft(commands::perft::PerftArgs),
    /// Play a match between two players; score, Elo difference, end reasons.
    Arena(commands::arena::ArenaArgs),
    /// Show a player's move, value, policy and principal variation for a position; `--multipv K` lines; `--server` for JSON queries on stdin.
    Analyze(commands::analyze::AnalyzeArgs),
    /// A round robin or gauntlet among players: matches.jsonl, Elo with intervals, crosstable; --sprt for two.
    Tournament(commands::tournament::TournamentArgs),
    /// Recorded games (arena --record, variants, matches.jsonl) as text to read and replay: tags, numbered moves, result, final board.
    Games(commands::games::GamesArgs),
    /// Speed: move generation, search and alpha-beta on one thread; `bench net`, `bench selfplay` and `bench store` for the network, self-play and a store's intake.
    Bench(commands::bench::BenchArgs),
    /// Network utilities: a fresh checkpoint (`net init`), an ONNX file (`net onnx`), an average of a run's checkpoints (`net average`).
    Net(commands::net::NetArgs),
    /// Play games with a network and write them as shards.
    Selfplay(commands::selfplay::SelfPlayArgs),
    /// Game shards: their counts and checks (`shards stats DIR`), their positions as NumPy arrays (`shards export DIR`).
    Shards(commands::selfplay::ShardsArgs),
    /// Export a checkpoint for other front ends: model.onnx, model.json, model.safetensors, testcases.json.
    Export(commands::export::ExportArgs),
    /// Run as a JCEI engine on stdin/stdout (the protocol of jungine; docs/guide/players.md).
    Engine(commands::engine::EngineArgs),
    /// Play against a player in the terminal (moves like a3a4; undo, hint).
    Play(commands::play::PlayArgs),
    /// Serve the browser page (web/dist, built by scripts/build_web.sh) on 127.0.0.1 to play the shipped network.
    Serve(commands::serve::ServeArgs),
    /// Compare rule variants: first-mover score, draws, game length, end reasons.
    Variants(commands::variants::VariantsArgs),
    /// Score checkpoints and players on the labelled position suite in minutes: policy, value and forced wins against deep alpha-beta's labels.
    Probe(commands::probe::ProbeArgs),
    /// The compute ladder's table and plot (docs/compute-ladder.csv, .png, .svg) remade from its runs' records.
    Ladder(commands::ladder::LadderArgs),
    /// Make a labelled position suite: games of several strengths, positions by phase, labels by deep alpha-beta and the forced-win solver.
    Suite(commands::suite::SuiteArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // A `JUNGLE_KERNELS` this processor cannot run is refused before any work.
    let result = jungle_net::KernelPath::from_env()
        .map_err(anyhow::Error::from)
        .and_then(|_| dispatch(cli.command));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {}", describe(&err));
            ExitCode::FAILURE
        }
    }
}

/// Runs one command.
fn dispatch(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Train(args) => commands::train::run(&args),
        Command::Elo(args) => commands::train::run_elo(&args),
        Command::Worker(args) => commands::worker::run(&args),
        Command::Carry(args) => commands::carry::run(&args),
        Command::Perft(args) => commands::perft::run(&args),
        Command::Arena(args) => commands::arena::run(&args),
        Command::Analyze(args) => commands::analyze::run(&args),
        Command::Tournament(args) => commands::tournament::run(&args),
        Command::Games(args) => commands::games::run(&args),
        Command::Bench(args) => commands::bench::run(&args),
        Command::Net(args) => commands::net::run(&args),
        Command::Selfplay(args) => commands::selfplay::run(&args),
        Command::Shards(args) => commands::selfplay::run_shards(&args),
        Command::Variants(args) => commands::variants::run(&args),
        Command::Export(args) => commands::export::run(&args),
        Command::Engine(args) => commands::engine::run(&args),
        Command::Play(args) => commands::play::run(&args),
        Command::Serve(args) => commands::serve::run(&args),
        Command::Probe(args) => commands::probe::run(&args),
        Command::Suite(args) => commands::suite::run(&args),
        Command::Ladder(args) => commands::ladder::run(&args),
    }
}

/// The error and its causes joined by `: `, leaving out a cause whose text
/// the message already holds (the library errors quote their causes).
fn describe(err: &anyhow::Error) -> String {
    let mut text = err.to_string();
    for cause in err.chain().skip(1) {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text = format!("{text}: {cause}");
        }
    }
    text
}
