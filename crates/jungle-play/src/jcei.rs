//! Any JCEI engine as a player: `jcei:COMMAND[:BUDGET]`, where COMMAND is
//! the engine's path, with arguments after spaces if it needs them
//! (`jcei:target/release/jungle engine:200` plays `jungle engine`), and
//! BUDGET what each move gets ([`MoveBudget`]): `MS` (`go movetime MS`,
//! default 1000), `nodes=N` (`go nodes N`) or `tc=BASE+INC`, a clock of
//! BASE seconds plus INC seconds a move kept here as a GUI keeps it
//! (`go wtime ... btime ... winc ... binc ...`).
//!
//! Each game starts the engine, sends `jcei` (waits for `jceiok`), the rule
//! set (`setoption name Variant value NAME`, a preset name or a toml file
//! written for it) and `isready`; each move sends `position fen START moves
//! ...` and `go ...` and reads up to `bestmove`. An engine that exits,
//! answers nothing in time, names an illegal move or (with a clock) runs
//! out of time forfeits the game, with the reason in the record.

pub use crate::engine_error::EngineError;
use crate::jcei_protocol::{Command, GoParams, Start};
use crate::line_reader::read_bounded_line;
use crate::player::{Decision, Player, PlayerError, PlayerFactory};
use jungle_rules::{Game, Rules};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The longest line an engine may send (its `info` lines are some hundred
/// bytes); a longer one, or bytes without a line end, forfeit.
pub const MAX_ENGINE_LINE: usize = 64 * 1024;
/// Lines read from an engine and not yet looked at: the reader waits when
/// this many are queued, so a flooding engine blocks on its own output
/// instead of filling memory.
const MAX_QUEUED_LINES: usize = 1024;
/// The lines kept of those read while waiting for an answer: only the
/// errors an engine reports (`info string error ...`) are kept, at most
/// this many.
const MAX_KEPT_ERRORS: usize = 16;

/// Move time when the spec gives none.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;
/// How long a `go nodes N` may take before the engine is given up.
const NODES_TIMEOUT: Duration = Duration::from_secs(600);
/// How long past its flag an engine on a clock is waited for, so the
/// record says how late it was.
const FLAG_GRACE: Duration = Duration::from_secs(2);

/// What an external engine is given for each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveBudget {
    /// `go movetime MS`.
    MoveTime(u64),
    /// `go nodes N`.
    Nodes(u64),
    /// A clock of `base_ms` plus `increment_ms` after each move, kept by
    /// the player from the time each answer takes (the pipes included);
    /// an engine whose clock runs out loses on time.
    Clock {
        /// The time on the clock at the start, in ms.
        base_ms: u64,
        /// Added after each move, in ms.
        increment_ms: u64,
    },
}

impl MoveBudget {
    /// The `go` command for a move with `left_ms` on the clock.
    fn go(&self, left_ms: u64) -> Command {
        Command::Go(match *self {
            MoveBudget::MoveTime(ms) => GoParams {
                movetime: Some(ms),
                ..GoParams::default()
            },
            MoveBudget::Nodes(n) => GoParams {
                nodes: Some(n),
                ..GoParams::default()
            },
            MoveBudget::Clock { increment_ms, .. } => GoParams {
                time: [Some(left_ms); 2],
                increment: [increment_ms; 2],
                ..GoParams::default()
            },
        })
    }

    /// How long the answer is waited for.
    fn timeout(&self, left_ms: u64) -> Duration {
        match *self {
            MoveBudget::MoveTime(ms) => Duration::from_millis(ms * 2 + 5000),
            MoveBudget::Nodes(_) => NODES_TIMEOUT,
            MoveBudget::Clock { .. } => Duration::from_millis(left_ms) + FLAG_GRACE,
        }
    }
}

impl std::fmt::Display for MoveBudget {
    /// As a spec writes it: `MS`, `nodes=N` or `tc=BASE+INC` (seconds).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            MoveBudget::MoveTime(ms) => write!(f, "{ms}"),
            MoveBudget::Nodes(n) => write!(f, "nodes={n}"),
            MoveBudget::Clock {
                base_ms,
                increment_ms,
            } => write!(
                f,
                "tc={}+{}",
                base_ms as f64 / 1000.0,
                increment_ms as f64 / 1000.0
            ),
        }
    }
}
/// How long the handshake may take.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// The players of one external engine (`jcei:COMMAND[:BUDGET]`).
#[derive(Clone, Debug)]
pub struct JceiPlayers {
    spec: String,
    command: String,
    budget: MoveBudget,
}

impl JceiPlayers {
    /// The players of the engine `command` with `budget` per move, named
    /// `name`; the engine is started once here to check that it answers,
    /// so a bad command fails now rather than forfeiting every game.
    pub fn start(
        name: String,
        command: &str,
        budget: MoveBudget,
    ) -> Result<JceiPlayers, EngineError> {
        Connection::start(command, &Rules::default())?;
        Ok(JceiPlayers {
            spec: name,
            command: command.to_string(),
            budget,
        })
    }
}

impl PlayerFactory for JceiPlayers {
    fn name(&self) -> String {
        self.spec.clone()
    }

    fn build(&self, rules: &Rules, _seed: u64) -> Box<dyn Player> {
        let clock_ms = match self.budget {
            MoveBudget::Clock { base_ms, .. } => base_ms,
            _ => 0,
        };
        Box::new(JceiPlayer {
            spec: self.clone(),
            rules: rules.clone(),
            connection: None,
            clock_ms,
        })
    }
}

/// A running engine process.
struct Connection {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Result<String, EngineError>>,
    /// A rule-set file written for the engine, removed on drop.
    rules_file: Option<PathBuf>,
}

impl Connection {
    fn start(command: &str, rules: &Rules) -> Result<Connection, EngineError> {
        let mut words = command.split_whitespace();
        let program = words.next().unwrap_or_default();
        let mut child = std::process::Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| EngineError::Start {
                command: command.to_string(),
                source,
            })?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = mpsc::sync_channel(MAX_QUEUED_LINES);
        std::thread::spawn(move || {
            let mut out = BufReader::new(stdout);
            // Every line, then a line too long (the last thing sent), or
            // nothing at the end of the output.
            while let Some(line) = read_engine_line(&mut out) {
                let last = line.is_err();
                if tx.send(line).is_err() || last {
                    break;
                }
            }
        });
        let mut c = Connection {
            child,
            stdin,
            lines,
            rules_file: None,
        };
        c.send(&Command::Jcei)?;
        c.wait_for("jceiok", HANDSHAKE)?;
        let variant = match Rules::preset_names().find(|n| Rules::preset(n).as_ref() == Some(rules))
        {
            Some(name) => name.to_string(),
            None => {
                static FILES: AtomicU64 = AtomicU64::new(0);
                let file = std::env::temp_dir().join(format!(
                    "jungle-jcei-rules-{}-{}.toml",
                    std::process::id(),
                    FILES.fetch_add(1, Ordering::Relaxed)
                ));
                std::fs::write(&file, rules.to_toml()).map_err(|source| {
                    EngineError::RulesFile {
                        path: file.clone(),
                        source,
                    }
                })?;
                let name = file.display().to_string();
                c.rules_file = Some(file);
                name
            }
        };
        let choose = Command::SetOption {
            name: "Variant".to_string(),
            value: variant,
        };
        c.send(&choose)?;
        c.send(&Command::IsReady)?;
        // An engine that refuses the rule set would play other rules.
        let answers = c.lines_until("readyok", HANDSHAKE)?;
        if let Some(error) = answers.iter().find(|l| l.starts_with("info string error")) {
            return Err(EngineError::Refused {
                command: choose.to_string(),
                answer: error.clone(),
            });
        }
        Ok(c)
    }

    fn send(&mut self, command: &Command) -> Result<(), EngineError> {
        writeln!(self.stdin, "{command}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| EngineError::Exited { before: None })
    }

    /// Reads lines until one starts with `word`; returns that line.
    fn wait_for(&mut self, word: &'static str, timeout: Duration) -> Result<String, EngineError> {
        Ok(self
            .lines_until(word, timeout)?
            .pop()
            .expect("the last line read starts with the word"))
    }

    /// Reads lines until one starts with `word`, within `timeout` however
    /// fast the engine sends other lines; returns the errors it reported
    /// on the way (at most [`MAX_KEPT_ERRORS`]) and that line, last.
    fn lines_until(
        &mut self,
        word: &'static str,
        timeout: Duration,
    ) -> Result<Vec<String>, EngineError> {
        let deadline = Instant::now() + timeout;
        let mut kept = Vec::new();
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Err(EngineError::Timeout { word, timeout });
            }
            match self.lines.recv_timeout(deadline - now) {
                Ok(Err(e)) => return Err(e),
                Ok(Ok(line)) => {
                    if line.split_whitespace().next() == Some(word) {
                        kept.push(line);
                        return Ok(kept);
                    }
                    if line.starts_with("info string error") && kept.len() < MAX_KEPT_ERRORS {
                        kept.push(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout { word, timeout })
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(EngineError::Exited { before: Some(word) })
                }
            }
        }
    }
}

/// One line of the engine's output, up to [`MAX_ENGINE_LINE`] bytes
/// (bytes that are not UTF-8 replaced); `None` at its end.
fn read_engine_line(input: &mut impl BufRead) -> Option<Result<String, EngineError>> {
    read_bounded_line(input, MAX_ENGINE_LINE).map(|line| {
        line.map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .map_err(|_| EngineError::LineTooLong {
                limit: MAX_ENGINE_LINE,
            })
    })
}

impl Drop for Connection {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "{}", Command::Quit);
        let _ = self.stdin.flush();
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(file) = &self.rules_file {
            let _ = std::fs::remove_file(file);
        }
    }
}

/// One game's connection to the engine.
pub struct JceiPlayer {
    spec: JceiPlayers,
    rules: Rules,
    connection: Option<Connection>,
    /// The time left on the engine's clock (with a [`MoveBudget::Clock`]).
    clock_ms: u64,
}

impl JceiPlayer {
    fn ask(&mut self, game: &Game) -> Result<Decision, EngineError> {
        if self.connection.is_none() {
            self.connection = Some(Connection::start(&self.spec.command, &self.rules)?);
        }
        let c = self.connection.as_mut().expect("started");
        c.send(&Command::Position {
            start: Start::Fen(game.start_position().to_fen()),
            moves: game.moves().iter().map(|m| m.to_string()).collect(),
        })?;
        let budget = self.spec.budget;
        let left_ms = self.clock_ms;
        let asked = std::time::Instant::now();
        c.send(&budget.go(left_ms))?;
        let answer = c.wait_for("bestmove", budget.timeout(left_ms));
        if let MoveBudget::Clock { increment_ms, .. } = budget {
            let spent_ms = asked.elapsed().as_millis() as u64;
            if spent_ms > left_ms || matches!(answer, Err(EngineError::Timeout { .. })) {
                return Err(EngineError::FlagFall { spent_ms, left_ms });
            }
            self.clock_ms = left_ms - spent_ms + increment_ms;
        }
        let line = answer?;
        let text = line.split_whitespace().nth(1).unwrap_or("");
        game.legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_string() == text)
            .map(Decision::just)
            .ok_or_else(|| EngineError::IllegalMove {
                mv: text.to_string(),
                fen: game.position().to_fen(),
            })
    }
}

impl Player for JceiPlayer {
    fn name(&self) -> String {
        self.spec.spec.clone()
    }

    /// For callers that cannot end a game by forfeit: a failed engine plays
    /// the first legal move (the arena and `variants` use
    /// [`Player::try_choose`], where the failure ends the game).
    fn choose(&mut self, game: &Game) -> Decision {
        self.try_choose(game)
            .unwrap_or_else(|_| Decision::just(game.legal_moves()[0]))
    }

    fn try_choose(&mut self, game: &Game) -> Result<Decision, PlayerError> {
        let decision = self.ask(game).map_err(PlayerError::Engine);
        if decision.is_err() {
            // A failed engine is not asked again in this game.
            self.connection = None;
        }
        decision
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_line_past_the_bound_is_an_error() {
        let text = format!("info x\r\n{}\n", "b".repeat(MAX_ENGINE_LINE + 1));
        let mut input = std::io::Cursor::new(text.into_bytes());
        assert_eq!(read_engine_line(&mut input).unwrap().unwrap(), "info x");
        let e = read_engine_line(&mut input).unwrap().unwrap_err();
        assert!(matches!(e, EngineError::LineTooLong { .. }), "{e}");
    }
}
