//! `jungle games FILE...`: recorded games (`arena --record`, `variants`'
//! `variants-games.jsonl`, `tournament`'s and training's `matches.jsonl`)
//! as text a person reads and replays.

use super::shared::load_rules;
use anyhow::{bail, Context, Result};
use clap::Args;
use jungle_play::game_record::RecordedGame;
use jungle_rules::Rules;
use std::collections::HashMap;
use std::path::PathBuf;

/// The largest file `jungle games` reads (a game is a line of about a
/// kilobyte).
const MAX_GAMES_BYTES: u64 = 1 << 30;

/// Arguments of `jungle games`.
#[derive(Args)]
pub struct GamesArgs {
    /// Files of games, one JSON object per line.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Only this line of each file (1 = the first).
    #[arg(long, value_name = "N")]
    line: Option<usize>,
    /// The rule set of lines that name none (matches.jsonl of a run of one
    /// rule set), and of every line when given: a preset name or a toml
    /// file. Default: the line's own, else standard.
    #[arg(long)]
    variant: Option<String>,
    /// Write the text to this file instead of printing it.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Runs `jungle games`.
pub fn run(args: &GamesArgs) -> Result<()> {
    if args.line == Some(0) {
        bail!("--line 0: lines count from 1");
    }
    let mut rule_sets: HashMap<String, Rules> = HashMap::new();
    let mut text = String::new();
    let mut shown = 0;
    for file in &args.files {
        let content = jungle_files::read_text_bounded(file, MAX_GAMES_BYTES)
            .with_context(|| format!("reading {}", file.display()))?;
        let lines: Vec<&str> = content.lines().collect();
        if let Some(n) = args.line {
            if n > lines.len() {
                bail!(
                    "{}: --line {n}, but it has {} lines",
                    file.display(),
                    lines.len()
                );
            }
        }
        for (i, line) in lines.iter().enumerate() {
            if args.line.is_some_and(|n| n != i + 1) || line.trim().is_empty() {
                continue;
            }
            let at = || format!("{}:{}", file.display(), i + 1);
            let game = RecordedGame::from_json(line).with_context(at)?;
            let variant = args
                .variant
                .clone()
                .or(game.variant.clone())
                .unwrap_or_else(|| "standard".to_string());
            if !rule_sets.contains_key(&variant) {
                let rules = load_rules(&variant).with_context(|| {
                    format!("{}: rule set `{variant}` (name it with --variant)", at())
                })?;
                rule_sets.insert(variant.clone(), rules);
            }
            let shown_text = game
                .to_text(&rule_sets[&variant], &variant)
                .with_context(at)?;
            text.push_str(&format!("[Source \"{}\"]\n", at()));
            text.push_str(&shown_text);
            text.push('\n');
            shown += 1;
        }
    }
    match &args.out {
        Some(path) => {
            jungle_files::write_atomically(path, text.as_bytes())
                .with_context(|| format!("writing {}", path.display()))?;
            println!("wrote {shown} games to {}", path.display());
        }
        None => print!("{text}"),
    }
    Ok(())
}
