//! `jungle probe` and `jungle suite`: the shipped network beats a fresh one
//! on the standard suite, a made suite reads back, and a damaged suite or
//! a missing checkpoint is an error that names it.

mod common;

use common::{jungle, net_init, temp_dir};

const DEFAULT_NET: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../networks/default/checkpoint"
);

/// The default architecture, freshly initialised.
const DEFAULT_ARCHITECTURE: &str = "blocks = 4\nfilters = 32\npolicy_filters = 32\nvalue_filters = 32\nvalue_hidden = 64\nsurvival_head = true\ntactical_planes = true\n";

fn metric(row: &serde_json::Value, name: &str) -> f64 {
    row["metrics"]["metrics"][name]["all"]["mean"]
        .as_f64()
        .unwrap_or_else(|| panic!("{name} in {row}"))
}

#[test]
fn the_shipped_network_probes_better_than_a_fresh_one() {
    let dir = temp_dir("probe-fresh");
    let (fresh, _) = net_init(&dir, "fresh", DEFAULT_ARCHITECTURE, &["--seed", "3"]);
    let (ok, stdout, stderr) = jungle(&[
        "probe",
        fresh.to_str().unwrap(),
        DEFAULT_NET,
        "--every",
        "3",
        "--json",
    ]);
    assert!(ok, "{stderr}");
    let rows: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let (fresh, shipped) = (&rows[0], &rows[1]);
    assert!(fresh["positions"].as_u64().unwrap() >= 1600, "{fresh}");
    assert!(metric(shipped, "policy_top1") > metric(fresh, "policy_top1") + 0.05);
    assert!(metric(shipped, "value_sign") > metric(fresh, "value_sign") + 0.05);
    assert!(metric(shipped, "value_logloss") < metric(fresh, "value_logloss"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_made_suite_reads_back_and_players_are_probed_on_it() {
    let dir = temp_dir("probe-make");
    let suite = dir.join("suite.jsonl");
    let (ok, stdout, stderr) = jungle(&[
        "suite",
        "--out",
        suite.to_str().unwrap(),
        "--pairing",
        "random,greedy",
        "--pairing",
        "greedy,alphabeta:1",
        "--games",
        "4",
        "--per-phase",
        "5",
        "--depth",
        "3",
        "--threads",
        "1",
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("wrote"), "{stdout}");
    let (ok, stdout, stderr) = jungle(&[
        "probe",
        "--suite",
        suite.to_str().unwrap(),
        "--player",
        "alphabeta:3",
        "--player",
        "random",
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("moves_found"), "{stdout}");
    assert!(stdout.contains("alphabeta:3") && stdout.contains("random"));

    // A cut file: the header promises more positions than there are.
    let text = std::fs::read_to_string(&suite).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = dir.join("cut.jsonl");
    std::fs::write(&cut, lines[..lines.len() - 1].join("\n")).unwrap();
    let (ok, _, stderr) = jungle(&["probe", "--suite", cut.to_str().unwrap(), DEFAULT_NET]);
    assert!(!ok);
    assert!(
        stderr.contains("cut.jsonl") && stderr.contains("promises"),
        "{stderr}"
    );
    // A line whose move is not legal there.
    let bad = dir.join("bad.jsonl");
    let edited = text.replacen("\"best\":\"", "\"best\":\"a1a2", 1);
    std::fs::write(&bad, edited).unwrap();
    let (ok, _, stderr) = jungle(&["probe", "--suite", bad.to_str().unwrap(), DEFAULT_NET]);
    assert!(!ok);
    assert!(
        stderr.contains("bad.jsonl`, line 2") && stderr.contains("best"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn suite_flags_out_of_range_are_named() {
    for (flag, value) in [
        ("--depth", "99"),
        ("--games", "0"),
        ("--per-phase", "0"),
        ("--margin", "-5"),
    ] {
        let arg = format!("{flag}={value}");
        let (ok, _, stderr) = jungle(&["suite", "--out", "/nonexistent/s.jsonl", &arg]);
        assert!(!ok);
        assert!(stderr.contains(flag), "{flag}: {stderr}");
    }
}

#[test]
fn a_missing_checkpoint_and_nothing_to_probe_are_errors() {
    let (ok, _, stderr) = jungle(&["probe", "/nonexistent/ck"]);
    assert!(!ok);
    assert!(stderr.contains("/nonexistent/ck"), "{stderr}");
    let (ok, _, stderr) = jungle(&["probe"]);
    assert!(!ok);
    assert!(stderr.contains("nothing to probe"), "{stderr}");
}
