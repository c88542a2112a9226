//! `jungle tournament` as a researcher runs it: three players round robin
//! (matches.jsonl, ratings, crosstable), going on from its own file, a
//! gauntlet, an SPRT that stops early, and bad arguments refused.

mod common;

use common::{json, jungle, temp_dir};

fn lines(dir: &std::path::Path) -> usize {
    std::fs::read_to_string(dir.join("matches.jsonl"))
        .unwrap()
        .lines()
        .count()
}

#[test]
fn a_three_player_round_robin_rates_and_resumes() {
    let dir = temp_dir("tournament");
    let out = dir.to_str().unwrap();
    let args = |games: &'static str| {
        vec![
            "tournament",
            "--players",
            "random,greedy,alphabeta:2",
            "--games",
            games,
            "--threads",
            "2",
            "--out",
            out,
            "--json",
        ]
    };
    let v = json(&args("4"));
    assert_eq!(lines(&dir), 12);
    let ratings = v["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 3, "{v}");
    // Sorted by Elo; random is the anchor at 0; alpha-beta is on top.
    assert_eq!(ratings[0]["player"], "alphabeta:2", "{v}");
    let random = ratings.iter().find(|r| r["player"] == "random").unwrap();
    assert_eq!(random["elo"], 0.0);
    for r in ratings {
        assert_eq!(r["games"], 8, "{v}");
        let ci = r["ci95"].as_array().unwrap();
        assert!(ci[0].as_f64().unwrap() <= ci[1].as_f64().unwrap());
    }
    let cross = v["crosstable"].as_array().unwrap();
    let ab_vs_random: Vec<u64> = cross[2][0]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(ab_vs_random.iter().sum::<u64>(), 4, "{v}");
    assert_eq!(cross[0][2][0], cross[2][0][2], "{v}");
    // Run again: nothing to play. Then more games: only the new ones.
    json(&args("4"));
    assert_eq!(lines(&dir), 12);
    let v = json(&args("6"));
    assert_eq!(lines(&dir), 18);
    assert_eq!(v["ratings"][0]["games"], 12, "{v}");
    // The text report: the table and the crosstable.
    let (ok, stdout, stderr) = jungle(&[
        "tournament",
        "--players",
        "random,greedy,alphabeta:2",
        "--games",
        "6",
        "--out",
        out,
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("Elo: random = 0") && stdout.contains("player"),
        "{stdout}"
    );
    // Every game is kept whole: its moves replay to its end and its plies.
    let text = std::fs::read_to_string(dir.join("matches.jsonl")).unwrap();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut game = jungle_rules::Game::new(jungle_rules::Rules::default());
        let moves = v["moves"].as_str().unwrap();
        for mv in moves.split_whitespace() {
            game.play_text(mv)
                .unwrap_or_else(|e| panic!("{line}: {mv}: {e}"));
        }
        assert_eq!(
            game.moves().len() as u64,
            v["plies"].as_u64().unwrap(),
            "{line}"
        );
        assert!(
            ["south", "north"].contains(&v["a_seat"].as_str().unwrap()),
            "{line}"
        );
    }
    // Games of another kind are not merged into the folder's.
    let openings = dir
        .parent()
        .unwrap()
        .join(format!("openings-{}.txt", std::process::id()));
    std::fs::write(&openings, "a3a4 g7g6\n").unwrap();
    for (flag, value, named) in [
        ("--seed", "1", "--seed (0 there, 1 here)"),
        ("--variant", "elephant-rat", "--variant"),
        ("--opening-plies", "2", "--opening-plies (4 there, 2 here)"),
        ("--openings", openings.to_str().unwrap(), "--openings"),
    ] {
        let mut other = args("6");
        other.extend([flag, value]);
        let (ok, _, stderr) = jungle(&other);
        assert!(!ok && stderr.contains(named), "{flag}: {stderr}");
    }
    assert_eq!(lines(&dir), 18);
    std::fs::remove_file(openings).unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_gauntlet_and_an_sprt() {
    let dir = temp_dir("gauntlet");
    let out = dir.to_str().unwrap();
    let v = json(&[
        "tournament",
        "--players",
        "random,greedy,alphabeta:1",
        "--gauntlet",
        "alphabeta:1",
        "--games",
        "2",
        "--out",
        out,
        "--json",
    ]);
    assert_eq!(lines(&dir), 4);
    assert_eq!(v["anchor"], "alphabeta:1");
    // Random and greedy never met.
    assert_eq!(v["crosstable"][0][1], serde_json::json!([0, 0, 0]), "{v}");
    let sprt_dir = dir.join("sprt");
    let v = json(&[
        "tournament",
        "--players",
        "alphabeta:2,random",
        "--sprt",
        "0,50",
        "--games",
        "400",
        "--threads",
        "2",
        "--out",
        sprt_dir.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["sprt"]["verdict"], "H1", "{v}");
    let games = v["sprt"]["games"].as_u64().unwrap();
    assert!(games < 400 && games as usize == lines(&sprt_dir), "{v}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn decided_games_are_adjudicated_and_the_folder_keeps_the_rule() {
    let dir = temp_dir("tournament-adjudicated");
    let out = dir.to_str().unwrap();
    let args = |material: &'static str| {
        vec![
            "tournament",
            "--players",
            "greedy,random",
            "--games",
            "8",
            "--adjudicate-material",
            material,
            "--adjudicate-solver",
            "2",
            "--out",
            out,
        ]
    };
    let (ok, _, stderr) = jungle(&args("1000:6"));
    assert!(ok, "{stderr}");
    let text = std::fs::read_to_string(dir.join("matches.jsonl")).unwrap();
    let games: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 8);
    let adjudicated: Vec<_> = games
        .iter()
        .filter(|g| g["reason"].as_str().unwrap().starts_with("adjudicated_"))
        .collect();
    // Greedy against random gets 1000 points of material ahead in most games.
    assert!(adjudicated.len() >= 4, "{text}");
    for g in &adjudicated {
        // An adjudicated game is decided: a win or a loss, never a draw, and
        // its game is not over by the rules (`jungle games` replays it).
        assert_ne!(g["score_a"], 0.5, "{g}");
    }
    let (ok, shown, stderr) = jungle(&["games", dir.join("matches.jsonl").to_str().unwrap()]);
    assert!(ok && shown.contains("(adjudicated_"), "{stderr}");
    // Going on with another rule is refused: the games would not compare.
    let (ok, _, stderr) = jungle(&args("800:6"));
    assert!(
        !ok && stderr.contains("--adjudicate-solver or --adjudicate-material"),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_arguments_are_refused_with_the_flag_named() {
    for (args, expected) in [
        (vec!["--players", "random"], "at least two"),
        (vec!["--players", "random,random"], "given twice"),
        (
            vec!["--players", "random,greedy", "--gauntlet", "alphabeta:3"],
            "not one of --players",
        ),
        (
            vec!["--players", "random,greedy,alphabeta:1", "--sprt", "0,10"],
            "two players",
        ),
        (
            vec!["--players", "random,greedy", "--sprt", "10,0"],
            "ELO0 < ELO1",
        ),
        (vec!["--players", "random,alphabeta:0"], "alphabeta:0"),
        (
            vec![
                "--players",
                "random,greedy",
                "--adjudicate-material",
                "1000",
            ],
            "--adjudicate-material 1000: expected POINTS:PLIES",
        ),
        (
            vec!["--players", "random,greedy", "--adjudicate-material", "0:5"],
            "two whole numbers above 0",
        ),
    ] {
        let mut all = vec!["tournament"];
        all.extend(args);
        all.extend(["--out", "/tmp/jungle-never-written"]);
        let (ok, _, stderr) = jungle(&all);
        assert!(!ok && stderr.contains(expected), "{all:?}: {stderr}");
    }
}

#[test]
fn a_network_under_rules_it_never_trained_under_is_played_with_a_warning() {
    let dir = temp_dir("tournament-untrained");
    let (ok, stdout, stderr) = jungle(&[
        "tournament",
        "--players",
        "net:default:4,greedy",
        "--games",
        "2",
        "--threads",
        "1",
        "--variant",
        "bbdsq",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert_eq!(lines(&dir), 2, "{stdout}");
    assert!(
        stderr.contains("WARNING: --players net:default:4") && stderr.contains("not under bbdsq"),
        "{stderr}"
    );
    assert!(!stderr.contains("--players greedy"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}
