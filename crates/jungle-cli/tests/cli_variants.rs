//! `jungle variants`: a forced first-mover win is reported as such, the same
//! seed gives the same table, bad variants are clear errors.

mod common;

use common::{json, jungle, temp_dir};

const DEN_IN_ONE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/den-in-one.toml");

#[test]
fn a_forced_first_mover_win_is_reported_with_a_narrow_interval() {
    let out = temp_dir("variants-forced");
    let v = json(&[
        "variants",
        "--player",
        "alphabeta:2",
        "--variants",
        &format!("standard,{DEN_IN_ONE}"),
        "--games",
        "40",
        "--opening-plies",
        "0",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    let rows = v["variants"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    let forced = &rows[1];
    assert_eq!(forced["games"], 40);
    assert_eq!(forced["first_wins"], 40);
    assert_eq!(forced["first_score"], 1.0);
    assert!(forced["ci95"][0].as_f64().unwrap() > 0.9, "{forced}");
    assert_eq!(forced["reasons"]["den"], 1.0);
    assert_eq!(forced["median_plies"], 1.0);
    // Against `standard` (the baseline) the difference is significant.
    let b = &forced["vs_baseline"];
    assert_eq!(b["baseline"], "standard");
    assert!(b["p_value"].as_f64().unwrap() < 0.01, "{b}");
    assert!(rows[0]["vs_baseline"].is_null());
    // A start of its own: its switches are live in every game.
    assert_eq!(forced["switch_live"], 1.0);
    assert!(rows[0]["switch_live"].is_null(), "the baseline has none");
    for file in [
        "variants.csv",
        "variants.md",
        "variants.json",
        "variants.png",
        "variants.svg",
        "variants-length.png",
        "variants-length.svg",
    ] {
        assert!(
            std::fs::metadata(out.join(file)).unwrap().len() > 100,
            "{file}"
        );
    }
    let md = std::fs::read_to_string(out.join("variants.md")).unwrap();
    assert!(
        md.contains("| standard |") && md.contains("den-in-one.toml") && md.contains("switch live"),
        "{md}"
    );
    let csv = std::fs::read_to_string(out.join("variants.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    std::fs::remove_dir_all(out).unwrap();
}

#[test]
fn the_same_seed_gives_the_same_table_whatever_the_threads() {
    let out = temp_dir("variants-seed");
    let run = |threads: &str, seed: &str| {
        json(&[
            "variants",
            "--player",
            "greedy",
            "--opponent",
            "alphabeta:1",
            "--all",
            "--games",
            "12",
            "--threads",
            threads,
            "--seed",
            seed,
            "--out",
            out.to_str().unwrap(),
            "--json",
        ])
    };
    let a = run("1", "7");
    assert_eq!(a, run("2", "7"));
    assert_ne!(a, run("2", "8"), "another seed, other games");
    let rows = a["variants"].as_array().unwrap();
    assert!(rows.len() >= 7);
    for r in rows {
        let (f, d, s) = (
            r["first_wins"].as_u64().unwrap(),
            r["draws"].as_u64().unwrap(),
            r["second_wins"].as_u64().unwrap(),
        );
        assert_eq!(f + d + s, 12, "{r}");
        assert!(r["player_score"].as_f64().is_some(), "{r}");
        let shares: f64 = r["reasons"]
            .as_object()
            .unwrap()
            .values()
            .map(|x| x.as_f64().unwrap())
            .sum();
        assert!((shares - 1.0).abs() < 1e-9, "{r}");
        if r["variant"] == "standard" {
            assert!(r["switch_live"].is_null(), "{r}");
        } else {
            let (live, played) = (
                r["switch_live"].as_f64().unwrap(),
                r["switch_played"].as_f64().unwrap(),
            );
            assert!((0.0..=1.0).contains(&live) && played <= live, "{r}");
        }
    }
    std::fs::remove_dir_all(out).unwrap();
}

#[test]
fn bad_variants_are_clear_errors_listing_the_presets() {
    let out = temp_dir("variants-bad");
    let run = |list: &str| {
        jungle(&[
            "variants",
            "--player",
            "random",
            "--variants",
            list,
            "--games",
            "2",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let (ok, _, stderr) = run("standard,elefant-rat");
    assert!(!ok);
    assert!(
        stderr.contains("elefant-rat") && stderr.contains("elephant-rat, bank-rats"),
        "{stderr}"
    );
    let bad = out.join("bad.toml");
    std::fs::write(&bad, "tiger_jump = \"sideways\"\n").unwrap();
    let (ok, _, stderr) = run(&format!("standard,{}", bad.display()));
    assert!(!ok);
    assert!(
        stderr.contains("bad.toml")
            && stderr.contains("tiger_jump")
            && stderr.contains("known presets"),
        "{stderr}"
    );
    let (ok, _, stderr) = jungle(&["variants", "--player", "random", "--games", "2"]);
    assert!(!ok);
    assert!(stderr.contains("--all"), "{stderr}");
    std::fs::remove_dir_all(out).unwrap();
}

#[test]
fn a_network_is_not_compared_under_rule_sets_it_was_not_trained_under() {
    let out = temp_dir("variants-untrained");
    let run = |list: &str, extra: &[&str]| {
        let mut args = vec![
            "variants",
            "--player",
            "net:default:8",
            "--opponent",
            "greedy",
            "--variants",
            list,
            "--games",
            "2",
            "--threads",
            "1",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        jungle(&args)
    };
    // The shipped network was trained under the standard rules only.
    let (ok, _, stderr) = run("standard,bank-rats,bbdsq", &[]);
    assert!(!ok);
    assert!(
        stderr.contains("--player net:default:8")
            && stderr.contains("trained under standard only")
            && stderr.contains("not under bank-rats, bbdsq")
            && stderr.contains("--untrained"),
        "{stderr}"
    );
    // Under its own rule set it plays; with --untrained the others too,
    // loudly, and the table's title says so.
    let (ok, _, stderr) = run("standard", &[]);
    assert!(ok, "{stderr}");
    let (ok, _, stderr) = run("standard,bank-rats", &["--untrained"]);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("WARNING (--untrained)"), "{stderr}");
    let md = std::fs::read_to_string(out.join("variants.md")).unwrap();
    assert!(md.contains("UNTRAINED: --player net:default:8"), "{md}");
    std::fs::remove_dir_all(out).unwrap();
}
