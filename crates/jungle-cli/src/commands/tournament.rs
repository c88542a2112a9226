//! `jungle tournament`: a round robin (or a gauntlet) among any players,
//! every game appended to `matches.jsonl`, one Elo fit with intervals and
//! a crosstable; `--sprt` stops a two-player match once the test decides.

use super::shared::{load_rules, parse_player, DeviceArgs, MatchArgs};
use super::untrained::warn_untrained;
use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use jungle_play::adjudication::Adjudication;
use jungle_play::arena::{run_match, ArenaConfig, MatchGame};
use jungle_play::elo::{fit_elo, RatedGame};
use jungle_play::sprt::{Sprt, SprtVerdict};
use jungle_play::stats::Z95;
use jungle_play::tournament::{pairings, Crosstable, Tally};
use jungle_play::PlayerFactory;
use jungle_rules::moves_text;
use jungle_train::{append_matches, read_matches, MatchLine};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

/// Arguments of `jungle tournament`.
#[derive(Args)]
pub struct TournamentArgs {
    /// The players, comma separated (at least two), each a player spec.
    #[arg(long, value_delimiter = ',', required = true)]
    players: Vec<String>,
    /// Games per pairing (seats alternate, openings come in pairs).
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Play this player (one of --players) against each of the others
    /// instead of every pair.
    #[arg(long)]
    gauntlet: Option<String>,
    /// ELO0,ELO1: a sequential probability ratio test (alpha = beta =
    /// 0.05) that stops a two-player match as soon as it decides whether
    /// the first player is ELO1 or only ELO0 stronger; --games caps it.
    #[arg(long)]
    sprt: Option<String>,
    /// Folder of `matches.jsonl`; a tournament run again with the same
    /// arguments goes on from the games it holds.
    #[arg(long, default_value = "tournament")]
    out: PathBuf,
    /// The rule set, threads, seed and openings.
    #[command(flatten)]
    games_args: MatchArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Where `net:` players' networks run.
    #[command(flatten)]
    device: DeviceArgs,
}

/// What makes the games of a tournament folder comparable, kept in
/// `tournament.json` beside its `matches.jsonl`: a tournament resumed (or
/// widened) in the folder must play under the same, or its games would
/// be merged with games of another kind.
#[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
struct Conditions {
    /// The rule set, every switch.
    rules: jungle_rules::Rules,
    /// The seed of openings and players.
    seed: u64,
    /// Random plies before the players take over.
    opening_plies: u32,
    /// The openings played instead, as their moves (absent with random
    /// openings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    openings: Option<Vec<String>>,
    /// Which games were ended early (none in folders from before it).
    #[serde(default)]
    adjudication: Adjudication,
}

impl Conditions {
    fn of(cfg: &ArenaConfig) -> Conditions {
        let openings = cfg
            .openings
            .as_ref()
            .map(|o| o.iter().map(|moves| moves_text(moves)).collect());
        Conditions {
            rules: cfg.rules.clone(),
            seed: cfg.seed,
            opening_plies: cfg.opening_plies,
            openings,
            adjudication: cfg.adjudication,
        }
    }

    /// Records these conditions in `folder`, or checks them against those
    /// recorded there (a folder of games from before the record takes
    /// these).
    fn keep_in(&self, folder: &std::path::Path) -> Result<()> {
        let path = folder.join("tournament.json");
        if path.exists() {
            let text = jungle_files::read_text_bounded(&path, jungle_files::MAX_SETTINGS_BYTES)
                .with_context(|| format!("reading {}", path.display()))?;
            let kept: Conditions = serde_json::from_str(&text)
                .with_context(|| format!("{}: not a tournament's conditions", path.display()))?;
            let mut differ = Vec::new();
            if kept.rules != self.rules {
                differ.push("--variant (the rule set)".to_string());
            }
            if kept.seed != self.seed {
                differ.push(format!("--seed ({} there, {} here)", kept.seed, self.seed));
            }
            if kept.opening_plies != self.opening_plies {
                differ.push(format!(
                    "--opening-plies ({} there, {} here)",
                    kept.opening_plies, self.opening_plies
                ));
            }
            if kept.openings != self.openings {
                differ.push("--openings (another set of openings)".to_string());
            }
            if kept.adjudication != self.adjudication {
                differ.push("--adjudicate-solver or --adjudicate-material".to_string());
            }
            if !differ.is_empty() {
                bail!(
                    "--out {}: its games were played with another {}; give the same, or another --out",
                    folder.display(),
                    differ.join(", ")
                );
            }
            return Ok(());
        }
        let text = serde_json::to_string_pretty(self).expect("serialises");
        jungle_files::write_atomically(&path, text.as_bytes())
            .with_context(|| format!("writing {}", path.display()))
    }
}

/// A rating as printed.
#[derive(serde::Serialize)]
struct RatingRow {
    player: String,
    elo: f64,
    ci95: [f64; 2],
    games: u32,
    score: Option<f64>,
}

/// Runs `jungle tournament`.
pub fn run(args: &TournamentArgs) -> Result<()> {
    let compute = args.device.open()?;
    let rules = load_rules(&args.games_args.variant)?;
    let names: Vec<String> = args.players.iter().map(|p| p.trim().to_string()).collect();
    if names.len() < 2 {
        bail!("--players: {} given, expected at least two", names.len());
    }
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            bail!("--players: `{name}` is given twice");
        }
    }
    if args.games == 0 {
        bail!("--games: 0, expected at least 1");
    }
    let gauntlet = match &args.gauntlet {
        Some(p) => Some(
            names
                .iter()
                .position(|n| n == p.trim())
                .with_context(|| format!("--gauntlet `{p}` is not one of --players"))?,
        ),
        None => None,
    };
    let sprt = match &args.sprt {
        Some(text) if names.len() != 2 => {
            bail!(
                "--sprt {text}: a test of two players; {} given",
                names.len()
            )
        }
        Some(text) => Some(Sprt::parse(text)?),
        None => None,
    };
    let players: Vec<Box<dyn PlayerFactory>> = names
        .iter()
        .map(|spec| parse_player(spec, &compute).with_context(|| format!("--players: `{spec}`")))
        .collect::<Result<_>>()?;
    let named: Vec<(&str, &dyn PlayerFactory)> =
        players.iter().map(|p| ("--players", p.as_ref())).collect();
    warn_untrained(&named, &args.games_args.variant, &rules);
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    // The match's settings, the openings file read once.
    let template = args.games_args.arena_config(rules.clone(), args.games)?;
    Conditions::of(&template).keep_in(&args.out)?;
    let path = args.out.join("matches.jsonl");
    let (mut lines, _) = read_matches(&path)?;

    let pairs = pairings(names.len(), gauntlet);
    let bar = ProgressBar::new(pairs.len() as u64 * u64::from(args.games));
    if args.json {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("{msg} {bar:30} {pos}/{len} games [{elapsed} < {eta}]")
            .expect("valid template"),
    );
    let pool = args.games_args.pool()?;
    let mut verdict = None;
    for &(i, j) in &pairs {
        let (a, b) = (&names[i], &names[j]);
        let played = lines.iter().filter(|l| &l.a == a && &l.b == b);
        let mut tally = Tally::default();
        let mut done = 0;
        for l in played {
            tally.add(l.score_a);
            done += 1;
        }
        bar.set_message(format!("{a} vs {b}"));
        bar.inc(u64::from(done.min(args.games)));
        // Batches of a few pairs, so the test is read between them.
        let batch = match sprt {
            Some(_) => 2 * pool.current_num_threads().max(1) as u32,
            None => args.games,
        };
        while done < args.games {
            if let Some(t) = sprt {
                let v = t.verdict(tally.wins, tally.draws, tally.losses);
                if v != SprtVerdict::Continue {
                    verdict = Some(v);
                    break;
                }
            }
            let mut cfg = template.clone();
            cfg.games = (done + batch).min(args.games);
            cfg.first_game = done;
            let written = Mutex::new((BTreeMap::<u32, MatchGame>::new(), done, None));
            let records = pool.install(|| {
                run_match(players[i].as_ref(), players[j].as_ref(), &cfg, &|g| {
                    bar.inc(1);
                    // Appended in game order as the games finish: a killed
                    // tournament keeps every game before the first one
                    // missing, and plays the rest again.
                    let mut guard = written.lock().expect("one writer at a time");
                    let state = &mut *guard;
                    state.0.insert(g.index, g.clone());
                    while let Some(next) = state.0.remove(&state.1) {
                        if let Err(e) = append_matches(&path, &[line_of(a, b, &next)]) {
                            state.2.get_or_insert(e);
                            return;
                        }
                        state.1 += 1;
                    }
                })
            });
            if let Some(e) = written.into_inner().expect("no panic while writing").2 {
                return Err(e.into());
            }
            for g in &records {
                tally.add(g.score_for_a());
                lines.push(line_of(a, b, g));
            }
            done = cfg.games;
        }
        if let (Some(t), None) = (sprt, verdict) {
            let v = t.verdict(tally.wins, tally.draws, tally.losses);
            verdict = Some(v);
        }
    }
    bar.finish_and_clear();
    report(args, &names, &lines, gauntlet, sprt, verdict)
}

/// A game as `matches.jsonl` keeps it (generation 0: not a training run).
fn line_of(a: &str, b: &str, g: &MatchGame) -> MatchLine {
    MatchLine::of_game(0, a, b, g, None)
}

/// The Elo table, the crosstable and the test's verdict.
fn report(
    args: &TournamentArgs,
    names: &[String],
    lines: &[MatchLine],
    gauntlet: Option<usize>,
    sprt: Option<Sprt>,
    verdict: Option<SprtVerdict>,
) -> Result<()> {
    let games: Vec<RatedGame> = lines
        .iter()
        .filter(|l| names.contains(&l.a) && names.contains(&l.b))
        .map(MatchLine::result)
        .collect();
    let anchor = &names[gauntlet.unwrap_or(0)];
    let table = Crosstable::new(names, &games);
    let fitted = fit_elo(&games, anchor)?;
    let mut rows: Vec<RatingRow> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let r = fitted.iter().find(|r| &r.player == name);
            let (elo, se) = r.map_or((0.0, 0.0), |r| (r.elo, r.stderr));
            let total = table.total(i);
            RatingRow {
                player: name.clone(),
                elo,
                ci95: [elo - Z95 * se, elo + Z95 * se],
                games: total.games(),
                score: total.score(),
            }
        })
        .collect();
    rows.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    let test = sprt.map(|t| {
        let c = table.cells[0][1];
        let (lower, upper) = t.bounds();
        serde_json::json!({
            "elo0": t.elo0, "elo1": t.elo1,
            "llr": t.llr(c.wins, c.draws, c.losses),
            "bounds": [lower, upper],
            "verdict": match verdict {
                Some(SprtVerdict::AcceptH1) => "H1",
                Some(SprtVerdict::AcceptH0) => "H0",
                _ => "undecided",
            },
            "games": c.games(),
        })
    });
    if args.json {
        let cells: Vec<Vec<[u32; 3]>> = table
            .cells
            .iter()
            .map(|row| row.iter().map(|t| [t.wins, t.draws, t.losses]).collect())
            .collect();
        let out = serde_json::json!({
            "players": names,
            "anchor": anchor,
            "ratings": rows,
            "crosstable": cells,
            "sprt": test,
            "matches": args.out.join("matches.jsonl"),
        });
        println!("{out}");
        return Ok(());
    }
    println!(
        "{} players, {} games, variant {} (Elo: {anchor} = 0, 95% intervals)",
        names.len(),
        games.len(),
        args.games_args.variant
    );
    for r in &rows {
        println!(
            "{:>+7.0}  [{:+.0} .. {:+.0}]  {:>5} games  score {}  {}",
            r.elo,
            r.ci95[0],
            r.ci95[1],
            r.games,
            r.score.map_or("-".into(), |s| format!("{s:.3}")),
            r.player
        );
    }
    println!();
    print!("{}", table.to_text());
    if let Some(t) = test {
        println!();
        println!(
            "SPRT [{}, {}]: LLR {:.2} (bounds {:.2} .. {:.2}) after {} games: {}",
            t["elo0"],
            t["elo1"],
            t["llr"].as_f64().unwrap_or(0.0),
            t["bounds"][0].as_f64().unwrap_or(0.0),
            t["bounds"][1].as_f64().unwrap_or(0.0),
            t["games"],
            t["verdict"].as_str().unwrap_or("")
        );
    }
    println!("games in {}", args.out.join("matches.jsonl").display());
    Ok(())
}
