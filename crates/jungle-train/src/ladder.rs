//! The compute ladder (docs/compute-ladder.md): finished runs of each config
//! at budgets of 1/4, 1/2, 1 and 2 hour-equivalents, scored by the probe and
//! by games against the fixed anchors, read back from their committed
//! records so that the table and its plot can always be remade.
//!
//! The records' layout: `DIR/CONFIG/RUNGh-sSEED/` (for example
//! `base/0.25h-s0/`) holding the run's `state.json`, `probe.json` (`jungle
//! probe CKPT --json`) and any number of `games-*.jsonl` (`jungle arena
//! --a NET --b ANCHOR ... --record FILE`: one line per game), every game
//! pooled by the anchor it was played against.
//!
//! Each run's compute is estimated from the same records
//! ([`estimated_pflop`]), so that a config that spends more a sample (a
//! wider network, more self-play a sample) sits where its compute puts it.

use jungle_net::NetConfig;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The anchors whose scores the table keeps, with their column names.
pub const LADDER_ANCHORS: [(&str, &str); 2] = [
    ("alphabeta:4", "score_alphabeta4"),
    ("alphabeta:6", "score_alphabeta6"),
];

/// The shares of a run's samples at which the ladder reads its in-run
/// probe: a fifth, about a third, half, just before the default schedule's
/// first drop (70%) and the end.
pub const IN_RUN_SHARES: [f64; 5] = [0.2, 0.35, 0.5, 0.69, 1.0];

/// In-run probes averaged at each share: one probe of the fixed sixth of
/// the suite spreads by about 0.012, the mean of four by about 0.006.
pub const IN_RUN_PROBES: usize = 4;

/// The largest record the ladder reads (a run's `state.json` is about
/// 100 KB; an arena result with every game's moves about 500 KB).
pub const MAX_RECORD_BYTES: u64 = 64 << 20;

/// Why the ladder's records could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LadderError {
    /// A file or folder could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A record is not what the ladder expects.
    #[error("{}: {problem}", path.display())]
    Record {
        /// The file or folder.
        path: PathBuf,
        /// What was found and what was expected.
        problem: String,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> LadderError + '_ {
    move |source| LadderError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn record(path: &Path, problem: impl Into<String>) -> LadderError {
    LadderError::Record {
        path: path.to_path_buf(),
        problem: problem.into(),
    }
}

/// Games of one player against one anchor, pooled over matches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The run's network's wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// The anchor's wins.
    pub losses: u64,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The score (a draw is half a win); `None` with no games.
    pub fn score(&self) -> Option<f64> {
        (self.games() > 0)
            .then(|| (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64)
    }
}

/// One finished run of the ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderRun {
    /// The config's name (the records' folder).
    pub config: String,
    /// The budget in hour-equivalents of the reference machine.
    pub rung: f64,
    /// The run's seed.
    pub seed: u64,
    /// Samples trained on.
    pub samples: u64,
    /// Self-play plies played.
    pub plies: u64,
    /// The probe's score of the final network on the whole suite.
    pub probe: f64,
    /// The run's compute in PFLOP ([`estimated_pflop`]).
    pub compute_pflop: f64,
    /// Games against each of [`LADDER_ANCHORS`], in order (empty tallies
    /// for those not played yet).
    pub anchors: [Tally; LADDER_ANCHORS.len()],
    /// The in-run probe at each of [`IN_RUN_SHARES`] ([`in_run_probe`]).
    pub in_run: [Option<InRunProbe>; IN_RUN_SHARES.len()],
}

/// The mean of a run's last in-run probes up to a share of its samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InRunProbe {
    /// The probe's score.
    pub score: f64,
    /// The value head's log-loss.
    pub value_logloss: f64,
    /// The share of positions whose prior's top move is a good one.
    pub policy_top1: f64,
}

/// One in-run probe of `state.json`'s `probes` (`[eval] probe_every`).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
pub struct ProbeLine {
    /// The step of the checkpoint probed.
    pub step: u64,
    /// The probe's score (`None` in records from before it was kept).
    pub score: Option<f64>,
    /// The value head's log-loss.
    pub value_logloss: Option<f64>,
    /// The prior's top-1 share.
    pub policy_top1: Option<f64>,
}

/// The mean of the last [`IN_RUN_PROBES`] in-run probes whose checkpoint
/// had trained on at most `share` of the run's `samples` (`step x
/// batch_size` samples a checkpoint), those with all three figures;
/// `None` when there is none.
pub fn in_run_probe(
    probes: &[ProbeLine],
    batch_size: u64,
    samples: u64,
    share: f64,
) -> Option<InRunProbe> {
    let limit = share * samples as f64;
    let kept: Vec<InRunProbe> = probes
        .iter()
        .filter(|p| (p.step * batch_size) as f64 <= limit)
        .filter_map(|p| {
            Some(InRunProbe {
                score: p.score?,
                value_logloss: p.value_logloss?,
                policy_top1: p.policy_top1?,
            })
        })
        .collect();
    let last = &kept[kept.len().saturating_sub(IN_RUN_PROBES)..];
    let n = last.len() as f64;
    (!last.is_empty()).then(|| InRunProbe {
        score: last.iter().map(|p| p.score).sum::<f64>() / n,
        value_logloss: last.iter().map(|p| p.value_logloss).sum::<f64>() / n,
        policy_top1: last.iter().map(|p| p.policy_top1).sum::<f64>() / n,
    })
}

/// What the ladder reads of a run's `state.json`.
#[derive(Deserialize)]
struct StateRecord {
    samples_seen: u64,
    #[serde(default)]
    selfplay: Vec<SelfPlayGames>,
    #[serde(default)]
    probes: Vec<ProbeLine>,
    config: ConfigRecord,
}

/// What the ladder reads of the run's config (`state.json`'s `config`).
#[derive(Deserialize)]
struct ConfigRecord {
    net: NetConfig,
    selfplay: SearchesRecord,
    train: BatchRecord,
}

/// The training batch (`[train] batch_size`): samples a step.
#[derive(Deserialize)]
struct BatchRecord {
    batch_size: u64,
}

/// The self-play searches' sizes (`[selfplay]`).
#[derive(Deserialize)]
struct SearchesRecord {
    full_simulations: u32,
    cheap_simulations: u32,
    full_search_fraction: f64,
}

impl SearchesRecord {
    /// Simulations a self-play move, on average.
    fn simulations_per_ply(&self) -> f64 {
        let full = self.full_search_fraction;
        full * f64::from(self.full_simulations) + (1.0 - full) * f64::from(self.cheap_simulations)
    }
}

/// A training run's compute in PFLOP (10^15 floating-point operations),
/// estimated from what it did: each self-play move's search at its mean
/// simulations (`simulations_per_ply`), one evaluation of the network a
/// simulation, and each sample trained a forward and a backward pass
/// (three evaluations' work), every evaluation at the network's
/// [`NetConfig::flops_per_position`]. The same estimate for every config:
/// it counts the self-play evaluations that the tree kept from the move
/// before and the evaluation cache save (an upper bound on them), and
/// leaves out the evaluation games and probes, which teach nothing.
pub fn estimated_pflop(net: &NetConfig, simulations_per_ply: f64, plies: u64, samples: u64) -> f64 {
    let evaluations = plies as f64 * simulations_per_ply + 3.0 * samples as f64;
    evaluations * net.flops_per_position() / 1e15
}

#[derive(Deserialize)]
struct SelfPlayGames {
    plies: u64,
}

/// What the ladder reads of a recorded game (`jungle arena --record`).
#[derive(Deserialize)]
struct GameLine {
    south: String,
    north: String,
    /// The score of the arena's `--a` player, the run's network.
    score_a: f64,
}

/// The entries of `dir`, sorted by name.
fn entries(dir: &Path) -> Result<Vec<PathBuf>, LadderError> {
    let mut paths = std::fs::read_dir(dir)
        .map_err(io(dir))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(io(dir))?;
    paths.sort();
    Ok(paths)
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, LadderError> {
    let text = jungle_files::read_text_bounded(path, MAX_RECORD_BYTES).map_err(io(path))?;
    serde_json::from_str(&text).map_err(|e| record(path, format!("malformed JSON: {e}")))
}

/// Adds the games of a `jungle arena --record` file to the tallies of the
/// anchors they were played against (games against other players are
/// left out).
fn tally_games(path: &Path, anchors: &mut [Tally]) -> Result<(), LadderError> {
    let text = jungle_files::read_text_bounded(path, MAX_RECORD_BYTES).map_err(io(path))?;
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let game: GameLine = serde_json::from_str(line).map_err(|e| {
            record(
                path,
                format!(
                    "line {}: {e}: expected a game of `jungle arena --record`",
                    i + 1
                ),
            )
        })?;
        let anchor = LADDER_ANCHORS
            .iter()
            .position(|(spec, _)| *spec == game.south || *spec == game.north);
        let Some(a) = anchor else { continue };
        let t = &mut anchors[a];
        match game.score_a {
            1.0 => t.wins += 1,
            0.5 => t.draws += 1,
            0.0 => t.losses += 1,
            s => {
                return Err(record(
                    path,
                    format!("line {}: score_a {s}, expected 0, 0.5 or 1", i + 1),
                ))
            }
        }
    }
    Ok(())
}

/// `RUNGh-sSEED` (for example `0.25h-s0`): the rung in hours and the seed.
pub fn parse_run_folder(name: &str) -> Option<(f64, u64)> {
    let (rung, seed) = name.split_once("h-s")?;
    let rung: f64 = rung.parse().ok()?;
    (rung.is_finite() && rung > 0.0).then_some(())?;
    Some((rung, seed.parse().ok()?))
}

/// The probe's score of the first bare network in a `jungle probe --json`
/// file.
fn probe_score(path: &Path) -> Result<f64, LadderError> {
    let rows: serde_json::Value = read_json(path)?;
    rows.as_array()
        .and_then(|rows| rows.iter().find(|r| r["kind"] == "network"))
        .and_then(|r| r["metrics"]["metrics"]["probe_score"]["all"]["mean"].as_f64())
        .ok_or_else(|| {
            record(
                path,
                "no network row with metrics.probe_score.all.mean: expected the output of `jungle probe CKPT --json`",
            )
        })
}

/// Reads one run's folder.
fn read_run(config: &str, folder: &Path) -> Result<LadderRun, LadderError> {
    let name = folder.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let (rung, seed) = parse_run_folder(name).ok_or_else(|| {
        record(
            folder,
            "expected a run folder named RUNGh-sSEED, for example 0.25h-s0",
        )
    })?;
    let state_path = folder.join(crate::layout::STATE_FILE);
    let state: StateRecord = read_json(&state_path)?;
    state
        .config
        .net
        .validate()
        .map_err(|e| record(&state_path, format!("config.net: {e}")))?;
    let fraction = state.config.selfplay.full_search_fraction;
    if !(0.0..=1.0).contains(&fraction) {
        return Err(record(
            &state_path,
            format!("config.selfplay.full_search_fraction {fraction}: expected 0 to 1"),
        ));
    }
    let plies = state.selfplay.iter().map(|g| g.plies).sum();
    let mut anchors = [Tally::default(); LADDER_ANCHORS.len()];
    for path in entries(folder)? {
        let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if file.starts_with("games-") && file.ends_with(".jsonl") {
            tally_games(&path, &mut anchors)?;
        }
    }
    Ok(LadderRun {
        config: config.to_string(),
        rung,
        seed,
        samples: state.samples_seen,
        plies,
        probe: probe_score(&folder.join("probe.json"))?,
        compute_pflop: estimated_pflop(
            &state.config.net,
            state.config.selfplay.simulations_per_ply(),
            plies,
            state.samples_seen,
        ),
        anchors,
        in_run: IN_RUN_SHARES.map(|share| {
            in_run_probe(
                &state.probes,
                state.config.train.batch_size,
                state.samples_seen,
                share,
            )
        }),
    })
}

/// Every run under `dir` (`CONFIG/RUNGh-sSEED/`), by config, rung and seed.
/// A config folder's files other than folders (a README) are skipped.
pub fn read_ladder(dir: &Path) -> Result<Vec<LadderRun>, LadderError> {
    let mut runs = Vec::new();
    for config_dir in entries(dir)? {
        if !config_dir.is_dir() {
            continue;
        }
        let config = config_dir
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| record(&config_dir, "a config folder's name must be UTF-8"))?
            .to_string();
        for folder in entries(&config_dir)? {
            if folder.is_dir() {
                runs.push(read_run(&config, &folder)?);
            }
        }
    }
    if runs.is_empty() {
        return Err(record(
            dir,
            "no runs: expected folders CONFIG/RUNGh-sSEED/ holding state.json and probe.json",
        ));
    }
    runs.sort_by(|a, b| {
        a.config
            .cmp(&b.config)
            .then(a.rung.total_cmp(&b.rung))
            .then(a.seed.cmp(&b.seed))
    });
    Ok(runs)
}

/// The table as CSV: `config, rung, seed, samples, plies, probe`, then one
/// score column per anchor (empty where no game was played), the games
/// behind each score, and the run's estimated compute (`compute_pflop`).
pub fn ladder_csv(runs: &[LadderRun]) -> String {
    let mut out = String::from("config,rung,seed,samples,plies,probe");
    for (_, column) in LADDER_ANCHORS {
        out.push(',');
        out.push_str(column);
    }
    for (_, column) in LADDER_ANCHORS {
        out.push_str(&format!(",{}", column.replace("score_", "games_")));
    }
    out.push_str(",compute_pflop\n");
    for r in runs {
        out.push_str(&format!(
            "{},{},{},{},{},{:.4}",
            r.config, r.rung, r.seed, r.samples, r.plies, r.probe
        ));
        for t in &r.anchors {
            match t.score() {
                Some(s) => out.push_str(&format!(",{s:.4}")),
                None => out.push(','),
            }
        }
        for t in &r.anchors {
            out.push_str(&format!(",{}", t.games()));
        }
        out.push_str(&format!(",{:.4}\n", r.compute_pflop));
    }
    out
}

/// The in-run probes as CSV: `config, rung, seed`, then for each of
/// [`IN_RUN_SHARES`] (in percent, `P`) `probe_P, value_logloss_P,
/// policy_top1_P` (empty where the run kept no probe that early).
pub fn ladder_in_run_csv(runs: &[LadderRun]) -> String {
    let mut out = String::from("config,rung,seed");
    for share in IN_RUN_SHARES {
        let p = (share * 100.0).round();
        out.push_str(&format!(",probe_{p},value_logloss_{p},policy_top1_{p}"));
    }
    out.push('\n');
    for r in runs {
        out.push_str(&format!("{},{},{}", r.config, r.rung, r.seed));
        for probe in &r.in_run {
            match probe {
                Some(p) => out.push_str(&format!(
                    ",{:.4},{:.4},{:.4}",
                    p.score, p.value_logloss, p.policy_top1
                )),
                None => out.push_str(",,,"),
            }
        }
        out.push('\n');
    }
    out
}

/// One config's runs at one rung, averaged over their seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RungMean {
    /// The rung (hour-equivalents).
    pub rung: f64,
    /// The mean of the runs' estimated compute (PFLOP).
    pub compute_pflop: f64,
    /// The mean of the value.
    pub value: f64,
}

/// One rung of a config: the rung and its runs (its seeds).
pub type RungRuns<'a> = (f64, Vec<&'a LadderRun>);

/// Each config's runs grouped by rung: `(config, rungs)`, configs in name
/// order, rungs rising, each rung's runs in the order given.
pub fn runs_by_rung(runs: &[LadderRun]) -> Vec<(&str, Vec<RungRuns<'_>>)> {
    let mut by_config: BTreeMap<&str, Vec<RungRuns<'_>>> = BTreeMap::new();
    for r in runs {
        let rungs = by_config.entry(&r.config).or_default();
        match rungs.iter_mut().find(|(rung, _)| *rung == r.rung) {
            Some((_, seeds)) => seeds.push(r),
            None => rungs.push((r.rung, vec![r])),
        }
    }
    by_config
        .into_iter()
        .map(|(config, mut rungs)| {
            rungs.sort_by(|a, b| a.0.total_cmp(&b.0));
            (config, rungs)
        })
        .collect()
}

/// The mean over seeds of each config's runs at each rung, by rung:
/// `(config, means)`, leaving out runs where `value` is `None`.
pub fn means_by_rung(
    runs: &[LadderRun],
    value: impl Fn(&LadderRun) -> Option<f64>,
) -> Vec<(String, Vec<RungMean>)> {
    runs_by_rung(runs)
        .into_iter()
        .filter_map(|(config, rungs)| {
            let means: Vec<RungMean> = rungs
                .into_iter()
                .filter_map(|(rung, seeds)| {
                    let valued: Vec<(f64, f64)> = seeds
                        .iter()
                        .filter_map(|r| Some((r.compute_pflop, value(r)?)))
                        .collect();
                    let n = valued.len() as f64;
                    (n > 0.0).then(|| RungMean {
                        rung,
                        compute_pflop: valued.iter().map(|v| v.0).sum::<f64>() / n,
                        value: valued.iter().map(|v| v.1).sum::<f64>() / n,
                    })
                })
                .collect();
            (!means.is_empty()).then(|| (config.to_string(), means))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_folders_name_their_rung_and_seed() {
        assert_eq!(parse_run_folder("0.25h-s0"), Some((0.25, 0)));
        assert_eq!(parse_run_folder("2h-s13"), Some((2.0, 13)));
        for bad in [
            "0.25h", "h-s0", "0h-s0", "-1h-s0", "1h-sx", "nanh-s0", "1x-s0",
        ] {
            assert_eq!(parse_run_folder(bad), None, "{bad}");
        }
    }

    fn run(config: &str, rung: f64, seed: u64, probe: f64, ab4: Tally) -> LadderRun {
        LadderRun {
            config: config.into(),
            rung,
            seed,
            samples: 1000,
            plies: 2000,
            probe,
            compute_pflop: rung,
            anchors: [ab4, Tally::default()],
            in_run: [None; IN_RUN_SHARES.len()],
        }
    }

    fn probe(step: u64, score: f64) -> ProbeLine {
        ProbeLine {
            step,
            score: Some(score),
            value_logloss: Some(1.0 + score),
            policy_top1: Some(score / 2.0),
        }
    }

    #[test]
    fn in_run_probes_average_the_last_four_up_to_the_share() {
        // Ten probes at steps 10, 20, ..., 100 of a run of 100 steps of 10
        // samples; probe k scores k / 10.
        let mut probes: Vec<ProbeLine> = (1..=10).map(|k| probe(10 * k, k as f64 / 10.0)).collect();
        // Half of the samples (500) reaches step 50: the mean of 0.2 to 0.5.
        let half = in_run_probe(&probes, 10, 1000, 0.5).unwrap();
        assert!((half.score - 0.35).abs() < 1e-12, "{half:?}");
        assert!((half.value_logloss - 1.35).abs() < 1e-12);
        assert!((half.policy_top1 - 0.175).abs() < 1e-12);
        // The end: the last four; fewer than four early on.
        let end = in_run_probe(&probes, 10, 1000, 1.0).unwrap();
        assert!((end.score - 0.85).abs() < 1e-12);
        let early = in_run_probe(&probes, 10, 1000, 0.25).unwrap();
        assert!((early.score - 0.15).abs() < 1e-12, "{early:?}");
        assert_eq!(in_run_probe(&probes, 10, 1000, 0.05), None);
        // A probe without its score (an older record) is skipped.
        probes[9].score = None;
        let end = in_run_probe(&probes, 10, 1000, 1.0).unwrap();
        assert!((end.score - 0.75).abs() < 1e-12);
    }

    #[test]
    fn the_in_run_table_has_three_columns_a_share() {
        let mut r = run("base", 0.5, 1, 0.6, Tally::default());
        r.in_run[4] = Some(InRunProbe {
            score: 0.75,
            value_logloss: 1.0625,
            policy_top1: 0.5,
        });
        let csv = ladder_in_run_csv(&[r]);
        let mut lines = csv.lines();
        let header = lines.next().unwrap();
        assert!(
            header
                .starts_with("config,rung,seed,probe_20,value_logloss_20,policy_top1_20,probe_35,"),
            "{header}"
        );
        assert!(
            header.ends_with(",probe_100,value_logloss_100,policy_top1_100"),
            "{header}"
        );
        assert_eq!(
            lines.next(),
            Some("base,0.5,1,,,,,,,,,,,,,0.7500,1.0625,0.5000")
        );
    }

    #[test]
    fn the_table_keeps_empty_cells_for_games_not_played() {
        let t = Tally {
            wins: 95,
            draws: 50,
            losses: 55,
        };
        assert_eq!(t.score(), Some(0.6));
        let csv = ladder_csv(&[run("base", 0.25, 0, 0.58214, t)]);
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("config,rung,seed,samples,plies,probe,score_alphabeta4,score_alphabeta6,games_alphabeta4,games_alphabeta6,compute_pflop")
        );
        assert_eq!(
            lines.next(),
            Some("base,0.25,0,1000,2000,0.5821,0.6000,,200,0,0.2500")
        );
    }

    #[test]
    fn means_are_over_seeds_at_each_rung() {
        let none = Tally::default();
        let mut runs = [
            run("base", 0.5, 0, 0.6, none),
            run("base", 0.25, 0, 0.5, none),
            run("base", 0.25, 1, 0.6, none),
            run("wide", 0.25, 0, 0.7, none),
        ];
        runs[2].compute_pflop = 0.35;
        let means = means_by_rung(&runs, |r| Some(r.probe));
        assert_eq!(means.len(), 2);
        assert_eq!(means[0].0, "base");
        assert_eq!(means[0].1.len(), 2);
        let quarter = means[0].1[0];
        assert_eq!(quarter.rung, 0.25);
        assert!((quarter.value - 0.55).abs() < 1e-12);
        assert!((quarter.compute_pflop - 0.3).abs() < 1e-12);
        let mean = |rung, compute_pflop, value| RungMean {
            rung,
            compute_pflop,
            value,
        };
        assert_eq!(means[0].1[1], mean(0.5, 0.5, 0.6));
        assert_eq!(means[1], ("wide".to_string(), vec![mean(0.25, 0.25, 0.7)]));
        assert!(means_by_rung(&runs, |r| r.anchors[0].score()).is_empty());
    }

    #[test]
    fn compute_counts_self_play_simulations_and_three_passes_a_sample() {
        let net = NetConfig::new().with_blocks(4).with_filters(32);
        let f = net.flops_per_position();
        // 1,000 plies at 36 simulations and 500 samples trained: 37,500
        // evaluations of the network.
        let pflop = estimated_pflop(&net, 36.0, 1000, 500);
        assert!((pflop * 1e15 / f - 37_500.0).abs() < 1e-6, "{pflop}");
        let searches = SearchesRecord {
            full_simulations: 96,
            cheap_simulations: 16,
            full_search_fraction: 0.25,
        };
        assert_eq!(searches.simulations_per_ply(), 36.0);
        // A wider trunk costs more a position, so more a run.
        let wide = net.clone().with_filters(48);
        assert!(estimated_pflop(&wide, 36.0, 1000, 500) > 2.0 * pflop);
    }
}
