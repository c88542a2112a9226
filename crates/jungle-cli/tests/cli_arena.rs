//! End-to-end checks of `jungle arena`, `jungle analyze` and `jungle bench`.

mod common;

use common::{json, jungle};

#[test]
fn arena_json_has_the_documented_keys() {
    let v = json(&[
        "arena",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "6",
        "--threads",
        "2",
        "--seed",
        "3",
        "--json",
    ]);
    for key in [
        "a_wins",
        "draws",
        "b_wins",
        "score",
        "elo",
        "elo_ci95",
        "mean_plies",
        "a_ms_per_move",
        "b_ms_per_move",
        "reasons",
    ] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    let total = v["a_wins"].as_u64().unwrap()
        + v["draws"].as_u64().unwrap()
        + v["b_wins"].as_u64().unwrap();
    assert_eq!(total, 6);
    let reasons: u64 = v["reasons"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(reasons, 6);
    assert_eq!(v["elo_ci95"].as_array().unwrap().len(), 2);
    for key in ["a_ms_per_move", "b_ms_per_move"] {
        let ms = v[key].as_f64().unwrap();
        assert!(ms.is_finite() && ms >= 0.0, "{key}: {v}");
    }
}

#[test]
fn arena_is_reproducible_for_a_seed_whatever_the_threads() {
    let args = |threads: &'static str| {
        vec![
            "arena",
            "--a",
            "mcts:20",
            "--b",
            "random",
            "--games",
            "4",
            "--threads",
            threads,
            "--seed",
            "9",
            "--json",
        ]
    };
    // Everything but the thinking times (wall clock) is the same.
    let games = |threads| {
        let mut v = json(&args(threads));
        let fields = v.as_object_mut().unwrap();
        for key in ["a_ms_per_move", "b_ms_per_move"] {
            assert!(fields.remove(key).is_some(), "missing {key}");
        }
        v
    };
    assert_eq!(games("1"), games("2"));
}

#[test]
fn arena_text_summary_and_variant() {
    let (ok, stdout, stderr) = jungle(&[
        "arena",
        "--a",
        "alphabeta:2",
        "--b",
        "random",
        "--games",
        "4",
        "--variant",
        "vertical-tiger",
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("A wins") && stdout.contains("Elo") && stdout.contains("vertical-tiger"),
        "{stdout}"
    );
}

#[test]
fn bad_player_specs_are_clear_errors() {
    let (ok, _, stderr) = jungle(&["arena", "--a", "alphabeta:0", "--b", "random"]);
    assert!(!ok);
    assert!(
        stderr.contains("--a") && stderr.contains("from 1 to 12"),
        "{stderr}"
    );
    let (ok, _, stderr) = jungle(&["arena", "--a", "random", "--b", "deep-blue"]);
    assert!(!ok);
    assert!(
        stderr.contains("--b") && stderr.contains("alphabeta:DEPTH"),
        "{stderr}"
    );
    let (ok, _, stderr) = jungle(&["analyze", "--player", "net:x.ckpt"]);
    assert!(!ok);
    assert!(
        stderr.contains("--player") && stderr.contains("x.ckpt.json"),
        "{stderr}"
    );
}

#[test]
fn mcts_specs_take_search_keys() {
    // South's rat on d6 wins in three moves: the players' safety check
    // finds it even with two simulations, and reports it as a win.
    let fen = "7/7/7/3R3/7/7/7/7/t6 w 10";
    let with = json(&["analyze", "--player", "mcts:2", "--fen", fen, "--json"]);
    assert_eq!(with["best"], "d6d7");
    assert_eq!(with["value"].as_f64(), Some(1.0));
    let spec = "mcts:2:safety_moves=0:cpuct=2.5";
    let without = json(&["analyze", "--player", spec, "--fen", fen, "--json"]);
    assert!(without["value"].as_f64().unwrap() < 1.0, "{without}");
    let (ok, _, stderr) = jungle(&["analyze", "--player", "mcts:8:cpuct", "--fen", fen]);
    assert!(!ok);
    assert!(
        stderr.contains("--player") && stderr.contains("KEY=VALUE"),
        "{stderr}"
    );
    let (ok, _, stderr) = jungle(&["arena", "--a", "mcts:8:safety_nodes=0", "--b", "random"]);
    assert!(!ok);
    assert!(
        stderr.contains("--a") && stderr.contains("safety_nodes"),
        "{stderr}"
    );
}

#[test]
fn analyze_reports_move_value_policy_and_pv() {
    let fen = "6e/3C3/w6/7/7/7/7/5D1/L6 w";
    let v = json(&["analyze", "--player", "mcts:200", "--fen", fen, "--json"]);
    assert_eq!(v["best"], "d8d9");
    assert!(v["value"].as_f64().unwrap() > 0.5);
    let policy = v["policy"].as_object().unwrap();
    let sum: f64 = policy.values().map(|p| p.as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-3);
    assert!(policy["d8d9"].as_f64().unwrap() > 0.5);
    assert_eq!(v["pv"][0], "d8d9");
    let v = json(&["analyze", "--player", "alphabeta:3", "--fen", fen, "--json"]);
    assert_eq!(v["best"], "d8d9");
    assert_eq!(v["value"], 1.0);
    let (ok, _, stderr) = jungle(&[
        "analyze",
        "--player",
        "random",
        "--fen",
        "2C4/7/7/7/7/7/7/7/3r3 w",
    ]);
    assert!(!ok, "a finished game cannot be analyzed");
    assert!(stderr.contains("over"), "{stderr}");
}

#[test]
fn arena_records_games_that_analyze_can_replay() {
    let dir = std::env::temp_dir().join(format!("jungle-arena-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("games.jsonl");
    let v = json(&[
        "arena",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "4",
        "--seed",
        "5",
        "--json",
        "--record",
        record.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&record).unwrap();
    let games: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 4);
    let a_score: f64 = games.iter().map(|g| g["score_a"].as_f64().unwrap()).sum();
    let a_points = v["a_wins"].as_f64().unwrap() + v["draws"].as_f64().unwrap() / 2.0;
    assert_eq!(a_score, a_points);
    let g = &games[0];
    assert_eq!(g["south"], "greedy", "game 0 seats A in the south: {g}");
    for key in ["a_seconds", "b_seconds"] {
        assert!(g[key].as_f64().unwrap() >= 0.0, "{key}: {g}");
    }
    let moves: Vec<&str> = g["moves"].as_str().unwrap().split(' ').collect();
    assert_eq!(moves.len() as u64, g["plies"].as_u64().unwrap());
    // The position before the last move: that move is legal there.
    let before = moves[..moves.len() - 1].join(" ");
    let analysis = json(&[
        "analyze", "--player", "greedy", "--moves", &before, "--json",
    ]);
    assert!(analysis["best"].is_string(), "{analysis}");
    // All of them: the game is over.
    let (ok, _, stderr) = jungle(&["analyze", "--player", "greedy", "--moves", &moves.join(" ")]);
    assert!(!ok && stderr.contains("already over"), "{stderr}");
    let (ok, _, stderr) = jungle(&["analyze", "--player", "greedy", "--moves", "a3a4 a3a4"]);
    assert!(!ok && stderr.contains("move 2 `a3a4`"), "{stderr}");
    let nowhere = dir.join("no-such-dir").join("games.jsonl");
    let (ok, _, stderr) = jungle(&[
        "arena",
        "--a",
        "random",
        "--b",
        "random",
        "--games",
        "2",
        "--record",
        nowhere.to_str().unwrap(),
    ]);
    assert!(!ok && stderr.contains("no-such-dir"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn arena_warns_when_a_network_plays_rules_it_never_trained_under() {
    let run = |variant: &str| {
        jungle(&[
            "arena",
            "--a",
            "net:default:4",
            "--b",
            "greedy",
            "--games",
            "2",
            "--threads",
            "1",
            "--variant",
            variant,
        ])
    };
    // The shipped network was trained under the standard rules only: under
    // bank-rats the match is played, and stderr says its games are blind.
    let (ok, stdout, stderr) = run("bank-rats");
    assert!(ok, "{stderr}");
    assert!(stdout.contains("A wins"), "{stdout}");
    assert!(
        stderr.contains("WARNING: --a net:default:4")
            && stderr.contains("trained under standard only; not under bank-rats")
            && stderr.contains("blind play"),
        "{stderr}"
    );
    assert!(!stderr.contains("--b"), "greedy has no network: {stderr}");
    let (ok, _, stderr) = run("standard");
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("WARNING"), "{stderr}");
}

#[test]
fn a_folder_of_checkpoints_plays_its_newest() {
    let dir = common::temp_dir("arena-folder");
    let (ck, _) = common::net_init(&dir, "ck", common::TINY_NET, &[]);
    let run = dir.join("run");
    std::fs::create_dir_all(&run).unwrap();
    for step in ["00000005", "00000017"] {
        for suffix in ["json", "bpk"] {
            std::fs::copy(
                ck.with_extension(suffix),
                run.join(format!("{step}.{suffix}")),
            )
            .unwrap();
        }
    }
    let spec = format!("net:{}:8", run.display());
    let (ok, stdout, stderr) = common::jungle(&[
        "arena", "--a", &spec, "--b", "random", "--games", "2", "--json",
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("\"games\":2"), "{stdout}");
    let empty = format!("net:{}", dir.join("nothing-here").display());
    std::fs::create_dir_all(dir.join("nothing-here")).unwrap();
    let (ok, _, stderr) = common::jungle(&["arena", "--a", &empty, "--b", "random"]);
    assert!(!ok && stderr.contains("holds no checkpoint"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_openings_file_gives_each_pair_its_opening_and_a_bad_line_is_named() {
    let dir = common::temp_dir("arena-openings");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "# two openings\na3a4 g7g6\n\ng3g4   # and another\n").unwrap();
    let record = dir.join("games.jsonl");
    let (ok, _, stderr) = common::jungle(&[
        "arena",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "6",
        "--openings",
        file.to_str().unwrap(),
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    let text = std::fs::read_to_string(&record).unwrap();
    let starts: Vec<String> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["moves"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    // Pairs 0, 1, 2 play openings 1, 2, then 1 again.
    for (game, opening) in [
        (0, "a3a4 g7g6 "),
        (1, "a3a4 g7g6 "),
        (2, "g3g4 "),
        (3, "g3g4 "),
        (4, "a3a4 g7g6 "),
    ] {
        assert!(
            starts[game].starts_with(opening),
            "game {game}: {}",
            starts[game]
        );
    }
    std::fs::write(&file, "a3a4\na3a4 a3a5\n").unwrap();
    let (ok, _, stderr) = common::jungle(&[
        "arena",
        "--a",
        "greedy",
        "--b",
        "random",
        "--openings",
        file.to_str().unwrap(),
    ]);
    assert!(
        !ok && stderr.contains("line 2") && stderr.contains("a3a5"),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
