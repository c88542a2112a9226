//! Player specs: one typed form for every player a command takes, parsed
//! from and printed to the text users write (`alphabeta:4`,
//! `net:checkpoints/main/7492:400:material=0.6`); `load.rs` builds their
//! players.

use crate::jcei::{EngineError, MoveBudget};
use jungle_mcts::quiescence::MAX_QUIESCENCE_WEIGHT;
use jungle_mcts::{SearchConfig, SearchKeyError, MAX_SIMULATIONS, PLAYER_SIMULATIONS};
use jungle_net::{CheckpointError, ValueTerms, ValueTermsError, MAX_MATERIAL_WEIGHT};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// Every form a spec may take, as a literal for `concat!` in help texts
/// (`#[arg(help = concat!("Player A: ", jungle_play::player_forms!()))]`).
#[macro_export]
macro_rules! player_forms {
    () => {
        "random, greedy, alphabeta:DEPTH (1-12), mcts:SIMS[:KEY=VALUE...], \
         net:CHECKPOINT[:SIMS][:material=W][:qsearch=W][:KEY=VALUE...], \
         jcei:COMMAND[:MOVETIME_MS|:nodes=N|:tc=BASE+INC]"
    };
}

/// Every form a spec may take, for help texts and error messages.
pub const PLAYER_FORMS: &str = player_forms!();

/// Evaluations a `net:` player keeps for the game it plays (2^16, some 10
/// MB): the positions its searches meet again cost no network call.
pub const PLAYER_EVAL_CACHE: usize = 1 << 16;

/// A search's settings as a spec gives them: the players' search
/// ([`SearchConfig::for_play`]) with the spec's simulations and its
/// `KEY=VALUE` options set over it.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchSpec {
    /// The search, options applied.
    pub search: SearchConfig,
    /// Whether the spec named the simulations (printed back only then).
    pub simulations_given: bool,
    /// The options as written, in order (printed back as given).
    pub options: Vec<(String, String)>,
}

impl SearchSpec {
    /// The players' search with `simulations`, no options.
    pub fn new(simulations: u32) -> SearchSpec {
        SearchSpec {
            search: SearchConfig::for_play(simulations),
            simulations_given: true,
            options: Vec::new(),
        }
    }

    /// Sets search key `key` to `value` (text, as in a spec).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SearchKeyError> {
        self.search.set(key, value)?;
        self.options.push((key.to_string(), value.to_string()));
        Ok(())
    }

    /// Records a value term set in code, so the spec prints it (a weight
    /// of 0 is the default and is not printed).
    fn note(&mut self, key: &str, weight: f32) {
        self.options.retain(|(k, _)| k != key);
        if weight != 0.0 {
            self.options.push((key.to_string(), weight.to_string()));
        }
    }

    fn write_options(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.options
            .iter()
            .try_for_each(|(k, v)| write!(f, ":{k}={v}"))
    }
}

/// A network player: a checkpoint searched with PUCT, with value terms.
#[derive(Clone, Debug, PartialEq)]
pub struct NetSpec {
    /// The checkpoint (prefix, `.json` or `.bpk`).
    pub checkpoint: PathBuf,
    /// The search.
    pub search: SearchSpec,
    /// The value terms and the cache of its evaluator.
    pub terms: ValueTerms,
}

impl NetSpec {
    /// The checkpoint at `checkpoint` searching `simulations` per move, no
    /// value terms.
    pub fn new(checkpoint: PathBuf, simulations: u32) -> NetSpec {
        NetSpec {
            checkpoint,
            search: SearchSpec::new(simulations),
            terms: ValueTerms {
                cache: PLAYER_EVAL_CACHE,
                ..ValueTerms::NONE
            },
        }
    }

    /// The same with the material term at `weight` (0: none).
    pub fn with_material(mut self, weight: f32) -> NetSpec {
        self.terms.material_weight = weight;
        self.search.note("material", weight);
        self
    }

    /// The same with the quiescence term at `weight` (0: none).
    pub fn with_qsearch(mut self, weight: f32) -> NetSpec {
        self.terms.qsearch_weight = weight;
        self.search.note("qsearch", weight);
        self
    }
}

/// Any player, as a spec names it.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// Den entry, else the best capture, else random.
    Greedy,
    /// Alpha-beta to this depth, with the hand-written evaluation.
    AlphaBeta(u32),
    /// PUCT with uniform priors and the hand-written value.
    Mcts(SearchSpec),
    /// A network searching with PUCT.
    Net(NetSpec),
    /// An external JCEI engine: its command line and what each move gets.
    Jcei {
        /// The command (program and arguments, split at spaces).
        command: String,
        /// Move time, nodes or a clock.
        budget: MoveBudget,
    },
}

/// Why a player spec was rejected.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// The text is not one of [`PLAYER_FORMS`].
    #[error("player spec `{spec}`: {problem}")]
    Syntax {
        /// The text given.
        spec: String,
        /// What was wrong and what is expected.
        problem: String,
    },
    /// A search option was refused.
    #[error("player spec `{spec}`: `{option}`: {source}")]
    SearchKey {
        /// The text given.
        spec: String,
        /// The option as written.
        option: String,
        /// Why.
        source: Box<SearchKeyError>,
    },
    /// The checkpoint could not be loaded.
    #[error("player spec `{spec}`: {source}")]
    Checkpoint {
        /// The spec, as printed.
        spec: String,
        /// The cause.
        source: CheckpointError,
    },
    /// The value terms do not suit the network.
    #[error("player spec `{spec}`: {source}")]
    ValueTerms {
        /// The spec, as printed.
        spec: String,
        /// The cause.
        source: ValueTermsError,
    },
    /// The external engine did not start or answer.
    #[error("player spec `{spec}`: {source}")]
    Engine {
        /// The spec, as printed.
        spec: String,
        /// The cause.
        source: EngineError,
    },
}

/// A whole number from 1 to `max` after `kind:`.
fn number(spec: &str, text: Option<&str>, what: &str, max: u32) -> Result<u32, SpecError> {
    let syntax = |problem: String| SpecError::Syntax {
        spec: spec.to_string(),
        problem,
    };
    let text = text.ok_or_else(|| syntax(format!("missing {what} after `:`")))?;
    match text.parse::<u32>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(syntax(format!(
            "{what} `{text}` is not a whole number from 1 to {max}"
        ))),
    }
}

/// A weight option (`material=W`, `qsearch=W`): a number; its range is
/// checked with the other value terms.
fn weight(spec: &str, key: &str, value: &str, max: f32) -> Result<f32, SpecError> {
    value.parse::<f32>().map_err(|_| SpecError::Syntax {
        spec: spec.to_string(),
        problem: format!("`{key}={value}`: expected a number from 0 to {max}"),
    })
}

/// Applies `KEY=VALUE` options to a search spec; `material` and `qsearch`
/// go to `terms` when it is given (a network's spec).
fn apply_options<'a>(
    spec: &str,
    options: impl Iterator<Item = &'a str>,
    search: &mut SearchSpec,
    mut terms: Option<&mut ValueTerms>,
) -> Result<(), SpecError> {
    for option in options {
        let (key, value) = option.split_once('=').ok_or_else(|| SpecError::Syntax {
            spec: spec.to_string(),
            problem: format!(
                "option `{option}`: expected KEY=VALUE (a search key, e.g. `cpuct=2.5`)"
            ),
        })?;
        match (key, terms.as_deref_mut()) {
            ("material", Some(t)) => {
                t.material_weight = weight(spec, key, value, MAX_MATERIAL_WEIGHT)?;
                search.options.push((key.into(), value.into()));
            }
            ("qsearch", Some(t)) => {
                t.qsearch_weight = weight(spec, key, value, MAX_QUIESCENCE_WEIGHT)?;
                search.options.push((key.into(), value.into()));
            }
            _ => search
                .set(key, value)
                .map_err(|source| SpecError::SearchKey {
                    spec: spec.to_string(),
                    option: option.to_string(),
                    source: Box::new(source),
                })?,
        }
    }
    Ok(())
}

/// `net:CHECKPOINT[:SIMS][:KEY=VALUE...]`, `rest` the text after `net:`:
/// options are taken from the end while they hold `=`, then an all-digit
/// field is the simulations, and the rest is the path (which may hold `:`).
fn net_spec(spec: &str, rest: &str) -> Result<NetSpec, SpecError> {
    let syntax = |problem: String| SpecError::Syntax {
        spec: spec.to_string(),
        problem,
    };
    let mut rest = rest;
    let mut options = Vec::new();
    while let Some((head, option)) = rest.rsplit_once(':') {
        if !option.contains('=') {
            break;
        }
        options.push(option);
        rest = head;
    }
    options.reverse();
    let (path, simulations) = match rest.rsplit_once(':') {
        Some((path, sims)) if !sims.is_empty() && sims.bytes().all(|b| b.is_ascii_digit()) => (
            path,
            Some(number(spec, Some(sims), "simulations", MAX_SIMULATIONS)?),
        ),
        _ => (rest, None),
    };
    if path.is_empty() {
        return Err(syntax("missing checkpoint path after `net:`".into()));
    }
    let mut net = NetSpec::new(
        PathBuf::from(path),
        simulations.unwrap_or(PLAYER_SIMULATIONS),
    );
    net.search.simulations_given = simulations.is_some();
    apply_options(
        spec,
        options.into_iter(),
        &mut net.search,
        Some(&mut net.terms),
    )?;
    net.terms.validate().map_err(|e| SpecError::ValueTerms {
        spec: spec.to_string(),
        source: e.into(),
    })?;
    Ok(net)
}

/// Seconds as in a time control (`10`, `0.1`), in whole milliseconds.
fn seconds_ms(text: &str) -> Option<u64> {
    let s: f64 = text.parse().ok()?;
    (s.is_finite() && (0.0..=86_400.0).contains(&s)).then(|| (s * 1000.0).round() as u64)
}

/// The budget at the end of a `jcei:` spec, if its last field is one:
/// `MS`, `nodes=N` or `tc=BASE+INC`.
fn move_budget(field: &str) -> Option<Result<MoveBudget, &'static str>> {
    if !field.is_empty() && field.bytes().all(|b| b.is_ascii_digit()) {
        return Some(
            field
                .parse::<u64>()
                .ok()
                .filter(|m| (1..=3_600_000).contains(m))
                .map(MoveBudget::MoveTime)
                .ok_or("the move time must be from 1 to 3600000 ms"),
        );
    }
    if let Some(n) = field.strip_prefix("nodes=") {
        return Some(
            n.parse::<u64>()
                .ok()
                .filter(|n| (1..=1_000_000_000).contains(n))
                .map(MoveBudget::Nodes)
                .ok_or("`nodes=N` needs a whole number from 1 to 1000000000"),
        );
    }
    let tc = field.strip_prefix("tc=")?;
    let parsed = tc.split_once('+').and_then(|(base, inc)| {
        Some(MoveBudget::Clock {
            base_ms: seconds_ms(base).filter(|&ms| ms > 0)?,
            increment_ms: seconds_ms(inc)?,
        })
    });
    Some(parsed.ok_or(
        "`tc=BASE+INC` needs seconds, BASE above 0 (e.g. `tc=10+0.1`: 10 s and 0.1 s a move)",
    ))
}

/// `jcei:COMMAND[:MOVETIME_MS|:nodes=N|:tc=BASE+INC]`, `rest` the text
/// after `jcei:`.
fn jcei_spec(spec: &str, rest: &str) -> Result<PlayerSpec, SpecError> {
    let syntax = |problem: &str| SpecError::Syntax {
        spec: spec.to_string(),
        problem: problem.to_string(),
    };
    let (command, budget) = match rest
        .rsplit_once(':')
        .and_then(|(command, field)| Some((command, move_budget(field)?)))
    {
        Some((command, budget)) => (command, budget.map_err(syntax)?),
        None => (rest, MoveBudget::MoveTime(crate::jcei::DEFAULT_MOVETIME_MS)),
    };
    if command.trim().is_empty() {
        return Err(syntax("missing engine path after `jcei:`"));
    }
    Ok(PlayerSpec::Jcei {
        command: command.trim().to_string(),
        budget,
    })
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(spec: &str) -> Result<PlayerSpec, SpecError> {
        let (kind, arg) = match spec.split_once(':') {
            Some((kind, arg)) => (kind, Some(arg)),
            None => (spec, None),
        };
        let no_arg = |s: PlayerSpec| match arg {
            None => Ok(s),
            Some(_) => Err(SpecError::Syntax {
                spec: spec.to_string(),
                problem: format!("`{kind}` takes no argument"),
            }),
        };
        match kind {
            "random" => no_arg(PlayerSpec::Random),
            "greedy" => no_arg(PlayerSpec::Greedy),
            "alphabeta" => Ok(PlayerSpec::AlphaBeta(number(spec, arg, "depth", 12)?)),
            "mcts" => {
                let mut parts = arg.map(|a| a.split(':'));
                let sims = parts.as_mut().and_then(Iterator::next);
                let mut search =
                    SearchSpec::new(number(spec, sims, "simulations", MAX_SIMULATIONS)?);
                apply_options(spec, parts.into_iter().flatten(), &mut search, None)?;
                Ok(PlayerSpec::Mcts(search))
            }
            "net" => net_spec(spec, arg.unwrap_or_default()).map(PlayerSpec::Net),
            "jcei" => jcei_spec(spec, arg.unwrap_or_default()),
            _ => Err(SpecError::Syntax {
                spec: spec.to_string(),
                problem: format!("unknown player kind `{kind}`; expected one of {PLAYER_FORMS}"),
            }),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => write!(f, "random"),
            PlayerSpec::Greedy => write!(f, "greedy"),
            PlayerSpec::AlphaBeta(d) => write!(f, "alphabeta:{d}"),
            PlayerSpec::Mcts(s) => {
                write!(f, "mcts:{}", s.search.simulations)?;
                s.write_options(f)
            }
            PlayerSpec::Net(net) => {
                write!(f, "net:{}", net.checkpoint.display())?;
                if net.search.simulations_given {
                    write!(f, ":{}", net.search.search.simulations)?;
                }
                net.search.write_options(f)
            }
            PlayerSpec::Jcei { command, budget } => write!(f, "jcei:{command}:{budget}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> PlayerSpec {
        s.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn specs_parse_and_print_as_written() {
        for text in [
            "random",
            "greedy",
            "alphabeta:3",
            "mcts:800",
            "mcts:50:cpuct=2.5:safety_moves=0",
            "net:ck/12",
            "net:ck/12:400",
            "net:C:/runs/12:400:material=0.6:qsearch=0.5:cpuct=2",
            "jcei:jungle engine:200",
            "jcei:jungle engine --player net:ck:400:nodes=400",
            "jcei:jungle engine:tc=10+0.1",
            "jcei:e:tc=0.5+0",
        ] {
            assert_eq!(parse(text).to_string(), text);
        }
        assert_eq!(parse("jcei:engine").to_string(), "jcei:engine:1000");
        assert_eq!(
            parse("jcei:jungle engine:tc=10+0.1"),
            PlayerSpec::Jcei {
                command: "jungle engine".into(),
                budget: MoveBudget::Clock {
                    base_ms: 10_000,
                    increment_ms: 100
                }
            }
        );
        // A player spec inside the command keeps its `:` fields; the last
        // field is the budget.
        assert_eq!(
            parse("jcei:jungle engine --player net:ck:200:nodes=200"),
            PlayerSpec::Jcei {
                command: "jungle engine --player net:ck:200".into(),
                budget: MoveBudget::Nodes(200)
            }
        );
    }

    #[test]
    fn options_set_the_search_and_the_terms() {
        let PlayerSpec::Mcts(s) = parse("mcts:50:cpuct=2.5:safety_moves=0:root=gumbel") else {
            panic!("an mcts spec");
        };
        assert_eq!(
            s.search,
            SearchConfig {
                cpuct: 2.5,
                safety_moves: 0,
                root: jungle_mcts::RootSelection::Gumbel,
                ..SearchConfig::for_play(50)
            }
        );
        let PlayerSpec::Net(net) = parse("net:a:b/c:300:material=0.6:qsearch=0.5:solver=false")
        else {
            panic!("a net spec");
        };
        assert_eq!(net.checkpoint, PathBuf::from("a:b/c"));
        assert_eq!(net.search.search.simulations, 300);
        assert!(!net.search.search.solver);
        assert_eq!(
            (net.terms.material_weight, net.terms.qsearch_weight),
            (0.6, 0.5)
        );
        assert_eq!(net.terms.cache, PLAYER_EVAL_CACHE);
        // A typed spec prints as its text form and parses back to itself.
        let typed = PlayerSpec::Net(
            NetSpec::new(PathBuf::from("ck/7"), 128)
                .with_material(0.6)
                .with_qsearch(0.5),
        );
        assert_eq!(typed.to_string(), "net:ck/7:128:material=0.6:qsearch=0.5");
        assert_eq!(parse(&typed.to_string()), typed);
        let PlayerSpec::Net(plain) = parse("net:ck") else {
            panic!("a net spec");
        };
        assert_eq!(plain.search.search.simulations, PLAYER_SIMULATIONS);
    }

    #[test]
    fn bad_specs_say_what_is_expected() {
        let e = |s: &str| s.parse::<PlayerSpec>().unwrap_err().to_string();
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
        // `material` is a network's term, not a search key.
        assert!(e("mcts:50:material=1").contains("unknown search key `material`"));
        assert!(e("random:3").contains("takes no argument"));
        let unknown = e("stockfish");
        for form in ["alphabeta:DEPTH", "net:CHECKPOINT", "jcei:COMMAND"] {
            assert!(
                unknown.contains("stockfish") && unknown.contains(form),
                "{unknown}"
            );
        }
        assert!(e("").contains("unknown player kind"));
        assert!(e("net:").contains("missing checkpoint path"));
        assert!(e("net:ck:0").contains("from 1 to 1000000"));
        let weight = e("net:ck:material=9");
        assert!(
            weight.contains("material_weight") && weight.contains("0 to 4"),
            "{weight}"
        );
        assert!(e("net:ck:qsearch=x").contains("expected a number"));
        assert!(e("jcei:").contains("missing engine path"));
        assert!(e("jcei:engine:0").contains("move time"));
        for bad in ["tc=10", "tc=0+1", "tc=x+1", "tc=5+-1"] {
            let why = e(&format!("jcei:engine:{bad}"));
            assert!(why.contains("tc=BASE+INC"), "{bad}: {why}");
        }
        assert!(e("jcei:engine:nodes=0").contains("nodes=N"));
    }
}
