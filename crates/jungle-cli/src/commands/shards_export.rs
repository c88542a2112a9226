//! `jungle shards export DIR --out FILE.npz`: training positions for
//! Python, as NumPy arrays.

use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use jungle_net::encoding::Encoding;
use jungle_selfplay::shard_files_within;
use jungle_train::config::TrainConfig;
use jungle_train::ValueTargets;
use jungle_train::{export_npz, shortest, NpzOptions};
use jungle_train::{read_state, RunPaths};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `jungle shards export`.
#[derive(Args)]
pub struct ExportArgs {
    /// The shard directory (a run's `data/RUN` folder: every generation's
    /// subfolder is read).
    dir: PathBuf,
    /// The .npz file to write (replaced if it exists).
    #[arg(long)]
    out: PathBuf,
    /// Input encoding version of the planes: 1 (38 planes), 2 (+ tactical,
    /// 42) or 3 (+ exchange, 44). Default: the encoding of --checkpoint's
    /// network, else of the run the folder belongs to (ROOT/data/RUN reads
    /// ROOT/checkpoints/RUN/state.json), else of the default config's.
    #[arg(long)]
    encoding: Option<u32>,
    /// A checkpoint whose network's input encoding the planes are written in.
    #[arg(long, conflicts_with = "encoding")]
    checkpoint: Option<PathBuf>,
    /// Also write each position's left-right mirror image after it.
    #[arg(long)]
    mirror: bool,
    /// Deflate the arrays (several times smaller, slower to write and load).
    #[arg(long)]
    compress: bool,
    /// Every searched position, the cheap searches of playout-cap
    /// randomisation too (their policy rows are zeros, `full_search`
    /// false), not only the full searches the trainer takes.
    #[arg(long)]
    all_positions: bool,
    /// lambda of `value_target`'s TD(lambda) return (1: the game's result).
    /// Default: the run's `train.value_td_lambda` (ROOT/data/RUN reads
    /// ROOT/checkpoints/RUN/state.json), else the default config's.
    #[arg(long, value_name = "LAMBDA")]
    td_lambda: Option<f64>,
    /// Print one JSON object instead of the text summary.
    #[arg(long)]
    json: bool,
}

/// Runs `jungle shards export`.
pub fn run_export(args: &ExportArgs) -> Result<()> {
    let run = run_config(&args.dir)?;
    let (encoding, whose) = chosen_encoding(args, &run)?;
    let value_targets = chosen_value_targets(args, &run.0)?;
    let files = shard_files_within(&args.dir)?;
    if files.is_empty() {
        bail!("{}: no shard-*.bin files here or below", args.dir.display());
    }
    let options = NpzOptions {
        encoding,
        mirror: args.mirror,
        compress: args.compress,
        all_positions: args.all_positions,
        value_targets,
    };
    let bar = ProgressBar::new(files.len() as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "export {bar:30} {pos}/{len} shards [{elapsed} < {eta}] {msg}",
        )
        .expect("valid template"),
    );
    let started = Instant::now();
    let summary = export_npz(&files, &options, &args.out, |rows| {
        bar.inc(1);
        bar.set_message(format!("{rows} rows"));
    })?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let rows_per_second = summary.rows as f64 / seconds.max(1e-9);
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "out": args.out.display().to_string(),
                "files": summary.files,
                "games": summary.games,
                "rows": summary.rows,
                "bytes": summary.bytes,
                "encoding": encoding.version(),
                "encoding_of": whose,
                "mirror": args.mirror,
                "all_positions": args.all_positions,
                "value_td_lambda": shortest(value_targets.td_lambda),
                "seconds": seconds,
                "rows_per_second": rows_per_second,
            })
        );
    } else {
        println!(
            "wrote {}: {} rows ({} games from {} shards{}), encoding {} ({} planes: {whose}), {:.1} MB",
            args.out.display(),
            summary.rows,
            summary.games,
            summary.files,
            if args.mirror {
                ", with mirror images"
            } else {
                ""
            },
            encoding.version(),
            encoding.planes(),
            summary.bytes as f64 / 1e6,
        );
        println!(
            "  value targets: TD(lambda = {}){}; {seconds:.1} s, {rows_per_second:.0} rows/s; load it with numpy.load (docs/guide/python.md)",
            value_targets.td_lambda,
            if value_targets.search_weight > 0.0 {
                format!(", search weight {}", value_targets.search_weight)
            } else {
                String::new()
            },
        );
    }
    Ok(())
}

/// The encoding to write and whose it is: `--encoding`, `--checkpoint`'s
/// network, the run the folder belongs to, or the default config's.
fn chosen_encoding(args: &ExportArgs, run: &(TrainConfig, String)) -> Result<(Encoding, String)> {
    if let Some(version) = args.encoding {
        let Some(encoding) = Encoding::from_version(version) else {
            let known: Vec<String> = Encoding::ALL
                .iter()
                .map(|e| e.version().to_string())
                .collect();
            bail!("--encoding {version}: expected one of {}", known.join(", "));
        };
        return Ok((encoding, "--encoding".to_string()));
    }
    if let Some(checkpoint) = &args.checkpoint {
        let meta = jungle_net::read_meta(checkpoint)
            .with_context(|| format!("--checkpoint {}", checkpoint.display()))?;
        return Ok((
            meta.net.encoding(),
            format!("the network of {}", checkpoint.display()),
        ));
    }
    let (config, whose) = run;
    Ok((config.net.encoding(), format!("{whose}'s network")))
}

/// The value targets to write: `--td-lambda` over the run's (or the
/// default config's) `value_td_lambda` and `value_search_weight`.
fn chosen_value_targets(args: &ExportArgs, config: &TrainConfig) -> Result<ValueTargets> {
    let td_lambda = args.td_lambda.unwrap_or(config.train.value_td_lambda);
    if !(0.0..=1.0).contains(&td_lambda) {
        bail!("--td-lambda {td_lambda}: expected a number from 0 to 1");
    }
    Ok(ValueTargets {
        td_lambda: td_lambda as f32,
        search_weight: config.train.value_search_weight as f32,
    })
}

/// The config of the run whose shards `dir` holds (`ROOT/data/RUN` with a
/// `ROOT/checkpoints/RUN/state.json`), else the default config, and whose
/// it is.
fn run_config(dir: &std::path::Path) -> Result<(TrainConfig, String)> {
    if let Some((root, name)) = run_of(dir) {
        let paths = RunPaths::new(&root, &name);
        if paths.state().is_file() {
            let state = read_state(&paths)?;
            return Ok((state.config, format!("run {name}")));
        }
    }
    Ok((
        TrainConfig::load(None, &[])?,
        "the default config".to_string(),
    ))
}

/// The root and name of the run whose shards `dir` holds
/// (`ROOT/data/NAME`, or a folder below it).
fn run_of(dir: &std::path::Path) -> Option<(PathBuf, String)> {
    let dir = std::path::absolute(dir).ok()?;
    let mut ancestors = dir.ancestors().peekable();
    while let Some(folder) = ancestors.next() {
        let parent = ancestors.peek()?;
        if parent.file_name()? == "data" {
            let root = parent.parent()?.to_path_buf();
            let name = folder.file_name()?.to_str()?.to_string();
            return Some((root, name));
        }
    }
    None
}
