//! Match statistics: score with a 95% interval and the Elo difference it
//! implies.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_964;

/// Wilson score interval for a score `p` (draws as half points) over `n`
/// games. Treating draws as half wins overstates the variance a little, so
/// the interval is slightly conservative; unlike the normal approximation it
/// stays inside [0, 1] and is not empty at a score of 0 or 1.
pub fn wilson_interval(p: f64, n: u32, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Elo difference for an expected score `p` (logistic, 400-point scale).
/// `p` is clamped to [1e-6, 1 - 1e-6] so the result stays finite.
pub fn elo_from_score(p: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / p - 1.0).log10()
}

/// Elo point estimate for a score over `n` games: a score of 0 or 1 is
/// taken half a game away from the edge, so a clean sweep gives a large but
/// finite number.
pub fn elo_estimate(p: f64, n: u32) -> f64 {
    let margin = 0.5 / n.max(1) as f64;
    elo_from_score(p.clamp(margin, 1.0 - margin))
}

/// The score of `wins`, `draws` and `losses` (draws as half points) and
/// the variance of one game's score about it, counting the draws as the
/// half points they are (smaller than the `p (1 - p)` of a match without
/// draws). Both 0 with no games.
pub fn score_and_game_variance(wins: f64, draws: f64, losses: f64) -> (f64, f64) {
    let n = wins + draws + losses;
    if n <= 0.0 {
        return (0.0, 0.0);
    }
    let (w, d, l) = (wins / n, draws / n, losses / n);
    let score = w + d / 2.0;
    let variance = w * (1.0 - score).powi(2) + d * (0.5 - score).powi(2) + l * score.powi(2);
    (score, variance)
}

/// The Elo difference of a match (`elo_estimate` of its score) and that
/// difference's standard error (the score's, through the slope of the
/// logistic curve there): the Elo of a score of 0 or 1 is taken half a
/// game from the edge, so both stay finite.
pub fn elo_with_stderr(wins: u64, draws: u64, losses: u64) -> (f64, f64) {
    let n = wins + draws + losses;
    let (score, variance) = score_and_game_variance(wins as f64, draws as f64, losses as f64);
    let games = u32::try_from(n).unwrap_or(u32::MAX);
    let margin = 0.5 / n.max(1) as f64;
    let p = score.clamp(margin, 1.0 - margin);
    let slope = 400.0 / (std::f64::consts::LN_10 * p * (1.0 - p));
    let stderr = slope * (variance / n.max(1) as f64).sqrt();
    (elo_estimate(score, games), stderr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!(elo_from_score(0.5).abs() < 1e-9);
        assert!((elo_from_score(0.75) - 190.848).abs() < 0.01);
        assert!((elo_from_score(0.25) + 190.848).abs() < 0.01);
        assert!(elo_estimate(1.0, 20).is_finite());
    }

    #[test]
    fn a_match_s_elo_has_the_standard_error_of_its_score() {
        // 150-0-50: score 0.75, +190.8 Elo; the score's standard error
        // sqrt(0.75 x 0.25 / 200) = 0.0306, through the slope 400 / (ln 10
        // x 0.1875) = 926.5 Elo a point: 28.4.
        let (elo, se) = elo_with_stderr(150, 0, 50);
        assert!((elo - 190.85).abs() < 0.01, "{elo}");
        assert!((se - 28.37).abs() < 0.05, "{se}");
        // Draws carry less variance than the wins and losses they replace.
        let (elo_d, se_d) = elo_with_stderr(100, 100, 0);
        assert!((elo_d - 190.85).abs() < 0.01 && se_d < se, "{elo_d} {se_d}");
        // A sweep stays finite; no games, no information.
        assert!(elo_with_stderr(20, 0, 0).0.is_finite());
        assert_eq!(score_and_game_variance(0.0, 0.0, 0.0), (0.0, 0.0));
    }

    #[test]
    fn wilson_interval_contains_the_score_and_narrows() {
        let (lo, hi) = wilson_interval(0.6, 100, Z95);
        assert!(lo < 0.6 && 0.6 < hi);
        let (lo2, hi2) = wilson_interval(0.6, 1000, Z95);
        assert!(hi2 - lo2 < hi - lo);
        let (lo, hi) = wilson_interval(1.0, 20, Z95);
        assert!(lo > 0.8 && hi == 1.0);
    }
}
