//! `jungle analyze --server` as its user drives it: a batch of JSON
//! queries with bad lines among them on stdin, one answer or error per
//! line on stdout; and `--multipv`, whose one-shot answer is the server's.

mod common;

use common::{json, jungle, jungle_with_input, net_init, temp_dir, TINY_NET};

#[test]
fn a_batch_of_queries_with_bad_lines_gets_one_line_each() {
    let dir = temp_dir("analyze-server");
    let (prefix, _) = net_init(&dir, "ck", TINY_NET, &[]);
    let player = format!("net:{}:64", prefix.display());
    let openings = [
        "",
        "a3a4",
        "a3a4 g7g6",
        "f2f3",
        "g3g4 a7a6",
        "g3g4",
        "a1b1",
        "b2b3",
    ];
    let mut input = String::new();
    for (i, moves) in openings.iter().enumerate() {
        let moves: Vec<String> = moves
            .split_whitespace()
            .map(|m| format!("\"{m}\""))
            .collect();
        input.push_str(&format!(
            "{{\"id\": {i}, \"moves\": [{}], \"multipv\": 2}}\n",
            moves.join(", ")
        ));
        if i == 3 {
            input.push_str("{\"id\": \"bad-move\", \"moves\": [\"a3a9\"]}\n");
            input.push_str("this is not json\n");
        }
    }
    input.push_str("{\"id\": \"ab\", \"player\": \"alphabeta:2\"}\n");
    let (code, stdout, stderr) = jungle_with_input(
        &["analyze", "--server", "--player", &player],
        input.as_bytes(),
    );
    assert_eq!(code, Some(0), "{stderr}");
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert_eq!(lines.len(), openings.len() + 3, "{stdout}");
    for i in 0..openings.len() {
        let a = lines.iter().find(|l| l["id"] == i).unwrap();
        assert_eq!(a["simulations"], 64, "{a}");
        let moves = a["lines"].as_array().unwrap();
        assert_eq!(moves.len(), 2, "{a}");
        for m in moves {
            for key in ["move", "visits", "value", "wdl", "prior", "policy", "pv"] {
                assert!(!m[key].is_null(), "{key}: {a}");
            }
        }
        assert_eq!(moves[0]["move"], a["best"], "{a}");
    }
    let bad = lines.iter().find(|l| l["id"] == "bad-move").unwrap();
    assert!(bad["error"].as_str().unwrap().contains("a3a9"), "{bad}");
    let not_json = lines.iter().find(|l| l["id"].is_null()).unwrap();
    assert!(
        not_json["error"].as_str().unwrap().contains("not JSON"),
        "{not_json}"
    );
    let ab = lines.iter().find(|l| l["id"] == "ab").unwrap();
    assert_eq!(ab["player"], "alphabeta:2", "{ab}");

    // The one-shot `--multipv` answer for opening 2 is the server's.
    let one = json(&[
        "analyze",
        "--player",
        &player,
        "--moves",
        "a3a4 g7g6",
        "--multipv",
        "2",
        "--json",
    ]);
    let served = lines.iter().find(|l| l["id"] == 2).unwrap();
    assert_eq!(one["best"], served["best"]);
    assert_eq!(one["lines"], served["lines"]);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn multipv_prints_a_table_and_refuses_what_it_cannot_do() {
    let (ok, stdout, stderr) = jungle(&["analyze", "--player", "mcts:100", "--multipv", "3"]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains(" #  move    visits"), "{stdout}");
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.starts_with(" 1 ") || l.starts_with(" 2 ") || l.starts_with(" 3 "))
            .count(),
        3,
        "{stdout}"
    );
    let (ok, _, stderr) = jungle(&["analyze", "--player", "greedy", "--multipv", "2"]);
    assert!(!ok && stderr.contains("does not search"), "{stderr}");
    let (ok, _, stderr) = jungle(&["analyze", "--server", "--player", "alphabeta:0"]);
    assert!(!ok && stderr.contains("--player"), "{stderr}");
    for (flag, value, range) in [
        ("--threads", "0", "1 to 256"),
        ("--threads", "257", "1 to 256"),
        ("--max-in-flight", "0", "1 to 1024"),
        ("--max-in-flight", "1025", "1 to 1024"),
    ] {
        let (ok, _, stderr) = jungle(&["analyze", "--server", "--player", "greedy", flag, value]);
        assert!(
            !ok && stderr.contains(flag) && stderr.contains(range),
            "{stderr}"
        );
    }
    // No player: the shipped network (networks/default).
    let (ok, stdout, stderr) = jungle(&["analyze", "--moves", "g3g4"]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("net:default:material=0.6:qsearch=0.5"),
        "{stdout}"
    );
    let (ok, _, stderr) = jungle(&["analyze", "--player", "net:no/such/net"]);
    assert!(!ok && stderr.contains("no/such/net"), "{stderr}");
}
