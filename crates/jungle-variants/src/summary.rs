//! Per-variant counts, intervals and the test against the baseline.

use crate::compare::VariantGame;
use crate::variant::baseline_index;
use jungle_play::stats::{wilson_interval, Z95};
use jungle_rules::EndReason;
use jungle_rules::RuleSet;
use serde::Serialize;
use std::collections::BTreeMap;

/// How a variant's first-mover score differs from the baseline's: a
/// two-sample z-test on the per-game scores (draws as half points, each
/// sample's own variance).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Baseline {
    /// The baseline variant (`standard` when compared, else the first listed).
    pub baseline: String,
    /// This variant's first-mover score minus the baseline's.
    pub difference: f64,
    /// The z statistic.
    pub z: f64,
    /// Two-sided p-value.
    pub p_value: f64,
}

/// One variant's row of the comparison.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct VariantSummary {
    /// Preset name or file.
    pub variant: String,
    /// Games played.
    pub games: u32,
    /// Games the first mover won.
    pub first_wins: u32,
    /// Drawn games (and games stopped at the ply cap).
    pub draws: u32,
    /// Games the second mover won.
    pub second_wins: u32,
    /// 95% Wilson intervals of the three shares.
    pub first_wins_ci95: [f64; 2],
    /// See `first_wins_ci95`.
    pub draws_ci95: [f64; 2],
    /// See `first_wins_ci95`.
    pub second_wins_ci95: [f64; 2],
    /// The first mover's score, draws as half points.
    pub first_score: f64,
    /// Its 95% interval (Wilson).
    pub ci95: [f64; 2],
    /// The test against the baseline (`None` for the baseline itself).
    pub vs_baseline: Option<Baseline>,
    /// The player's score against the opponent (only with `--opponent`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player_score: Option<f64>,
    /// Mean game length in plies (opening included).
    pub mean_plies: f64,
    /// Median game length in plies.
    pub median_plies: f64,
    /// Share of games per end reason (`den`, `annihilation`, `no_move`,
    /// `repetition`, `quiet_limit`, `ply_cap`).
    pub reasons: BTreeMap<String, f64>,
    /// Share of games in which the rule switches were live: some position
    /// had other legal moves or another end than under the baseline
    /// ([`crate::live`]); `None` for the baseline itself.
    pub switch_live: Option<f64>,
    /// Share of games in which a player played a move only this rule set
    /// allows; `None` for the baseline.
    pub switch_played: Option<f64>,
    /// Game lengths, in game order (for the length plot).
    #[serde(skip)]
    pub lengths: Vec<u32>,
}

/// The 95% Wilson interval of a share `count / games`.
fn interval(count: u32, games: u32) -> [f64; 2] {
    interval_of_score(count as f64 / games.max(1) as f64, games)
}

fn mean_and_variance(xs: &[f64]) -> (f64, f64) {
    let n = xs.len().max(1) as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    (mean, var)
}

/// Two-sided p-value of a standard normal statistic.
pub fn two_sided_p(z: f64) -> f64 {
    libm::erfc(z.abs() / std::f64::consts::SQRT_2)
}

/// The two-sample z-test of the mean of `a` against the mean of `b`.
fn z_test(a: &[f64], b: &[f64]) -> (f64, f64, f64) {
    let (ma, va) = mean_and_variance(a);
    let (mb, vb) = mean_and_variance(b);
    let diff = ma - mb;
    let se = (va / a.len().max(1) as f64 + vb / b.len().max(1) as f64).sqrt();
    let z = if se > 0.0 {
        diff / se
    } else if diff == 0.0 {
        0.0
    } else {
        diff.signum() * f64::INFINITY
    };
    (diff, z, two_sided_p(z))
}

/// Sums up the games of each variant; `with_opponent` adds the player's
/// score. The baseline is `standard` if it was compared, else the first
/// variant.
pub fn summarize(
    variants: &[RuleSet],
    games: &[VariantGame],
    with_opponent: bool,
) -> Vec<VariantSummary> {
    let of = |v: usize| games.iter().filter(move |g| g.variant == v);
    let scores = |v: usize| of(v).map(VariantGame::first_score).collect::<Vec<f64>>();
    let base = baseline_index(variants);
    let base_scores = scores(base);
    variants
        .iter()
        .enumerate()
        .map(|(v, variant)| {
            let n = of(v).count() as u32;
            let count = |f: &dyn Fn(&VariantGame) -> bool| of(v).filter(|g| f(g)).count() as u32;
            let first_wins = count(&|g| g.first_score() == 1.0);
            let second_wins = count(&|g| g.first_score() == 0.0);
            let draws = n - first_wins - second_wins;
            let own = scores(v);
            let (first_score, _) = mean_and_variance(&own);
            let vs_baseline = (v != base).then(|| {
                let (difference, z, p_value) = z_test(&own, &base_scores);
                Baseline {
                    baseline: variants[base].name.clone(),
                    difference,
                    z,
                    p_value,
                }
            });
            let lengths: Vec<u32> = of(v).map(|g| g.plies).collect();
            let mean_plies = lengths.iter().map(|&p| p as f64).sum::<f64>() / n.max(1) as f64;
            let mut sorted = lengths.clone();
            sorted.sort_unstable();
            let median_plies = match sorted.len() {
                0 => 0.0,
                k if k % 2 == 1 => sorted[k / 2] as f64,
                k => (sorted[k / 2 - 1] + sorted[k / 2]) as f64 / 2.0,
            };
            let mut reasons: BTreeMap<String, f64> = EndReason::ALL
                .iter()
                .map(|r| r.name())
                .chain(["forfeit", "ply_cap"])
                .map(|r| (r.to_string(), 0.0))
                .collect();
            for (reason, share) in reasons.iter_mut() {
                *share = count(&|g| g.reason_name() == reason) as f64 / n.max(1) as f64;
            }
            VariantSummary {
                variant: variant.name.clone(),
                games: n,
                first_wins,
                draws,
                second_wins,
                first_wins_ci95: interval(first_wins, n),
                draws_ci95: interval(draws, n),
                second_wins_ci95: interval(second_wins, n),
                first_score,
                ci95: interval_of_score(first_score, n),
                vs_baseline,
                player_score: with_opponent
                    .then(|| of(v).map(VariantGame::player_score).sum::<f64>() / n.max(1) as f64),
                mean_plies,
                median_plies,
                reasons,
                switch_live: (v != base)
                    .then(|| count(&|g| g.switch.live) as f64 / n.max(1) as f64),
                switch_played: (v != base)
                    .then(|| count(&|g| g.switch.played) as f64 / n.max(1) as f64),
                lengths,
            }
        })
        .collect()
}

/// The 95% Wilson interval of a mean score over `games`.
fn interval_of_score(score: f64, games: u32) -> [f64; 2] {
    let (lo, hi) = wilson_interval(score, games, Z95);
    [lo, hi]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::SwitchActivity;
    use jungle_play::arena::GameEnd;
    use jungle_rules::{Outcome, Rules, Side};

    fn game(variant: usize, index: u32, winner: Option<Side>, plies: u32) -> VariantGame {
        VariantGame {
            variant,
            index,
            first_mover: Side::South,
            player_first: index.is_multiple_of(2),
            result: GameEnd {
                outcome: Some(Outcome {
                    winner,
                    reason: if winner.is_some() {
                        EndReason::Den
                    } else {
                        EndReason::Repetition
                    },
                }),
                forfeit: None,
                adjudicated: None,
            },
            plies,
            moves: Vec::new(),
            switch: SwitchActivity {
                live: index.is_multiple_of(2),
                live_positions: index.is_multiple_of(2) as u32,
                played: index.is_multiple_of(4),
            },
        }
    }

    fn variants() -> Vec<RuleSet> {
        ["trap-attack", "standard"]
            .iter()
            .map(|n| RuleSet {
                name: n.to_string(),
                rules: Rules::preset(n).unwrap(),
            })
            .collect()
    }

    #[test]
    fn counts_intervals_lengths_and_reasons() {
        // trap-attack: 6 first-mover wins, 2 draws, 2 losses; standard: 5/0/5.
        let mut games = Vec::new();
        for i in 0..10 {
            let w = match i {
                0..6 => Some(Side::South),
                6..8 => None,
                _ => Some(Side::North),
            };
            games.push(game(0, i, w, 10 + i));
            games.push(game(
                1,
                i,
                Some(if i < 5 { Side::South } else { Side::North }),
                50,
            ));
        }
        let s = summarize(&variants(), &games, true);
        assert_eq!((s[0].first_wins, s[0].draws, s[0].second_wins), (6, 2, 2));
        assert!((s[0].first_score - 0.7).abs() < 1e-12);
        assert!(s[0].ci95[0] < 0.7 && 0.7 < s[0].ci95[1]);
        assert!(s[0].first_wins_ci95[0] < 0.6 && s[0].first_wins_ci95[1] > 0.6);
        assert_eq!(s[0].median_plies, 14.5);
        assert_eq!(s[0].mean_plies, 14.5);
        assert!((s[0].reasons["den"] - 0.8).abs() < 1e-12);
        assert!((s[0].reasons["repetition"] - 0.2).abs() < 1e-12);
        assert_eq!(s[0].reasons["quiet_limit"], 0.0);
        // The baseline is `standard` though it is listed second.
        let b = s[0].vs_baseline.as_ref().unwrap();
        assert_eq!(b.baseline, "standard");
        assert!((b.difference - 0.2).abs() < 1e-12);
        // se = sqrt(0.16/10 + 0.25/10) = 0.2025 -> z = 0.988, p = 0.323
        assert!((b.z - 0.2 / (0.041f64).sqrt()).abs() < 1e-9, "{}", b.z);
        assert!((b.p_value - 0.323).abs() < 0.002, "{}", b.p_value);
        assert!(s[1].vs_baseline.is_none());
        // Live in the even games (5 of 10), played in games 0, 4 and 8.
        assert_eq!(s[0].switch_live, Some(0.5));
        assert_eq!(s[0].switch_played, Some(0.3));
        assert_eq!((s[1].switch_live, s[1].switch_played), (None, None));
        // The player moved first in even games.
        let by_hand: f64 = games
            .iter()
            .filter(|g| g.variant == 0)
            .map(|g| {
                if g.index % 2 == 0 {
                    g.first_score()
                } else {
                    1.0 - g.first_score()
                }
            })
            .sum::<f64>()
            / 10.0;
        assert!((s[0].player_score.unwrap() - by_hand).abs() < 1e-12);
    }

    #[test]
    fn p_values_of_known_statistics() {
        assert!((two_sided_p(1.959_964) - 0.05).abs() < 1e-6);
        assert!((two_sided_p(0.0) - 1.0).abs() < 1e-12);
        assert!(two_sided_p(-5.0) < 1e-6);
    }
}
