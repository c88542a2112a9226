//! `net:` players: a checkpoint searched with PUCT (200 simulations per
//! move unless the spec says otherwise), its value with the value terms of
//! the spec ([`jungle_net::ValueTerms`]: the survival head's material term,
//! the quiescence term, the evaluation cache).

use crate::player::Player;
use crate::player::{PlayerFactory, SearchParts};
use crate::playing_net::PlayingNet;
use crate::search_player::SearchPlayer;
use crate::spec::{NetSpec, SpecError};
use jungle_mcts::{Evaluator, Search, SearchConfig};
use jungle_net::{Compute, ValueTerms};
use jungle_rules::{RuleMixture, Rules};
use std::sync::Arc;

/// The players of one loaded checkpoint.
#[derive(Debug)]
pub struct NetPlayers {
    name: String,
    search: SearchConfig,
    terms: ValueTerms,
    /// The network on its device, shared by every player built.
    net: PlayingNet,
}

impl NetPlayers {
    /// Loads `spec`'s checkpoint, places its network on `compute`'s device
    /// and checks its
    /// value terms against the network (a material term needs the survival
    /// head); `name` is the players' name.
    pub fn load(name: String, spec: &NetSpec, compute: &Compute) -> Result<NetPlayers, SpecError> {
        let net = PlayingNet::load(&spec.checkpoint, compute).map_err(|source| {
            SpecError::Checkpoint {
                spec: name.clone(),
                source,
            }
        })?;
        // Build one evaluator now, so a bad term fails here, not in a game.
        net.evaluator(&spec.terms, Arc::default())
            .map_err(|source| SpecError::ValueTerms {
                spec: name.clone(),
                source,
            })?;
        Ok(NetPlayers {
            name,
            search: spec.search.search.clone(),
            terms: spec.terms,
            net,
        })
    }
}

impl PlayerFactory for NetPlayers {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn build(&self, rules: &Rules, seed: u64) -> Box<dyn Player> {
        let search = Search::new(rules.clone(), self.search.clone(), seed);
        let evaluator = self
            .net
            .evaluator(&self.terms, Arc::default())
            .expect("checked in NetPlayers::load");
        Box::new(SearchPlayer::new(self.name.clone(), search, evaluator))
    }

    fn search_parts(&self) -> Option<&dyn SearchParts> {
        Some(self)
    }

    fn training(&self) -> Option<&RuleMixture> {
        Some(self.net.training())
    }
}

impl SearchParts for NetPlayers {
    fn search_config(&self) -> &SearchConfig {
        &self.search
    }

    fn evaluator(&self) -> Box<dyn Evaluator + Send> {
        Box::new(
            self.net
                .evaluator(&self.terms, Arc::default())
                .expect("checked in NetPlayers::load"),
        )
    }
}
