//! `jungle arena`: a match between two players, games in parallel.

use super::shared::{load_rules, parse_player, DeviceArgs, MatchArgs};
use super::untrained::warn_untrained;
use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use jungle_play::arena::{run_match, MatchGame, MatchSummary};
use jungle_play::game_record::PlayedGame;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

/// Arguments of `jungle arena`.
#[derive(Args)]
pub struct ArenaArgs {
    #[arg(long, help = concat!("Player A: ", jungle_play::player_forms!()))]
    a: String,
    /// Player B, same forms.
    #[arg(long)]
    b: String,
    /// Number of games; seats alternate, openings come in pairs.
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// The rule set, threads, seed and openings.
    #[command(flatten)]
    games_args: MatchArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Also write every game (seats, result, end reason, rule set, moves)
    /// to this file, one JSON object per line (`jungle games FILE` shows
    /// them as text).
    #[arg(long)]
    record: Option<PathBuf>,
    /// Where `net:` players' networks run.
    #[command(flatten)]
    device: DeviceArgs,
}

/// Runs `jungle arena`.
pub fn run(args: &ArenaArgs) -> Result<()> {
    let compute = args.device.open()?;
    let rules = load_rules(&args.games_args.variant)?;
    let a = parse_player(&args.a, &compute).context("--a")?;
    let b = parse_player(&args.b, &compute).context("--b")?;
    warn_untrained(
        &[("--a", a.as_ref()), ("--b", b.as_ref())],
        &args.games_args.variant,
        &rules,
    );
    let cfg = args.games_args.arena_config(rules, args.games)?;

    let bar = ProgressBar::new(args.games as u64);
    if args.json {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("{msg} {bar:30} {pos}/{len} games [{elapsed} < {eta}]")
            .expect("valid template"),
    );
    let a_score = AtomicU32::new(0);
    bar.set_message(format!("{} vs {}", args.a, args.b));
    let pool = args.games_args.pool()?;
    let started = Instant::now();
    let records = pool.install(|| {
        run_match(a.as_ref(), b.as_ref(), &cfg, &|r| {
            a_score.fetch_add((r.score_for_a() * 2.0) as u32, Ordering::Relaxed);
            bar.inc(1);
            let done = bar.position().max(1) as f64;
            bar.set_message(format!(
                "{} vs {}: A scores {:.2}",
                args.a,
                args.b,
                a_score.load(Ordering::Relaxed) as f64 / 2.0 / done
            ));
        })
    });
    bar.finish_and_clear();
    let summary = MatchSummary::new(&args.a, &args.b, &records);
    if let Some(path) = &args.record {
        write_record(path, &args.a, &args.b, &args.games_args.variant, &records)?;
    }
    if args.json {
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        print_summary(
            &summary,
            &args.games_args.variant,
            started.elapsed().as_secs_f64(),
        );
    }
    Ok(())
}

/// Writes one JSON line per game to `path`, atomically
/// ([`PlayedGame::to_json`] and each side's thinking time).
fn write_record(path: &Path, a: &str, b: &str, variant: &str, records: &[MatchGame]) -> Result<()> {
    let mut text = String::new();
    for r in records {
        let mut line = PlayedGame {
            index: r.index,
            a,
            b,
            a_seat: r.a_side,
            end: &r.result,
            moves: &r.moves,
            variant,
        }
        .to_json();
        line["a_seconds"] = r.a_time().seconds.into();
        line["b_seconds"] = r.b_time().seconds.into();
        text.push_str(&line.to_string());
        text.push('\n');
    }
    jungle_files::write_atomically(path, text.as_bytes())
        .with_context(|| format!("writing {}", path.display()))
}

fn print_summary(s: &MatchSummary, variant: &str, seconds: f64) {
    println!(
        "{} (A) vs {} (B), {} games, variant {variant}",
        s.a, s.b, s.games
    );
    println!(
        "A wins {}  draws {}  B wins {}",
        s.a_wins, s.draws, s.b_wins
    );
    println!(
        "score  {:.3}  (95% {:.3} .. {:.3})",
        s.score, s.score_ci95[0], s.score_ci95[1]
    );
    println!(
        "Elo    {:+.0}  (95% {:+.0} .. {:+.0})",
        s.elo, s.elo_ci95[0], s.elo_ci95[1]
    );
    println!("plies  {:.1} on average", s.mean_plies);
    println!(
        "think  A {:.1} ms/move, B {:.1} ms/move",
        s.a_ms_per_move, s.b_ms_per_move
    );
    let reasons: Vec<String> = s
        .reasons
        .iter()
        .filter(|(_, &n)| n > 0)
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    println!("ended  {}", reasons.join(", "));
    for forfeit in &s.forfeits {
        println!("forfeit {forfeit}");
    }
    println!("time   {seconds:.1} s");
}
