//! `jungle perft`: legal move sequences of a given length, with timing.

use super::shared::{load_position, load_rules};
use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use jungle_rules::{perft, perft_bulk, Position, Rules};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

/// Arguments of `jungle perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// Number of plies.
    #[arg(long)]
    depth: u32,
    /// Position string (FEN); default: the rule set's start position.
    #[arg(long, alias = "position")]
    fen: Option<String>,
    /// Rule set: a preset name (standard, trap-attack, vertical-tiger,
    /// elephant-rat, bank-rats, bbdsq, quiet-120) or a toml file.
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Also print the count below each first move.
    #[arg(long)]
    divide: bool,
    /// Count the last ply in bulk (moves counted, not made): faster, less honest.
    #[arg(long)]
    bulk: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    depth: u32,
    nodes: u64,
    seconds: f64,
    nps: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<BTreeMap<String, u64>>,
}

/// Runs `jungle perft`.
pub fn run(args: &PerftArgs) -> Result<()> {
    let rules = load_rules(&args.variant)?;
    let pos = load_position(args.fen.as_deref(), &rules)?;
    let count = |p: &Position, rules: &Rules, d: u32| {
        if args.bulk {
            perft_bulk(p, rules, d)
        } else {
            perft(p, rules, d)
        }
    };

    let started = Instant::now();
    let mut divide = BTreeMap::new();
    let nodes = if args.depth == 0 {
        1
    } else {
        let moves = pos.legal_moves(&rules);
        let bar = ProgressBar::new(moves.len() as u64);
        if args.json {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        bar.set_style(
            ProgressStyle::with_template("perft {pos}/{len} first moves {bar:30} {elapsed} {msg}")
                .expect("valid template"),
        );
        let mut total = 0;
        for &mv in &moves {
            bar.set_message(mv.to_string());
            let n = count(&pos.play(mv), &rules, args.depth - 1);
            divide.insert(mv.to_string(), n);
            total += n;
            bar.inc(1);
        }
        bar.finish_and_clear();
        total
    };
    let seconds = started.elapsed().as_secs_f64();
    let report = Report {
        depth: args.depth,
        nodes,
        seconds,
        nps: nodes as f64 / seconds.max(1e-9),
        divide: args.divide.then_some(divide),
    };

    if args.json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    if let Some(divide) = &report.divide {
        for (mv, n) in divide {
            println!("{mv}: {n}");
        }
        println!();
    }
    println!("position  {}", pos.to_fen());
    println!("variant   {}", args.variant);
    println!(
        "perft({}) {} nodes ({})",
        report.depth,
        report.nodes,
        if args.bulk {
            "bulk-counted last ply"
        } else {
            "every leaf made"
        }
    );
    println!("time      {:.3} s", report.seconds);
    println!("speed     {:.1} M nodes/s", report.nps / 1e6);
    Ok(())
}
