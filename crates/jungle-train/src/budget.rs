//! A run's budget: what ends it and what its schedule reads. A run is
//! budgeted in training samples (`[run] samples`), in wall-clock minutes
//! (`minutes`) or in generations; the learning-rate drops read the share
//! of the budget spent ([`RunSection::progress`]). A budget in samples
//! makes the same run on any machine, however fast or busy: its
//! generations, games, steps and learning rates depend on the config and
//! the seed alone.

use crate::config::RunSection;
use serde::{Deserialize, Serialize};

/// What a run has spent so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spent {
    /// Finished generations.
    pub generations: u32,
    /// Samples trained on.
    pub samples: u64,
    /// Run time in seconds (across resumes).
    pub seconds: f64,
}

/// Which budget rules a run and how much of it is spent (in `state.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BudgetStatus {
    /// `samples`, `minutes` or `generations`: the limit the schedule reads
    /// (with several, the one in samples, then minutes).
    pub rules: String,
    /// The limit, in its unit.
    pub limit: f64,
    /// What is spent of it, in the same unit.
    pub spent: f64,
    /// The share of the whole run spent (0 to 1), as the schedule reads it.
    pub progress: f64,
}

/// The limit a run's schedule reads: samples when set, else minutes when
/// set, else generations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BudgetUnit {
    /// Training samples (`[run] samples`).
    Samples,
    /// Wall-clock minutes of run time (`[run] minutes`).
    Minutes,
    /// Generations (`[run] generations`).
    Generations,
}

impl BudgetUnit {
    /// Its name in `state.json` (`budget.rules`).
    pub fn name(self) -> &'static str {
        match self {
            BudgetUnit::Samples => "samples",
            BudgetUnit::Minutes => "minutes",
            BudgetUnit::Generations => "generations",
        }
    }
}

impl RunSection {
    /// The unit of the budget that rules.
    pub fn budget_unit(&self) -> BudgetUnit {
        if self.samples > 0 {
            BudgetUnit::Samples
        } else if self.minutes > 0.0 {
            BudgetUnit::Minutes
        } else {
            BudgetUnit::Generations
        }
    }

    /// The budget in words, for the first screen.
    pub fn budget_text(&self) -> String {
        let unit = self.budget_unit();
        let mut text = match unit {
            BudgetUnit::Samples => format!(
                "{} training samples (the same run on any machine; the schedule reads samples trained)",
                self.samples
            ),
            BudgetUnit::Minutes => format!(
                "{} minutes of wall-clock time (the schedule reads the clock)",
                self.minutes
            ),
            BudgetUnit::Generations => format!("{} generations", self.generations),
        };
        if self.generations > 0 && unit != BudgetUnit::Generations {
            text.push_str(&format!(", at most {} generations", self.generations));
        }
        text
    }

    /// How far through its budget the run is (0 to 1): the largest share
    /// spent of the limits set (samples, minutes, generations).
    pub fn progress(&self, spent: Spent) -> f64 {
        let mut p: f64 = 0.0;
        if self.generations > 0 {
            p = p.max(spent.generations as f64 / self.generations as f64);
        }
        if self.minutes > 0.0 {
            p = p.max(spent.seconds / 60.0 / self.minutes);
        }
        if self.samples > 0 {
            p = p.max(spent.samples as f64 / self.samples as f64);
        }
        p.min(1.0)
    }

    /// Whether a limit is reached.
    pub fn is_spent(&self, spent: Spent) -> bool {
        (self.generations > 0 && spent.generations >= self.generations)
            || (self.minutes > 0.0 && spent.seconds / 60.0 >= self.minutes)
            || (self.samples > 0 && spent.samples >= self.samples)
    }

    /// The most training steps of `batch_size` the budget in samples
    /// leaves (`None` without one): the last generation trains only what
    /// is left, so a run trains exactly its budget (rounded up to a batch).
    pub fn steps_left(&self, samples_seen: u64, batch_size: usize) -> Option<usize> {
        (self.samples > 0).then(|| {
            let left = self.samples.saturating_sub(samples_seen);
            left.div_ceil(batch_size.max(1) as u64) as usize
        })
    }

    /// A warning when one evaluation of `seconds` takes more than a
    /// quarter of a budget in minutes: the evaluations then leave little
    /// time to training (`None` otherwise, or without a budget in minutes).
    pub fn evaluation_warning(&self, seconds: f64) -> Option<String> {
        let budget = self.minutes * 60.0;
        (self.minutes > 0.0 && seconds > budget / 4.0).then(|| {
            format!(
                "an evaluation took {seconds:.0} s, {:.0}% of the run's {} minutes: the evaluations leave little time to training; give more minutes, evaluate less often (eval.every) or play fewer games (eval.games_vs_anchors, eval.games_vs_previous)",
                100.0 * seconds / budget,
                self.minutes
            )
        })
    }

    /// The budget's status for `state.json`.
    pub fn budget_status(&self, spent: Spent) -> BudgetStatus {
        let unit = self.budget_unit();
        let (limit, used) = match unit {
            BudgetUnit::Samples => (self.samples as f64, spent.samples as f64),
            BudgetUnit::Minutes => (self.minutes, spent.seconds / 60.0),
            BudgetUnit::Generations => (self.generations as f64, spent.generations as f64),
        };
        BudgetStatus {
            rules: unit.name().to_string(),
            limit,
            spent: used,
            progress: self.progress(spent),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::config::TrainConfig;

    fn run(sets: &[&str]) -> crate::config::RunSection {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        TrainConfig::layered(crate::config::TINY_CONFIG, "tiny", &sets)
            .unwrap()
            .run
    }

    #[test]
    fn an_evaluation_past_a_quarter_of_a_budget_in_minutes_is_warned_of() {
        let one_minute = run(&["run.generations=0", "run.minutes=1"]);
        let warning = one_minute.evaluation_warning(20.0).expect("a warning");
        assert!(
            warning.contains("33%") && warning.contains("eval.every"),
            "{warning}"
        );
        assert!(one_minute.evaluation_warning(10.0).is_none());
        // Budgets in generations or samples are not the clock's.
        assert!(run(&[]).evaluation_warning(1e6).is_none());
    }

    #[test]
    fn samples_rule_when_set_and_the_schedule_reads_them() {
        let r = run(&["run.generations=0", "run.samples=1000"]);
        assert_eq!(r.budget_unit(), super::BudgetUnit::Samples);
        let spent = super::Spent {
            generations: 7,
            samples: 250,
            seconds: 1e6,
        };
        assert_eq!(r.progress(spent), 0.25, "the clock is not read");
        assert!(!r.is_spent(spent));
        assert_eq!(
            r.steps_left(250, 32),
            Some(24),
            "750 samples: 24 batches of 32"
        );
        assert!(r.is_spent(super::Spent {
            samples: 1000,
            ..spent
        }));
        let status = r.budget_status(spent);
        assert_eq!((status.limit, status.spent), (1000.0, 250.0));
    }

    #[test]
    fn minutes_and_samples_together_are_refused() {
        let sets = vec!["run.minutes=5".to_string(), "run.samples=100".to_string()];
        let e = TrainConfig::layered(crate::config::TINY_CONFIG, "tiny", &sets)
            .unwrap_err()
            .to_string();
        assert!(e.contains("minutes") && e.contains("samples"), "{e}");
    }
}
