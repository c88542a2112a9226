//! What each doubling of compute buys on the ladder (issue 64's target:
//! at least +100 Elo a doubling against the anchors): for each config,
//! between each pair of its neighbouring rungs, the Elo against each of
//! [`LADDER_ANCHORS`] from the games pooled over the rung's seeds, the gain
//! divided by the doublings of compute between the rungs, and its 95%
//! interval.

use crate::ladder::{runs_by_rung, LadderRun, Tally, LADDER_ANCHORS};
use jungle_play::stats::{elo_with_stderr, Z95};

/// One anchor's Elo at a rung, from the games pooled over its seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RungElo {
    /// The pooled games.
    pub games: Tally,
    /// The Elo over the anchor.
    pub elo: f64,
    /// Its standard error.
    pub stderr: f64,
}

/// From one rung of a config to the next.
#[derive(Clone, Debug, PartialEq)]
pub struct Doubling {
    /// The config.
    pub config: String,
    /// The lower rung (hour-equivalents).
    pub from_rung: f64,
    /// The higher rung.
    pub to_rung: f64,
    /// Seeds at each rung.
    pub seeds: (u32, u32),
    /// Doublings of compute between them: log2 of the ratio of the rungs'
    /// mean estimated compute.
    pub doublings: f64,
    /// For each of [`LADDER_ANCHORS`]: the Elo at both rungs, `None` where
    /// a rung has no games against it.
    pub anchors: [Option<(RungElo, RungElo)>; LADDER_ANCHORS.len()],
}

impl Doubling {
    /// Against anchor `i`: the Elo gained per doubling of compute and its
    /// 95% half-width (the two rungs' standard errors combined).
    pub fn gain_per_doubling(&self, i: usize) -> Option<(f64, f64)> {
        let (from, to) = self.anchors[i]?;
        let d = self.doublings;
        let spread = (from.stderr.powi(2) + to.stderr.powi(2)).sqrt();
        Some(((to.elo - from.elo) / d, Z95 * spread / d))
    }
}

/// A config's runs at one rung, pooled.
struct Rung {
    rung: f64,
    seeds: u32,
    /// The mean of its runs' compute.
    compute_pflop: f64,
    games: [Tally; LADDER_ANCHORS.len()],
}

impl Rung {
    fn pooled(rung: f64, seeds: &[&LadderRun]) -> Rung {
        let mut games = [Tally::default(); LADDER_ANCHORS.len()];
        for r in seeds {
            for (pooled, t) in games.iter_mut().zip(&r.anchors) {
                pooled.wins += t.wins;
                pooled.draws += t.draws;
                pooled.losses += t.losses;
            }
        }
        Rung {
            rung,
            seeds: seeds.len() as u32,
            compute_pflop: seeds.iter().map(|r| r.compute_pflop).sum::<f64>() / seeds.len() as f64,
            games,
        }
    }
}

/// Every config's neighbouring rungs (configs in name order, rungs
/// rising); a config with one rung has none.
pub fn doublings(runs: &[LadderRun]) -> Vec<Doubling> {
    let mut out = Vec::new();
    for (config, rungs) in runs_by_rung(runs) {
        let pooled: Vec<Rung> = rungs
            .iter()
            .map(|(rung, seeds)| Rung::pooled(*rung, seeds))
            .collect();
        out.extend(pooled.windows(2).map(|w| {
            let (from, to) = (&w[0], &w[1]);
            Doubling {
                config: config.to_string(),
                from_rung: from.rung,
                to_rung: to.rung,
                seeds: (from.seeds, to.seeds),
                doublings: (to.compute_pflop / from.compute_pflop).log2(),
                anchors: std::array::from_fn(|i| {
                    Some((rung_elo(from.games[i])?, rung_elo(to.games[i])?))
                }),
            }
        }));
    }
    out
}

fn rung_elo(games: Tally) -> Option<RungElo> {
    (games.games() > 0).then(|| {
        let (elo, stderr) = elo_with_stderr(games.wins, games.draws, games.losses);
        RungElo { games, elo, stderr }
    })
}

/// The doublings as CSV: `config, from_rung, to_rung, seeds_from,
/// seeds_to, doublings`, then for each anchor (`A` its column's suffix,
/// `alphabeta4`) `elo_A_from, elo_A_to, gain_A, gain_A_95` (the gain per
/// doubling and its 95% half-width; empty where a rung has no games).
pub fn doublings_csv(doublings: &[Doubling]) -> String {
    let mut out = String::from("config,from_rung,to_rung,seeds_from,seeds_to,doublings");
    for (_, column) in LADDER_ANCHORS {
        let a = column.trim_start_matches("score_");
        out.push_str(&format!(",elo_{a}_from,elo_{a}_to,gain_{a},gain_{a}_95"));
    }
    out.push('\n');
    for d in doublings {
        out.push_str(&format!(
            "{},{},{},{},{},{:.3}",
            d.config, d.from_rung, d.to_rung, d.seeds.0, d.seeds.1, d.doublings
        ));
        for i in 0..LADDER_ANCHORS.len() {
            match (d.anchors[i], d.gain_per_doubling(i)) {
                (Some((from, to)), Some((gain, half))) => out.push_str(&format!(
                    ",{:.1},{:.1},{gain:.1},{half:.1}",
                    from.elo, to.elo
                )),
                _ => out.push_str(",,,,"),
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(config: &str, rung: f64, seed: u64, pflop: f64, ab4: Tally) -> LadderRun {
        LadderRun {
            config: config.to_string(),
            rung,
            seed,
            samples: 0,
            plies: 0,
            probe: 0.5,
            compute_pflop: pflop,
            anchors: [ab4, Tally::default()],
            in_run: [None; 5],
        }
    }

    fn tally(wins: u64, draws: u64, losses: u64) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn a_doubling_pools_the_seeds_and_divides_by_the_compute_ratio() {
        let runs = [
            // Two seeds at the quarter hour pool to 150-0-50 (0.75).
            run("a", 0.25, 0, 0.2, tally(80, 0, 20)),
            run("a", 0.25, 1, 0.2, tally(70, 0, 30)),
            // One seed at the half hour, 180-0-20 (0.9), at twice the compute.
            run("a", 0.5, 0, 0.4, tally(180, 0, 20)),
            // And a config with one rung: no doubling.
            run("b", 0.25, 0, 0.2, tally(100, 0, 100)),
            // Four times the compute to the 2 h rung: two doublings.
            run("a", 2.0, 0, 1.6, tally(190, 0, 10)),
        ];
        let found = doublings(&runs);
        assert_eq!(found.len(), 2, "{found:?}");
        let d = &found[0];
        assert_eq!(
            (d.config.as_str(), d.from_rung, d.to_rung),
            ("a", 0.25, 0.5)
        );
        assert_eq!(d.seeds, (2, 1));
        assert!((d.doublings - 1.0).abs() < 1e-9);
        let (gain, half) = d.gain_per_doubling(0).unwrap();
        // +190.8 -> +381.7; standard errors 28.4 and 40.9.
        assert!((gain - 190.8).abs() < 0.2, "{gain}");
        assert!((half - 1.96 * (28.37f64.powi(2) + 40.94f64.powi(2)).sqrt()).abs() < 0.3);
        assert!(
            d.gain_per_doubling(1).is_none(),
            "no games against alphabeta:6"
        );
        let d = &found[1];
        assert_eq!((d.from_rung, d.to_rung), (0.5, 2.0));
        assert!((d.doublings - 2.0).abs() < 1e-9);
        let (gain2, _) = d.gain_per_doubling(0).unwrap();
        let (to, from) = (d.anchors[0].unwrap().1.elo, d.anchors[0].unwrap().0.elo);
        assert!((gain2 - (to - from) / 2.0).abs() < 1e-9);

        let csv = doublings_csv(&found);
        let mut lines = csv.lines();
        assert_eq!(
            lines.next().unwrap(),
            "config,from_rung,to_rung,seeds_from,seeds_to,doublings,elo_alphabeta4_from,elo_alphabeta4_to,gain_alphabeta4,gain_alphabeta4_95,elo_alphabeta6_from,elo_alphabeta6_to,gain_alphabeta6,gain_alphabeta6_95"
        );
        let first = lines.next().unwrap();
        assert!(
            first.starts_with("a,0.25,0.5,2,1,1.000,190.8,381.7,190.8,"),
            "{first}"
        );
        assert!(first.ends_with(",,,,"), "{first}");
        assert_eq!(lines.count(), 1);
    }
}
