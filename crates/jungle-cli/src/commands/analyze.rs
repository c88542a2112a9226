//! `jungle analyze`: what a player makes of one position.

use super::shared::{load_position, load_rules, parse_player, DeviceArgs};
use anyhow::{Context, Result};
use clap::Args;
use jungle_rules::Game;
use serde::Serialize;
use std::collections::BTreeMap;

/// Arguments of `jungle analyze`.
#[derive(Args)]
pub struct AnalyzeArgs {
    #[arg(long, help = concat!("The player: ", jungle_play::player_forms!()))]
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
    let position = load_position(args.fen.as_deref(), &rules)?;
    let factory = parse_player(&args.player, &compute).context("--player")?;
    let mut game = Game::from_position(rules.clone(), position);
    for (i, text) in args.moves.split_whitespace().enumerate() {
        game.play_text(text)
            .with_context(|| format!("--moves: move {} `{text}`", i + 1))?;
    }
    if let Some(outcome) = game.outcome() {
        anyhow::bail!("the game is already over in this position ({outcome}); nothing to analyze");
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
    println!("player  {}", args.player);
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
