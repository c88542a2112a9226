//! `jungle train`: the main job; `jungle elo`: refit and redraw a run's Elo
//! and show its course by thirds.

use anyhow::{Context, Result};
use clap::Args;
use jungle_net::DeviceChoice;
use jungle_play::elo::Rating;
use jungle_store::Store;
use jungle_train::play_mixture_anchor_games;
use jungle_train::restore_run;
use jungle_train::{fill_end_reasons, thirds, thirds_table};
use jungle_train::{read_state, run_config, Run, RunPaths};
use jungle_train::{report, RunRatings};
use std::path::PathBuf;

/// Arguments of `jungle train`.
#[derive(Args)]
pub struct TrainArgs {
    /// Training config (toml): only the keys it changes from the embedded
    /// configs/default.toml, which it is layered over; default: that file
    /// alone for a new run, the run's own config (from its state.json) for
    /// one that exists. A resumed run may change only its length, its
    /// device and self-play's threads (run.generations, run.minutes, run.samples,
    /// run.max_net_age, train.device, selfplay.workers,
    /// selfplay.games_in_flight, selfplay.gpu_games_in_flight,
    /// selfplay.games_per_shard, selfplay.eval_cache).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Overrides one key over the config, e.g. `--set train.learning_rate=0.001`
    /// or `--set selfplay.search.cpuct=2` (repeatable; later ones win).
    #[arg(long = "set", value_name = "SECTION.KEY=VALUE")]
    sets: Vec<String>,
    /// Run name: shards in ROOT/data/NAME, checkpoints in ROOT/checkpoints/NAME.
    #[arg(long, default_value = "main")]
    run: String,
    /// Root directory of data/ and checkpoints/.
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Also mirror the run to this store after each generation (same
    /// layout as ROOT: shards, checkpoints, state.json, matches.jsonl,
    /// plots, then checkpoints/NAME/latest.json): s3://BUCKET/PREFIX
    /// (endpoint, region and credentials from AWS_*), gs://, az://,
    /// file:///PATH. A ROOT that does not hold the run is first restored
    /// from the store if the store does. Default: the run lives in ROOT only.
    #[arg(long, value_name = "URL")]
    store: Option<String>,
    /// Who plays the self-play games: `local` (this process, between its
    /// training phases) or `external` (`jungle worker`s sharing --store:
    /// each generation waits for its games there).
    #[arg(long, value_enum, default_value_t = SelfPlayFrom::Local, requires_if("external", "store"))]
    selfplay: SelfPlayFrom,
    /// Where the network trains and self-play evaluates: auto, cpu, cuda or
    /// wgpu (the same as `--set train.device=DEVICE`; docs/gpu.md).
    #[arg(long, value_name = "DEVICE")]
    device: Option<DeviceChoice>,
}

/// Where a run's self-play games come from.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SelfPlayFrom {
    /// This process plays them.
    Local,
    /// Workers upload them to the store.
    External,
}

/// Arguments of `jungle elo`.
#[derive(Args)]
pub struct EloArgs {
    /// Run name.
    #[arg(long, default_value = "main")]
    run: String,
    /// Root directory of data/ and checkpoints/.
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Games of each pair of anchors among themselves to include (played
    /// now if not cached under ROOT/anchors/); default: the run's
    /// `[eval] anchor_games` (0 for runs made before it existed).
    #[arg(long)]
    anchor_games: Option<u32>,
}

/// Prints the Elo table.
fn print_table(ratings: &[Rating]) {
    println!("{:<16} {:>7} {:>8} {:>6}", "player", "games", "Elo", "+-");
    for r in ratings {
        println!(
            "{:<16} {:>7} {:>+8.0} {:>6.0}",
            r.player,
            r.games,
            r.elo,
            1.96 * r.stderr
        );
    }
}

/// The table over all games, then (in a run over a mixture) each rule
/// set's.
fn print_tables(ratings: &RunRatings) {
    if !ratings.by_variant.is_empty() {
        println!("every rule set:");
    }
    print_table(&ratings.all);
    for (name, table) in &ratings.by_variant {
        println!("under {name}:");
        print_table(table);
    }
}

/// Runs `jungle train`.
pub fn run(args: &TrainArgs) -> Result<()> {
    let store = args.store.as_deref().map(Store::open_url).transpose()?;
    if let Some(store) = &store {
        if let Some(r) = restore_run(store, &args.root, &args.run)? {
            println!(
                "restored run `{}` from {} (generation {}, step {}): {} files, {:.1} MB, the shards of {} generations",
                args.run,
                store.url().text,
                r.generation,
                r.step,
                r.files,
                r.bytes as f64 / 1e6,
                r.generations
            );
        }
    }
    let mut sets = args.sets.clone();
    if let Some(device) = args.device {
        sets.push(format!("train.device=\"{device}\""));
    }
    let config = run_config(&args.root, &args.run, args.config.as_deref(), &sets)?;
    let budget = config.run.budget_text();
    let mut run = Run::open(&args.root, &args.run, config, false)?;
    println!("run `{}` on device: {}", args.run, run.compute());
    println!("budget: {budget}");
    if let Some(store) = store {
        let url = store.url().text.clone();
        run.publish_to(store, &args.root)?;
        println!("mirroring run `{}` to {url}", args.run);
    }
    if args.selfplay == SelfPlayFrom::External {
        run.play_external(std::time::Duration::from_secs(2))?;
        println!(
            "self-play by workers: start them with `jungle worker --store {} --run {}`",
            args.store.as_deref().unwrap_or_default(),
            args.run
        );
    }
    let state = run.state();
    if state.generation > 0 {
        println!(
            "resuming run `{}` after generation {} (step {}, {} games, {:.1} min)",
            args.run,
            state.generation,
            state.step,
            state.games,
            state.seconds / 60.0
        );
    }
    let ratings = run.run()?;
    let state = run.state();
    println!();
    println!(
        "run `{}`: {} generations, {} games, {} samples trained, {:.1} min",
        args.run,
        state.generation,
        state.games,
        state.samples_seen,
        state.seconds / 60.0
    );
    print_tables(&ratings);
    println!();
    print!("{}", thirds_table(&thirds(state)));
    println!("plots and elo.csv in {}", run.paths().checkpoints.display());
    Ok(())
}

/// Runs `jungle elo`.
pub fn run_elo(args: &EloArgs) -> Result<()> {
    jungle_train::check_run_name(&args.run)?;
    let paths = RunPaths::new(&args.root, &args.run);
    let mut state = read_state(&paths).with_context(|| format!("run `{}`", args.run))?;
    if let Some(games) = args.anchor_games {
        if games > 100_000 {
            anyhow::bail!("--anchor-games: {games}, expected 0 to 100000");
        }
        state.config.eval.anchor_games = games;
    }
    let mixture = state.config.mixture()?;
    let bar = indicatif::ProgressBar::new(0).with_style(
        indicatif::ProgressStyle::with_template(
            "anchors among themselves {bar:30} {pos}/{len} games [{elapsed} < {eta}] {msg}",
        )
        .expect("valid template"),
    );
    play_mixture_anchor_games(&paths.anchors, &state.config.eval, &mixture, &bar)?;
    let ratings = report(&paths, &state)?;
    fill_end_reasons(&paths, &mut state)?;
    print!("{}", thirds_table(&thirds(&state)));
    println!();
    if ratings.is_empty() {
        println!("no evaluation games yet in {}", paths.matches().display());
        return Ok(());
    }
    print_tables(&ratings);
    println!(
        "wrote elo.csv and the plots in {}",
        paths.checkpoints.display()
    );
    Ok(())
}
