//! A run's Elo tables and plots, refitted from its `matches.jsonl` and the
//! anchors' games among themselves: one table over every evaluation game,
//! and in a run over a mixture of rule sets (`[run] variants`) one table
//! per rule set from that rule set's games alone, each anchored at
//! `random` = 0 under its own rules.

use crate::anchors::read_anchor_games;
use crate::error::TrainError;
use crate::layout::{player_name, RunPaths};
use crate::matches::{read_matches, MatchLine};
use crate::plots::{
    plot_elo, plot_losses, plot_probe, plot_selfplay, EloPoint, LossPoint, SelfPlayPoint, Series,
};
use crate::state::RunState;
use jungle_play::elo::{fit_elo, Rating};
use plotters::style::{BLACK, BLUE, GREEN, MAGENTA, RED};
use std::path::Path;

/// The Elo tables of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunRatings {
    /// Over every evaluation game (and every rule set's anchor games).
    pub all: Vec<Rating>,
    /// In a run over a mixture: per rule set (by its name in `[run]
    /// variants`), from its games alone; empty otherwise.
    pub by_variant: Vec<(String, Vec<Rating>)>,
}

impl RunRatings {
    /// Whether no evaluation game was played yet.
    pub fn is_empty(&self) -> bool {
        self.all.is_empty()
    }
}

/// A file-name-safe form of a rule set's name (a preset name stays as it
/// is; a toml path becomes its file stem).
pub fn variant_folder(name: &str) -> String {
    Path::new(name)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(name)
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn fit(lines: &[MatchLine], path: &Path) -> Result<Vec<Rating>, TrainError> {
    let results: Vec<_> = lines.iter().map(MatchLine::result).collect();
    fit_elo(&results, "random").map_err(|source| TrainError::Elo {
        path: path.to_path_buf(),
        source,
    })
}

/// `elo.csv`: a row per player of the table over all games; in a run over
/// a mixture, each rule set's games, Elo and standard error in three more
/// columns (`games[NAME]`, `elo[NAME]`, `stderr[NAME]`; empty where the
/// player has no game under it).
fn elo_csv(ratings: &RunRatings) -> String {
    let mut csv = String::from("player,games,elo,stderr");
    for (name, _) in &ratings.by_variant {
        csv.push_str(&format!(",games[{name}],elo[{name}],stderr[{name}]"));
    }
    csv.push('\n');
    for r in &ratings.all {
        csv.push_str(&format!(
            "{},{},{:.1},{:.1}",
            r.player, r.games, r.elo, r.stderr
        ));
        for (_, table) in &ratings.by_variant {
            match table.iter().find(|v| v.player == r.player) {
                Some(v) => csv.push_str(&format!(",{},{:.1},{:.1}", v.games, v.elo, v.stderr)),
                None => csv.push_str(",,,"),
            }
        }
        csv.push('\n');
    }
    csv
}

/// The Elo curve of `ratings` over the run's checkpoints, with the
/// anchors' levels, as `elo.png/svg` and `elo-hours.png/svg` in `dir`.
fn plot_ratings(dir: &Path, state: &RunState, ratings: &[Rating]) -> Result<(), TrainError> {
    let points: Vec<EloPoint> = state
        .checkpoints
        .iter()
        .filter_map(|c| {
            let r = ratings.iter().find(|r| r.player == player_name(c.step))?;
            Some(EloPoint {
                step: c.step as f64,
                hours: c.hours,
                elo: r.elo,
                ci95: 1.96 * r.stderr,
            })
        })
        .collect();
    let anchors: Vec<(String, f64)> = ratings
        .iter()
        .filter(|r| !r.player.starts_with("step:"))
        .map(|r| (r.player.clone(), r.elo))
        .collect();
    std::fs::create_dir_all(dir).map_err(TrainError::io(dir))?;
    plot_elo(dir, &points, &anchors)?;
    Ok(())
}

/// Refits Elo for a run from its `matches.jsonl` (and its `state.json` for
/// hours): writes `elo.csv`, `elo.png/svg`, `elo-hours.png/svg`,
/// `loss.png/svg`, `selfplay.png/svg`, and in a run over a mixture each
/// rule set's Elo plots under `variants/NAME/`; returns the tables.
pub fn report(paths: &RunPaths, state: &RunState) -> Result<RunRatings, TrainError> {
    let (lines, _) = read_matches(&paths.matches())?;
    if lines.is_empty() {
        return Ok(RunRatings::default());
    }
    let mixture = state.config.mixture()?;
    let mut all_games = lines.clone();
    let mut ratings = RunRatings::default();
    for v in 0..mixture.len() {
        let anchors = read_anchor_games(&paths.anchors, &state.config.eval, mixture.rules(v))?;
        all_games.extend(anchors.iter().cloned());
        if mixture.len() > 1 {
            let name = mixture.name(v);
            let mut games: Vec<MatchLine> = lines
                .iter()
                .filter(|m| m.variant.as_deref() == Some(name))
                .cloned()
                .collect();
            if games.is_empty() {
                continue;
            }
            games.extend(anchors);
            let table = fit(&games, &paths.matches())?;
            let dir = paths
                .checkpoints
                .join("variants")
                .join(variant_folder(name));
            plot_ratings(&dir, state, &table)?;
            ratings.by_variant.push((name.to_string(), table));
        }
    }
    ratings.all = fit(&all_games, &paths.matches())?;
    let csv_path = paths.elo();
    jungle_files::write_atomically(&csv_path, elo_csv(&ratings).as_bytes())
        .map_err(TrainError::io(&csv_path))?;
    plot_ratings(&paths.checkpoints, state, &ratings.all)?;
    if !state.losses.is_empty() {
        let losses: Vec<LossPoint> = state
            .losses
            .iter()
            .map(|l| LossPoint {
                step: l.step as f64,
                policy: l.policy as f64,
                value: l.value as f64,
                value_baseline: l.value_baseline.map(f64::from),
                moves_left: l.moves_left as f64,
                survival: l.survival as f64,
            })
            .collect();
        plot_losses(&paths.checkpoints, &losses)?;
    }
    if !state.selfplay.is_empty() {
        let games: Vec<SelfPlayPoint> = state
            .selfplay
            .iter()
            .map(|g| SelfPlayPoint {
                step: g.step as f64,
                draw_percent: 100.0 * g.draw_rate(),
                mean_plies: g.mean_plies(),
            })
            .collect();
        plot_selfplay(&paths.checkpoints, &games)?;
    }
    plot_yardstick(paths, state)?;
    Ok(ratings)
}

/// `probe.png/svg`: the in-run probe and the held-out losses, where the
/// run recorded them.
fn plot_yardstick(paths: &RunPaths, state: &RunState) -> Result<(), TrainError> {
    let probe = |f: fn(&crate::state::ProbeRecord) -> Option<f64>| -> Vec<(f64, f64)> {
        state
            .probes
            .iter()
            .filter_map(|p| Some((p.step as f64, f(p)?)))
            .collect()
    };
    let held = |f: fn(&crate::state::LossRecord) -> Option<f32>| -> Vec<(f64, f64)> {
        state
            .losses
            .iter()
            .filter_map(|l| Some((l.step as f64, f64::from(f(l)?))))
            .collect()
    };
    let probes: Vec<Series> = vec![
        ("probe score", BLACK, probe(|p| p.score)),
        ("policy top-1", BLUE, probe(|p| p.policy_top1)),
        ("policy mass", GREEN, probe(|p| p.policy_mass)),
        ("value sign", RED, probe(|p| p.value_sign)),
    ];
    let losses: Vec<Series> = vec![
        ("held-out policy", BLUE, held(|l| l.held_out_policy)),
        ("held-out value", RED, held(|l| l.held_out_value)),
        ("trained value", MAGENTA, held(|l| Some(l.value))),
    ];
    let keep = |series: Vec<Series>| -> Vec<Series> {
        series.into_iter().filter(|s| !s.2.is_empty()).collect()
    };
    let (probes, losses) = (keep(probes), keep(losses));
    // Both panels need a line: runs from before these were recorded, or
    // with neither, have no plot.
    if probes.is_empty() || losses.is_empty() {
        return Ok(());
    }
    plot_probe(&paths.checkpoints, &probes, &losses)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rating(player: &str, games: u32, elo: f64) -> Rating {
        Rating {
            player: player.to_string(),
            games,
            elo,
            stderr: 10.0,
        }
    }

    #[test]
    fn the_csv_has_a_column_group_per_rule_set() {
        let ratings = RunRatings {
            all: vec![rating("random", 8, 0.0), rating("step:5", 8, 100.0)],
            by_variant: vec![
                (
                    "standard".into(),
                    vec![rating("random", 4, 0.0), rating("step:5", 4, 120.0)],
                ),
                ("bank-rats".into(), vec![rating("random", 4, 0.0)]),
            ],
        };
        let csv = elo_csv(&ratings);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "player,games,elo,stderr,games[standard],elo[standard],stderr[standard],games[bank-rats],elo[bank-rats],stderr[bank-rats]"
        );
        assert_eq!(lines[2], "step:5,8,100.0,10.0,4,120.0,10.0,,,");
        assert_eq!(variant_folder("configs/variants/my rules.toml"), "my_rules");
        assert_eq!(variant_folder("bank-rats"), "bank-rats");
    }
}
