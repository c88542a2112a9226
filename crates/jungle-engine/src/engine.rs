//! `jungle engine`: a JCEI engine on any line-based input and output.
//!
//! Without a network it searches with alpha-beta (iterative deepening);
//! `setoption name Network value CHECKPOINT` switches to the network's
//! search (PUCT, run in chunks so `stop` and time limits are honoured);
//! `setoption name Material value W` adds the survival head's material term
//! to its value (`jungle_net::with_material`); `setoption name Qsearch value
//! W` the quiescence term (`jungle_mcts::WithQuiescence`); `setoption name Safety value
//! N` sets how many moves ahead the root safety check looks for forced wins
//! (`safety_moves`; 0 turns it off). The network's evaluations are cached
//! for the whole session (positions met again in later moves and games cost
//! no network call) until an option that changes them is set.
//! Input is read on its own thread, so `stop` and `quit` reach a running
//! search. A bad command gets an `info string error: ...` line and the
//! engine goes on.

use crate::protocol::{parse, Command, GoLimit, Start};
use jungle_mcts::{search, CacheCounters, Search, SearchConfig, PLAY_SAFETY_MOVES};
use jungle_net::{
    cpu_device, load_checkpoint, CheckpointError, NetStack, NoSurvivalHead, PolicyValueNet,
    ValueTerms,
};
use jungle_play::{AlphaBeta, Player, PLAYER_EVAL_CACHE};
use jungle_rules::{
    perft, FenError, Game, GameError, InvalidKey, Move, Position, Rules, RulesError,
};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

/// A line of input that is not UTF-8.
struct NotUtf8;

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
/// Default simulations of the network's search for a plain `go`.
pub const DEFAULT_NODES: u64 = 800;
/// Default alpha-beta depth for a plain `go`.
pub const DEFAULT_DEPTH: u32 = 6;
/// Simulations between checks of the clock and `stop`.
const CHUNK: u32 = 64;
/// Most moves the `Safety` option may ask the root safety check to look ahead.
const MAX_SAFETY: u32 = 8;
/// Most simulations a `go depth` of the network's search may take.
const DEPTH_NODE_CAP: u64 = 200_000;

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
    #[error("unknown option `{0}`; expected Variant, Network, Material, Qsearch, Safety, Nodes or Depth")]
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

/// The state of one engine session.
pub struct Engine {
    rules: Rules,
    variant: String,
    network: Option<(PathBuf, PolicyValueNet)>,
    /// Weight of the survival head's material term in the network's value.
    material: f32,
    /// Weight of the quiescence term in the network's value.
    qsearch: f32,
    /// Moves of the network search's root safety check (`safety_moves`).
    safety: u32,
    nodes: u64,
    depth: u32,
    game: Game,
    /// Why the last `position` was refused, until one is accepted.
    position_error: Option<String>,
    search: Option<Search>,
    /// The network's evaluator with its cache, kept across moves and games;
    /// dropped when Variant, Network, Material or Qsearch changes.
    evaluator: Option<NetStack>,
    /// What `evaluator`'s cache has answered.
    cache: Arc<CacheCounters>,
    seed: u64,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine under the standard rules, alpha-beta until a network is set.
    pub fn new() -> Engine {
        Engine {
            rules: Rules::default(),
            variant: "standard".to_string(),
            network: None,
            material: 0.0,
            qsearch: 0.0,
            safety: PLAY_SAFETY_MOVES,
            nodes: DEFAULT_NODES,
            depth: DEFAULT_DEPTH,
            game: Game::new(Rules::default()),
            position_error: None,
            search: None,
            evaluator: None,
            cache: Arc::default(),
            seed: 0,
        }
    }

    /// The lines answering `jcei`.
    fn identify(&self) -> Vec<String> {
        vec![
            format!("id name {ENGINE_NAME}"),
            "id author the jungle-zero developers".to_string(),
            "option name Variant type string default standard".to_string(),
            "option name Network type string default <empty>".to_string(),
            "option name Material type string default 0".to_string(),
            "option name Qsearch type string default 0".to_string(),
            format!(
                "option name Safety type spin default {PLAY_SAFETY_MOVES} min 0 max {MAX_SAFETY}"
            ),
            format!("option name Nodes type spin default {DEFAULT_NODES} min 1 max 10000000"),
            format!("option name Depth type spin default {DEFAULT_DEPTH} min 1 max 30"),
            "jceiok".to_string(),
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<String, CommandError> {
        let name = name.to_ascii_lowercase();
        if ["variant", "network", "material", "qsearch"].contains(&name.as_str()) {
            // The cached evaluations depend on these.
            self.evaluator = None;
        }
        match name.as_str() {
            "variant" => {
                let rules = Rules::load(value)?;
                self.rules = rules;
                self.variant = value.to_string();
                self.game = Game::new(self.rules.clone());
                self.search = None;
                Ok(format!("variant {value}"))
            }
            "network" => {
                if value.is_empty() || value == "<empty>" || value == "none" {
                    self.network = None;
                    return Ok("no network: alpha-beta search".to_string());
                }
                let path = PathBuf::from(value);
                let ck = load_checkpoint(&path, &cpu_device())?;
                NoSurvivalHead::check(self.material, ck.net.has_survival_head()).map_err(
                    |source| CommandError::NoSurvivalHead {
                        option: "Network",
                        network: format!("{value} (no survival head)"),
                        source,
                    },
                )?;
                let note = format!(
                    "network {} (step {}, {} blocks x {} filters)",
                    value, ck.meta.step, ck.meta.net.blocks, ck.meta.net.filters
                );
                self.network = Some((path, ck.net));
                self.search = None;
                Ok(note)
            }
            "material" => {
                let weight = weight("Material", value, jungle_net::check_material_weight)?;
                if let Some((path, net)) = &self.network {
                    NoSurvivalHead::check(weight, net.has_survival_head()).map_err(|source| {
                        CommandError::NoSurvivalHead {
                            option: "Material",
                            network: path.display().to_string(),
                            source,
                        }
                    })?;
                }
                self.material = weight;
                Ok(format!("material {weight}"))
            }
            "qsearch" => {
                let weight = weight(
                    "Qsearch",
                    value,
                    jungle_mcts::quiescence::check_quiescence_weight,
                )?;
                self.qsearch = weight;
                Ok(format!("qsearch {weight}"))
            }
            "safety" => {
                self.safety = value
                    .parse()
                    .ok()
                    .filter(|n| (0..=MAX_SAFETY).contains(n))
                    .ok_or_else(|| CommandError::Value {
                        option: "Safety",
                        value: value.to_string(),
                        expected: format!("a whole number from 0 to {MAX_SAFETY}"),
                    })?;
                self.search = None;
                Ok(format!("safety {}", self.safety))
            }
            "nodes" => {
                self.nodes =
                    value
                        .parse()
                        .ok()
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| CommandError::Value {
                            option: "Nodes",
                            value: value.to_string(),
                            expected: "a whole number >= 1".to_string(),
                        })?;
                Ok(format!("nodes {}", self.nodes))
            }
            "depth" => {
                self.depth = value
                    .parse()
                    .ok()
                    .filter(|d| (1..=30).contains(d))
                    .ok_or_else(|| CommandError::Value {
                        option: "Depth",
                        value: value.to_string(),
                        expected: "a whole number from 1 to 30".to_string(),
                    })?;
                Ok(format!("depth {}", self.depth))
            }
            _ => Err(CommandError::UnknownOption(name)),
        }
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

    /// Runs `go`: `info` lines through `say`, then the best move (`None`
    /// when the game is over).
    fn go(
        &mut self,
        limit: GoLimit,
        stop: &Arc<AtomicBool>,
        say: &mut dyn FnMut(String),
    ) -> Option<Move> {
        if self.game.is_over() {
            return None;
        }
        let started = Instant::now();
        if let Some((_, net)) = &self.network {
            let net = net.clone();
            Some(self.go_network(&net, limit, stop, started, say))
        } else {
            Some(self.go_alphabeta(limit, stop, started, say))
        }
    }

    fn go_network(
        &mut self,
        net: &PolicyValueNet,
        limit: GoLimit,
        stop: &AtomicBool,
        started: Instant,
        say: &mut dyn FnMut(String),
    ) -> Move {
        let rules = self.rules.clone();
        let seed = self.seed;
        let config = SearchConfig {
            safety_moves: self.safety,
            ..SearchConfig::for_play(CHUNK)
        };
        let tree = self
            .search
            .get_or_insert_with(|| Search::new(rules.clone(), config, seed));
        let evaluator = match &mut self.evaluator {
            Some(evaluator) => evaluator,
            empty => {
                self.cache = Arc::default();
                let terms = ValueTerms {
                    material_weight: self.material,
                    qsearch_weight: self.qsearch,
                    cache: PLAYER_EVAL_CACHE,
                };
                empty.insert(
                    terms
                        .evaluator(net, &rules, Arc::clone(&self.cache))
                        .expect("Material, Qsearch and Network are checked in set_option"),
                )
            }
        };
        let mut total: u64 = 0;
        loop {
            let chunk = match limit {
                GoLimit::Nodes(n) => (n - total).min(CHUNK as u64) as u32,
                GoLimit::Default => (self.nodes - total).min(CHUNK as u64) as u32,
                _ => CHUNK,
            };
            tree.set_simulations(chunk.max(1));
            let result = search(tree, &self.game, evaluator);
            total += result.simulations as u64;
            let ms = started.elapsed().as_millis();
            say(format!(
                "info depth {} nodes {} score cp {} time {} pv {}",
                result.pv.len(),
                total,
                (result.value * 1000.0).round() as i32,
                ms,
                line(&result.pv)
            ));
            let done = match limit {
                GoLimit::Nodes(n) => total >= n,
                GoLimit::Default => total >= self.nodes,
                GoLimit::MoveTime(t) => ms as u64 >= t,
                GoLimit::Depth(d) => result.pv.len() as u32 >= d || total >= DEPTH_NODE_CAP,
            };
            // A search that ran no simulation (a move that wins at once) or
            // proved its value (the solver, or a forced win of the safety
            // check, whose line is that one move) has nothing more to find.
            let proven = result.simulations == 0 || result.value.abs() >= 1.0;
            if done || proven || stop.load(Ordering::Relaxed) {
                return result.best;
            }
        }
    }

    fn go_alphabeta(
        &mut self,
        limit: GoLimit,
        stop: &Arc<AtomicBool>,
        started: Instant,
        say: &mut dyn FnMut(String),
    ) -> Move {
        let max_depth = match limit {
            GoLimit::Depth(d) => d.max(1),
            GoLimit::Default => self.depth,
            _ => 30,
        };
        let mut nodes = 0u64;
        let mut best = None;
        for depth in 1..=max_depth {
            let mut ab =
                AlphaBeta::new(depth, self.rules.clone(), self.seed).with_abort(Arc::clone(stop));
            let decision = ab.choose(&self.game);
            nodes += ab.nodes();
            if ab.was_aborted() && best.is_some() {
                break;
            }
            let ms = started.elapsed().as_millis() as u64;
            let value = decision.value.unwrap_or(0.0);
            say(format!(
                "info depth {depth} nodes {nodes} score cp {} time {ms} pv {}",
                (value * 1000.0).round() as i32,
                line(&decision.pv)
            ));
            best = Some(decision.mv);
            let done = match limit {
                GoLimit::Nodes(n) => nodes >= n,
                // The next depth takes several times longer: stop when it
                // would not fit.
                GoLimit::MoveTime(t) => ms.saturating_mul(4) >= t,
                _ => false,
            };
            if done || stop.load(Ordering::Relaxed) || value.abs() >= 1.0 {
                break;
            }
        }
        best.expect("depth 1 always runs")
    }

    /// Handles one command; returns the lines to print and whether to quit.
    pub fn handle(&mut self, command: Command, stop: &Arc<AtomicBool>) -> (Vec<String>, bool) {
        let mut out = Vec::new();
        match command {
            Command::Jcei => out = self.identify(),
            Command::IsReady => out.push("readyok".to_string()),
            Command::NewGame => {
                self.game = Game::new(self.rules.clone());
                self.search = None;
                self.seed += 1;
            }
            Command::Position { start, moves } => {
                // A refused position leaves none: a `go` after it answers
                // with the error rather than for the position before.
                self.position_error = self.set_position(&start, &moves).err().map(|e| {
                    out.push(format!("info string error: {e}"));
                    e.to_string()
                });
            }
            Command::Go(_) if self.position_error.is_some() => {
                let why = self.position_error.as_deref().unwrap_or_default();
                out.push(format!(
                    "info string error: no position (the last `position` was refused: {why})\nbestmove (none)"
                ));
            }
            Command::Go(limit) => {
                // The input thread clears `stop` when it reads `go`, so a
                // `stop` read after it is not lost.
                let best = self.go(limit, stop, &mut |l| out.push(l));
                out.push(match best {
                    Some(mv) => format!("bestmove {mv}"),
                    None => {
                        let why = self.game.outcome().map_or("over".into(), |o| o.to_string());
                        format!("info string error: the game is over ({why})\nbestmove (none)")
                    }
                });
            }
            Command::Stop => {}
            Command::Quit => return (out, true),
            Command::Display => {
                out.extend(self.game.position().to_string().lines().map(String::from));
                out.push(format!("variant {}", self.variant));
            }
            Command::Perft(depth) => {
                let started = Instant::now();
                let ms = || started.elapsed().as_millis();
                out.push(
                    match stoppable_perft(self.game.position(), &self.rules, depth, stop) {
                        Some(count) => format!("perft {depth} nodes {count} time {}", ms()),
                        None => format!("info string perft {depth} stopped after {} ms", ms()),
                    },
                );
            }
            Command::SetOption { name, value } => match self.set_option(&name, &value) {
                Ok(note) => out.push(format!("info string {note}")),
                Err(e) => out.push(format!("info string error: {e}")),
            },
        }
        (out, false)
    }
}

fn line(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the engine until `quit` or the end of `input`, answering on
/// `output` (flushed after every answer).
pub fn run_engine<R, W>(input: R, mut output: W) -> std::io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Result<String, NotUtf8>>();
    let reader_stop = Arc::clone(&stop);
    std::thread::spawn(move || {
        let mut input = input;
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match input.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = String::from_utf8(bytes.clone()).map_err(|_| NotUtf8);
            if let Ok(line) = &line {
                match line.split_whitespace().next().unwrap_or("") {
                    "stop" | "quit" => reader_stop.store(true, Ordering::Relaxed),
                    // A new search: a `stop` read before it was for an
                    // earlier one.
                    "go" | "perft" => reader_stop.store(false, Ordering::Relaxed),
                    _ => {}
                }
            }
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut engine = Engine::new();
    for line in rx {
        let Ok(line) = line else {
            writeln!(output, "info string error: the line is not UTF-8 text")?;
            output.flush()?;
            continue;
        };
        let command = match parse(&line) {
            Ok(Some(c)) => c,
            Ok(None) => continue,
            Err(e) => {
                writeln!(output, "info string error: {e}")?;
                output.flush()?;
                continue;
            }
        };
        let (lines, quit) = engine.handle(command, &stop);
        for l in lines {
            writeln!(output, "{l}")?;
        }
        output.flush()?;
        if quit {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(engine: &mut Engine, line: &str) -> Vec<String> {
        let stop = Arc::new(AtomicBool::new(false));
        engine.handle(parse(line).unwrap().unwrap(), &stop).0
    }

    /// Runs the engine on `input` in a thread; its output, or `None` if it
    /// did not finish within `seconds`.
    fn session<R: BufRead + Send + 'static>(input: R, seconds: u64) -> Option<String> {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut out = Vec::new();
            run_engine(input, &mut out).unwrap();
            let _ = tx.send(String::from_utf8(out).unwrap());
        });
        rx.recv_timeout(std::time::Duration::from_secs(seconds))
            .ok()
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
            assert!(out.contains(answer) && out.ends_with("readyok\n"), "{out}");
        }
        let mut e = Engine::new();
        let perft4 = run(&mut e, "perft 4");
        assert!(perft4[0].starts_with("perft 4 nodes 260099 "), "{perft4:?}");
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
            .init(&cpu_device());
        let mut e = Engine::new();
        e.network = Some((PathBuf::from("memory"), net));
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
}
