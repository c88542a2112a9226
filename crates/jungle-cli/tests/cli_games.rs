//! `jungle games`: recorded games of arena, variants and a run's
//! matches.jsonl shown as text that replays; bad lines are named.

mod common;

use common::{jungle, temp_dir};

#[test]
fn arena_and_variants_games_read_back_as_text_that_replays() {
    let dir = temp_dir("games");
    let record = dir.join("arena.jsonl");
    let (ok, _, stderr) = jungle(&[
        "arena",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "3",
        "--seed",
        "2",
        "--variant",
        "bank-rats",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[1]["variant"], "bank-rats");
    assert_eq!(lines[1]["a_seat"], "north");
    let (ok, text, stderr) = jungle(&["games", record.to_str().unwrap(), "--line", "2"]);
    assert!(ok, "{stderr}");
    assert_eq!(text.matches("[Source ").count(), 1, "{text}");
    assert!(
        text.contains("[South \"random\"]") && text.contains("[North \"greedy\"]"),
        "{text}"
    );
    assert!(text.contains("[Variant \"bank-rats\"]"), "{text}");
    let result = match lines[1]["score_a"].as_f64().unwrap() {
        s if s > 0.75 => "0-1",
        s if s < 0.25 => "1-0",
        _ => "1/2-1/2",
    };
    assert!(text.contains(&format!("[Result \"{result}\"]")), "{text}");
    let moves: Vec<&str> = lines[1]["moves"].as_str().unwrap().split(' ').collect();
    assert!(
        text.contains(&format!("  1. {:<6} {}", moves[0], moves[1])),
        "{text}"
    );
    // The command it prints analyses the last move's position.
    let command = text
        .lines()
        .find_map(|l| {
            l.strip_prefix("the last move's position: jungle analyze --variant bank-rats --moves ")
        })
        .expect("a replay line");
    let before = command.trim_matches('"');
    assert_eq!(before, moves[..moves.len() - 1].join(" "));
    let (ok, _, stderr) = jungle(&[
        "analyze",
        "--player",
        "greedy",
        "--variant",
        "bank-rats",
        "--moves",
        before,
    ]);
    assert!(ok, "{stderr}");

    // variants writes every game; games shows each under its rule set.
    let out = dir.join("variants");
    let (ok, _, stderr) = jungle(&[
        "variants",
        "--player",
        "greedy",
        "--opponent",
        "random",
        "--variants",
        "standard,bank-rats",
        "--games",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    let file = out.join("variants-games.jsonl");
    let (ok, text, stderr) = jungle(&["games", file.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert_eq!(text.matches("[Source ").count(), 4, "{text}");
    assert_eq!(text.matches("[Variant \"bank-rats\"]").count(), 2, "{text}");
    let shown = dir.join("games.txt");
    let (ok, stdout, stderr) = jungle(&[
        "games",
        file.to_str().unwrap(),
        record.to_str().unwrap(),
        "--out",
        shown.to_str().unwrap(),
    ]);
    assert!(ok && stdout.contains("wrote 7 games"), "{stdout}{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_lines_are_named_by_file_and_line() {
    let dir = temp_dir("games-bad");
    let file = dir.join("g.jsonl");
    std::fs::write(
        &file,
        "{\"south\":\"a\",\"north\":\"b\",\"score_a\":1,\"reason\":\"den\",\"moves\":\"a3a4\"}\n\
         {\"a\":\"x\",\"b\":\"y\",\"score_a\":1,\"reason\":\"den\"}\n\
         {\"south\":\"a\",\"north\":\"b\",\"score_a\":1,\"reason\":\"den\",\"moves\":\"a3a4 a3a4\"}\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let (ok, text, stderr) = jungle(&["games", f, "--line", "1"]);
    assert!(ok && text.contains("a3a4"), "{stderr}");
    let (ok, _, stderr) = jungle(&["games", f]);
    assert!(
        !ok && stderr.contains(&format!("{f}:2")) && stderr.contains("no seats"),
        "{stderr}"
    );
    let (ok, _, stderr) = jungle(&["games", f, "--line", "3"]);
    assert!(
        !ok && stderr.contains(&format!("{f}:3")) && stderr.contains("ply 1 (a3a4)"),
        "{stderr}"
    );
    let (ok, _, stderr) = jungle(&["games", f, "--line", "9"]);
    assert!(!ok && stderr.contains("has 3 lines"), "{stderr}");
    let (ok, _, stderr) = jungle(&["games", f, "--variant", "no-such-rules"]);
    assert!(!ok && stderr.contains("no-such-rules"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}
