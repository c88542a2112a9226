//! The engine's options: one table, in the order `jcei` announces them,
//! that says each option's name, its type and range, how its current value
//! reads and what setting it does. `jcei`'s `option` lines, `setoption`
//! and the message for an unknown option are all read from it, so an
//! option is added in one place.

use super::{
    weight, whole, Brain, CommandError, Engine, MAX_MULTIPV, MAX_NODES, MAX_SAFETY, MAX_THREADS,
    MAX_TREE_MIB,
};
use jungle_mcts::SearchConfig;
use jungle_rules::{Game, Rules};
use std::path::Path;

/// What an option holds and how it is set.
pub(super) enum OptionKind {
    /// A whole number from `min` to `max` (`type spin`).
    Spin {
        /// The least value.
        min: u64,
        /// The greatest value.
        max: u64,
        /// The current value.
        get: fn(&Engine) -> u64,
        /// Sets a value already in range; the answer for `info string`.
        set: fn(&mut Engine, u64) -> String,
    },
    /// Text (`type string`), checked by its setter.
    Text {
        /// The current value.
        get: fn(&Engine) -> String,
        /// Sets it; the answer for `info string`, or why it was refused.
        set: fn(&mut Engine, &str) -> Result<String, CommandError>,
    },
}

/// One option of the engine.
pub(super) struct EngineOption {
    /// Its name as announced (`setoption` matches it in any case).
    pub name: &'static str,
    /// Its type, range and effect.
    pub kind: OptionKind,
}

/// Every option, in the order `jcei` announces them.
pub(super) const OPTIONS: [EngineOption; 12] = [
    EngineOption {
        name: "Player",
        kind: OptionKind::Text {
            get: |e| e.player.clone(),
            set: |e, value| e.set_player(value),
        },
    },
    EngineOption {
        name: "Variant",
        kind: OptionKind::Text {
            get: |e| e.variant.clone(),
            set: |e, value| {
                e.rules = Rules::load(value)?;
                e.variant = value.to_string();
                e.game = Game::new(e.rules.clone());
                e.search = None;
                e.evaluator = None;
                Ok(format!("variant {value}"))
            },
        },
    },
    EngineOption {
        name: "Network",
        kind: OptionKind::Text {
            get: |e| match &e.brain {
                Brain::Search {
                    network: Some(n), ..
                } => n.path.display().to_string(),
                _ => "<empty>".to_string(),
            },
            set: |e, value| {
                if value.is_empty() || value == "<empty>" || value == "none" {
                    e.brain = Brain::AlphaBeta;
                    e.player = format!("alphabeta:{}", e.depth);
                    return Ok("no network: alpha-beta search".to_string());
                }
                let network = e.load_network(Path::new(value), "Network")?;
                let note = format!("network {value} ({})", network.net.summary());
                e.brain = Brain::Search {
                    network: Some(Box::new(network)),
                    config: SearchConfig::for_play(e.nodes as u32),
                };
                e.player = format!("net:{value}");
                e.search = None;
                e.evaluator = None;
                Ok(note)
            },
        },
    },
    EngineOption {
        name: "Simulations",
        kind: OptionKind::Spin {
            min: 1,
            max: MAX_NODES,
            get: |e| e.nodes,
            set: |e, n| {
                e.nodes = n;
                format!("simulations {n}")
            },
        },
    },
    EngineOption {
        name: "Threads",
        kind: OptionKind::Spin {
            min: 1,
            max: MAX_THREADS as u64,
            get: |e| e.threads as u64,
            set: |e, n| {
                e.threads = n as usize;
                e.search = None;
                e.evaluator = None;
                format!("threads {n}")
            },
        },
    },
    EngineOption {
        name: "Material",
        kind: OptionKind::Text {
            get: |e| e.material.to_string(),
            set: |e, value| {
                let w = weight("Material", value, jungle_net::check_material_weight)?;
                e.check_material("Material", w)?;
                e.material = w;
                e.evaluator = None;
                Ok(format!("material {w}"))
            },
        },
    },
    EngineOption {
        name: "Qsearch",
        kind: OptionKind::Text {
            get: |e| e.qsearch.to_string(),
            set: |e, value| {
                let check = jungle_mcts::quiescence::check_quiescence_weight;
                e.qsearch = weight("Qsearch", value, check)?;
                e.evaluator = None;
                Ok(format!("qsearch {}", e.qsearch))
            },
        },
    },
    EngineOption {
        name: "Safety",
        kind: OptionKind::Spin {
            min: 0,
            max: MAX_SAFETY as u64,
            get: |e| u64::from(e.safety),
            set: |e, n| {
                e.safety = n as u32;
                e.search = None;
                format!("safety {n}")
            },
        },
    },
    EngineOption {
        name: "Depth",
        kind: OptionKind::Spin {
            min: 1,
            max: 30,
            get: |e| u64::from(e.depth),
            set: |e, n| {
                e.depth = n as u32;
                format!("depth {n}")
            },
        },
    },
    EngineOption {
        name: "MoveOverhead",
        kind: OptionKind::Spin {
            min: 0,
            max: 10_000,
            get: |e| e.overhead_ms,
            set: |e, n| {
                e.overhead_ms = n;
                format!("move overhead {n} ms")
            },
        },
    },
    EngineOption {
        name: "TreeMemory",
        kind: OptionKind::Spin {
            min: 1,
            max: MAX_TREE_MIB as u64,
            get: |e| e.tree_mib as u64,
            set: |e, n| {
                e.tree_mib = n as usize;
                format!("tree memory {n} MiB")
            },
        },
    },
    EngineOption {
        name: "MultiPV",
        kind: OptionKind::Spin {
            min: 1,
            max: MAX_MULTIPV as u64,
            get: |e| e.multipv as u64,
            set: |e, n| {
                e.multipv = n as usize;
                format!("multipv {n}")
            },
        },
    },
];

/// The options' names for a message: `A, B, ... or Z`.
pub(super) fn option_names() -> String {
    let names: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
    let (last, rest) = names.split_last().expect("the engine has options");
    format!("{} or {last}", rest.join(", "))
}

/// `jcei`'s `option` lines, each with the option's current value as its
/// default.
pub(super) fn announce(engine: &Engine) -> Vec<String> {
    OPTIONS
        .iter()
        .map(|o| match &o.kind {
            OptionKind::Spin { min, max, get, .. } => format!(
                "option name {} type spin default {} min {min} max {max}",
                o.name,
                get(engine)
            ),
            OptionKind::Text { get, .. } => {
                format!("option name {} type string default {}", o.name, get(engine))
            }
        })
        .collect()
}

/// `setoption name NAME value VALUE` (the name in any case; `Nodes` is
/// another name of `Simulations`).
pub(super) fn set_option(
    engine: &mut Engine,
    name: &str,
    value: &str,
) -> Result<String, CommandError> {
    let wanted = if name.eq_ignore_ascii_case("nodes") {
        "simulations"
    } else {
        name
    };
    let option = OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(wanted))
        .ok_or_else(|| CommandError::UnknownOption(name.to_ascii_lowercase()))?;
    match &option.kind {
        OptionKind::Spin { min, max, set, .. } => {
            let n = whole(option.name, value, *min, *max)?;
            Ok(set(engine, n))
        }
        OptionKind::Text { set, .. } => set(engine, value),
    }
}
