//! Player specs (`random`, `greedy`, `alphabeta:DEPTH`,
//! `mcts:SIMS[:KEY=VALUE...]`) and the factory trait the arena builds
//! players through.

use super::{AlphaBeta, Greedy, MctsPlayer, Player, RandomPlayer};
use crate::config::SearchConfig;
use crate::evaluator::HeuristicEvaluator;
use crate::search::Search;
use jungle_rules::Rules;
use std::fmt;
use std::str::FromStr;

/// Builds fresh players, one per game and seat, so games can run in parallel.
pub trait PlayerFactory: Send + Sync {
    /// The spec text, e.g. `alphabeta:3`.
    fn name(&self) -> String;

    /// A new player for one game under `rules`, deterministic for `seed`.
    fn build(&self, rules: &Rules, seed: u64) -> Box<dyn Player>;
}

/// A baseline player spec.
#[derive(Clone, Debug, PartialEq)]
pub enum BaselineSpec {
    /// Uniformly random legal moves.
    Random,
    /// Den entry, else the best capture, else random.
    Greedy,
    /// Alpha-beta to this depth.
    AlphaBeta(u32),
    /// PUCT with uniform priors and the heuristic value: the players'
    /// search ([`SearchConfig::for_play`]) with the spec's simulations and
    /// its `KEY=VALUE` options set over it.
    Mcts {
        /// The search, options applied.
        search: SearchConfig,
        /// The options as written, in order (for the spec's name).
        options: Vec<String>,
    },
}

/// Why a player spec was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("player spec `{spec}`: {problem}")]
pub struct SpecError {
    /// The text given.
    pub spec: String,
    /// What was wrong and what is expected.
    pub problem: String,
}

/// The forms a spec may take, for error messages.
pub const SPEC_FORMS: &str =
    "random, greedy, alphabeta:DEPTH (1-12), mcts:SIMS[:KEY=VALUE...] (SIMS 1-1000000)";

fn number(spec: &str, text: Option<&str>, what: &str, max: u32) -> Result<u32, SpecError> {
    let err = |problem: String| SpecError {
        spec: spec.to_string(),
        problem,
    };
    let text = text.ok_or_else(|| err(format!("missing {what} after `:`")))?;
    match text.parse::<u32>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(err(format!(
            "{what} `{text}` is not a whole number from 1 to {max}"
        ))),
    }
}

/// `mcts:SIMS[:KEY=VALUE...]`: `arg` is the text after `mcts:`; every
/// option is a key of the search, set over the players' defaults.
fn mcts_spec(spec: &str, arg: Option<&str>) -> Result<BaselineSpec, SpecError> {
    let mut parts = arg.map(|a| a.split(':'));
    let sims = parts.as_mut().and_then(Iterator::next);
    let mut search = SearchConfig::for_play(number(spec, sims, "simulations", 1_000_000)?);
    let mut options = Vec::new();
    for option in parts.into_iter().flatten() {
        let err = |problem: String| SpecError {
            spec: spec.to_string(),
            problem,
        };
        let (key, value) = option.split_once('=').ok_or_else(|| {
            err(format!(
                "option `{option}`: expected KEY=VALUE (a search key, e.g. `cpuct=2.5`)"
            ))
        })?;
        search
            .set(key, value)
            .map_err(|e| err(format!("`{option}`: {e}")))?;
        options.push(option.to_string());
    }
    Ok(BaselineSpec::Mcts { search, options })
}

impl FromStr for BaselineSpec {
    type Err = SpecError;

    fn from_str(spec: &str) -> Result<BaselineSpec, SpecError> {
        let mut parts = spec.splitn(2, ':');
        let kind = parts.next().unwrap_or("");
        let arg = parts.next();
        let no_arg = |s: BaselineSpec| match arg {
            None => Ok(s),
            Some(_) => Err(SpecError {
                spec: spec.to_string(),
                problem: format!("`{kind}` takes no argument"),
            }),
        };
        match kind {
            "random" => no_arg(BaselineSpec::Random),
            "greedy" => no_arg(BaselineSpec::Greedy),
            "alphabeta" => Ok(BaselineSpec::AlphaBeta(number(spec, arg, "depth", 12)?)),
            "mcts" => mcts_spec(spec, arg),
            _ => Err(SpecError {
                spec: spec.to_string(),
                problem: format!("unknown player kind `{kind}`; expected one of {SPEC_FORMS}"),
            }),
        }
    }
}

impl fmt::Display for BaselineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BaselineSpec::Random => write!(f, "random"),
            BaselineSpec::Greedy => write!(f, "greedy"),
            BaselineSpec::AlphaBeta(d) => write!(f, "alphabeta:{d}"),
            BaselineSpec::Mcts { search, options } => {
                write!(f, "mcts:{}", search.simulations)?;
                options.iter().try_for_each(|o| write!(f, ":{o}"))
            }
        }
    }
}

impl PlayerFactory for BaselineSpec {
    fn name(&self) -> String {
        self.to_string()
    }

    fn build(&self, rules: &Rules, seed: u64) -> Box<dyn Player> {
        match self {
            BaselineSpec::Random => Box::new(RandomPlayer::new(seed)),
            BaselineSpec::Greedy => Box::new(Greedy::new(seed)),
            BaselineSpec::AlphaBeta(depth) => Box::new(AlphaBeta::new(*depth, rules.clone(), seed)),
            BaselineSpec::Mcts { search, .. } => {
                let search = Search::new(rules.clone(), search.clone(), seed);
                Box::new(MctsPlayer::new(
                    self.to_string(),
                    search,
                    HeuristicEvaluator,
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_print() {
        for text in [
            "random",
            "greedy",
            "alphabeta:3",
            "mcts:800",
            "mcts:50:cpuct=2.5:safety_moves=0",
        ] {
            assert_eq!(text.parse::<BaselineSpec>().unwrap().to_string(), text);
        }
    }

    #[test]
    fn mcts_options_set_the_search() {
        let spec: BaselineSpec = "mcts:50:cpuct=2.5:safety_moves=0:root=gumbel"
            .parse()
            .unwrap();
        let BaselineSpec::Mcts { search, .. } = spec else {
            panic!("an mcts spec");
        };
        assert_eq!(
            search,
            SearchConfig {
                cpuct: 2.5,
                safety_moves: 0,
                root: crate::config::RootSelection::Gumbel,
                ..SearchConfig::for_play(50)
            }
        );
        let plain: BaselineSpec = "mcts:50".parse().unwrap();
        assert_eq!(
            plain,
            BaselineSpec::Mcts {
                search: SearchConfig::for_play(50),
                options: Vec::new()
            }
        );
    }

    #[test]
    fn bad_specs_say_what_is_expected() {
        let e = |s: &str| s.parse::<BaselineSpec>().unwrap_err().to_string();
        assert!(e("alphabeta").contains("missing depth"));
        assert!(e("alphabeta:0").contains("from 1 to 12"));
        assert!(e("alphabeta:x").contains("`x`"));
        assert!(e("mcts:-5").contains("simulations"));
        assert!(e("mcts").contains("missing simulations"));
        let no_pair = e("mcts:50:cpuct");
        assert!(
            no_pair.contains("`cpuct`") && no_pair.contains("KEY=VALUE"),
            "{no_pair}"
        );
        let unknown_key = e("mcts:50:cpuctt=2");
        assert!(
            unknown_key.contains("cpuctt") && unknown_key.contains("fpu_reduction"),
            "{unknown_key}"
        );
        assert!(e("mcts:50:root=minimax").contains("minimax"));
        assert!(e("random:3").contains("takes no argument"));
        let unknown = e("stockfish");
        assert!(
            unknown.contains("stockfish") && unknown.contains("alphabeta:DEPTH"),
            "{unknown}"
        );
        assert!(e("").contains("unknown player kind"));
    }
}
