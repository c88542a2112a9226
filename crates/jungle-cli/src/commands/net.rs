//! `jungle net ...`: network utilities (`init`, `onnx`, `average`).

use super::shared::load_rules;
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use jungle_net::average::average_checkpoints;
use jungle_net::onnx::export_onnx;
use jungle_net::{cpu_device, load_checkpoint, save_checkpoint, CheckpointMeta, NetConfig};
use jungle_train::layers;
use std::path::{Path, PathBuf};

/// Arguments of `jungle net`.
#[derive(Args)]
pub struct NetArgs {
    #[command(subcommand)]
    command: NetCommand,
}

#[derive(Subcommand)]
enum NetCommand {
    /// Write a freshly initialised network as a checkpoint (step 0).
    Init(InitArgs),
    /// Write a checkpoint's network as an ONNX file (dynamic batch axis).
    Onnx(OnnxArgs),
    /// Average the weights of checkpoints of one run (stochastic weight averaging).
    Average(AverageArgs),
}

#[derive(Args)]
struct AverageArgs {
    /// Checkpoint path prefix of the result: writes PREFIX.bpk and PREFIX.json
    /// (the metadata of the input with the most steps).
    #[arg(long)]
    out: PathBuf,
    /// The checkpoints to average (prefix, .json or .bpk), all of one
    /// architecture and rule set.
    #[arg(required = true, num_args = 1..)]
    checkpoints: Vec<PathBuf>,
}

#[derive(Args)]
struct OnnxArgs {
    /// The checkpoint (prefix, .json or .bpk).
    #[arg(long)]
    checkpoint: PathBuf,
    /// The .onnx file to write.
    #[arg(long)]
    out: PathBuf,
}

#[derive(Args)]
struct InitArgs {
    /// Checkpoint path prefix: writes PREFIX.bpk and PREFIX.json.
    #[arg(long)]
    out: PathBuf,
    /// Network config (toml) with any of blocks, filters, global_pool_every,
    /// policy_filters, value_filters, value_hidden, survival_head,
    /// tactical_planes and exchange_planes (true or false); default: 6
    /// blocks x 64 filters.
    #[arg(long)]
    config: Option<PathBuf>,
    /// The rule set the network is meant for (recorded in the checkpoint).
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Seed of the initial weights.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Runs `jungle net`.
pub fn run(args: &NetArgs) -> Result<()> {
    match &args.command {
        NetCommand::Init(init) => run_init(init),
        NetCommand::Onnx(onnx) => run_onnx(onnx),
        NetCommand::Average(average) => run_average(average),
    }
}

/// Reads a network config file: the keys of `[net]` in a training config
/// (any of them; the others keep [`NetConfig::new`]'s values), layered as
/// training configs are ([`layers`]).
pub fn load_net_config(path: &Path) -> Result<NetConfig> {
    let name = path.display();
    let text = jungle_files::read_text_bounded(path, jungle_files::MAX_SETTINGS_BYTES)
        .with_context(|| format!("reading network config `{name}`"))?;
    let given = layers::parse(&text).with_context(|| format!("network config `{name}`"))?;
    // Every key, the optional switches included, for the unknown-key check.
    let every_key = NetConfig::new().with_every_key();
    let known = toml::Table::try_from(&every_key).expect("a network config serialises");
    if let Some(e) = layers::unknown_key(&given, &known) {
        bail!("network config `{name}`: {e}");
    }
    let mut table = toml::Table::try_from(NetConfig::new()).expect("a network config serialises");
    layers::merge(&mut table, given);
    let config: NetConfig =
        layers::deserialize(&table).with_context(|| format!("network config `{name}`"))?;
    config
        .validate()
        .with_context(|| format!("network config `{name}`"))?;
    Ok(config)
}

fn run_init(args: &InitArgs) -> Result<()> {
    let rules = load_rules(&args.variant)?;
    let config = match &args.config {
        Some(path) => load_net_config(path)?,
        None => NetConfig::new(),
    };
    let device = cpu_device();
    device.seed(args.seed);
    let net = config.init(&device);
    let meta = CheckpointMeta::new(config.clone(), rules, 0, 0);
    save_checkpoint(&args.out, &net, &meta)?;
    println!(
        "wrote {}.bpk and {}.json: {} blocks x {} filters, {} parameters, variant {}",
        args.out.display(),
        args.out.display(),
        config.blocks,
        config.filters,
        burn::module::Module::num_params(&net),
        args.variant
    );
    Ok(())
}

fn run_onnx(args: &OnnxArgs) -> Result<()> {
    let device = cpu_device();
    let checkpoint = load_checkpoint(&args.checkpoint, &device)?;
    export_onnx(&checkpoint.net, &device, &args.out)?;
    println!(
        "wrote {} (step {}, {} blocks x {} filters): input [batch, 38, 9, 7]; outputs policy [batch, 252], wdl [batch, 3], moves left [batch, 1]",
        args.out.display(),
        checkpoint.meta.step,
        checkpoint.meta.net.blocks,
        checkpoint.meta.net.filters
    );
    Ok(())
}

fn run_average(args: &AverageArgs) -> Result<()> {
    let averaged = average_checkpoints(&args.checkpoints, &cpu_device())?;
    save_checkpoint(&args.out, &averaged.net, &averaged.meta)?;
    println!(
        "wrote {}.bpk and {}.json: the mean of {} checkpoints' weights (metadata of step {})",
        args.out.display(),
        args.out.display(),
        args.checkpoints.len(),
        averaged.meta.step
    );
    Ok(())
}
