//! End-to-end checks of `jungle perft` through the built binary.

mod common;

use common::{json, jungle};

#[test]
fn json_report_has_the_documented_keys() {
    let v = json(&["perft", "--depth", "3", "--json"]);
    assert_eq!(v["depth"], 3);
    assert_eq!(v["nodes"], 12_240);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    assert!(v["nps"].as_f64().unwrap() > 0.0);
}

#[test]
fn divide_sums_to_the_total_and_bulk_agrees() {
    let v = json(&["perft", "--depth", "4", "--divide", "--json"]);
    let divide = v["divide"].as_object().unwrap();
    assert_eq!(divide.len(), 24);
    let sum: u64 = divide.values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(sum, 260_099);
    assert_eq!(
        json(&["perft", "--depth", "4", "--bulk", "--json"])["nodes"],
        260_099
    );
}

#[test]
fn fen_and_variant_are_honoured() {
    // A lone South lion on b3 and a North rat: the jump b3b7 exists only
    // when the lion may jump vertically.
    let fen = "6r/7/7/7/7/7/1L5/7/7 w";
    let both = json(&["perft", "--depth", "1", "--fen", fen, "--json"]);
    assert_eq!(both["nodes"], 4);
    let dir = std::env::temp_dir().join(format!("jungle-cli-perft-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("nojump.toml");
    std::fs::write(&path, "lion_jump = \"none\"\n").unwrap();
    let none = json(&[
        "perft",
        "--depth",
        "1",
        "--fen",
        fen,
        "--variant",
        path.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(none["nodes"], 3);
    std::fs::remove_dir_all(&dir).unwrap();
    // North moves first under vertical-tiger: still 24 moves, by symmetry.
    assert_eq!(
        json(&[
            "perft",
            "--depth",
            "1",
            "--variant",
            "vertical-tiger",
            "--json"
        ])["nodes"],
        24
    );
}

#[test]
fn bad_input_is_a_clear_error_not_a_panic() {
    let (ok, _, stderr) = jungle(&["perft", "--depth", "2", "--fen", "7/7/7 w"]);
    assert!(!ok);
    assert!(
        stderr.contains("--fen") && stderr.contains("3 ranks"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"));
    let (ok, _, stderr) = jungle(&["perft", "--depth", "2", "--variant", "no-such"]);
    assert!(!ok);
    assert!(
        stderr.contains("standard") && stderr.contains("bank-rats"),
        "{stderr}"
    );
    let (ok, _, stderr) = jungle(&["perft", "--depth", "x"]);
    assert!(!ok);
    assert!(stderr.contains("--depth"), "{stderr}");
}
