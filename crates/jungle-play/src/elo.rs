//! Elo by maximum likelihood over all recorded games: Bradley-Terry on the
//! 400-point logistic scale, draws counted as half a win and half a loss,
//! one player fixed as the anchor (rating 0), standard errors from the
//! observed information. Each player also gets one virtual draw against the
//! anchor (a weak prior, as BayesElo does) so a player who won or lost every
//! game still gets a finite rating.

use std::collections::BTreeMap;

/// One game's result between two named players.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    /// First player.
    pub a: String,
    /// Second player.
    pub b: String,
    /// A's score: 1 win, 0.5 draw, 0 loss.
    pub score_a: f64,
}

/// A fitted rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// The player.
    pub player: String,
    /// Games played (virtual prior games not counted).
    pub games: u32,
    /// Elo relative to the anchor.
    pub elo: f64,
    /// Standard error (0 for the anchor).
    pub stderr: f64,
}

/// Why a fit could not be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EloError {
    /// The anchor played no game.
    #[error("the anchor `{0}` has no games")]
    NoAnchor(String),
    /// A score outside [0, 1].
    #[error("game {index}: score {score} is not between 0 and 1")]
    BadScore {
        /// Index of the game.
        index: usize,
        /// The score found.
        score: f64,
    },
}

const K: f64 = std::f64::consts::LN_10 / 400.0;

/// Fits ratings with `anchor` fixed at 0; the result is sorted by player
/// name, so it does not depend on the order of `games`.
pub fn fit_elo(games: &[RatedGame], anchor: &str) -> Result<Vec<Rating>, EloError> {
    let mut names: BTreeMap<&str, usize> = BTreeMap::new();
    for g in games {
        names.entry(&g.a).or_insert(0);
        names.entry(&g.b).or_insert(0);
    }
    if !names.contains_key(anchor) {
        return Err(EloError::NoAnchor(anchor.to_string()));
    }
    for (i, name) in names.values_mut().enumerate() {
        *name = i;
    }
    let n = names.len();
    let anchor_index = names[anchor];
    // Pairwise totals: games and score of i against j.
    let mut played = vec![vec![0.0f64; n]; n];
    let mut scored = vec![vec![0.0f64; n]; n];
    let mut counts = vec![0u32; n];
    for (index, g) in games.iter().enumerate() {
        if !(0.0..=1.0).contains(&g.score_a) {
            return Err(EloError::BadScore {
                index,
                score: g.score_a,
            });
        }
        let (a, b) = (names[g.a.as_str()], names[g.b.as_str()]);
        played[a][b] += 1.0;
        played[b][a] += 1.0;
        scored[a][b] += g.score_a;
        scored[b][a] += 1.0 - g.score_a;
        counts[a] += 1;
        counts[b] += 1;
    }
    // The prior: one virtual draw of every player against the anchor.
    for i in 0..n {
        if i != anchor_index {
            played[i][anchor_index] += 1.0;
            played[anchor_index][i] += 1.0;
            scored[i][anchor_index] += 0.5;
            scored[anchor_index][i] += 0.5;
        }
    }
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor_index).collect();
    let mut r = vec![0.0f64; n];
    let mut info = vec![vec![0.0; free.len()]; free.len()];
    for _ in 0..100 {
        // Gradient and observed information (minus the Hessian) of the log-likelihood.
        let mut grad = vec![0.0; free.len()];
        for row in info.iter_mut() {
            row.fill(0.0);
        }
        for (fi, &i) in free.iter().enumerate() {
            for j in 0..n {
                if played[i][j] == 0.0 {
                    continue;
                }
                let p = 1.0 / (1.0 + (-K * (r[i] - r[j])).exp());
                grad[fi] += K * (scored[i][j] - played[i][j] * p);
                let w = K * K * played[i][j] * p * (1.0 - p);
                info[fi][fi] += w;
                if let Some(fj) = free.iter().position(|&x| x == j) {
                    info[fi][fj] -= w;
                }
            }
        }
        let step = solve(&info, &grad);
        let mut biggest: f64 = 0.0;
        for (fi, &i) in free.iter().enumerate() {
            r[i] += step[fi];
            biggest = biggest.max(step[fi].abs());
        }
        if biggest < 1e-9 {
            break;
        }
    }
    let covariance = invert(&info);
    Ok(names
        .iter()
        .map(|(&name, &i)| Rating {
            player: name.to_string(),
            games: counts[i],
            elo: r[i],
            stderr: free
                .iter()
                .position(|&x| x == i)
                .map_or(0.0, |fi| covariance[fi][fi].max(0.0).sqrt()),
        })
        .collect())
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(row, &v)| {
            let mut r = row.clone();
            r.push(v);
            r
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))
            .expect("rows");
        m.swap(col, pivot);
        let d = m[col][col];
        if d.abs() < 1e-300 {
            continue;
        }
        for row in 0..n {
            if row != col {
                let f = m[row][col] / d;
                if f != 0.0 {
                    let pivot_row = m[col].clone();
                    for (x, p) in m[row][col..=n].iter_mut().zip(&pivot_row[col..=n]) {
                        *x -= f * p;
                    }
                }
            }
        }
    }
    (0..n)
        .map(|i| {
            if m[i][i].abs() < 1e-300 {
                0.0
            } else {
                m[i][n] / m[i][i]
            }
        })
        .collect()
}

/// The inverse of a symmetric positive-definite matrix, column by column.
fn invert(a: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = a.len();
    let columns: Vec<Vec<f64>> = (0..n)
        .map(|j| {
            let mut e = vec![0.0; n];
            e[j] = 1.0;
            solve(a, &e)
        })
        .collect();
    (0..n)
        .map(|i| (0..n).map(|j| columns[j][i]).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn synthetic(truth: &[(&str, f64)], games_per_pair: usize, seed: u64) -> Vec<RatedGame> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut games = Vec::new();
        for (i, &(a, ra)) in truth.iter().enumerate() {
            for &(b, rb) in &truth[i + 1..] {
                let p = 1.0 / (1.0 + 10f64.powf((rb - ra) / 400.0));
                for _ in 0..games_per_pair {
                    // A draw a fifth of the time, else a win with probability
                    // chosen so the expected score stays p.
                    let x: f64 = rng.random();
                    let score = if x < 0.2 {
                        0.5
                    } else if rng.random::<f64>() < (p - 0.1) / 0.8 {
                        1.0
                    } else {
                        0.0
                    };
                    games.push(RatedGame {
                        a: a.into(),
                        b: b.into(),
                        score_a: score,
                    });
                }
            }
        }
        games
    }

    #[test]
    fn recovers_known_ratings_within_their_errors() {
        let truth = [
            ("random", 0.0),
            ("greedy", 150.0),
            ("alphabeta:2", 350.0),
            ("ckpt", 250.0),
        ];
        let fit = fit_elo(&synthetic(&truth, 400, 1), "random").unwrap();
        for (name, elo) in truth {
            let r = fit.iter().find(|r| r.player == name).unwrap();
            assert!(
                (r.elo - elo).abs() <= 3.0 * r.stderr.max(1e-9) + 1e-6,
                "{r:?} vs {elo}"
            );
            if name != "random" {
                assert!(r.stderr > 5.0 && r.stderr < 40.0, "{r:?}");
            }
        }
        assert_eq!(fit.iter().find(|r| r.player == "random").unwrap().elo, 0.0);
    }

    #[test]
    fn order_of_games_does_not_matter() {
        let truth = [("random", 0.0), ("a", 100.0), ("b", -50.0)];
        let games = synthetic(&truth, 50, 2);
        let mut reversed = games.clone();
        reversed.reverse();
        let (x, y) = (
            fit_elo(&games, "random").unwrap(),
            fit_elo(&reversed, "random").unwrap(),
        );
        for (p, q) in x.iter().zip(&y) {
            assert_eq!(p.player, q.player);
            assert!((p.elo - q.elo).abs() < 1e-6 && (p.stderr - q.stderr).abs() < 1e-6);
        }
    }

    #[test]
    fn a_clean_sweep_stays_finite_and_bad_input_is_rejected() {
        let games: Vec<RatedGame> = (0..20)
            .map(|_| RatedGame {
                a: "strong".into(),
                b: "random".into(),
                score_a: 1.0,
            })
            .collect();
        let fit = fit_elo(&games, "random").unwrap();
        let strong = fit.iter().find(|r| r.player == "strong").unwrap();
        assert!(strong.elo.is_finite() && strong.elo > 400.0, "{strong:?}");
        assert_eq!(strong.games, 20);
        assert!(matches!(
            fit_elo(&games, "nobody"),
            Err(EloError::NoAnchor(_))
        ));
        let bad = vec![RatedGame {
            a: "x".into(),
            b: "random".into(),
            score_a: 1.5,
        }];
        assert!(matches!(
            fit_elo(&bad, "random"),
            Err(EloError::BadScore { .. })
        ));
    }
}
