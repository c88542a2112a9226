//! `jungle engine`: a JCEI engine on any line-based input and output.
//!
//! It plays any player (`--player SPEC` or `setoption name Player value
//! SPEC`): alpha-beta (the default, iterative deepening), a network or the
//! hand-written evaluator searched with PUCT in chunks (so `stop` and time
//! limits are honoured, the tree kept between chunks), or any other player
//! asked for its move. `go` takes nodes, depth, movetime, `infinite` (until
//! `stop`) and clocks (`wtime`/`btime`/`winc`/`binc`/`movestogo`, shared
//! out by [`crate::clock`]). `setoption name Network value CHECKPOINT` is
//! the network's player with the current options; `Material` adds the
//! survival head's material term to its value
//! (`jungle_net::with_material`), `Qsearch` the quiescence term
//! (`jungle_mcts::WithQuiescence`), `Safety` sets how many moves ahead the
//! root safety check looks for forced wins, `Threads` how many threads
//! judge the search's leaves. The evaluations are cached for the whole
//! session (positions met again in later moves and games cost no network
//! call) until an option that changes them is set. Input is read on its
//! own thread, so `stop` and `quit` reach a running search. A bad command
//! gets an `info string error: ...` line and the engine goes on.

mod options;

use crate::clock::DEFAULT_MOVE_OVERHEAD_MS;
use crate::protocol::{parse, Command, GoParams, Start};
use crate::think::{go_alphabeta, go_player, go_search, Limits, SearchShape};
use jungle_mcts::{
    CacheCounters, Evaluator, HeuristicEvaluator, ParallelEvaluator, Search, SearchConfig,
    PLAY_SAFETY_MOVES,
};
use jungle_net::{CheckpointError, Compute, NoSurvivalHead, ValueTerms};
use jungle_play::line_reader::{read_lines, Peeked, MAX_COMMAND_LINE};
use jungle_play::{PlayerFactory, PlayerSpec, PlayingNet, SpecError, PLAYER_EVAL_CACHE};
use jungle_rules::{
    perft, FenError, Game, GameError, InvalidKey, Move, Position, Rules, RulesError,
};
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// `perft` that `stop` can end: the counts below each pair of first moves
/// are summed one by one, the flag read between them; `None` when stopped.
fn stoppable_perft(pos: &Position, rules: &Rules, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 2 {
        return Some(perft(pos, rules, depth));
    }
    let mut total = 0;
    for mv in pos.legal_moves(rules).iter() {
        let child = pos.play(*mv);
        for reply in child.legal_moves(rules).iter() {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            total += perft(&child.play(*reply), rules, depth - 2);
        }
    }
    Some(total)
}

/// The engine's name in `id name`.
pub const ENGINE_NAME: &str = concat!("jungle-zero ", env!("CARGO_PKG_VERSION"));
/// Default simulations of a search for a plain `go`.
pub const DEFAULT_NODES: u64 = 800;
/// The most simulations the `Simulations` option takes: one `go` searches
/// in small chunks (64 simulations) until its total, its clock or
/// `TreeMemory` stops it, so its total is not held to one search call's
/// ceiling ([`jungle_mcts::MAX_SIMULATIONS`]).
pub const MAX_NODES: u64 = 10_000_000;
/// Default alpha-beta depth for a plain `go`.
pub const DEFAULT_DEPTH: u32 = 6;
/// Most moves the `Safety` option may ask the root safety check to look ahead.
const MAX_SAFETY: u32 = 8;
/// Default bound of the search tree's memory, in MiB (`TreeMemory`): some
/// million simulations; a `go infinite` or a huge `go nodes` stops growing
/// the tree there.
pub const DEFAULT_TREE_MIB: usize = 1024;
/// Most root moves the `MultiPV` option reports.
const MAX_MULTIPV: usize = 32;
/// Most MiB the `TreeMemory` option takes.
const MAX_TREE_MIB: usize = 1 << 20;
/// Most threads the `Threads` option takes.
pub const MAX_THREADS: usize = 256;
/// Leaves each thread judges per round of a search on several threads
/// (kept apart by virtual loss).
const LEAVES_PER_THREAD: u32 = 4;

/// Why a `setoption` or a `position` was refused (the engine answers
/// `info string error: ...` and goes on).
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// The rule set did not load.
    #[error(transparent)]
    Variant(#[from] RulesError),
    /// The checkpoint did not load.
    #[error(transparent)]
    Network(#[from] CheckpointError),
    /// The player spec was refused or its player did not load.
    #[error(transparent)]
    Player(#[from] SpecError),
    /// A material weight and a network without the survival head.
    #[error("{option} for network {network}: {source}")]
    NoSurvivalHead {
        /// The option being set.
        option: &'static str,
        /// The network's path.
        network: String,
        /// Why.
        source: NoSurvivalHead,
    },
    /// An option's value is not accepted.
    #[error("{option} `{value}`: expected {expected}")]
    Value {
        /// The option.
        option: &'static str,
        /// The text given.
        value: String,
        /// What is accepted.
        expected: String,
    },
    /// No such option.
    #[error("unknown option `{0}`; expected {names}", names = options::option_names())]
    UnknownOption(String),
    /// The position string is malformed.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// A move of `position ... moves` cannot be played.
    #[error("move `{text}`: {source}")]
    Move {
        /// The move text.
        text: String,
        /// Why.
        source: GameError,
    },
}

/// A weight option: a number that `check` accepts.
fn weight(
    option: &'static str,
    value: &str,
    check: fn(f32) -> Result<(), InvalidKey>,
) -> Result<f32, CommandError> {
    let refused = |expected: String| CommandError::Value {
        option,
        value: value.to_string(),
        expected,
    };
    let w: f32 = value.parse().map_err(|_| refused("a number".into()))?;
    check(w).map_err(|e| refused(e.expected))?;
    Ok(w)
}

/// A whole-number option from `min` to `max`.
fn whole<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    option: &'static str,
    value: &str,
    min: T,
    max: T,
) -> Result<T, CommandError> {
    value
        .parse()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| CommandError::Value {
            option,
            value: value.to_string(),
            expected: format!("a whole number from {min} to {max}"),
        })
}

/// A checkpoint the engine searches with.
struct Network {
    path: PathBuf,
    net: PlayingNet,
}

/// What the engine plays with.
enum Brain {
    /// Alpha-beta, iterative deepening (a plain `go` goes to `Depth`).
    AlphaBeta,
    /// The search (PUCT) with a network's evaluator, or with the
    /// hand-written one (`mcts:`); a plain `go` runs `Simulations`.
    Search {
        /// The network; `None` for the hand-written evaluator.
        network: Option<Box<Network>>,
        /// The search's settings (the safety check and the simulations
        /// come from the options).
        config: SearchConfig,
    },
    /// Any other player (random, greedy, an external engine), asked for
    /// its move with its own budget.
    Other(Box<dyn PlayerFactory>),
}

/// The state of one engine session.
pub struct Engine {
    rules: Rules,
    variant: String,
    brain: Brain,
    /// The player spec, as `setoption name Player` or `--player` gave it.
    player: String,
    /// Weight of the survival head's material term in the network's value.
    material: f32,
    /// Weight of the quiescence term in the network's value.
    qsearch: f32,
    /// Moves of the search's root safety check (`safety_moves`).
    safety: u32,
    nodes: u64,
    depth: u32,
    /// Threads that judge a search's leaves.
    threads: usize,
    /// Milliseconds kept back from the clock each move.
    overhead_ms: u64,
    /// Bound of the search tree's memory, in MiB.
    tree_mib: usize,
    /// Root moves a search reports (`MultiPV`).
    multipv: usize,
    game: Game,
    /// Why the last `position` was refused, until one is accepted.
    position_error: Option<String>,
    search: Option<Search>,
    /// The search's evaluator with its cache, kept across moves and games;
    /// dropped when Player, Variant, Network, Material, Qsearch or
    /// Threads changes.
    evaluator: Option<Box<dyn Evaluator + Send>>,
    /// What `evaluator`'s cache has answered.
    cache: Arc<CacheCounters>,
    seed: u64,
    /// Where networks run (`--device`).
    compute: Compute,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine under the standard rules, alpha-beta until a player or a
    /// network is set.
    pub fn new() -> Engine {
        Engine {
            rules: Rules::default(),
            variant: "standard".to_string(),
            brain: Brain::AlphaBeta,
            player: format!("alphabeta:{DEFAULT_DEPTH}"),
            material: 0.0,
            qsearch: 0.0,
            safety: PLAY_SAFETY_MOVES,
            nodes: DEFAULT_NODES,
            depth: DEFAULT_DEPTH,
            threads: 1,
            overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            tree_mib: DEFAULT_TREE_MIB,
            multipv: 1,
            game: Game::new(Rules::default()),
            position_error: None,
            search: None,
            evaluator: None,
            cache: Arc::default(),
            seed: 0,
            compute: Compute::cpu(),
        }
    }

    /// This engine with its networks on `compute`'s device (the CPU by
    /// default); set before a player or a network.
    pub fn on(mut self, compute: Compute) -> Engine {
        self.compute = compute;
        self.search = None;
        self.evaluator = None;
        self
    }

    /// An engine playing `spec` (any player spec, as `setoption name
    /// Player` takes it).
    pub fn with_player(spec: &str) -> Result<Engine, CommandError> {
        let mut engine = Engine::new();
        engine.set_player(spec)?;
        Ok(engine)
    }

    /// Plays `spec` from now on (as `setoption name Player` does).
    pub fn set_player_spec(&mut self, spec: &str) -> Result<(), CommandError> {
        self.set_player(spec).map(|_| ())
    }

    /// The lines answering `jcei`: who it is, then its options
    /// ([`options::OPTIONS`]).
    fn identify(&self) -> Vec<String> {
        let mut lines = vec![
            format!("id name {ENGINE_NAME}"),
            "id author the jungle-zero developers".to_string(),
        ];
        lines.extend(options::announce(self));
        lines.push("jceiok".to_string());
        lines
    }

    /// Checks a material weight against the network, if there is one.
    fn check_material(&self, option: &'static str, weight: f32) -> Result<(), CommandError> {
        if let Brain::Search {
            network: Some(n), ..
        } = &self.brain
        {
            NoSurvivalHead::check(weight, n.net.has_survival_head()).map_err(|source| {
                CommandError::NoSurvivalHead {
                    option,
                    network: n.path.display().to_string(),
                    source,
                }
            })?;
        }
        Ok(())
    }

    /// Loads a checkpoint, refused when the material weight needs a
    /// survival head it lacks.
    fn load_network(&self, path: &Path, option: &'static str) -> Result<Network, CommandError> {
        let net = PlayingNet::load(path, &self.compute)?;
        NoSurvivalHead::check(self.material, net.has_survival_head()).map_err(|source| {
            CommandError::NoSurvivalHead {
                option,
                network: format!("{} (no survival head)", path.display()),
                source,
            }
        })?;
        Ok(Network {
            path: path.to_path_buf(),
            net,
        })
    }

    /// `setoption name Player value SPEC`: any player spec.
    fn set_player(&mut self, text: &str) -> Result<String, CommandError> {
        let spec: PlayerSpec = text.parse()?;
        let brain = match &spec {
            PlayerSpec::AlphaBeta(depth) => {
                self.depth = *depth;
                Brain::AlphaBeta
            }
            PlayerSpec::Mcts(s) => {
                self.nodes = u64::from(s.search.simulations);
                self.safety = s.search.safety_moves;
                Brain::Search {
                    network: None,
                    config: s.search.clone(),
                }
            }
            PlayerSpec::Net(n) => {
                let material = std::mem::replace(&mut self.material, n.terms.material_weight);
                let network = self.load_network(&n.checkpoint, "Player");
                let network = match network {
                    Ok(network) => network,
                    Err(e) => {
                        self.material = material;
                        return Err(e);
                    }
                };
                self.qsearch = n.terms.qsearch_weight;
                if n.search.simulations_given {
                    self.nodes = u64::from(n.search.search.simulations);
                }
                self.safety = n.search.search.safety_moves;
                Brain::Search {
                    network: Some(Box::new(network)),
                    config: n.search.search.clone(),
                }
            }
            other => Brain::Other(other.load_on(&self.compute)?),
        };
        self.brain = brain;
        self.player = spec.to_string();
        self.search = None;
        self.evaluator = None;
        Ok(format!("player {}", self.player))
    }

    fn set_position(&mut self, start: &Start, moves: &[String]) -> Result<(), CommandError> {
        let mut game = match start {
            Start::StartPos => Game::new(self.rules.clone()),
            Start::Fen(fen) => Game::from_fen(self.rules.clone(), fen)?,
        };
        for text in moves {
            game.play_text(text).map_err(|source| CommandError::Move {
                text: text.clone(),
                source,
            })?;
        }
        self.game = game;
        Ok(())
    }

    /// The search's evaluator, built on first use: the network's stack
    /// (on `Threads` threads) or the hand-written evaluation.
    fn evaluator(&mut self, network: Option<&Network>) -> &mut (dyn Evaluator + Send) {
        if self.evaluator.is_none() {
            self.cache = Arc::default();
            let evaluator: Box<dyn Evaluator + Send> = match network {
                Some(n) => {
                    let terms = ValueTerms {
                        material_weight: self.material,
                        qsearch_weight: self.qsearch,
                        cache: PLAYER_EVAL_CACHE,
                    };
                    n.net
                        .evaluator_on_threads(&terms, Arc::clone(&self.cache), self.threads)
                        .expect("Material, Qsearch and the network are checked when set")
                }
                None if self.threads == 1 => Box::new(HeuristicEvaluator),
                None => Box::new(ParallelEvaluator::new(vec![
                    HeuristicEvaluator;
                    self.threads
                ])),
            };
            self.evaluator = Some(evaluator);
        }
        self.evaluator.as_deref_mut().expect("built above")
    }

    /// Runs `go`: `info` lines through `say`, then the best move (`None`
    /// when the game is over).
    fn go(
        &mut self,
        go: &GoParams,
        stop: &Arc<AtomicBool>,
        say: &mut dyn FnMut(String),
    ) -> Option<Move> {
        if self.game.is_over() {
            return None;
        }
        let (nodes, depth) = match &self.brain {
            Brain::AlphaBeta => (None, Some(self.depth)),
            Brain::Search { .. } => (Some(self.nodes), None),
            Brain::Other(_) => (None, None),
        };
        let limits = Limits::new(go, &self.game, nodes, depth, self.overhead_ms, stop);
        // The brain is taken out while it searches, so the evaluator and
        // the tree (fields of `self`) can be borrowed beside it.
        let brain = std::mem::replace(&mut self.brain, Brain::AlphaBeta);
        let best = match &brain {
            Brain::AlphaBeta => go_alphabeta(&self.rules, self.seed, &self.game, &limits, say),
            Brain::Search { network, config } => {
                let config = SearchConfig {
                    safety_moves: self.safety,
                    leaves_per_round: if self.threads > 1 {
                        config
                            .leaves_per_round
                            .max(LEAVES_PER_THREAD * self.threads as u32)
                    } else {
                        config.leaves_per_round
                    },
                    ..config.clone()
                };
                let (rules, seed) = (self.rules.clone(), self.seed);
                let max_tree_bytes = self.tree_mib << 20;
                let shape = SearchShape {
                    max_tree_bytes,
                    multipv: self.multipv,
                };
                // A kept tree past the bound (set lower since) starts afresh.
                let mut tree = self
                    .search
                    .take()
                    .filter(|tree| tree.tree_bytes() <= max_tree_bytes)
                    .unwrap_or_else(|| Search::new(rules, config, seed));
                let game = self.game.clone();
                let evaluator = self.evaluator(network.as_deref());
                let best = go_search(&mut tree, &game, evaluator, &limits, &shape, say);
                self.search = Some(tree);
                best
            }
            Brain::Other(factory) => {
                let mut player = factory.build(&self.rules, self.seed);
                go_player(player.as_mut(), &self.game, &limits, say)
            }
        };
        self.brain = brain;
        Some(best)
    }

    /// Handles one command, its answer's lines said through `say` as they
    /// come (a search's `info` lines while it runs); true for `quit`.
    pub fn handle(
        &mut self,
        command: Command,
        stop: &Arc<AtomicBool>,
        say: &mut dyn FnMut(String),
    ) -> bool {
        match command {
            Command::Jcei => self.identify().into_iter().for_each(&mut *say),
            Command::IsReady => say("readyok".to_string()),
            Command::NewGame => {
                self.game = Game::new(self.rules.clone());
                self.search = None;
                self.seed += 1;
            }
            Command::Position { start, moves } => {
                // A refused position leaves none: a `go` after it answers
                // with the error rather than for the position before.
                self.position_error = self.set_position(&start, &moves).err().map(|e| {
                    say(format!("info string error: {e}"));
                    e.to_string()
                });
            }
            Command::Go(_) if self.position_error.is_some() => {
                let why = self.position_error.as_deref().unwrap_or_default();
                say(format!(
                    "info string error: no position (the last `position` was refused: {why})\nbestmove (none)"
                ));
            }
            Command::Go(go) => {
                // `stop` is this search's own flag, set by the input thread
                // for a `stop` read after its `go` (`run_engine`).
                let best = self.go(&go, stop, say);
                say(match best {
                    Some(mv) => format!("bestmove {mv}"),
                    None => {
                        let why = self.game.outcome().map_or("over".into(), |o| o.to_string());
                        format!("info string error: the game is over ({why})\nbestmove (none)")
                    }
                });
            }
            Command::Stop => {}
            Command::Quit => return true,
            Command::Display => {
                self.game
                    .position()
                    .to_string()
                    .lines()
                    .for_each(|l| say(l.to_string()));
                say(format!("variant {}", self.variant));
                say(format!("player {}", self.player));
            }
            Command::Perft(depth) => {
                let started = Instant::now();
                let ms = || started.elapsed().as_millis();
                say(
                    match stoppable_perft(self.game.position(), &self.rules, depth, stop) {
                        Some(count) => format!("perft {depth} nodes {count} time {}", ms()),
                        None => format!("info string perft {depth} stopped after {} ms", ms()),
                    },
                );
            }
            Command::SetOption { name, value } => match options::set_option(self, &name, &value) {
                Ok(note) => say(format!("info string {note}")),
                Err(e) => say(format!("info string error: {e}")),
            },
        }
        false
    }
}

/// Lines said and not yet written: a search waits when this many are
/// queued (a GUI that does not read blocks the engine, not its memory).
const MAX_QUEUED_OUTPUT: usize = 1024;

/// Runs `engine` until `quit` or the end of `input`, answering on
/// `output` as the answers come (a search's `info` lines while it runs),
/// flushed whenever nothing more is waiting. Input is read on its own
/// thread: `stop` and `quit` reach a running search, `isready` during a
/// search is answered at once, and the end of the input ends a search
/// (even `go infinite`) and then the session.
pub fn run_engine<R, W>(mut engine: Engine, input: R, output: W) -> std::io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send,
{
    // One stop flag for each `go` and `perft` read and not yet answered,
    // in order: `stop`, `quit` and the end of the input set those read so
    // far (never one read later, so `stop`, `position`, `go` sent at once
    // stop the first search only).
    let searches: Arc<Mutex<VecDeque<Arc<AtomicBool>>>> = Arc::default();
    let (say_tx, said) = mpsc::sync_channel::<Option<String>>(MAX_QUEUED_OUTPUT);
    std::thread::scope(|scope| {
        let writer = scope.spawn(move || write_lines(&said, output));
        let rx = {
            let (searches, say_tx) = (Arc::clone(&searches), say_tx.clone());
            read_lines(input, MAX_COMMAND_LINE, move |line| {
                let mut searches = searches.lock().expect("no panic holds the lock");
                let stop_all = |searches: &VecDeque<Arc<AtomicBool>>| {
                    searches
                        .iter()
                        .for_each(|s| s.store(true, Ordering::Relaxed))
                };
                match line.map(|l| l.split_whitespace().next().unwrap_or("")) {
                    None | Some("stop" | "quit") => stop_all(&searches),
                    Some(_) if line.is_some_and(starts_search) => {
                        searches.push_back(Arc::default())
                    }
                    Some("isready") if !searches.is_empty() => {
                        let _ = say_tx.send(Some("readyok".to_string()));
                        return Peeked::Answered;
                    }
                    _ => {}
                }
                Peeked::Queue
            })
        };
        let closed = std::cell::Cell::new(false);
        let mut say = |line: String| {
            if say_tx.send(Some(line)).is_err() {
                closed.set(true);
            }
        };
        let idle = Arc::new(AtomicBool::new(false));
        for line in rx {
            let search = line.as_deref().is_ok_and(starts_search);
            let stop = match search {
                true => searches
                    .lock()
                    .expect("no panic holds the lock")
                    .front()
                    .cloned(),
                false => None,
            }
            .unwrap_or_else(|| Arc::clone(&idle));
            let parsed = line
                .map_err(|e| e.to_string())
                .and_then(|l| parse(&l).map_err(|e| e.to_string()));
            let quit = match parsed {
                Ok(Some(command)) => engine.handle(command, &stop, &mut say),
                Ok(None) => false,
                Err(e) => {
                    say(format!("info string error: {e}"));
                    false
                }
            };
            if search {
                searches
                    .lock()
                    .expect("no panic holds the lock")
                    .pop_front();
            }
            if quit || closed.get() {
                break;
            }
        }
        // The writer ends here (the reader thread may still hold a sender).
        let _ = say_tx.send(None);
        writer.join().expect("the writer does not panic")
    })
}

/// Whether `line` is a well-formed `go` or `perft` (a search the input
/// thread can stop, during which it answers `isready`).
fn starts_search(line: &str) -> bool {
    matches!(parse(line), Ok(Some(Command::Go(_) | Command::Perft(_))))
}

/// Writes each line said until the end (`None`), flushing whenever no
/// more is waiting.
fn write_lines<W: Write>(said: &Receiver<Option<String>>, mut output: W) -> std::io::Result<()> {
    let mut next = said.recv().ok().flatten();
    while let Some(line) = next {
        writeln!(output, "{line}")?;
        next = match said.try_recv() {
            Ok(line) => line,
            Err(TryRecvError::Empty) => {
                output.flush()?;
                said.recv().ok().flatten()
            }
            Err(TryRecvError::Disconnected) => None,
        };
    }
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    fn run(engine: &mut Engine, line: &str) -> Vec<String> {
        let stop = Arc::new(AtomicBool::new(false));
        let mut out = Vec::new();
        engine.handle(parse(line).unwrap().unwrap(), &stop, &mut |l| out.push(l));
        out
    }

    /// Runs the engine on `input` in a thread; its output, or `None` if it
    /// did not finish within `seconds`.
    fn session<R: BufRead + Send + 'static>(input: R, seconds: u64) -> Option<String> {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut out = Vec::new();
            run_engine(Engine::new(), input, &mut out).unwrap();
            let _ = tx.send(String::from_utf8(out).unwrap());
        });
        rx.recv_timeout(std::time::Duration::from_secs(seconds))
            .ok()
    }

    #[test]
    fn every_announced_option_takes_its_announced_value_and_only_those_exist() {
        let mut e = Engine::new();
        run(&mut e, "setoption name Threads value 3");
        let announced = run(&mut e, "jcei");
        let options: Vec<&String> = announced
            .iter()
            .filter(|l| l.starts_with("option name "))
            .collect();
        assert_eq!(options.len(), options::OPTIONS.len(), "{announced:?}");
        assert!(
            announced.contains(&"option name Threads type spin default 3 min 1 max 256".into()),
            "the current value is announced: {announced:?}"
        );
        for line in options {
            let words: Vec<&str> = line.split(' ').collect();
            let (name, default) = (words[2], words[6]);
            let out = run(&mut e, &format!("setoption name {name} value {default}"));
            assert!(!out[0].contains("error"), "{line}: {out:?}");
            if line.contains("type spin") {
                let max: u64 = words[words.len() - 1].parse().unwrap();
                let out = run(&mut e, &format!("setoption name {name} value {}", max + 1));
                assert!(
                    out[0].contains(&format!("from {} to {max}", words[8])),
                    "{out:?}"
                );
            }
        }
        let out = run(&mut e, "setoption name Hash value 16");
        assert!(
            out[0].contains("`hash`")
                && out[0].contains("Player, Variant, ")
                && out[0].contains(" or MultiPV"),
            "{out:?}"
        );
        assert_eq!(
            run(&mut e, "setoption name nodes value 99"),
            ["info string simulations 99"]
        );
    }

    #[test]
    fn a_line_that_is_not_utf8_is_answered_and_the_session_goes_on() {
        let input: &[u8] = b"isready\n\xff\xfe bad\nisready\nquit\n";
        let out = session(std::io::Cursor::new(input.to_vec()), 30).expect("finishes");
        assert_eq!(
            out,
            "readyok\ninfo string error: the line is not UTF-8 text\nreadyok\n"
        );
    }

    #[test]
    fn a_refused_position_leaves_none_for_go() {
        let mut e = Engine::new();
        run(&mut e, "position startpos moves a3a4");
        let out = run(&mut e, "position startpos moves a3a9");
        assert!(out[0].contains("a3a9"), "{out:?}");
        let out = run(&mut e, "go depth 1");
        assert!(
            out[0].contains("no position") && out[0].ends_with("bestmove (none)"),
            "{out:?}"
        );
        run(&mut e, "position startpos");
        let out = run(&mut e, "go depth 1");
        assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
        assert!(!out.last().unwrap().contains("none"), "{out:?}");
    }

    #[test]
    fn stop_ends_a_deep_search_and_a_perft_even_when_read_before_them() {
        // Each would take minutes; `stop` is read before the command runs.
        for (command, answer) in [
            ("go depth 40", "bestmove "),
            ("perft 9", "info string perft 9 stopped"),
        ] {
            let input = format!("position startpos\n{command}\nstop\nisready\nquit\n");
            let started = Instant::now();
            let out = session(std::io::Cursor::new(input.into_bytes()), 60).expect("stopped");
            assert!(started.elapsed().as_secs() < 60);
            // `isready` read during the search is answered at once.
            assert!(out.contains(answer) && out.contains("readyok\n"), "{out}");
        }
        let mut e = Engine::new();
        let perft4 = run(&mut e, "perft 4");
        assert!(perft4[0].starts_with("perft 4 nodes 260099 "), "{perft4:?}");
    }

    #[test]
    fn multipv_reports_the_most_visited_root_moves_each_with_its_line() {
        let mut e = Engine::with_player("mcts:100").unwrap();
        assert_eq!(
            run(&mut e, "setoption name MultiPV value 3"),
            ["info string multipv 3"]
        );
        let out = run(&mut e, "go nodes 600");
        let n = out.len();
        let last: Vec<&String> = out[n - 4..n - 1].iter().collect();
        let mut firsts = Vec::new();
        for (k, line) in last.iter().enumerate() {
            assert!(
                line.starts_with(&format!("info multipv {} depth ", k + 1)),
                "{out:?}"
            );
            firsts.push(
                line.split(" pv ")
                    .nth(1)
                    .unwrap()
                    .split(' ')
                    .next()
                    .unwrap(),
            );
        }
        assert_eq!(out[n - 1], format!("bestmove {}", firsts[0]), "{out:?}");
        firsts.sort();
        firsts.dedup();
        assert_eq!(firsts.len(), 3, "three different moves: {out:?}");
        let refused = run(&mut e, "setoption name MultiPV value 33");
        assert!(refused[0].contains("from 1 to 32"), "{refused:?}");
        let refused = run(&mut e, "setoption name TreeMemory value 0");
        assert!(
            refused[0].contains("TreeMemory") && refused[0].contains("from 1 to"),
            "{refused:?}"
        );
    }

    #[test]
    fn alphabeta_finds_the_den_entry_and_reports_depths() {
        let mut e = Engine::new();
        assert!(run(&mut e, "position fen 6e/3C3/w6/7/7/7/7/5D1/L6 w").is_empty());
        let out = run(&mut e, "go depth 3");
        assert_eq!(out.last().unwrap(), "bestmove d8d9", "{out:?}");
        assert!(out[0].starts_with("info depth 1 nodes "), "{out:?}");
    }

    #[test]
    fn options_and_bad_input_are_answered_not_fatal() {
        let mut e = Engine::new();
        let out = run(&mut e, "setoption name Variant value elefant");
        assert!(
            out[0].starts_with("info string error: unknown variant"),
            "{out:?}"
        );
        let out = run(&mut e, "setoption name Variant value elephant-rat");
        assert_eq!(out, ["info string variant elephant-rat"]);
        let out = run(&mut e, "position startpos moves a3a9");
        assert!(out[0].contains("a3a9"), "{out:?}");
        let out = run(&mut e, "setoption name Network value /no/such/checkpoint");
        assert!(out[0].starts_with("info string error"), "{out:?}");
        let out = run(&mut e, "setoption name Safety value 9");
        assert!(out[0].contains("from 0 to 8"), "{out:?}");
        let out = run(&mut e, "setoption name Safety value 0");
        assert_eq!(out, ["info string safety 0"]);
        assert_eq!(e.safety, 0);
        for bad in ["4.5", "-1", "much"] {
            let out = run(&mut e, &format!("setoption name Qsearch value {bad}"));
            assert!(
                out[0].starts_with("info string error: Qsearch"),
                "{bad}: {out:?}"
            );
        }
        assert_eq!(e.qsearch, 0.0);
        let out = run(&mut e, "setoption name Qsearch value 0.5");
        assert_eq!(out, ["info string qsearch 0.5"]);
        assert_eq!(e.qsearch, 0.5);
        let out = run(&mut e, "jcei");
        assert!(
            ["Safety", "Qsearch"].iter().all(|o| out
                .iter()
                .any(|l| l.starts_with(&format!("option name {o}")))),
            "{out:?}"
        );
        let out = run(&mut e, "perft 3");
        assert!(out[0].starts_with("perft 3 nodes "), "{out:?}");
        let out = run(&mut e, "d");
        assert!(out.iter().any(|l| l.contains("a b c d e f g")), "{out:?}");
    }

    #[test]
    fn the_network_evaluations_stay_cached_until_an_option_changes_them() {
        let net = jungle_net::NetConfig::new()
            .with_blocks(1)
            .with_filters(8)
            .with_policy_filters(4)
            .with_value_filters(4)
            .with_value_hidden(8)
            .init(&jungle_net::cpu_device());
        let standard = jungle_rules::RuleSet::new("standard", Rules::default());
        let mut e = Engine::new();
        e.brain = Brain::Search {
            network: Some(Box::new(Network {
                path: PathBuf::from("memory"),
                net: PlayingNet::new(
                    &net,
                    jungle_rules::RuleMixture::single(standard),
                    String::new(),
                    &Compute::cpu(),
                ),
            })),
            config: SearchConfig::for_play(64),
        };
        let lookups = |e: &Engine| e.cache.lookups.load(Ordering::Relaxed);
        let hits = |e: &Engine| e.cache.hits.load(Ordering::Relaxed);
        run(&mut e, "position startpos");
        let out = run(&mut e, "go nodes 128");
        assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
        let (first_lookups, first_hits) = (lookups(&e), hits(&e));
        assert!(first_lookups > 50, "{first_lookups}");
        // A new game searches the same start again from an empty tree: the
        // positions come back from the cache.
        run(&mut e, "jceinewgame");
        run(&mut e, "position startpos");
        run(&mut e, "go nodes 128");
        let (new_lookups, new_hits) = (lookups(&e) - first_lookups, hits(&e) - first_hits);
        assert!(new_lookups > 50, "{new_lookups}");
        assert!(new_hits * 2 > new_lookups, "{new_hits} of {new_lookups}");
        // Qsearch changes every value: the cache starts empty.
        run(&mut e, "setoption name Qsearch value 0.5");
        run(&mut e, "jceinewgame");
        run(&mut e, "position startpos");
        run(&mut e, "go nodes 128");
        assert!(lookups(&e) > 50, "{}", lookups(&e));
        assert!(
            hits(&e) * 2 < lookups(&e),
            "{} of {}",
            hits(&e),
            lookups(&e)
        );
    }

    /// Input that arrives when the test sends it, as from a GUI's pipe.
    struct Pipe(mpsc::Receiver<Vec<u8>>, Vec<u8>);

    impl std::io::Read for Pipe {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.1.is_empty() {
                match self.0.recv() {
                    Ok(bytes) => self.1 = bytes,
                    Err(_) => return Ok(0),
                }
            }
            let n = buf.len().min(self.1.len());
            buf[..n].copy_from_slice(&self.1[..n]);
            self.1.drain(..n);
            Ok(n)
        }
    }

    /// `go infinite` searches until `stop`, however long: past its default
    /// budget for the search, past the depth it would stop at otherwise
    /// for alpha-beta.
    #[test]
    fn go_infinite_searches_until_stop() {
        for (player, beyond) in [("mcts:100", 100u64), ("alphabeta:2", 0)] {
            let (tx, rx) = mpsc::channel();
            let input = std::io::BufReader::new(Pipe(rx, Vec::new()));
            tx.send(
                format!("setoption name Player value {player}\nposition startpos\ngo infinite\n")
                    .into_bytes(),
            )
            .unwrap();
            let started = Instant::now();
            let waiting = std::thread::spawn(move || session(input, 60));
            std::thread::sleep(std::time::Duration::from_millis(600));
            tx.send(b"stop\nquit\n".to_vec()).unwrap();
            let out = waiting.join().unwrap().expect("finishes");
            assert!(started.elapsed().as_millis() >= 600);
            let infos: Vec<&str> = out
                .lines()
                .filter(|l| l.starts_with("info depth"))
                .collect();
            let last = infos.last().unwrap_or_else(|| panic!("{out}"));
            let nodes: u64 = last.split_whitespace().nth(4).unwrap().parse().unwrap();
            assert!(nodes > beyond, "{player}: {last}");
            assert!(
                out.lines().last().unwrap().starts_with("bestmove "),
                "{out}"
            );
            if player.starts_with("alphabeta") {
                // Deeper than a plain `go` (depth 2) would have gone.
                assert!(infos.len() > 2, "{out}");
            }
        }
    }

    #[test]
    fn a_clock_is_shared_out_and_the_info_lines_say_nps_and_wdl() {
        let mut e = Engine::new();
        run(&mut e, "position startpos");
        // 3 s on South's clock, 0 on North's: South thinks about a
        // thirtieth of it and never past half.
        let started = Instant::now();
        let out = run(&mut e, "go wtime 3000 btime 0 winc 0 binc 0");
        let ms = started.elapsed().as_millis();
        assert!(ms < 1500, "{ms} ms");
        assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
        let info = &out[out.len() - 2];
        for field in [" nodes ", " nps ", " time ", " score cp ", " wdl ", " pv "] {
            assert!(info.contains(field), "{field}: {info}");
        }
        // Only North's clock with South to move: the default budget, not
        // a search without end.
        let out = run(&mut e, "go btime 5000");
        assert!(out[out.len() - 2].starts_with("info depth 6 "), "{out:?}");
        // A nearly empty clock answers at once.
        let started = Instant::now();
        run(&mut e, "go wtime 40 btime 40");
        assert!(started.elapsed().as_millis() < 200);
    }

    #[test]
    fn any_player_plays_and_the_options_say_what_is_accepted() {
        let mut e = Engine::new();
        run(&mut e, "position startpos moves a3a4");
        for spec in ["greedy", "random", "mcts:50", "alphabeta:2"] {
            let out = run(&mut e, &format!("setoption name Player value {spec}"));
            assert_eq!(out, [format!("info string player {spec}")]);
            let out = run(&mut e, "go");
            assert!(
                out.last().unwrap().starts_with("bestmove "),
                "{spec}: {out:?}"
            );
        }
        let out = run(&mut e, "d");
        assert_eq!(out.last().unwrap(), "player alphabeta:2");
        assert_eq!(e.depth, 2);
        let out = run(&mut e, "setoption name Player value stockfish");
        assert!(
            out[0].contains("unknown player kind `stockfish`"),
            "{out:?}"
        );
        let out = run(&mut e, "setoption name Player value net:/no/such/net");
        assert!(out[0].contains("/no/such/net"), "{out:?}");
        // A refused player leaves the one before.
        assert_eq!(run(&mut e, "d").last().unwrap(), "player alphabeta:2");
        for (option, bad, expected) in [
            ("Threads", "0", "from 1 to 256"),
            ("Simulations", "0", "from 1 to 10000000"),
            ("MoveOverhead", "-3", "from 0 to 10000"),
        ] {
            let out = run(&mut e, &format!("setoption name {option} value {bad}"));
            assert!(
                out[0].contains(option) && out[0].contains(expected),
                "{option}: {out:?}"
            );
        }
        // The search on two threads plays the budget it is given.
        run(&mut e, "setoption name Player value mcts:300");
        assert_eq!(
            run(&mut e, "setoption name Threads value 2"),
            ["info string threads 2"]
        );
        let out = run(&mut e, "go nodes 300");
        assert!(out[out.len() - 2].contains(" nodes 300 "), "{out:?}");
        let out = run(&mut e, "jcei");
        for option in [
            "Player",
            "Simulations",
            "Threads",
            "Material",
            "Qsearch",
            "MoveOverhead",
        ] {
            assert!(
                out.iter()
                    .any(|l| l.starts_with(&format!("option name {option} "))),
                "{option}: {out:?}"
            );
        }
    }
}
