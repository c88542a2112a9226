//! `jungle export`: a checkpoint as the self-describing files other front
//! ends read (model.onnx, model.json, model.safetensors, testcases.json).

use anyhow::Result;
use clap::Args;
use jungle_net::export::{describe, export_model, INPUT_NAME};
use jungle_net::{cpu_device, load_checkpoint};
use std::path::PathBuf;

/// Arguments of `jungle export`.
#[derive(Args)]
pub struct ExportArgs {
    /// The checkpoint (prefix, .json or .bpk).
    #[arg(long)]
    checkpoint: PathBuf,
    /// Directory to write the four files into (created if needed).
    #[arg(long)]
    out: PathBuf,
}

/// Runs `jungle export`.
pub fn run(args: &ExportArgs) -> Result<()> {
    let device = cpu_device();
    let checkpoint = load_checkpoint(&args.checkpoint, &device)?;
    let files = export_model(&checkpoint, &args.out, &device)?;
    let m = &checkpoint.meta;
    println!(
        "exported {} (step {}, {} blocks x {} filters) to {}:",
        args.checkpoint.display(),
        m.step,
        m.net.blocks,
        m.net.filters,
        args.out.display()
    );
    let outputs: Vec<String> = describe(m)
        .outputs
        .iter()
        .map(|o| format!("`{}` [batch, {}]", o.name, o.shape[1]))
        .collect();
    println!(
        "  {}  ONNX opset 18, input `{INPUT_NAME}` [batch, {}, 9, 7], outputs {}",
        files.onnx.display(),
        m.net.encoding().planes(),
        outputs.join(", ")
    );
    println!(
        "  {}  planes, point of view, move slots, outputs, rule set, step",
        files.json.display()
    );
    println!(
        "  {}  {} weight tensors under their ONNX names",
        files.safetensors.display(),
        files.tensors
    );
    println!(
        "  {}  {} positions with planes and outputs (check with scripts/check_onnx.py {})",
        files.testcases.display(),
        files.cases,
        args.out.display()
    );
    Ok(())
}
