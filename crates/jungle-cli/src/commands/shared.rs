//! Pieces several subcommands use: loading a rule set, a position, a
//! player, and `--device`.

use anyhow::{bail, Context, Result};
use clap::Args;
use jungle_net::{Compute, DeviceChoice};
use jungle_play::adjudication::Adjudication;
use jungle_play::arena::ArenaConfig;
use jungle_play::opening::read_openings;
use jungle_play::PlayerFactory;
use jungle_rules::{Position, Rules};
use std::path::PathBuf;

/// Loads `--variant` (a preset name or a toml path).
pub fn load_rules(variant: &str) -> Result<Rules> {
    Ok(Rules::load(variant)?)
}

/// The position given by `--fen`, or the rule set's start position.
pub fn load_position(fen: Option<&str>, rules: &Rules) -> Result<Position> {
    match fen {
        Some(text) => Position::from_fen(text).context("reading --fen"),
        None => Ok(rules.start_position()),
    }
}

/// Parses a player spec ([`jungle_play::PLAYER_FORMS`]) and loads it: a
/// `net:` checkpoint is read onto `compute`'s device, a `jcei:` engine
/// started once.
pub fn parse_player(spec: &str, compute: &Compute) -> Result<Box<dyn PlayerFactory>> {
    Ok(jungle_play::load_player_on(spec, compute)?)
}

/// `--device`: where a command's network runs.
#[derive(Args, Clone, Debug)]
pub struct DeviceArgs {
    /// Where the network runs: auto (a GPU when this binary was built with
    /// its backend and one answers, else the CPU), cpu, cuda or wgpu
    /// (docs/gpu.md).
    #[arg(long, default_value = "auto", value_name = "DEVICE")]
    pub device: DeviceChoice,
}

impl DeviceArgs {
    /// Opens the device; says which one on stderr when it is a GPU (the
    /// CPU is what every command used before there was a choice).
    pub fn open(&self) -> Result<Compute> {
        let compute = self.device.resolve()?;
        if compute.is_gpu() {
            eprintln!("device: {compute}");
        }
        Ok(compute)
    }
}

/// How a match's games are played (`arena`, `tournament`): the rule set,
/// the worker threads, the seed and the random openings.
#[derive(Args, Clone, Debug)]
pub struct MatchArgs {
    /// Rule set: a preset name or a toml file.
    #[arg(long, default_value = "standard")]
    pub variant: String,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed of openings and players.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Random plies from the start before the players take over.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// A file of openings to play instead of random ones: one a line, its
    /// moves from the start (`a3a4 g7g6`), `#` comments; each pair of games
    /// plays the next one with seats swapped.
    #[arg(long, conflicts_with = "opening_plies")]
    pub openings: Option<PathBuf>,
    /// End a game as a win for the side to move when the forced-win search
    /// proves one within MOVES of its own moves (off by default).
    #[arg(long, value_name = "MOVES")]
    pub adjudicate_solver: Option<u32>,
    /// End a game as a win for a side that has led by at least POINTS of
    /// material (a rat 350, a cat 200, an elephant 1000) for PLIES plies in
    /// a row, e.g. `1000:20` (off by default).
    #[arg(long, value_name = "POINTS:PLIES")]
    pub adjudicate_material: Option<String>,
}

impl MatchArgs {
    /// The worker threads.
    pub fn pool(&self) -> Result<rayon::ThreadPool> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.unwrap_or(0))
            .build()
            .context("starting the worker threads")
    }

    /// `games` games under `rules` with these openings and seed (the
    /// openings file, if any, read and checked under `rules`).
    pub fn arena_config(&self, rules: Rules, games: u32) -> Result<ArenaConfig> {
        let openings = match &self.openings {
            Some(path) => Some(std::sync::Arc::new(read_openings(path, &rules)?)),
            None => None,
        };
        let mut cfg = ArenaConfig::new(rules, games, self.seed);
        cfg.opening_plies = self.opening_plies;
        cfg.openings = openings;
        cfg.adjudication = self.adjudication()?;
        Ok(cfg)
    }

    /// `--adjudicate-solver` and `--adjudicate-material`.
    fn adjudication(&self) -> Result<Adjudication> {
        let mut rules = Adjudication {
            solver_moves: self.adjudicate_solver.unwrap_or(0),
            ..Adjudication::default()
        };
        if let Some(text) = &self.adjudicate_material {
            let parsed = text.split_once(':').and_then(|(points, plies)| {
                Some((points.parse::<i32>().ok()?, plies.parse::<u32>().ok()?))
            });
            match parsed {
                Some((points, plies)) if points > 0 && plies > 0 => {
                    rules.material_margin = points;
                    rules.material_plies = plies;
                }
                _ => bail!(
                    "--adjudicate-material {text}: expected POINTS:PLIES, two whole numbers above 0 (e.g. 1000:20)"
                ),
            }
        }
        Ok(rules)
    }
}
