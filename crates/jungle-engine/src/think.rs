//! One `go`: the limits it sets ([`Limits`]: nodes, depth, the time
//! manager's budget, `infinite`, `stop`), the searches that honour them
//! (the search in chunks, alpha-beta by iterative deepening, any other
//! player asked once) and the `info` lines they print.

use crate::clock::TimeBudget;
use crate::protocol::GoParams;
use jungle_mcts::{Evaluator, Search};
use jungle_play::analysis::answer::draw_after;
use jungle_play::{AlphaBeta, Player, Wdl};
use jungle_rules::{Game, Move, Rules};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Most simulations between two looks at the clock and `stop`.
pub const CHUNK: u64 = 64;
/// Most simulations a `go depth` of the search may take.
const DEPTH_NODE_CAP: u64 = 200_000;
/// The deepest alpha-beta iteration of a `go` limited by time, nodes or
/// `stop` alone.
const MAX_ALPHABETA_DEPTH: u32 = 30;
/// How long a chunk of a timed search aims to take, at most.
const CHUNK_TIME: Duration = Duration::from_millis(40);
/// The shortest time between two `info` lines of the search (a GUI reads
/// at most ten a second; the last before `bestmove` is always sent).
pub const INFO_INTERVAL: Duration = Duration::from_millis(100);

/// Sets `abort` when `stop` is read or the hard time limit passes, so a
/// search cut mid-way (alpha-beta's) ends at once; stops with the `go`.
struct Watchdog {
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    fn start(
        stop: Arc<AtomicBool>,
        abort: Arc<AtomicBool>,
        started: Instant,
        hard: Option<Duration>,
    ) -> Watchdog {
        let done = Arc::new(AtomicBool::new(false));
        let finished = Arc::clone(&done);
        let thread = std::thread::spawn(move || {
            while !finished.load(Ordering::Relaxed) {
                let late = hard.is_some_and(|h| started.elapsed() >= h);
                if late || stop.load(Ordering::Relaxed) {
                    abort.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        Watchdog {
            done,
            thread: Some(thread),
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The limits of one `go`, as the searches read them.
pub struct Limits {
    /// Simulations (or alpha-beta nodes) to stop at.
    pub nodes: Option<u64>,
    /// Depth to stop at.
    pub depth: Option<u32>,
    /// The time manager's budget.
    pub time: Option<TimeBudget>,
    /// Search until `stop`, whatever else is reached.
    pub infinite: bool,
    started: Instant,
    /// Set by `stop` or the hard time limit.
    abort: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    _watchdog: Watchdog,
}

impl Limits {
    /// The limits of `go` for the side to move in `game`: the command's
    /// own, or `default_nodes` / `default_depth` for a `go` that gives
    /// none; the clock is read now.
    pub fn new(
        go: &GoParams,
        game: &Game,
        default_nodes: Option<u64>,
        default_depth: Option<u32>,
        overhead_ms: u64,
        stop: &Arc<AtomicBool>,
    ) -> Limits {
        let started = Instant::now();
        let time = TimeBudget::of(go, game.position().side_to_move(), overhead_ms);
        let abort = Arc::new(AtomicBool::new(false));
        let watchdog = Watchdog::start(
            Arc::clone(stop),
            Arc::clone(&abort),
            started,
            time.map(|t| t.hard),
        );
        // A `go` that gives this side nothing to stop at (no limit, or
        // only the other side's clock) gets the default budget.
        let default = go.nodes.is_none() && go.depth.is_none() && !go.infinite && time.is_none();
        Limits {
            nodes: go.nodes.or(if default { default_nodes } else { None }),
            depth: go.depth.or(if default { default_depth } else { None }),
            time,
            infinite: go.infinite,
            started,
            abort,
            stop: Arc::clone(stop),
            _watchdog: watchdog,
        }
    }

    fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Whether `stop` was read or the hard limit passed.
    fn aborted(&self) -> bool {
        self.abort.load(Ordering::Relaxed) || self.stop.load(Ordering::Relaxed)
    }

    /// Whether the soft time limit has passed.
    fn past_soft(&self, fraction: f64) -> bool {
        self.time
            .is_some_and(|t| self.elapsed().as_secs_f64() >= t.soft.as_secs_f64() * fraction)
    }

    /// Whether a search that is done by its own limits may answer: under
    /// `infinite` only after `stop` (waited for here).
    fn finish(&self) {
        while self.infinite && !self.stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// How a search of one `go` is shaped beyond its limits.
#[derive(Clone, Copy, Debug)]
pub struct SearchShape {
    /// No chunk starts that could take the tree past this many bytes.
    pub max_tree_bytes: usize,
    /// Root moves reported, each in its own `info multipv K` line (1: the
    /// plain `info` line).
    pub multipv: usize,
}

/// One `info` line.
pub struct Info<'a> {
    /// With MultiPV, the line's rank (1 = the best).
    pub multipv: Option<usize>,
    /// Alpha-beta's depth, or the length of the search's principal variation.
    pub depth: u32,
    /// Simulations or nodes so far.
    pub nodes: u64,
    /// Time since `go`.
    pub elapsed: Duration,
    /// The value for the side to move, in [-1, 1].
    pub value: f32,
    /// Probability of a draw, when the player estimates one.
    pub draw: f32,
    /// The principal variation.
    pub pv: &'a [Move],
}

impl Info<'_> {
    /// The line: `info depth D nodes N nps R time MS score cp S wdl W D L
    /// pv ...`, `score cp` the value x 1000, `wdl` in thousandths (the draw
    /// share as estimated, win and loss so that their difference is the
    /// value).
    pub fn line(&self) -> String {
        let ms = self.elapsed.as_millis();
        let nps = (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-3)).round() as u64;
        let [w, d, l] = Wdl::new(self.value, self.draw).permille();
        let rank = self
            .multipv
            .map_or(String::new(), |k| format!(" multipv {k}"));
        format!(
            "info{rank} depth {} nodes {} nps {nps} time {ms} score cp {} wdl {w} {d} {l} pv {}",
            self.depth,
            self.nodes,
            (self.value * 1000.0).round() as i32,
            line(self.pv)
        )
    }
}

/// Moves as text, space separated.
pub fn line(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The search (network or hand-written evaluator) in chunks of at most
/// [`CHUNK`] simulations, the tree kept between them; a timed search sizes
/// its chunks to end near the soft limit. Stops at the node or depth limit,
/// the soft time limit, `stop`, a proven value, or when the next chunk
/// could take the tree past `max_tree_bytes` (said in an `info string`;
/// under `infinite` the answer still waits for `stop`). An `info` line at
/// most every [`INFO_INTERVAL`], and one for the tree that answers.
pub fn go_search(
    tree: &mut Search,
    game: &Game,
    evaluator: &mut dyn Evaluator,
    limits: &Limits,
    shape: &SearchShape,
    say: &mut dyn FnMut(String),
) -> Move {
    let max_tree_bytes = shape.max_tree_bytes;
    let draw = draw_after(game, None, evaluator);
    let mut total: u64 = 0;
    let mut last_info: Option<Instant> = None;
    loop {
        let mut chunk = CHUNK;
        if let Some(n) = limits.nodes {
            chunk = chunk.min(n.saturating_sub(total));
        }
        if let Some(t) = limits.time {
            // Simulations per second so far, and what fits before the soft
            // limit (a small first chunk measures the rate).
            let elapsed = limits.elapsed();
            let rate = total as f64 / elapsed.as_secs_f64().max(1e-3);
            let window = t.soft.saturating_sub(elapsed).min(CHUNK_TIME);
            let fits = if total == 0 {
                8
            } else {
                (rate * window.as_secs_f64()).ceil() as u64
            };
            chunk = chunk.min(fits);
        }
        let result = tree.run(game, chunk.max(1) as u32, evaluator);
        total += u64::from(result.simulations);
        let reached = limits.nodes.is_some_and(|n| total >= n)
            || limits
                .depth
                .is_some_and(|d| result.pv.len() as u32 >= d || total >= DEPTH_NODE_CAP)
            || limits.past_soft(1.0);
        // A search that ran no simulation (a move that wins at once) or
        // proved its value (the solver, or a forced win of the safety
        // check) has nothing more to find.
        let proven = result.simulations == 0 || result.value.abs() >= 1.0;
        // No chunk starts that could take the tree past its bound.
        let full = tree.tree_bytes_after(CHUNK) > max_tree_bytes;
        if full {
            say(format!(
                "info string the tree reached its memory bound ({} of {} MiB; setoption name TreeMemory)",
                tree.tree_bytes() >> 20,
                max_tree_bytes >> 20
            ));
        }
        let done = limits.aborted() || proven || full || (reached && !limits.infinite);
        if done || last_info.is_none_or(|at| at.elapsed() >= INFO_INTERVAL) {
            last_info = Some(Instant::now());
            if shape.multipv > 1 {
                // The most visited root moves, each with its own line.
                let mut lines = tree.root_lines();
                lines.sort_by_key(|l| std::cmp::Reverse(l.visits));
                for (k, line) in lines.iter().take(shape.multipv).enumerate() {
                    say(Info {
                        multipv: Some(k + 1),
                        depth: line.pv.len() as u32,
                        nodes: total,
                        elapsed: limits.elapsed(),
                        value: line.value.unwrap_or(result.value),
                        draw,
                        pv: &line.pv,
                    }
                    .line());
                }
            } else {
                say(Info {
                    multipv: None,
                    depth: result.pv.len() as u32,
                    nodes: total,
                    elapsed: limits.elapsed(),
                    value: result.value,
                    draw,
                    pv: &result.pv,
                }
                .line());
            }
        }
        if done {
            limits.finish();
            return result.best;
        }
    }
}

/// Alpha-beta by iterative deepening, one `info` line per depth; a depth
/// cut by `stop` or the hard time limit is dropped for the last finished
/// one. No new depth starts past half of the soft time limit (the next
/// one takes several times longer).
pub fn go_alphabeta(
    rules: &Rules,
    seed: u64,
    game: &Game,
    limits: &Limits,
    say: &mut dyn FnMut(String),
) -> Move {
    let max_depth = limits.depth.unwrap_or(MAX_ALPHABETA_DEPTH);
    let mut nodes = 0u64;
    let mut best = None;
    for depth in 1..=max_depth {
        let mut ab =
            AlphaBeta::new(depth, rules.clone(), seed).with_abort(Arc::clone(&limits.abort));
        let decision = ab.choose(game);
        nodes += ab.nodes();
        if ab.was_aborted() && best.is_some() {
            break;
        }
        let value = decision.value.unwrap_or(0.0);
        say(Info {
            multipv: None,
            depth,
            nodes,
            elapsed: limits.elapsed(),
            value,
            draw: 0.0,
            pv: &decision.pv,
        }
        .line());
        best = Some(decision.mv);
        let done = limits.nodes.is_some_and(|n| nodes >= n)
            || limits.past_soft(0.5)
            || limits.aborted()
            || value.abs() >= 1.0;
        if done {
            break;
        }
    }
    limits.finish();
    best.expect("depth 1 always runs")
}

/// Any other player (random, greedy, an external engine): asked once, its
/// own budget; one `info` line with what it says of its choice.
pub fn go_player(
    player: &mut dyn Player,
    game: &Game,
    limits: &Limits,
    say: &mut dyn FnMut(String),
) -> Move {
    let decision = player.choose(game);
    say(Info {
        multipv: None,
        depth: decision.pv.len() as u32,
        nodes: 0,
        elapsed: limits.elapsed(),
        value: decision.value.unwrap_or(0.0),
        draw: 0.0,
        pv: &decision.pv,
    }
    .line());
    limits.finish();
    decision.mv
}
