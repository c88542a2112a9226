//! The rule set of each self-play game: drawn from the run's
//! [`RuleMixture`] by the game's seed, so that a resumed job plays the
//! same games.

use jungle_play::opening::derive_seed;
use jungle_rules::RuleMixture;

/// The index in `mixture` of the rule set of the game seeded `game_seed`:
/// drawn in proportion to the weights, the same for the same seed.
pub fn pick_rule_set(mixture: &RuleMixture, game_seed: u64) -> usize {
    let unit = (derive_seed(game_seed, 4, 0) >> 11) as f64 / (1u64 << 53) as f64;
    mixture.at(unit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::{RuleSet, Rules, WeightedRuleSet};

    fn preset(name: &str, weight: f64) -> WeightedRuleSet {
        WeightedRuleSet::new(name, Rules::preset(name).unwrap(), weight)
    }

    #[test]
    fn games_are_drawn_in_proportion_to_the_weights() {
        let m = RuleMixture::new(vec![
            preset("standard", 4.0),
            preset("bank-rats", 1.0),
            preset("bbdsq", 0.0),
        ])
        .unwrap();
        let mut counts = [0usize; 3];
        for seed in 0..10_000 {
            counts[pick_rule_set(&m, seed)] += 1;
        }
        assert_eq!(counts[2], 0, "weight 0: never drawn");
        let share = counts[0] as f64 / 10_000.0;
        // 0.8 +- 4 standard errors (0.004 each).
        assert!((share - 0.8).abs() < 0.016, "{counts:?}");
        assert_eq!(
            pick_rule_set(&m, 17),
            pick_rule_set(&m, 17),
            "the same seed, the same rule set"
        );
        let single = RuleMixture::single(RuleSet::new("standard", Rules::default()));
        assert_eq!(pick_rule_set(&single, 5), 0);
    }
}
