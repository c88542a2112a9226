//! `jungle engine` through a pipe (a whole game, a malformed command, quit,
//! clocks, `go infinite` and `stop`, any player) and `jcei:` players: the
//! binary as an external engine in the arena, 20 games on a clock without
//! a flag fall, and an engine that dies mid-game forfeiting instead of
//! hanging the match.

mod common;

use common::{json, net_init, plain_and_survival_nets, temp_dir, TINY_NET};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const JUNGLE: &str = env!("CARGO_BIN_EXE_jungle");

/// A running `jungle engine` with a line reader.
struct Engine {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::io::Lines<BufReader<std::process::ChildStdout>>,
}

impl Engine {
    fn start() -> Engine {
        Engine::with_args(&[])
    }

    fn with_args(args: &[&str]) -> Engine {
        let mut child = Command::new(JUNGLE)
            .arg("engine")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `word`.
    fn until(&mut self, word: &str) -> Vec<String> {
        let mut out = Vec::new();
        for line in &mut self.lines {
            let line = line.unwrap();
            let done = line.starts_with(word);
            out.push(line);
            if done {
                return out;
            }
        }
        panic!("the engine closed before `{word}`: {out:?}");
    }
}

#[test]
fn a_whole_game_through_the_pipe() {
    let mut e = Engine::start();
    e.send("jcei");
    let id = e.until("jceiok");
    assert!(id[0].starts_with("id name jungle-zero"), "{id:?}");
    assert!(id.iter().any(|l| l.starts_with("id author")), "{id:?}");
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
    // A malformed command: an error line, and the engine goes on.
    e.send("go sideways");
    e.send("isready");
    let out = e.until("readyok");
    assert!(out[0].starts_with("info string error"), "{out:?}");

    // The engine plays both sides with `go depth 2` until the game ends,
    // checked by a game kept here with the library.
    let mut game = jungle_rules::Game::new(jungle_rules::Rules::default());
    let mut moves: Vec<String> = Vec::new();
    while !game.is_over() && moves.len() < 400 {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        e.send(&position);
        e.send(if moves.len().is_multiple_of(2) {
            "go depth 2"
        } else {
            "go nodes 300"
        });
        let out = e.until("bestmove");
        assert!(
            out.len() >= 2 && out[0].starts_with("info depth 1"),
            "{out:?}"
        );
        let mv = out
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        game.play_text(&mv)
            .unwrap_or_else(|err| panic!("{mv}: {err}"));
        moves.push(mv);
    }
    assert!(game.is_over(), "a game between depth-2 searches ends");
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go depth 1");
    let out = e.until("bestmove");
    assert_eq!(out.last().unwrap(), "bestmove (none)", "{out:?}");
    e.send("d");
    e.send("perft 2");
    let out = e.until("perft");
    assert!(out.iter().any(|l| l.contains("a b c d e f g")), "{out:?}");
    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn the_engine_searches_with_a_network_once_one_is_set() {
    let dir = temp_dir("engine-net");
    let (prefix, _) = net_init(&dir, "ck", TINY_NET, &[]);
    let mut e = Engine::start();
    e.send(&format!(
        "setoption name Network value {}",
        prefix.display()
    ));
    e.send("isready");
    let out = e.until("readyok");
    assert!(out[0].starts_with("info string network"), "{out:?}");
    // The search runs with the quiescence term too.
    e.send("setoption name Qsearch value 0.5");
    e.send("isready");
    assert_eq!(e.until("readyok")[0], "info string qsearch 0.5");
    e.send("position startpos");
    e.send("go nodes 200");
    let out = e.until("bestmove");
    // Chunks of 64 simulations (64, 128, 192, 200), an `info` line for the
    // first, then at most every 100 ms, and for the last.
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!((2..=4).contains(&infos.len()), "{out:?}");
    assert!(infos[0].contains(" nodes 64 "), "{out:?}");
    assert!(infos.last().unwrap().contains(" nodes 200 "), "{out:?}");
    e.send("go movetime 50");
    assert!(e.until("bestmove").last().unwrap().starts_with("bestmove "));
    // A move into the den is played at once, without simulations.
    e.send("position fen 6e/3C3/w6/7/7/7/7/5D1/L6 w");
    for go in ["go nodes 200", "go depth 4", "go movetime 50"] {
        e.send(go);
        let out = e.until("bestmove");
        assert_eq!(out.len(), 2, "{go}: {out:?}");
        assert!(
            out[0].contains(" nodes 0 ") && out[0].contains(" score cp 1000 wdl 1000 0 0 "),
            "{go}: {out:?}"
        );
        assert_eq!(out[1], "bestmove d8d9", "{go}: {out:?}");
    }
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_engine_adds_the_material_term_only_with_a_survival_head() {
    let dir = temp_dir("engine-material");
    let (plain, head) = plain_and_survival_nets(&dir);
    let mut e = Engine::start();
    // Each answer to a setoption, read up to `readyok`.
    let mut answer = |line: String| {
        e.send(&line);
        e.send("isready");
        let out = e.until("readyok");
        out[0].clone()
    };
    let network = |p: &std::path::Path| format!("setoption name Network value {}", p.display());
    assert!(answer(network(&plain)).starts_with("info string network"));
    let out = answer("setoption name Material value 0.6".into());
    assert!(
        out.starts_with("info string error") && out.contains("survival head"),
        "{out}"
    );
    assert!(answer(network(&head)).starts_with("info string network"));
    assert_eq!(
        answer("setoption name Material value 0.6".into()),
        "info string material 0.6"
    );
    for bad in ["9", "lots"] {
        let out = answer(format!("setoption name Material value {bad}"));
        assert!(out.starts_with("info string error: Material"), "{out}");
    }
    // With the weight set, a network without the head is refused.
    let out = answer(network(&plain));
    assert!(
        out.starts_with("info string error") && out.contains("no survival head"),
        "{out}"
    );
    e.send("position startpos");
    e.send("go nodes 64");
    let out = e.until("bestmove");
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_binary_as_an_external_engine_plays_a_match() {
    let engine = format!("jcei:{JUNGLE} engine:20");
    let v = json(&[
        "arena",
        "--a",
        &engine,
        "--b",
        "greedy",
        "--games",
        "2",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(v["games"], 2);
    assert_eq!(v["reasons"]["forfeit"].as_u64().unwrap_or(0), 0, "{v}");
    // The engine searches: it beats greedy.
    assert!(v["score"].as_f64().unwrap() >= 0.5, "{v}");
}

/// An executable shell script `name` in `dir` that answers the handshake
/// and runs `on_go` at the first `go`.
fn fake_engine(dir: &std::path::Path, name: &str, on_go: &str) -> std::path::PathBuf {
    let script = dir.join(name);
    std::fs::write(
        &script,
        format!("#!/bin/sh\nwhile read line; do\n  case \"$line\" in\n    jcei) echo jceiok;;\n    isready) echo readyok;;\n    go*) {on_go};;\n  esac\ndone\n"),
    )
    .unwrap();
    let mut perms = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&script, perms).unwrap();
    script
}

#[test]
fn an_engine_that_floods_or_sends_endless_lines_forfeits_in_time() {
    let dir = temp_dir("jcei-flood");
    // `info` lines as fast as the pipe takes them and never a `bestmove`;
    // a megabyte without a line end.
    let flood = fake_engine(&dir, "flood.sh", "yes 'info depth 1 score cp 0 pv a1a2'");
    let endless = fake_engine(
        &dir,
        "endless.sh",
        "head -c 1000000 /dev/zero | tr '\\0' x; sleep 30",
    );
    for (script, why) in [
        (&flood, "no `bestmove` within 5100 ms"),
        (&endless, "line of more than"),
    ] {
        let started = std::time::Instant::now();
        let v = json(&[
            "arena",
            "--a",
            &format!("jcei:{}:50", script.display()),
            "--b",
            "random",
            "--games",
            "1",
            "--json",
        ]);
        // Two move times plus 5 s, whatever the engine sends meanwhile.
        assert!(
            started.elapsed().as_secs_f64() < 20.0,
            "{:?}",
            started.elapsed()
        );
        assert_eq!(v["reasons"]["forfeit"], 1, "{v}");
        let reason = v["forfeits"][0].as_str().unwrap();
        assert!(reason.contains(why), "{reason}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_engine_that_dies_forfeits_its_games() {
    let dir = temp_dir("jcei-dies");
    // Answers the handshake, then exits at the first `go`.
    let script = fake_engine(&dir, "dies.sh", "exit 3");
    let v = json(&[
        "arena",
        "--a",
        &format!("jcei:{}:50", script.display()),
        "--b",
        "random",
        "--games",
        "2",
        "--json",
    ]);
    assert_eq!(v["b_wins"], 2, "{v}");
    assert_eq!(v["reasons"]["forfeit"], 2, "{v}");
    let why = v["forfeits"][0].as_str().unwrap();
    assert!(why.contains("dies.sh") && why.contains("exited"), "{why}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// The network of the baseline's one-hour run, committed with the
/// experiments.
fn hour_net() -> String {
    format!(
        "{}/../../experiments/base-s0/00014531",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn a_gui_session_with_clocks_infinite_and_stop() {
    let player = format!("net:{}:material=0.6:qsearch=0.5", hour_net());
    let mut e = Engine::with_args(&["--player", &player]);
    e.send("jcei");
    let id = e.until("jceiok");
    assert!(
        id.iter()
            .any(|l| l.starts_with("option name Player type string default net:")),
        "{id:?}"
    );
    e.send("position startpos moves a3a4 g7g6");
    // South has 2 s and 0.1 s a move: it thinks about a thirtieth of its
    // clock plus most of the increment, never past half of it.
    let started = std::time::Instant::now();
    e.send("go wtime 2000 btime 2000 winc 100 binc 100");
    let out = e.until("bestmove");
    let ms = started.elapsed().as_millis();
    assert!((40..1000).contains(&ms), "{ms} ms: {out:?}");
    let info = &out[out.len() - 2];
    for field in [" nodes ", " nps ", " time ", " score cp ", " wdl ", " pv "] {
        assert!(info.contains(field), "{field}: {info}");
    }
    // `go infinite` runs until `stop`, far past the default budget.
    e.send("go infinite");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    e.send("stop");
    let out = e.until("bestmove");
    let nodes: u64 = out[out.len() - 2]
        .split_whitespace()
        .nth(4)
        .unwrap()
        .parse()
        .unwrap();
    assert!(nodes > 200, "{out:?}");
    // Switching players in the session.
    e.send("setoption name Player value alphabeta:3");
    e.send("go");
    let out = e.until("bestmove");
    assert!(
        out[0].starts_with("info string player alphabeta:3"),
        "{out:?}"
    );
    assert!(out[out.len() - 2].starts_with("info depth 3 "), "{out:?}");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn a_bad_player_is_refused_before_the_session() {
    let out = Command::new(JUNGLE)
        .args(["engine", "--player", "alphabeta:99"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--player") && err.contains("from 1 to 12"),
        "{err}"
    );
}

/// The check of the time manager: 20 games of 10 s + 0.1 s a move
/// through the protocol, the clock kept by the `jcei:` player as a GUI
/// keeps it, against alpha-beta: no flag falls.
#[test]
fn twenty_games_on_a_clock_without_a_flag_fall() {
    let engine = format!(
        "jcei:{JUNGLE} engine --player net:{}:material=0.6:qsearch=0.5:tc=10+0.1",
        hour_net()
    );
    let v = json(&[
        "arena",
        "--a",
        &engine,
        "--b",
        "alphabeta:2",
        "--games",
        "20",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(v["games"], 20, "{v}");
    assert_eq!(v["reasons"]["forfeit"].as_u64().unwrap_or(0), 0, "{v}");
    assert_eq!(v["forfeits"].as_array().unwrap().len(), 0, "{v}");
    // The engine spends its clock: tens of ms a move, not a fixed budget.
    let ms = v["a_ms_per_move"].as_f64().unwrap();
    assert!((30.0..1000.0).contains(&ms), "{ms} ms a move");
}

/// A `jungle engine` whose output lines arrive on a channel, so a test can
/// wait for one with a deadline while the engine searches.
struct Watched {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Watched {
    fn start(args: &[&str]) -> Watched {
        let Engine {
            child,
            stdin,
            lines: mut out,
        } = Engine::with_args(args);
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            while let Some(Ok(line)) = out.next() {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Watched {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("open");
        writeln!(stdin, "{text}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line, or a failure naming what was awaited.
    fn next(&self, awaited: &str, seconds: u64) -> String {
        self.lines
            .recv_timeout(std::time::Duration::from_secs(seconds))
            .unwrap_or_else(|e| panic!("no line within {seconds} s awaiting {awaited}: {e}"))
    }

    /// Lines up to and including the first that starts with `word`.
    fn until(&self, word: &str, seconds: u64) -> Vec<String> {
        let mut out = vec![self.next(word, seconds)];
        while !out.last().unwrap().starts_with(word) {
            out.push(self.next(word, seconds));
        }
        out
    }

    /// The engine's resident memory in MiB (Linux).
    fn rss_mib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let kib: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap();
        kib / 1024
    }
}

#[test]
fn a_gui_hears_the_search_as_it_runs_pings_it_and_hangs_up() {
    let mut e = Watched::start(&["--player", "mcts:100"]);
    // `info` lines come while `go infinite` runs, at most ten a second,
    // and `isready` is answered at once without ending it.
    let started = std::time::Instant::now();
    e.send("go infinite");
    assert!(e.next("info", 20).starts_with("info depth"));
    std::thread::sleep(std::time::Duration::from_millis(1500));
    e.send("isready");
    let before_ready = e.until("readyok", 20);
    let info_lines = before_ready.len() - 1;
    assert!(
        before_ready[..info_lines]
            .iter()
            .all(|l| l.starts_with("info depth")),
        "{before_ready:?}"
    );
    let most = (started.elapsed().as_millis() / 100) as usize + 2;
    assert!(info_lines <= most, "{info_lines} info lines, most {most}");
    // `stop`, `position` and `go` at once: the first search stops, the
    // second runs on.
    e.send("stop\nposition startpos moves a3a4\ngo infinite");
    let first = e.until("bestmove", 20);
    assert!(!first.last().unwrap().contains("none"), "{first:?}");
    assert!(e
        .next("info of the second search", 20)
        .starts_with("info depth"));
    e.send("isready");
    e.until("readyok", 20);
    // The tree stops at its bound under `go infinite`.
    e.send("stop");
    e.until("bestmove", 20);
    e.send("setoption name TreeMemory value 16");
    e.until("info string tree memory 16 MiB", 20);
    e.send("go infinite");
    let full = e.until("info string the tree reached its memory bound", 60);
    assert!(full.last().unwrap().contains("of 16 MiB"), "{full:?}");
    std::thread::sleep(std::time::Duration::from_secs(2));
    let rss = e.rss_mib();
    assert!(rss < 200, "{rss} MiB resident under a 16 MiB tree");
    // The end of the input ends `go infinite` and the engine.
    e.stdin = None;
    let last = e.until("bestmove", 20);
    assert!(!last.last().unwrap().contains("none"), "{last:?}");
    let waited = std::time::Instant::now();
    while e.child.try_wait().unwrap().is_none() {
        assert!(
            waited.elapsed().as_secs() < 20,
            "the engine outlived its input"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}
