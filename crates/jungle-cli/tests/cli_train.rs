//! `jungle train` on the tiny config: checkpoints, matches, Elo, plots,
//! resuming without repeating finished work; `jungle elo` refits.

mod common;

use common::{jungle, temp_dir};

const TINY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/tiny.toml");

/// Writes the tiny config with `from` replaced by `to` to `path`.
fn tiny_with(path: &std::path::Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(TINY).unwrap();
    assert!(text.contains(from), "{from}");
    std::fs::write(path, text.replace(from, to)).unwrap();
}

/// Runs `jungle train --config CONFIG --root ROOT [--run RUN]`.
fn train(config: &str, root: &std::path::Path, run: Option<&str>) -> (bool, String, String) {
    let mut args = vec![
        "train",
        "--config",
        config,
        "--root",
        root.to_str().unwrap(),
    ];
    if let Some(run) = run {
        args.extend(["--run", run]);
    }
    jungle(&args)
}

fn state(dir: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("checkpoints/t/state.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_tiny_run_resumes_where_it_stopped_and_writes_its_reports() {
    let root = temp_dir("train");
    // "Interrupted" after the first generation: a one-generation config.
    let one = root.join("one.toml");
    tiny_with(&one, "generations = 2", "generations = 1");
    let (ok, stdout, stderr) = train(one.to_str().unwrap(), &root, Some("t"));
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("gen   1") && stdout.contains("% drawn"),
        "{stdout}"
    );
    let after_one = state(&root);
    assert_eq!(after_one["generation"], 1);
    let games_one = after_one["games"].as_u64().unwrap();
    let matches_one = std::fs::read_to_string(root.join("checkpoints/t/matches.jsonl"))
        .unwrap()
        .lines()
        .count();

    // The full tiny config continues with generation 2 only.
    let (ok, stdout, stderr) = train(TINY, &root, Some("t"));
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("resuming run `t` after generation 1"),
        "{stdout}"
    );
    assert!(
        stdout.contains("gen   2") && !stdout.contains("gen   1 "),
        "{stdout}"
    );
    let after_two = state(&root);
    assert_eq!(after_two["generation"], 2);
    assert_eq!(after_two["games"].as_u64().unwrap(), 2 * games_one);
    // One self-play record per generation, kept across the resume, each
    // adding up with the run's totals.
    let selfplay = after_two["selfplay"].as_array().unwrap();
    assert_eq!(selfplay.len(), 2, "{selfplay:?}");
    for (k, g) in selfplay.iter().enumerate() {
        assert_eq!(g["generation"], k as u64 + 1);
        assert_eq!(g["games"].as_u64().unwrap(), games_one);
        assert!(g["draws"].as_u64().unwrap() <= games_one);
        assert!(g["plies"].as_u64().unwrap() >= games_one, "{g}");
        // Every game's end reason, adding up to the games.
        let ended: u64 = g["ended"]
            .as_object()
            .unwrap()
            .values()
            .map(|n| n.as_u64().unwrap())
            .sum();
        assert_eq!(ended, games_one, "{g}");
    }
    // The closing summary shows the run by thirds, the value loss beside
    // the constant guess's, which each generation's line shows too.
    assert!(
        stdout.contains("third  generations   games  drawn  repetition")
            && stdout.contains("value loss  constant guess  policy loss"),
        "{stdout}"
    );
    let gen_two = stdout.lines().find(|l| l.starts_with("gen   2")).unwrap();
    assert!(gen_two.contains(" (constant guess "), "{gen_two}");
    assert_eq!(selfplay[0]["step"], 0, "generation 1 is played by step 0");
    assert_eq!(selfplay[1]["step"], after_one["step"]);
    assert_eq!(
        after_two["checkpoints"].as_array().unwrap().len(),
        3,
        "step 0 and one per generation"
    );
    let ck = root.join("checkpoints/t");
    let checkpoints = std::fs::read_dir(&ck)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .to_string_lossy()
                .ends_with(".bpk")
                && !e
                    .as_ref()
                    .unwrap()
                    .path()
                    .to_string_lossy()
                    .contains("optim")
        })
        .count();
    assert_eq!(checkpoints, 3);
    let matches_two = std::fs::read_to_string(ck.join("matches.jsonl"))
        .unwrap()
        .lines()
        .count();
    // Generation 2 adds: 2 games vs the previous checkpoint, 2 vs each of 2 anchors.
    assert_eq!(matches_two - matches_one, 6);
    for file in [
        "elo.png",
        "elo.svg",
        "elo-hours.png",
        "elo-hours.svg",
        "loss.png",
        "loss.svg",
        "selfplay.png",
        "selfplay.svg",
        "elo.csv",
    ] {
        assert!(
            std::fs::metadata(ck.join(file)).unwrap().len() > 100,
            "{file}"
        );
    }
    assert!(
        std::fs::read_dir(root.join("data/t/shards"))
            .unwrap()
            .count()
            >= 2
    );

    // `jungle elo` refits the same table.
    std::fs::remove_file(ck.join("elo.csv")).unwrap();
    let (ok, stdout, stderr) = jungle(&["elo", "--run", "t", "--root", root.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("random") && stdout.contains("step:0"),
        "{stdout}"
    );
    let csv = std::fs::read_to_string(ck.join("elo.csv")).unwrap();
    assert!(
        csv.starts_with("player,games,elo,stderr") && csv.contains("random,"),
        "{csv}"
    );
    // The anchors played each other once (tiny.toml: 2 games), cached
    // under the root, and the fit counts those games.
    let cached: Vec<_> = std::fs::read_dir(root.join("anchors"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(cached.len(), 1, "{cached:?}");
    let anchor_games = std::fs::read_to_string(&cached[0]).unwrap();
    assert_eq!(anchor_games.lines().count(), 2, "{anchor_games}");
    assert!(anchor_games
        .lines()
        .all(|l| l.contains(r#""a":"random","b":"greedy""#)));
    let matches = std::fs::read_to_string(ck.join("matches.jsonl")).unwrap();
    let vs_checkpoints = matches
        .lines()
        .filter(|l| l.contains(r#""b":"greedy""#))
        .count();
    let greedy_games: usize = csv
        .lines()
        .find(|l| l.starts_with("greedy,"))
        .and_then(|l| l.split(',').nth(1))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(greedy_games, vs_checkpoints + 2, "{csv}");
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn bad_training_input_is_a_clear_error() {
    let root = temp_dir("train-bad");
    let cfg = root.join("bad.toml");
    tiny_with(&cfg, "batch_size = 32", "batch_sise = 32");
    let (ok, _, stderr) = train(cfg.to_str().unwrap(), &root, None);
    assert!(!ok);
    assert!(
        stderr.contains("bad.toml") && stderr.contains("batch_sise"),
        "{stderr}"
    );
    tiny_with(
        &cfg,
        "anchors = [\"random\", \"greedy\"]",
        "anchors = [\"greedy\"]",
    );
    let (ok, _, stderr) = train(cfg.to_str().unwrap(), &root, None);
    assert!(!ok);
    assert!(stderr.contains("random"), "{stderr}");
    let (ok, _, stderr) = jungle(&["elo", "--run", "nothing", "--root", root.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        stderr.contains("nothing") && stderr.contains("state.json"),
        "{stderr}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn evaluation_every_nth_generation_and_the_learning_rate_schedule() {
    let root = temp_dir("train-every");
    let cfg = root.join("every.toml");
    let text = std::fs::read_to_string(TINY)
        .unwrap()
        .replace("generations = 2", "generations = 4")
        .replace("every = 1 ", "every = 3 ")
        .replace("lr_warmup_steps = 0", "lr_warmup_steps = 2")
        .replace("lr_drops = []", "lr_drops = [{ at = 0.5, factor = 0.1 }]");
    std::fs::write(&cfg, text).unwrap();
    let (ok, stdout, stderr) = train(cfg.to_str().unwrap(), &root, Some("t"));
    assert!(ok, "{stderr}");
    let s = state(&root);
    let steps: Vec<u64> = s["checkpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["step"].as_u64().unwrap())
        .collect();
    assert_eq!(steps.len(), 5, "{stdout}");
    let matches = std::fs::read_to_string(root.join("checkpoints/t/matches.jsonl")).unwrap();
    let evaluated = |step: u64| matches.contains(&format!("\"step:{step}\""));
    // Generations 0 and 1 (the first), 3 (every third) and 4 (the last).
    assert!(evaluated(steps[0]) && evaluated(steps[1]), "{matches}");
    assert!(!evaluated(steps[2]), "generation 2 is skipped: {matches}");
    assert!(evaluated(steps[3]) && evaluated(steps[4]), "{matches}");
    // Generation 3 played the last evaluated checkpoint (generation 1).
    assert!(
        matches.contains(&format!(
            "\"a\":\"step:{}\",\"b\":\"step:{}\"",
            steps[3], steps[1]
        )),
        "{matches}"
    );
    // The rate drops tenfold from the run's midpoint (generation 3 on).
    let lr: Vec<f64> = s["losses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["learning_rate"].as_f64().unwrap())
        .collect();
    assert!(
        (lr[0] - 0.002).abs() < 1e-9 && (lr[1] - 0.002).abs() < 1e-9,
        "{lr:?}"
    );
    assert!(
        (lr[2] - 0.0002).abs() < 1e-9 && (lr[3] - 0.0002).abs() < 1e-9,
        "{lr:?}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn set_overrides_one_key_and_an_unknown_key_is_named() {
    let root = temp_dir("train-set");
    let root_text = root.to_str().unwrap();
    let (ok, _, stderr) = jungle(&[
        "train",
        "--config",
        TINY,
        "--root",
        root_text,
        "--run",
        "t",
        "--set",
        "run.generations=1",
        "--set",
        "eval.games_vs_anchors=1",
    ]);
    assert!(ok, "{stderr}");
    let s = state(&root);
    assert_eq!(s["generation"], 1);
    assert_eq!(s["config"]["eval"]["games_vs_anchors"], 1);
    for (set, named) in [
        ("train.learnin_rate=0.1", "`train.learnin_rate`"),
        ("trian.learning_rate=0.1", "`trian`"),
        ("learning_rate=0.1", "SECTION.KEY=VALUE"),
        ("train.learning_rate=-1", "`learning_rate`"),
    ] {
        let (ok, _, stderr) = jungle(&[
            "train", "--config", TINY, "--root", root_text, "--run", "u", "--set", set,
        ]);
        assert!(!ok && stderr.contains(named), "{set}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_missing_optimizer_state_stops_a_resume() {
    let root = temp_dir("train-optim");
    let one = root.join("one.toml");
    tiny_with(&one, "generations = 2", "generations = 1");
    let (ok, _, stderr) = train(one.to_str().unwrap(), &root, Some("t"));
    assert!(ok, "{stderr}");
    let step = state(&root)["step"].as_u64().unwrap();
    let optim = root.join(format!("checkpoints/t/{step:08}.optim.bpk"));
    std::fs::remove_file(&optim).unwrap();
    let (ok, _, stderr) = train(TINY, &root, Some("t"));
    assert!(
        !ok && stderr.contains("optim.bpk") && stderr.contains("missing"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(state(&root)["generation"], 1, "nothing was trained");
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn an_interrupted_evaluation_is_finished_not_skipped_or_repeated() {
    let root = temp_dir("train-eval");
    let one = root.join("one.toml");
    tiny_with(&one, "generations = 2", "generations = 1");
    let (ok, _, stderr) = train(one.to_str().unwrap(), &root, Some("t"));
    assert!(ok, "{stderr}");
    let matches = root.join("checkpoints/t/matches.jsonl");
    let full = std::fs::read_to_string(&matches).unwrap();
    let me = format!("\"a\":\"step:{}\"", state(&root)["step"]);
    let against = |text: &str, b: &str| {
        text.lines()
            .filter(|l| l.contains(&me) && l.contains(&format!("\"b\":\"{b}\"")))
            .count()
    };
    assert_eq!(against(&full, "greedy"), 2, "{full}");
    // Killed before the games against greedy were written.
    let cut: String = full
        .lines()
        .filter(|l| !(l.contains(&me) && l.contains("\"b\":\"greedy\"")))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&matches, &cut).unwrap();
    let (ok, _, stderr) = train(one.to_str().unwrap(), &root, Some("t"));
    assert!(ok, "{stderr}");
    let resumed = std::fs::read_to_string(&matches).unwrap();
    assert_eq!(against(&resumed, "greedy"), 2, "{resumed}");
    assert_eq!(
        against(&resumed, "random"),
        against(&full, "random"),
        "{resumed}"
    );
    assert_eq!(resumed.lines().count(), full.lines().count(), "{resumed}");
    // The same games as the first time: the seeds are the match's.
    let greedy = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains(&me) && l.contains("\"b\":\"greedy\""))
            .map(String::from)
            .collect()
    };
    assert_eq!(greedy(&resumed), greedy(&full));
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_run_is_mirrored_to_a_store_and_a_bad_store_url_is_named() {
    let root = temp_dir("train-store");
    let store = temp_dir("train-store-mirror");
    let one = root.join("one.toml");
    tiny_with(&one, "generations = 2", "generations = 1");
    let url = format!("file://{}", store.display());
    let train_to = |run: &str, url: &str| {
        jungle(&[
            "train",
            "--config",
            one.to_str().unwrap(),
            "--root",
            root.to_str().unwrap(),
            "--run",
            run,
            "--store",
            url,
        ])
    };
    let (ok, stdout, stderr) = train_to("t", &url);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("mirroring run `t`"), "{stdout}");
    let latest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(store.join("checkpoints/t/latest.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(latest["generation"], 1);
    assert_eq!(latest["step"], state(&root)["step"]);
    assert!(store.join("data/t/shards/gen-000001").is_dir());

    let (ok, _, stderr) = train_to("u", "ftp://example.org/runs");
    assert!(!ok);
    assert!(
        stderr.contains("ftp://example.org/runs") && stderr.contains("s3://BUCKET/PREFIX"),
        "{stderr}"
    );
    std::fs::remove_dir_all(root).unwrap();
    std::fs::remove_dir_all(store).unwrap();
}

#[test]
fn jungle_carry_copies_a_stopped_run_that_resumes_in_the_new_root() {
    let root = temp_dir("train-carry");
    let to = temp_dir("train-carry-to");
    let one = root.join("one.toml");
    tiny_with(&one, "generations = 2", "generations = 1");
    let (ok, _, stderr) = train(one.to_str().unwrap(), &root, Some("t"));
    assert!(ok, "{stderr}");
    let carry = |run: &str| {
        jungle(&[
            "carry",
            "--run",
            run,
            "--root",
            root.to_str().unwrap(),
            "--to",
            to.to_str().unwrap(),
        ])
    };
    let (ok, stdout, stderr) = carry("t");
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("carried run `t` at generation 1")
            && stdout.contains(&format!("jungle train --root {} --run t", to.display())),
        "{stdout}"
    );
    assert_eq!(state(&to), state(&root));
    let (ok, _, stderr) = carry("t");
    assert!(!ok && stderr.contains("exists already"), "{stderr}");
    let (ok, _, stderr) = carry("nothing");
    assert!(!ok && stderr.contains("nothing/state.json"), "{stderr}");

    // The carried root resumes: the tiny config's second generation.
    let (ok, stdout, stderr) = train(TINY, &to, Some("t"));
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("resuming run `t` after generation 1"),
        "{stdout}"
    );
    assert_eq!(state(&to)["generation"], 2);
    std::fs::remove_dir_all(root).unwrap();
    std::fs::remove_dir_all(to).unwrap();
}

#[test]
fn a_run_that_diverges_stops_naming_generation_and_step_and_saves_nothing_of_it() {
    let root = temp_dir("diverge");
    let config = root.join("diverge.toml");
    // A schedule that multiplies the rate by 1e30 from the start: the
    // weights leave the floats at the first steps.
    tiny_with(
        &config,
        "lr_drops = []",
        "lr_drops = [{ at = 0.0, factor = 1e30 }]",
    );
    let (ok, _, stderr) = train(config.to_str().unwrap(), &root, Some("t"));
    assert!(!ok, "the run must fail");
    assert!(
        stderr.contains("diverged at generation 1, step")
            && stderr.contains("NaN")
            && stderr.contains("newest checkpoint is step 0"),
        "{stderr}"
    );
    // Only the initial network was written; the state names it alone.
    let checkpoints: Vec<String> = std::fs::read_dir(root.join("checkpoints/t"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".bpk"))
        .collect();
    assert_eq!(checkpoints, ["00000000.bpk"]);
    assert_eq!(state(&root)["step"], 0);
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn run_names_that_are_not_plain_folder_names_are_refused() {
    let root = temp_dir("run-names");
    for name in [
        "..",
        "../escape",
        "/tmp/absolute",
        "",
        "a/b",
        ".hidden",
        "tab\tname",
    ] {
        for command in ["train", "elo"] {
            let (ok, _, stderr) = jungle(
                &[
                    command,
                    "--config",
                    TINY,
                    "--root",
                    root.to_str().unwrap(),
                    "--run",
                    name,
                ]
                .into_iter()
                .filter(|a| command == "train" || (*a != "--config" && *a != TINY))
                .collect::<Vec<_>>(),
            );
            assert!(
                !ok && stderr.contains("run name") && stderr.contains("letters, digits"),
                "{command} --run {name:?}: {stderr}"
            );
        }
    }
    // Nothing was made outside the root, nor inside it.
    assert!(!std::path::Path::new("/tmp/absolute").exists());
    assert_eq!(std::fs::read_dir(&root).unwrap().count(), 0);
    std::fs::remove_dir_all(root).unwrap();
}
