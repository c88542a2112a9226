//! `jungle suite`: makes a labelled position suite: games between pairs
//! of players of different strengths, positions drawn from them by phase,
//! each labelled by deep alpha-beta and the forced-win solver. The
//! standard suite (suites/standard.jsonl, built into the binary) is this
//! command with its defaults, run from the repository's root
//! (docs/probe.md gives its cost).

use crate::commands::shared::{load_rules, parse_player};
use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use jungle_net::Compute;
use jungle_probe::draw::{draw_positions, DrawSettings, Pairing};
use jungle_probe::label::LabellerSettings;
use jungle_probe::suite::{Suite, SUITE_MAGIC};
use jungle_probe::{LabelledPosition, Labeller, Phase, SuiteHeader};
use rayon::prelude::*;
use std::path::PathBuf;

/// The standard suite's pairings, weakest first: random and greedy play,
/// alpha-beta at several depths, and the shipped network at two budgets.
pub const DEFAULT_PAIRINGS: [&str; 6] = [
    "random,greedy",
    "greedy,alphabeta:2",
    "alphabeta:2,alphabeta:4",
    "alphabeta:3,alphabeta:5",
    "net:networks/default/checkpoint:16,alphabeta:3",
    "net:networks/default/checkpoint:64,alphabeta:4",
];

/// Arguments of `jungle suite`.
#[derive(Args)]
pub struct SuiteArgs {
    /// Where to write the suite (JSON Lines).
    #[arg(long)]
    out: PathBuf,
    /// A pairing whose games positions are drawn from: two player specs,
    /// `A,B` (repeatable; default: the standard suite's six).
    #[arg(long = "pairing", value_name = "A,B")]
    pairings: Vec<String>,
    /// Games each pairing plays.
    #[arg(long, default_value_t = 400)]
    games: u32,
    /// Positions of each phase (opening, middle, ending).
    #[arg(long, default_value_t = 2000)]
    per_phase: usize,
    /// Positions of each phase taken from one game at most.
    #[arg(long, default_value_t = 3)]
    per_game: usize,
    /// Alpha-beta's depth for the labels.
    #[arg(long, default_value_t = LabellerSettings::default().depth)]
    depth: u32,
    /// Moves within this many points of the best are good ones.
    #[arg(long, default_value_t = LabellerSettings::default().margin)]
    margin: i32,
    /// The solver looks for forced wins within this many own moves.
    #[arg(long, default_value_t = LabellerSettings::default().solver_moves)]
    solver_moves: u32,
    /// Seed of the games and of the draw.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

fn bar(len: usize, what: &str) -> ProgressBar {
    ProgressBar::new(len as u64).with_style(
        ProgressStyle::with_template(&format!(
            "{what} {{bar:30}} {{pos}}/{{len}} [{{elapsed}} < {{eta}}]"
        ))
        .expect("valid template"),
    )
}

/// Runs `jungle suite`.
pub fn run(args: &SuiteArgs) -> Result<()> {
    if !(1..=12).contains(&args.depth) {
        anyhow::bail!("--depth: {}, expected 1 to 12 plies", args.depth);
    }
    if !(1..=6).contains(&args.solver_moves) {
        anyhow::bail!("--solver-moves: {}, expected 1 to 6", args.solver_moves);
    }
    for (flag, value) in [
        ("--games", args.games as usize),
        ("--per-phase", args.per_phase),
        ("--per-game", args.per_game),
    ] {
        if !(1..=1_000_000).contains(&value) {
            anyhow::bail!("{flag}: {value}, expected 1 to 1000000");
        }
    }
    if !(0..=100_000).contains(&args.margin) {
        anyhow::bail!("--margin: {}, expected 0 to 100000 points", args.margin);
    }
    let rules = load_rules("standard")?;
    let compute = Compute::cpu();
    let texts: Vec<String> = if args.pairings.is_empty() {
        DEFAULT_PAIRINGS.iter().map(|s| s.to_string()).collect()
    } else {
        args.pairings.clone()
    };
    let mut pairings: Vec<Pairing> = Vec::new();
    for text in &texts {
        let (a, b) = text
            .split_once(',')
            .with_context(|| format!("--pairing `{text}`: expected two player specs, `A,B`"))?;
        let load = |spec: &str| {
            parse_player(spec, &compute).with_context(|| format!("--pairing `{text}`"))
        };
        pairings.push((load(a)?, load(b)?));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("starting the worker threads")?;
    let settings = DrawSettings {
        games_per_pairing: args.games,
        per_game: args.per_game,
        opening_plies: 4,
        max_plies: 400,
        per_phase: args.per_phase,
        seed: args.seed,
    };
    let started = std::time::Instant::now();
    let games = bar(texts.len() * args.games as usize, "games");
    let drawn = pool.install(|| draw_positions(&pairings, &rules, &settings, &|| games.inc(1)));
    games.finish_and_clear();
    let games_seconds = started.elapsed().as_secs_f64();
    let labeller = Labeller::new(
        LabellerSettings {
            depth: args.depth,
            margin: args.margin,
            solver_moves: args.solver_moves,
            ..LabellerSettings::default()
        },
        rules.clone(),
    );
    let labels = bar(drawn.len(), "labels");
    let positions: Vec<LabelledPosition> = pool.install(|| {
        drawn
            .par_iter()
            .map(|d| {
                let label = labeller.label(&d.position);
                labels.inc(1);
                label.to_position(&d.position, d.ply, d.phase, &d.source)
            })
            .collect()
    });
    labels.finish_and_clear();
    let header = SuiteHeader {
        suite: SUITE_MAGIC.to_string(),
        rules: "standard".to_string(),
        positions: positions.len(),
        labeller: labeller.settings().clone(),
        pairings: texts.iter().map(|t| t.replace(',', " vs ")).collect(),
        command: std::iter::once("jungle".to_string())
            .chain(std::env::args().skip(1))
            .collect::<Vec<_>>()
            .join(" "),
    };
    let text = Suite::to_text(&header, &positions);
    jungle_files::write_atomically(&args.out, text.as_bytes())
        .with_context(|| format!("writing {}", args.out.display()))?;
    let total = started.elapsed().as_secs_f64();
    println!(
        "wrote {}: {} positions ({:.1} MB); games {:.0} s, labels {:.0} s, {:.1} min in all",
        args.out.display(),
        positions.len(),
        text.len() as f64 / 1e6,
        games_seconds,
        total - games_seconds,
        total / 60.0
    );
    for phase in Phase::ALL {
        let of: Vec<&LabelledPosition> = positions.iter().filter(|p| p.phase == phase).collect();
        let forced = of.iter().filter(|p| p.forced_win.is_some()).count();
        let matters = of.iter().filter(|p| p.move_matters()).count();
        println!(
            "  {:<8} {:>5} positions, the move matters in {:>5}, forced wins {:>4}",
            phase.name(),
            of.len(),
            matters,
            forced
        );
    }
    Ok(())
}
