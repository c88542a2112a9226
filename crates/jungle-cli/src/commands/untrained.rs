//! Which players' networks were never trained under the rule sets a
//! command plays: `jungle variants` refuses them without `--untrained`,
//! `jungle arena` and `jungle tournament` play them with a warning (a
//! match is how blind play is measured).

use jungle_play::PlayerFactory;
use jungle_rules::Rules;

/// For a player with a training (a `net:` player), the rule sets among
/// `rule_sets` (name, switches) its network was not trained under, in
/// words; `None` when it covers them all or has no network.
pub fn untrained_rule_sets<'a>(
    player: &dyn PlayerFactory,
    rule_sets: impl IntoIterator<Item = (&'a str, &'a Rules)>,
) -> Option<String> {
    let training = player.training()?;
    let missing: Vec<&str> = rule_sets
        .into_iter()
        .filter(|(_, rules)| !training.covers(rules))
        .map(|(name, _)| name)
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "its network was trained under {} only; not under {}",
            training.names(),
            missing.join(", ")
        )
    })
}

/// Prints a `WARNING` line on stderr for each player (the option that
/// named it, the player) whose network never trained under `rules`
/// (`--variant` as given): its games measure blind play.
pub fn warn_untrained(players: &[(&str, &dyn PlayerFactory)], variant: &str, rules: &Rules) {
    for (option, player) in players {
        if let Some(missing) = untrained_rule_sets(*player, [(variant, rules)]) {
            eprintln!(
                "WARNING: {option} {}: {missing}; its games measure blind play \
                 (docs/guide/variants.md)",
                player.name()
            );
        }
    }
}
