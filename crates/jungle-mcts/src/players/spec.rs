//! Player specs (`random`, `greedy`, `alphabeta:DEPTH`, `mcts:SIMS`) and the
//! factory trait the arena builds players through.

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaselineSpec {
    /// Uniformly random legal moves.
    Random,
    /// Den entry, else the best capture, else random.
    Greedy,
    /// Alpha-beta to this depth.
    AlphaBeta(u32),
    /// PUCT with uniform priors and the heuristic value, this many simulations.
    Mcts(u32),
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
pub const SPEC_FORMS: &str = "random, greedy, alphabeta:DEPTH (1-12), mcts:SIMS (1-1000000)";

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
            "mcts" => Ok(BaselineSpec::Mcts(number(
                spec,
                arg,
                "simulations",
                1_000_000,
            )?)),
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
            BaselineSpec::Mcts(n) => write!(f, "mcts:{n}"),
        }
    }
}

impl PlayerFactory for BaselineSpec {
    fn name(&self) -> String {
        self.to_string()
    }

    fn build(&self, rules: &Rules, seed: u64) -> Box<dyn Player> {
        match *self {
            BaselineSpec::Random => Box::new(RandomPlayer::new(seed)),
            BaselineSpec::Greedy => Box::new(Greedy::new(seed)),
            BaselineSpec::AlphaBeta(depth) => Box::new(AlphaBeta::new(depth, rules.clone(), seed)),
            BaselineSpec::Mcts(simulations) => {
                let search = Search::new(rules.clone(), SearchConfig::for_play(simulations), seed);
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
        for text in ["random", "greedy", "alphabeta:3", "mcts:800"] {
            assert_eq!(text.parse::<BaselineSpec>().unwrap().to_string(), text);
        }
    }

    #[test]
    fn bad_specs_say_what_is_expected() {
        let e = |s: &str| s.parse::<BaselineSpec>().unwrap_err().to_string();
        assert!(e("alphabeta").contains("missing depth"));
        assert!(e("alphabeta:0").contains("from 1 to 12"));
        assert!(e("alphabeta:x").contains("`x`"));
        assert!(e("mcts:-5").contains("simulations"));
        assert!(e("random:3").contains("takes no argument"));
        let unknown = e("stockfish");
        assert!(
            unknown.contains("stockfish") && unknown.contains("alphabeta:DEPTH"),
            "{unknown}"
        );
        assert!(e("").contains("unknown player kind"));
    }
}
