//! `jungle ladder`: the compute ladder's table and plot remade from the
//! committed records of its runs (docs/compute-ladder.md).

use anyhow::{Context, Result};
use clap::Args;
use jungle_train::plot_ladder;
use jungle_train::{doublings, doublings_csv};
use jungle_train::{ladder_csv, ladder_in_run_csv, read_ladder, IN_RUN_SHARES, LADDER_ANCHORS};
use std::path::PathBuf;

/// Arguments of `jungle ladder`.
#[derive(Args)]
pub struct LadderArgs {
    /// The records: `CONFIG/RUNGh-sSEED/` folders, each with the run's
    /// `state.json`, `probe.json` (`jungle probe CKPT --json`) and its
    /// games against the anchors (`games-*.jsonl`, `jungle arena ...
    /// --record FILE`).
    #[arg(default_value = "experiments/ladder")]
    records: PathBuf,
    /// Where the table and plot go: `OUT.csv`, `OUT.png`, `OUT.svg`, the
    /// in-run probes by share of the samples, `OUT-in-run.csv`, and the
    /// Elo each doubling of compute bought, `OUT-doublings.csv`.
    #[arg(long, default_value = "docs/compute-ladder")]
    out: PathBuf,
}

/// Runs `jungle ladder`.
pub fn run(args: &LadderArgs) -> Result<()> {
    let runs = read_ladder(&args.records)?;
    let stem = args
        .out
        .file_name()
        .and_then(|s| s.to_str())
        .with_context(|| {
            format!(
                "--out `{}`: expected a file stem such as docs/compute-ladder",
                args.out.display()
            )
        })?;
    let dir = match args.out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let csv = dir.join(format!("{stem}.csv"));
    jungle_files::write_atomically(&csv, ladder_csv(&runs).as_bytes())
        .with_context(|| format!("writing {}", csv.display()))?;
    let in_run = dir.join(format!("{stem}-in-run.csv"));
    jungle_files::write_atomically(&in_run, ladder_in_run_csv(&runs).as_bytes())
        .with_context(|| format!("writing {}", in_run.display()))?;
    let gains = doublings(&runs);
    let gains_csv = dir.join(format!("{stem}-doublings.csv"));
    jungle_files::write_atomically(&gains_csv, doublings_csv(&gains).as_bytes())
        .with_context(|| format!("writing {}", gains_csv.display()))?;
    plot_ladder(&dir, stem, &runs)?;
    println!(
        "{:<10} {:>6} {:>4} {:>10} {:>10} {:>6} {:>6} {:>16} {:>16}",
        "config",
        "rung",
        "seed",
        "samples",
        "plies",
        "PFLOP",
        "probe",
        LADDER_ANCHORS[0].0,
        LADDER_ANCHORS[1].0
    );
    for r in &runs {
        let score = |i: usize| match r.anchors[i].score() {
            Some(s) => format!("{s:.3} ({})", r.anchors[i].games()),
            None => "-".to_string(),
        };
        println!(
            "{:<10} {:>5}h {:>4} {:>10} {:>10} {:>6.2} {:>6.3} {:>16} {:>16}",
            r.config,
            r.rung,
            r.seed,
            r.samples,
            r.plies,
            r.compute_pflop,
            r.probe,
            score(0),
            score(1)
        );
    }
    println!("\nin-run probe (mean of the last four up to each share of the samples): probe / value log-loss / top-1");
    print!("{:<10} {:>6} {:>4}", "config", "rung", "seed");
    for share in IN_RUN_SHARES {
        print!(" {:>17}", format!("{:.0}%", share * 100.0));
    }
    println!();
    for r in &runs {
        print!("{:<10} {:>5}h {:>4}", r.config, r.rung, r.seed);
        for probe in &r.in_run {
            let cell = match probe {
                Some(p) => format!("{:.3}/{:.3}/{:.3}", p.score, p.value_logloss, p.policy_top1),
                None => "-".to_string(),
            };
            print!(" {cell:>17}");
        }
        println!();
    }
    println!("\nElo a doubling of compute, from each rung to the next (games pooled over the seeds; 95% interval):");
    println!(
        "{:<10} {:>6} {:>6} {:>5} {:>9} {:>28} {:>28}",
        "config", "from", "to", "seeds", "doublings", LADDER_ANCHORS[0].0, LADDER_ANCHORS[1].0
    );
    for d in &gains {
        let cell = |i: usize| match (d.anchors[i], d.gain_per_doubling(i)) {
            (Some((from, to)), Some((gain, half))) => {
                format!(
                    "{gain:+.0} +- {half:.0} ({:+.0} -> {:+.0})",
                    from.elo, to.elo
                )
            }
            _ => "-".to_string(),
        };
        println!(
            "{:<10} {:>5}h {:>5}h {:>5} {:>9.2} {:>28} {:>28}",
            d.config,
            d.from_rung,
            d.to_rung,
            format!("{}/{}", d.seeds.0, d.seeds.1),
            d.doublings,
            cell(0),
            cell(1)
        );
    }
    println!(
        "{} runs; table {}, in-run probes {}, Elo a doubling {}, plot {}.png and .svg",
        runs.len(),
        csv.display(),
        in_run.display(),
        gains_csv.display(),
        dir.join(stem).display()
    );
    Ok(())
}
