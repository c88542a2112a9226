//! `jungle analyze`: what a player makes of one position, the best K
//! moves' lines (`--multipv`), or a JSON analysis server on stdin/stdout
//! (`--server`).

use super::shared::{load_position, load_rules, parse_player, DeviceArgs};
use anyhow::{Context, Result};
use clap::Args;
use jungle_net::Compute;
use jungle_play::analysis::{Analyzer, Defaults, Query, Reply};
use jungle_rules::Game;
use serde::Serialize;
use std::collections::BTreeMap;

/// Arguments of `jungle analyze`.
#[derive(Args)]
pub struct AnalyzeArgs {
    #[arg(long, default_value = jungle_play::shipped::DEFAULT_PLAYER, help = concat!(
        "The player (with --server: of queries that name none); the default is the shipped \
         network (networks/default). ",
        jungle_play::player_forms!()
    ))]
    player: String,
    /// Position string (FEN); default: the rule set's start position.
    #[arg(long, alias = "position")]
    fen: Option<String>,
    /// Moves played from that position before the player looks, space
    /// separated (e.g. "a3a4 g7g6"); the history counts for repetitions.
    #[arg(long, default_value = "")]
    moves: String,
    /// Rule set: a preset name or a toml file.
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Seed of the player.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Lines for the K best moves of a searching player (visits, value,
    /// win/draw/loss, prior, policy, principal variation).
    #[arg(long, value_name = "K")]
    multipv: Option<usize>,
    /// Serve JSON queries, one per line on stdin, one answer per line on
    /// stdout (docs/guide/players.md).
    #[arg(long)]
    server: bool,
    /// With --server: queries in flight at once (1 to 1024), the searches'
    /// leaves sharing the network's batches, each player that does not
    /// search asked on a thread of its own.
    #[arg(long, default_value_t = 8)]
    max_in_flight: usize,
    /// With --server: threads that judge each round's batch (default:
    /// all cores; at most 256).
    #[arg(long)]
    threads: Option<usize>,
    /// With --server: let queries name `jcei:` players, programs the
    /// server starts (for local use only; refused by default).
    #[arg(long)]
    allow_programs: bool,
    /// Where `net:` players' networks run.
    #[command(flatten)]
    device: DeviceArgs,
}

#[derive(Serialize)]
struct Report {
    best: String,
    value: Option<f32>,
    policy: BTreeMap<String, f32>,
    pv: Vec<String>,
}

/// Runs `jungle analyze`.
pub fn run(args: &AnalyzeArgs) -> Result<()> {
    let compute = args.device.open()?;
    let rules = load_rules(&args.variant)?;
    if args.server {
        return serve(args, compute);
    }
    let position = load_position(args.fen.as_deref(), &rules)?;
    let player = &args.player;
    let factory = parse_player(player, &compute).context("--player")?;
    let mut game = Game::from_position(rules.clone(), position);
    for (i, text) in args.moves.split_whitespace().enumerate() {
        game.play_text(text)
            .with_context(|| format!("--moves: move {} `{text}`", i + 1))?;
    }
    if let Some(outcome) = game.outcome() {
        anyhow::bail!("the game is already over in this position ({outcome}); nothing to analyze");
    }
    if let Some(k) = args.multipv {
        return multipv(args, player, k, compute);
    }
    let decision = factory.build(&rules, args.seed).choose(&game);
    let report = Report {
        best: decision.mv.to_string(),
        value: decision.value,
        policy: decision
            .policy
            .iter()
            .map(|(m, p)| (m.to_string(), *p))
            .collect(),
        pv: decision.pv.iter().map(|m| m.to_string()).collect(),
    };
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    println!("{}", game.position());
    println!();
    println!("player  {player}");
    println!("best    {}", report.best);
    match report.value {
        Some(v) => println!("value   {v:+.3} (for the side to move, -1 loss .. +1 win)"),
        None => println!("value   (this player does not evaluate)"),
    }
    println!("pv      {}", report.pv.join(" "));
    if !decision.policy.is_empty() {
        let mut policy = decision.policy.clone();
        policy.sort_by(|a, b| b.1.total_cmp(&a.1));
        println!("policy");
        for (mv, p) in policy.iter().take(10) {
            println!("  {mv}  {p:.3}");
        }
        if policy.len() > 10 {
            println!("  ... {} more moves", policy.len() - 10);
        }
    }
    Ok(())
}

/// `--multipv K`: the analysis server's answer to this one query.
fn multipv(args: &AnalyzeArgs, player: &str, k: usize, compute: Compute) -> Result<()> {
    if k == 0 {
        anyhow::bail!("--multipv: 0, expected at least 1");
    }
    let factory = parse_player(player, &compute).context("--player")?;
    if factory.search_parts().is_none() {
        anyhow::bail!(
            "--multipv: player `{player}` does not search; only net: and mcts: players report lines"
        );
    }
    let query = Query {
        id: 0.into(),
        position: args.fen.clone(),
        moves: args.moves.split_whitespace().map(String::from).collect(),
        variant: Some(args.variant.clone()),
        player: Some(player.to_string()),
        multipv: Some(k),
        ..Query::default()
    };
    let mut analyzer = Analyzer::new(Defaults::new(None, args.variant.clone(), compute), 1);
    let answer = match analyzer.analyze_one(&serde_json::to_string(&query)?) {
        Reply::Answer(a) => a,
        Reply::Error { error, .. } => anyhow::bail!("{error}"),
    };
    if args.json {
        println!("{}", serde_json::to_string(&answer)?);
        return Ok(());
    }
    println!("player  {player}, {} simulations", answer.simulations);
    println!("best    {}", answer.best);
    println!(" #  move    visits   value   win  draw  loss  prior  pv");
    for line in &answer.lines {
        let value = line.value.map_or("      -".into(), |v| format!("{v:+7.3}"));
        let wdl = line.wdl.map_or("    -     -     -".into(), |w| {
            format!("{:5.3} {:5.3} {:5.3}", w.win, w.draw, w.loss)
        });
        println!(
            "{:2}  {:6} {:7} {value} {wdl} {:6.3}  {}",
            line.order + 1,
            line.mv,
            line.visits,
            line.prior,
            line.pv.join(" ")
        );
    }
    Ok(())
}

/// Most queries `--server` keeps in flight (`--max-in-flight`).
const MAX_IN_FLIGHT: usize = 1024;

/// `--server`: JSON queries on stdin until it closes.
fn serve(args: &AnalyzeArgs, compute: Compute) -> Result<()> {
    // A bad default player is refused now, not in every answer.
    parse_player(&args.player, &compute).context("--player")?;
    if !(1..=MAX_IN_FLIGHT).contains(&args.max_in_flight) {
        anyhow::bail!(
            "--max-in-flight: {}, expected 1 to {MAX_IN_FLIGHT}",
            args.max_in_flight
        );
    }
    let mut defaults = Defaults::new(Some(args.player.clone()), args.variant.clone(), compute);
    defaults.allow_programs = args.allow_programs;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if !(1..=256).contains(&threads) {
        anyhow::bail!("--threads: {threads}, expected 1 to 256");
    }
    let mut analyzer = Analyzer::new(defaults, threads);
    let stdin = std::io::BufReader::new(std::io::stdin());
    jungle_play::analysis::serve(
        &mut analyzer,
        stdin,
        &mut std::io::stdout().lock(),
        args.max_in_flight,
    )?;
    Ok(())
}
