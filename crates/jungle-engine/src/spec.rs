//! One parser for every player spec.

use crate::client::JceiSpec;
use jungle_mcts::{BaselineSpec, PlayerFactory, SpecError};
use jungle_net::{cpu_device, NetSpec};

/// Every spec form, for help texts and error messages.
pub const PLAYER_FORMS: &str =
    "random, greedy, alphabeta:DEPTH, mcts:SIMS[:KEY=VALUE...], net:CHECKPOINT[:SIMS][:KEY=VALUE...], jcei:COMMAND[:MOVETIME_MS]";

/// Parses a player spec: a baseline, a network
/// `net:CHECKPOINT[:SIMS][:KEY=VALUE...]` (loaded here) or an external
/// engine `jcei:COMMAND[:MOVETIME_MS]` (started once here to check it
/// answers).
pub fn parse_player(spec: &str) -> Result<Box<dyn PlayerFactory>, String> {
    if spec.starts_with("net:") {
        return NetSpec::parse(spec, &cpu_device())
            .map(|s| Box::new(s) as Box<dyn PlayerFactory>)
            .map_err(|e| e.to_string());
    }
    if spec.starts_with("jcei:") {
        return JceiSpec::parse(spec).map(|s| Box::new(s) as Box<dyn PlayerFactory>);
    }
    spec.parse::<BaselineSpec>()
        .map(|s| Box::new(s) as Box<dyn PlayerFactory>)
        .map_err(|e: SpecError| {
            format!("{e} (or net:CHECKPOINT[:SIMS][:KEY=VALUE...], jcei:COMMAND[:MOVETIME_MS])")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_is_recognised_and_bad_ones_explained() {
        assert_eq!(parse_player("alphabeta:2").unwrap().name(), "alphabeta:2");
        let e = parse_player("alphabet:2").err().unwrap();
        assert!(e.contains("jcei:COMMAND"), "{e}");
        let e = parse_player("jcei:/no/such/engine:100").err().unwrap();
        assert!(e.contains("cannot start engine `/no/such/engine`"), "{e}");
        let e = parse_player("jcei:").err().unwrap();
        assert!(e.contains("missing engine path"), "{e}");
        let e = parse_player("net:/no/such/checkpoint").err().unwrap();
        assert!(e.contains("/no/such/checkpoint"), "{e}");
    }
}
