//! `jungle ladder`: the compute ladder's table remade from the committed
//! records reads their figures back, and a misnamed run folder or a
//! damaged record is an error that names it.

mod common;

use common::{jungle, temp_dir};
use std::path::Path;

const RECORDS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../experiments/ladder");

#[test]
fn the_committed_records_give_the_published_rung() {
    let dir = temp_dir("ladder-committed");
    let out = dir.join("ladder");
    let (ok, stdout, stderr) = jungle(&["ladder", RECORDS, "--out", out.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let csv = std::fs::read_to_string(dir.join("ladder.csv")).unwrap();
    let mut lines = csv.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("config,rung,seed,samples,plies,probe,score_alphabeta4,score_alphabeta6"));
    // experiments/ladder/README.md: 725,120 samples, 489,157 plies,
    // probe 0.582, 0.600 over 200 games against alphabeta:4.
    assert!(
        csv.lines()
            .any(|l| l.starts_with("base,0.25,0,725120,489157,0.582") && l.contains(",0.6000,")),
        "{csv}"
    );
    // The last column, the estimated compute: the 4x48 trunk costs about
    // 2.1 times the 4x32 a position (docs/compute-ladder.md), at the same
    // samples and nearly the same plies.
    let compute = |prefix: &str| -> f64 {
        let line = csv.lines().find(|l| l.starts_with(prefix)).unwrap();
        line.rsplit(',').next().unwrap().parse().unwrap()
    };
    let ratio = compute("w48,0.5,0,") / compute("td0.9,0.5,0,");
    assert!((2.0..2.3).contains(&ratio), "{ratio}");
    for ext in ["png", "svg"] {
        assert!(dir.join(format!("ladder.{ext}")).is_file());
    }
    assert!(stdout.contains("0.600 (200)"), "{stdout}");
    // The in-run probes by share of the samples: experiments/ladder/
    // README.md's table for the 2 h rung's seed 0 (mean of four, probe /
    // value log-loss / top-1): 0.704 / 0.980 / 0.720 at 20%, 0.799 /
    // 1.064 / 0.771 at the end (to four places here).
    let in_run = std::fs::read_to_string(dir.join("ladder-in-run.csv")).unwrap();
    let row = in_run
        .lines()
        .find(|l| l.starts_with("td0.9,2,0,"))
        .unwrap_or_else(|| panic!("{in_run}"));
    assert!(row.starts_with("td0.9,2,0,0.7036,0.9804,0.7195,"), "{row}");
    assert!(row.ends_with(",0.7990,1.0642,0.7715"), "{row}");
    assert!(stdout.contains("0.704/0.980/0.720"), "{stdout}");
    // Elo a doubling, the games pooled over both seeds (experiments/
    // ladder/README.md): td0.9's quarter hour 0.765 against alphabeta:4
    // (+205), its half hour 0.819 (+262), +57 over 0.99 doublings of
    // compute; against alphabeta:6 0.594 -> 0.640, +66 -> +100.
    let gains = std::fs::read_to_string(dir.join("ladder-doublings.csv")).unwrap();
    assert!(
        gains
            .lines()
            .any(|l| l == "td0.9,0.25,0.5,2,2,0.991,205.0,261.9,57.4,41.9,65.9,100.0,34.3,30.2"),
        "{gains}"
    );
    assert!(stdout.contains("+57 +- 42 (+205 -> +262)"), "{stdout}");
    std::fs::remove_dir_all(dir).unwrap();
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_misnamed_folder_or_a_damaged_record_is_named() {
    let dir = temp_dir("ladder-bad");
    // The 4x32 network of the default config; 36 simulations a move.
    let config = r#"{"net": {"blocks": 4, "filters": 32, "global_pool_every": 0, "policy_filters": 32, "value_filters": 32, "value_hidden": 64, "survival_head": true, "tactical_planes": true}, "selfplay": {"full_simulations": 96, "cheap_simulations": 16, "full_search_fraction": 0.25}, "train": {"batch_size": 128}}"#;
    let state = format!(
        r#"{{"samples_seen": 100, "selfplay": [{{"plies": 40}}, {{"plies": 2}}], "config": {config}}}"#
    );
    let state = state.as_str();
    let probe =
        r#"[{"kind": "network", "metrics": {"metrics": {"probe_score": {"all": {"mean": 0.5}}}}}]"#;
    // Ten games a file: 3 won, 2 drawn, 5 lost, the net on either side;
    // a game against another player is left out.
    let game = |score: f64, net_south: bool| {
        let (south, north) = if net_south {
            ("net:x", "alphabeta:6")
        } else {
            ("alphabeta:6", "net:x")
        };
        format!(r#"{{"south":"{south}","north":"{north}","score_a":{score},"moves":"","plies":0}}"#)
    };
    let mut games: Vec<String> = [1.0, 1.0, 1.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0]
        .iter()
        .enumerate()
        .map(|(i, &s)| game(s, i % 2 == 0))
        .collect();
    games.push(r#"{"south":"net:x","north":"greedy","score_a":1.0}"#.to_string());
    let games = games.join("\n") + "\n";
    write(&dir.join("records/base/0.5h-s1/state.json"), state);
    write(&dir.join("records/base/0.5h-s1/probe.json"), probe);
    write(&dir.join("records/base/0.5h-s1/games-a.jsonl"), &games);
    write(&dir.join("records/base/0.5h-s1/games-b.jsonl"), &games);
    let records = dir.join("records");
    let out = dir.join("out/ladder");
    std::fs::create_dir_all(dir.join("out")).unwrap();
    let run = || {
        jungle(&[
            "ladder",
            records.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let (ok, _, stderr) = run();
    assert!(ok, "{stderr}");
    let csv = std::fs::read_to_string(dir.join("out/ladder.csv")).unwrap();
    // Two matches of 10 games pooled: 6-4-10, 0.4; none against alphabeta:4.
    assert!(
        csv.contains("\nbase,0.5,1,100,42,0.5000,,0.4000,0,20,"),
        "{csv}"
    );

    // A state without its config, with an impossible network or with a
    // share of full searches outside 0 to 1 is named.
    let state_path = dir.join("records/base/0.5h-s1/state.json");
    let without_config = r#"{"samples_seen": 100, "selfplay": []}"#.to_string();
    for (bad, needle) in [
        (without_config, "config"),
        (
            state.replace(r#""filters": 32"#, r#""filters": 0"#),
            "filters",
        ),
        (
            state.replace(r#", "train": {"batch_size": 128}"#, ""),
            "train",
        ),
        (
            state.replace(
                r#""full_search_fraction": 0.25"#,
                r#""full_search_fraction": -1"#,
            ),
            "full_search_fraction -1",
        ),
    ] {
        write(&state_path, &bad);
        let (ok, _, stderr) = run();
        assert!(
            !ok && stderr.contains("state.json") && stderr.contains(needle),
            "{needle}: {stderr}"
        );
    }
    write(&state_path, state);

    write(&dir.join("records/base/0.5h-s1/probe.json"), "[]");
    let (ok, _, stderr) = run();
    assert!(
        !ok && stderr.contains("probe.json") && stderr.contains("jungle probe"),
        "{stderr}"
    );
    write(&dir.join("records/base/0.5h-s1/probe.json"), probe);

    write(
        &dir.join("records/base/0.5h-s1/games-c.jsonl"),
        "{\"south\": 3}\n",
    );
    let (ok, _, stderr) = run();
    assert!(
        !ok && stderr.contains("games-c.jsonl") && stderr.contains("line 1"),
        "{stderr}"
    );
    std::fs::remove_file(dir.join("records/base/0.5h-s1/games-c.jsonl")).unwrap();

    write(&dir.join("records/base/0.5h-s1/probe.json"), probe);
    write(&dir.join("records/base/half-an-hour/state.json"), state);
    let (ok, _, stderr) = run();
    assert!(
        !ok && stderr.contains("half-an-hour") && stderr.contains("RUNGh-sSEED"),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
