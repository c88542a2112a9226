//! `jungle variants`: compare rule sets by first-mover score, draws, game
//! length and end reasons.

use super::shared::{parse_player, DeviceArgs};
use super::untrained::untrained_rule_sets;
use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use jungle_play::game_record::PlayedGame;
use jungle_variants::report::{switch_notes, text_table, write_reports};
use jungle_variants::{compare, resolve_variants, summarize, CompareConfig};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `jungle variants`.
#[derive(Args)]
pub struct VariantsArgs {
    #[arg(long, help = concat!("The player: ", jungle_play::player_forms!()))]
    player: String,
    /// An opponent; seats alternate. Without it the player plays itself.
    #[arg(long)]
    opponent: Option<String>,
    /// Rule sets to compare: preset names and toml files, comma separated.
    #[arg(long, conflicts_with = "all")]
    variants: Option<String>,
    /// Compare every preset.
    #[arg(long)]
    all: bool,
    /// Games per rule set.
    #[arg(long, default_value_t = 200)]
    games: u32,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Seed of the openings and the players (the same for every rule set).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Random plies from the start before the players take over (shared by all rule sets).
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    /// Directory for variants.csv, variants.md, variants.json and the plots.
    #[arg(long, default_value = ".")]
    out: PathBuf,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// Compare even under rule sets a `net:` player's network was not
    /// trained under (refused without it: the table would mix the rules'
    /// effect with the network's blind spots); the table's title says so.
    #[arg(long)]
    untrained: bool,
    /// Where `net:` players' networks run.
    #[command(flatten)]
    device: DeviceArgs,
}

/// Every game of a comparison, one JSON line each, in `--out`.
const GAMES_FILE: &str = "variants-games.jsonl";

/// Writes every game as a JSON line ([`PlayedGame::to_json`]): the player
/// is `a`, the opponent (the player again in self-play) `b`.
fn write_games(
    path: &std::path::Path,
    args: &VariantsArgs,
    variants: &[jungle_rules::RuleSet],
    games: &[jungle_variants::VariantGame],
) -> Result<()> {
    let opponent = args.opponent.as_deref().unwrap_or(&args.player);
    let mut text = String::new();
    for g in games {
        let line = PlayedGame {
            index: g.index,
            a: &args.player,
            b: opponent,
            a_seat: g.player_seat(),
            end: &g.result,
            moves: &g.moves,
            variant: &variants[g.variant].name,
        }
        .to_json();
        text.push_str(&line.to_string());
        text.push('\n');
    }
    jungle_files::write_atomically(path, text.as_bytes())
        .with_context(|| format!("writing {}", path.display()))
}

/// Runs `jungle variants`.
pub fn run(args: &VariantsArgs) -> Result<()> {
    let compute = args.device.open()?;
    let list = match (&args.variants, args.all) {
        (_, true) => "all".to_string(),
        (Some(list), false) => list.clone(),
        (None, false) => bail!("name the rule sets with --variants a,b,c or use --all"),
    };
    let variants = resolve_variants(&list).context("--variants")?;
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let player = parse_player(&args.player, &compute).context("--player")?;
    let opponent = match &args.opponent {
        Some(spec) => Some(parse_player(spec, &compute).context("--opponent")?),
        None => None,
    };
    let mut untrained = Vec::new();
    for (option, factory) in
        std::iter::once(("--player", &player)).chain(opponent.iter().map(|o| ("--opponent", o)))
    {
        let rule_sets = variants.iter().map(|v| (v.name.as_str(), &v.rules));
        if let Some(missing) = untrained_rule_sets(factory.as_ref(), rule_sets) {
            untrained.push(format!("{option} {}: {missing}", factory.name()));
        }
    }
    if !untrained.is_empty() && !args.untrained {
        bail!(
            "{}. Its games under those rules would mix the rules' effect with what the network never learned; \
             train a network on them (`[run] variants`, docs/guide/training.md) or pass --untrained to compare anyway",
            untrained.join("; ")
        );
    }
    for line in &untrained {
        eprintln!("WARNING (--untrained): {line}");
    }
    let mut cfg = CompareConfig::new(args.games, args.seed);
    cfg.opening_plies = args.opening_plies;

    let total = args.games as u64 * variants.len() as u64;
    let bar = ProgressBar::new(total);
    if args.json {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template(
            "variants {bar:30} {pos}/{len} games [{elapsed} < {eta}] {msg}",
        )
        .expect("valid template"),
    );
    bar.set_message(format!("{} rule sets", variants.len()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("starting the worker threads")?;
    let started = Instant::now();
    let games = pool.install(|| {
        compare(
            &variants,
            player.as_ref(),
            opponent.as_deref().unwrap_or(player.as_ref()),
            &cfg,
            &|_| bar.inc(1),
        )
    });
    bar.finish_and_clear();
    let summaries = summarize(&variants, &games, opponent.is_some());
    for g in &games {
        if let Some(f) = &g.result.forfeit {
            eprintln!(
                "forfeit: {} game {}: {}",
                variants[g.variant].name, g.index, f.reason
            );
        }
    }
    let who = match &args.opponent {
        Some(o) => format!("{} vs {o} (seats alternate)", args.player),
        None => format!("{} against itself", args.player),
    };
    let mut title = format!(
        "# Rule variants: {who}, {} games per rule set, {} random opening plies, seed {}",
        args.games, args.opening_plies, args.seed
    );
    if !untrained.is_empty() {
        title.push_str(&format!(" (UNTRAINED: {})", untrained.join("; ")));
    }
    write_reports(&args.out, &summaries, &title)?;
    let record = args.out.join(GAMES_FILE);
    write_games(&record, args, &variants, &games)?;
    if args.json {
        println!("{}", jungle_variants::report::json(&summaries));
    } else {
        println!("{}", title.trim_start_matches("# "));
        print!("{}", text_table(&summaries));
        println!(
            "first-mover score: draws count half; vs baseline: difference and two-sided p of a z-test;"
        );
        println!(
            "switch live: games with a position whose legal moves or end differ from the baseline's; played: games with a move only that rule set allows"
        );
        for note in switch_notes(&summaries) {
            println!("{note}");
        }
        println!(
            "{} games in {:.1} s; wrote variants.csv, variants.md, variants.json, variants.png/svg, variants-length.png/svg and every game ({GAMES_FILE}; `jungle games` shows them) in {}",
            games.len(),
            started.elapsed().as_secs_f64(),
            args.out.display()
        );
    }
    Ok(())
}
