//! Players from specs: the factory of a parsed [`PlayerSpec`]'s players (a
//! `net:` checkpoint loaded, a `jcei:` engine started once), the one place
//! that knows every kind of player.

use crate::alphabeta::AlphaBeta;
use crate::greedy::Greedy;
use crate::jcei::JceiPlayers;
use crate::net_player::NetPlayers;
use crate::player::{Player, PlayerFactory, SearchParts};
use crate::random::RandomPlayer;
use crate::search_player::SearchPlayer;
use crate::spec::{PlayerSpec, SpecError};
use jungle_mcts::{Evaluator, HeuristicEvaluator, Search, SearchConfig};
use jungle_net::Compute;
use jungle_rules::Rules;

impl PlayerSpec {
    /// The factory of this spec's players: a `net:` checkpoint is loaded
    /// here (onto the CPU), a `jcei:` engine started once to check that it
    /// answers, so a bad spec fails before any game.
    pub fn load(&self) -> Result<Box<dyn PlayerFactory>, SpecError> {
        self.load_on(&Compute::cpu())
    }

    /// [`PlayerSpec::load`] with a `net:` checkpoint's network on
    /// `compute`'s device.
    pub fn load_on(&self, compute: &Compute) -> Result<Box<dyn PlayerFactory>, SpecError> {
        let name = self.to_string();
        Ok(match self {
            PlayerSpec::Net(net) => Box::new(NetPlayers::load(name, net, compute)?),
            PlayerSpec::Jcei { command, budget } => Box::new(
                JceiPlayers::start(name.clone(), command, *budget)
                    .map_err(|source| SpecError::Engine { spec: name, source })?,
            ),
            baseline => Box::new(Baseline {
                name,
                spec: baseline.clone(),
            }),
        })
    }
}

/// Parses a spec and loads its factory ([`PlayerSpec::load`]).
pub fn load_player(spec: &str) -> Result<Box<dyn PlayerFactory>, SpecError> {
    load_player_on(spec, &Compute::cpu())
}

/// Parses a spec and loads its factory with a `net:` checkpoint's network
/// on `compute`'s device ([`PlayerSpec::load_on`]).
pub fn load_player_on(spec: &str, compute: &Compute) -> Result<Box<dyn PlayerFactory>, SpecError> {
    spec.parse::<PlayerSpec>()?.load_on(compute)
}

/// The factory of the players that need nothing loaded.
struct Baseline {
    name: String,
    spec: PlayerSpec,
}

impl PlayerFactory for Baseline {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn build(&self, rules: &Rules, seed: u64) -> Box<dyn Player> {
        match &self.spec {
            PlayerSpec::Random => Box::new(RandomPlayer::new(seed)),
            PlayerSpec::Greedy => Box::new(Greedy::new(seed)),
            PlayerSpec::AlphaBeta(depth) => Box::new(AlphaBeta::new(*depth, rules.clone(), seed)),
            PlayerSpec::Mcts(s) => Box::new(SearchPlayer::new(
                self.name.clone(),
                Search::new(rules.clone(), s.search.clone(), seed),
                HeuristicEvaluator,
            )),
            PlayerSpec::Net(_) | PlayerSpec::Jcei { .. } => {
                unreachable!("PlayerSpec::load builds these")
            }
        }
    }

    fn search_parts(&self) -> Option<&dyn SearchParts> {
        matches!(self.spec, PlayerSpec::Mcts(_)).then_some(self as &dyn SearchParts)
    }
}

impl SearchParts for Baseline {
    fn search_config(&self) -> &SearchConfig {
        match &self.spec {
            PlayerSpec::Mcts(s) => &s.search,
            _ => unreachable!("search_parts is Some for mcts only"),
        }
    }

    fn evaluator(&self) -> Box<dyn Evaluator + Send> {
        Box::new(HeuristicEvaluator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine that refuses every rule set is refused before any game:
    /// it would otherwise play under its own rules.
    #[cfg(unix)]
    #[test]
    fn an_engine_that_refuses_the_rule_set_is_refused() {
        let dir = std::env::temp_dir().join(format!("jungle-jcei-refuse-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let script = dir.join("engine.sh");
        std::fs::write(
            &script,
            "#!/bin/sh\nwhile read line; do case \"$line\" in\n\
             jcei) echo jceiok;;\n\
             setoption*) echo 'info string error: unknown variant';;\n\
             isready) echo readyok;;\n\
             quit) exit 0;;\n\
             esac; done\n",
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let e = load_player(&format!("jcei:{}:100", script.display()))
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("refused `setoption name Variant value standard`")
                && e.contains("unknown variant"),
            "{e}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn loading_names_what_is_missing() {
        let e = |s: &str| load_player(s).err().unwrap().to_string();
        assert!(e("net:/no/such/checkpoint").contains("/no/such/checkpoint"));
        let engine = e("jcei:/no/such/engine:100");
        assert!(
            engine.contains("cannot start engine `/no/such/engine`"),
            "{engine}"
        );
        assert_eq!(load_player("alphabeta:2").unwrap().name(), "alphabeta:2");
    }
}
