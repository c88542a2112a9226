//! The sequential probability ratio test engine testers run (fishtest,
//! cutechess-cli): after each game, the log-likelihood ratio of "B is
//! `elo1` stronger" against "`elo0`" from the games' wins, draws and
//! losses (the generalised SPRT's normal approximation on the score, as
//! cutechess computes it), stopped at the first crossing of
//! `ln(beta / (1 - alpha))` (H0 accepted) or `ln((1 - beta) / alpha)` (H1).

use crate::stats::{elo_from_score, score_and_game_variance};

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// Not decided yet.
    Continue,
    /// H0: the difference is `elo0` or less.
    AcceptH0,
    /// H1: the difference is `elo1` or more.
    AcceptH1,
}

/// The test's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1 (above `elo0`).
    pub elo1: f64,
    /// Chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Why `--sprt` was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("--sprt `{text}`: {problem}")]
pub struct SprtError {
    text: String,
    problem: String,
}

/// The expected score of an Elo difference.
fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    /// `elo0,elo1` with alpha = beta = 0.05, as fishtest's defaults.
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let problem = |p: &str| SprtError {
            text: text.to_string(),
            problem: p.to_string(),
        };
        let (a, b) = text
            .split_once(',')
            .ok_or_else(|| problem("expected ELO0,ELO1 (e.g. 0,10)"))?;
        let elo0: f64 = a
            .trim()
            .parse()
            .map_err(|_| problem("ELO0 is not a number"))?;
        let elo1: f64 = b
            .trim()
            .parse()
            .map_err(|_| problem("ELO1 is not a number"))?;
        if !(elo0.is_finite() && elo1.is_finite() && elo1 > elo0) {
            return Err(problem("expected finite ELO0 < ELO1"));
        }
        if elo0.abs() > 1000.0 || elo1.abs() > 1000.0 {
            return Err(problem("expected Elo differences within +-1000"));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        })
    }

    /// The two bounds of the log-likelihood ratio: (H0 below, H1 above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after `wins`, `draws`
    /// and `losses` of the tested player. Each count gets 0.001 more, as
    /// fishtest regularises, so a player that won (or drew) every game
    /// still has a variance and the test can end.
    pub fn llr(&self, wins: u32, draws: u32, losses: u32) -> f64 {
        if wins + draws + losses == 0 {
            return 0.0;
        }
        const PRIOR: f64 = 1e-3;
        let (w, d, l) = (
            f64::from(wins) + PRIOR,
            f64::from(draws) + PRIOR,
            f64::from(losses) + PRIOR,
        );
        let n = w + d + l;
        let (score, variance) = score_and_game_variance(w, d, l);
        let (s0, s1) = (score_of(self.elo0), score_of(self.elo1));
        n * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)
    }

    /// The verdict after these games.
    pub fn verdict(&self, wins: u32, draws: u32, losses: u32) -> SprtVerdict {
        let llr = self.llr(wins, draws, losses);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }

    /// The Elo the games show (for the report).
    pub fn elo(wins: u32, draws: u32, losses: u32) -> f64 {
        let n = f64::from(wins + draws + losses).max(1.0);
        elo_from_score((f64::from(wins) + f64::from(draws) / 2.0) / n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_fishtests_and_the_ratio_moves_with_the_results() {
        let t = Sprt::parse("0,10").unwrap();
        let (lo, hi) = t.bounds();
        assert!((lo + 2.944).abs() < 1e-3 && (hi - 2.944).abs() < 1e-3);
        // An even result favours H0 (0 Elo) over H1 (+10).
        assert!(t.llr(100, 100, 100) < 0.0);
        // A clearly better player: H1 after enough games.
        assert!(t.llr(60, 20, 20) > 0.0);
        assert_eq!(t.verdict(600, 200, 200), SprtVerdict::AcceptH1);
        assert_eq!(t.verdict(2000, 2000, 2000), SprtVerdict::AcceptH0);
        assert_eq!(t.verdict(6, 2, 4), SprtVerdict::Continue);
        // No games, no information; a clean sweep still decides.
        assert_eq!(t.llr(0, 0, 0), 0.0);
        assert_eq!(t.verdict(20, 0, 0), SprtVerdict::AcceptH1);
        assert_eq!(t.verdict(0, 0, 20), SprtVerdict::AcceptH0);
        // The ratio grows with the games at a fixed score.
        assert!(t.llr(120, 40, 40) > t.llr(60, 20, 20));
    }

    #[test]
    fn a_bad_test_says_what_is_expected() {
        for (text, expected) in [
            ("10", "ELO0,ELO1"),
            ("x,5", "ELO0 is not"),
            ("5,5", "ELO0 < ELO1"),
            ("0,5000", "+-1000"),
        ] {
            let e = Sprt::parse(text).unwrap_err().to_string();
            assert!(e.contains(expected) && e.contains(text), "{text}: {e}");
        }
    }
}
