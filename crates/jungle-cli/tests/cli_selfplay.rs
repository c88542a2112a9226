//! End-to-end checks of `jungle selfplay` and `jungle shards stats`.

mod common;

use common::{jungle, net_init, temp_dir, TINY_NET};

const FAST_SELFPLAY: &str = "[selfplay]\nworkers = 1\ngames_in_flight = 4\nfull_simulations = 8\ncheap_simulations = 2\nmax_plies = 40\ngames_per_shard = 2\n";

#[test]
fn selfplay_writes_shards_that_stats_reads_and_verifies() {
    let dir = temp_dir("selfplay");
    let sp_cfg = dir.join("sp.toml");
    std::fs::write(&sp_cfg, FAST_SELFPLAY).unwrap();
    let (ck, _) = net_init(&dir, "000000", TINY_NET, &[]);
    let shards = dir.join("shards");
    let args = [
        "selfplay",
        "--checkpoint",
        ck.to_str().unwrap(),
        "--games",
        "3",
        "--out",
        shards.to_str().unwrap(),
        "--config",
        sp_cfg.to_str().unwrap(),
    ];
    let (ok, stdout, stderr) = jungle(&args);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("3 games") && stdout.contains("games/hour"),
        "{stdout}"
    );
    let (ok, stdout, stderr) = jungle(&["shards", "stats", shards.to_str().unwrap(), "--verify"]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("2 shard(s) read, 0 bad") && stdout.contains("games 3"),
        "{stdout}"
    );
    assert!(stdout.contains("0 disagree"), "{stdout}");
    let json = |dir: &std::path::Path| {
        let (ok, stdout, stderr) = jungle(&["shards", "stats", dir.to_str().unwrap(), "--json"]);
        let value: serde_json::Value = serde_json::from_str(&stdout).expect(&stdout);
        (ok, value, stderr)
    };
    let (ok, report, _) = json(&shards);
    assert!(ok);
    assert_eq!(
        (
            &report["games"],
            &report["duplicate_games"],
            &report["good_files"]
        ),
        (&3.into(), &0.into(), &2.into())
    );
    assert_eq!(report["bad_files"], serde_json::json!([]));
    // The same job again plays nothing (its games are there); another
    // seed adds games.
    let (ok, stdout, _) = jungle(&args);
    assert!(
        ok && stdout.contains("3 of the 3 games of seed 0 are already in"),
        "{stdout}"
    );
    assert_eq!(json(&shards).1["games"], 3);
    let mut other = args.to_vec();
    other.extend(["--seed", "1"]);
    assert!(jungle(&other).0);
    assert_eq!(json(&shards).1["games"], 6);
    // A shard copied in twice: stats counts its games as repeated and fails.
    let copy = shards.join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::copy(
        shards.join("shard-000000.bin"),
        copy.join("shard-000000.bin"),
    )
    .unwrap();
    let (ok, report, stderr) = json(&shards);
    assert!(!ok && stderr.contains("2 repeated game(s)"), "{stderr}");
    assert_eq!(
        (&report["games"], &report["duplicate_games"]),
        (&8.into(), &2.into())
    );
    std::fs::remove_dir_all(&copy).unwrap();
    // A damaged shard makes stats fail and name it.
    let first = shards.join("shard-000000.bin");
    let mut bytes = std::fs::read(&first).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(&first, bytes).unwrap();
    let (ok, stdout, _) = jungle(&["shards", "stats", shards.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        stdout.contains("BAD")
            && stdout.contains("shard-000000.bin")
            && stdout.contains("checksum"),
        "{stdout}"
    );
    assert!(stdout.contains("3 shard(s) read, 1 bad"), "{stdout}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_selfplay_input_is_a_clear_error() {
    let dir = temp_dir("selfplay-bad");
    let cfg = dir.join("bad.toml");
    let out = dir.join("o");
    // A random network and config text `text`: the run fails; its stderr.
    let fails_with = |text: &str| {
        std::fs::write(&cfg, text).unwrap();
        let (ok, _, stderr) = jungle(&[
            "selfplay",
            "--random-net",
            "--games",
            "1",
            "--out",
            out.to_str().unwrap(),
            "--config",
            cfg.to_str().unwrap(),
        ]);
        assert!(!ok, "{text}");
        stderr
    };
    let stderr = fails_with("[selfplay]\ngames_in_flite = 3\n");
    assert!(
        stderr.contains("bad.toml") && stderr.contains("games_in_flite"),
        "{stderr}"
    );
    let stderr = fails_with("[selfplay]\nfull_search_fraction = 2.0\n");
    assert!(stderr.contains("full_search_fraction"), "{stderr}");
    let stderr = fails_with("[selfplay]\nmaterial_weight = 5\n");
    assert!(
        stderr.contains("material_weight") && stderr.contains("0 to 4"),
        "{stderr}"
    );
    let stderr = fails_with("[selfplay]\neval_cache = 100000000\n");
    assert!(
        stderr.contains("eval_cache") && stderr.contains("at most 16777216"),
        "{stderr}"
    );
    let stderr = fails_with("[selfplay]\nqsearch_weight = -1\n");
    assert!(
        stderr.contains("qsearch_weight") && stderr.contains("0 to 4"),
        "{stderr}"
    );
    // The random network has no survival head to forecast material with.
    let stderr = fails_with("[selfplay]\nmaterial_weight = 0.5\n");
    assert!(
        stderr.contains("material_weight") && stderr.contains("survival_head = true"),
        "{stderr}"
    );
    let (ok, _, stderr) = jungle(&["selfplay", "--games", "1", "--out", out.to_str().unwrap()]);
    assert!(!ok, "a network is required");
    assert!(
        stderr.contains("--checkpoint") || stderr.contains("--random-net"),
        "{stderr}"
    );
    let (ok, _, stderr) = jungle(&["shards", "stats", dir.join("missing").to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("missing"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_committed_selfplay_config_loads() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/selfplay.toml");
    let dir = temp_dir("selfplay-cfg");
    let out = dir.join("o");
    // Zero games: only the config and the network are set up.
    let (ok, _, stderr) = jungle(&[
        "selfplay",
        "--random-net",
        "--games",
        "0",
        "--out",
        out.to_str().unwrap(),
        "--config",
        path,
    ]);
    assert!(ok, "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bench_selfplay_reports_rates_and_where_the_time_goes() {
    let dir = temp_dir("bench-selfplay");
    let (ck, _) = net_init(&dir, "000000", TINY_NET, &[]);
    let ck = ck.to_str().unwrap();
    let mut args = vec!["bench", "selfplay", "--checkpoint", ck, "--seconds", "1"];
    args.extend([
        "--set",
        "selfplay.workers=1",
        "--set",
        "selfplay.games_in_flight=4",
    ]);
    args.extend(["--set", "selfplay.max_plies=30", "--json"]);
    let r = common::json(&args);
    let number = |key: &str| r[key].as_f64().unwrap_or_else(|| panic!("{key}: {r}"));
    assert!(
        number("games") >= 1.0 && number("games_per_hour") > 0.0,
        "{r}"
    );
    assert!(number("leaves_per_s") >= number("evals_per_s") && number("evals_per_s") > 0.0);
    assert!(number("positions_per_s") > 0.0 && number("mean_batch") >= 1.0);
    assert!((0.0..=1.0).contains(&number("cache_hit")));
    assert!(number("peak_rss_mb") > 1.0);
    let shares = r["time_shares"].as_object().unwrap();
    let names: Vec<&str> = shares.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "backup",
            "encode",
            "forward",
            "idle",
            "leaf_checks",
            "other",
            "outputs",
            "quiescence",
            "select",
            "shard_write"
        ]
    );
    // The workers' time, split: every share but the collecting thread's
    // shard writing adds up to the whole.
    let sum: f64 = shares
        .iter()
        .filter(|(k, _)| *k != "shard_write")
        .map(|(_, v)| v.as_f64().unwrap())
        .sum();
    assert!((sum - 1.0).abs() < 0.01, "{sum}: {r}");
    assert!(shares["forward"].as_f64().unwrap() > 0.0 && shares["encode"].as_f64().unwrap() > 0.0);
    // A network that is not there is named.
    let (ok, _, stderr) = jungle(&[
        "bench",
        "selfplay",
        "--checkpoint",
        "/no/such/net",
        "--seconds",
        "1",
    ]);
    assert!(!ok && stderr.contains("/no/such/net"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}
