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
    fn wilson_interval_contains_the_score_and_narrows() {
        let (lo, hi) = wilson_interval(0.6, 100, Z95);
        assert!(lo < 0.6 && 0.6 < hi);
        let (lo2, hi2) = wilson_interval(0.6, 1000, Z95);
        assert!(hi2 - lo2 < hi - lo);
        let (lo, hi) = wilson_interval(1.0, 20, Z95);
        assert!(lo > 0.8 && hi == 1.0);
    }
}
