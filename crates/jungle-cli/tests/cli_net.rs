//! End-to-end checks of `jungle net init`, `net:` players and `jungle bench net`.

mod common;

use common::{json, jungle, net_init, plain_and_survival_nets, temp_dir, TINY_NET};

#[test]
fn init_writes_a_checkpoint_that_net_players_load() {
    let dir = temp_dir("net-init");
    let (prefix, stdout) = net_init(&dir, "000000", TINY_NET, &["--variant", "trap-attack"]);
    assert!(stdout.contains("1 blocks x 8 filters"), "{stdout}");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("000000.json")).unwrap()).unwrap();
    assert_eq!(meta["net"]["filters"], 8);
    assert_eq!(meta["rules"]["trapped_can_capture"], true);
    assert_eq!(meta["step"], 0);

    let spec = format!("net:{}:8", prefix.display());
    let v = json(&[
        "arena", "--a", &spec, "--b", "random", "--games", "2", "--json",
    ]);
    assert_eq!(v["games"], 2);
    let fen = "6e/3C3/w6/7/7/7/7/5D1/L6 w";
    let v = json(&[
        "analyze",
        "--player",
        &format!("net:{}.json:64", prefix.display()),
        "--fen",
        fen,
        "--json",
    ]);
    assert_eq!(
        v["best"], "d8d9",
        "the search finds the den entry even with random weights"
    );
    let sum: f64 = v["policy"]
        .as_object()
        .unwrap()
        .values()
        .map(|p| p.as_f64().unwrap())
        .sum();
    assert!((sum - 1.0).abs() < 1e-3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_network_configs_and_specs_are_clear_errors() {
    let dir = temp_dir("net-bad");
    let config = dir.join("bad.toml");
    let out = dir.join("x");
    // `net init` with config text `text` fails; its stderr.
    let init_fails = |text: &str| {
        std::fs::write(&config, text).unwrap();
        let (ok, _, stderr) = jungle(&[
            "net",
            "init",
            "--out",
            out.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
        ]);
        assert!(!ok, "{text}");
        stderr
    };
    let stderr = init_fails("blocks = 2\nfilterz = 8\n");
    assert!(
        stderr.contains("bad.toml") && stderr.contains("filterz") && stderr.contains("filters"),
        "{stderr}"
    );
    let stderr = init_fails("filters = -3\n");
    assert!(stderr.contains("`filters`"), "{stderr}");
    for key in [
        "survival_head",
        "tactical_planes",
        "exchange_planes",
        "short_term_head",
    ] {
        let stderr = init_fails(&format!("{key} = 3\n"));
        assert!(
            stderr.contains(&format!("`{key}`")) && stderr.contains("true or false"),
            "{stderr}"
        );
    }
    let stderr = init_fails("exchange_planes = true\n");
    assert!(
        stderr.contains("`exchange_planes`") && stderr.contains("tactical_planes = true"),
        "{stderr}"
    );
    let (ok, _, stderr) = jungle(&["arena", "--a", "net:/no/such/checkpoint", "--b", "random"]);
    assert!(!ok);
    assert!(stderr.contains("/no/such/checkpoint.json"), "{stderr}");
    let (ok, _, stderr) = jungle(&["arena", "--a", "net:", "--b", "random"]);
    assert!(!ok);
    assert!(stderr.contains("missing checkpoint path"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn net_players_take_a_material_weight_only_with_the_survival_head() {
    let dir = temp_dir("net-material");
    let (plain, head) = plain_and_survival_nets(&dir);
    let spec = |prefix: &std::path::Path, tail: &str| format!("net:{}:4{tail}", prefix.display());
    let arena = |a: &str| {
        jungle(&[
            "arena",
            "--a",
            a,
            "--b",
            "random",
            "--games",
            "2",
            "--threads",
            "1",
        ])
    };
    let (ok, stdout, stderr) = arena(&spec(&head, ":material=0.5"));
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("material=0.5") && stdout.contains("A wins"),
        "{stdout}"
    );
    let (ok, _, stderr) = arena(&spec(&plain, ":material=0.5"));
    assert!(!ok);
    assert!(
        stderr.contains("--a") && stderr.contains("survival_head = true"),
        "{stderr}"
    );
    for bad in [":material=9", ":material=much", ":material="] {
        let (ok, _, stderr) = arena(&spec(&head, bad));
        assert!(!ok, "{bad}");
        assert!(stderr.contains("from 0 to 4"), "{bad}: {stderr}");
    }
    // The quiescence term needs no survival head.
    let (ok, stdout, stderr) = arena(&spec(&plain, ":qsearch=0.5"));
    assert!(ok && stdout.contains("qsearch=0.5"), "{stderr}");
    for bad in [":qsearch=5", ":qsearch=-1", ":qsearch=lots"] {
        let (ok, _, stderr) = arena(&spec(&head, bad));
        assert!(
            !ok && stderr.contains("qsearch") && stderr.contains("from 0 to 4"),
            "{bad}: {stderr}"
        );
    }
    // Without the simulations too.
    let (ok, _, stderr) = arena(&format!("net:{}:material=0.2", head.display()));
    assert!(ok, "{stderr}");
    // Search keys, in any order with the material weight.
    let (ok, stdout, stderr) = arena(&spec(&head, ":cpuct=2.5:material=0.5:root=gumbel"));
    assert!(ok && stdout.contains("cpuct=2.5"), "{stderr}");
    for (bad, says) in [
        (":cpuctt=2", "unknown search key `cpuctt`"),
        (":root=minimax", "minimax"),
        (":fpu_reduction=-1", "fpu_reduction"),
    ] {
        let (ok, _, stderr) = arena(&spec(&head, bad));
        assert!(
            !ok && stderr.contains("--a") && stderr.contains(says),
            "{bad}: {stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_net_reports_inference_and_training_rates() {
    let v = json(&[
        "bench",
        "net",
        "--blocks",
        "1",
        "--filters",
        "8",
        "--batches",
        "1,4",
        "--train-batch",
        "8",
        "--seconds",
        "0.05",
        "--threads",
        "2",
        "--json",
    ]);
    let infer = v["infer"].as_array().unwrap();
    assert_eq!(infer.len(), 2);
    assert_eq!(infer[1]["batch"], 4);
    assert!(infer.iter().all(|r| r["pos_per_s"].as_f64().unwrap() > 0.0));
    assert!(v["train_samples_per_s"].as_f64().unwrap() > 0.0);
    assert_eq!(v["fast_threads"], 2);
    let (flops, peak) = (
        v["flops_per_position"].as_f64().unwrap(),
        v["gemm_peak_gflops"].as_f64().unwrap(),
    );
    assert!(flops > 0.0 && peak > 0.0, "{v}");
    for row in infer {
        let gflops = row["pos_per_s"].as_f64().unwrap() * flops / 1e9;
        assert!((row["gflops"].as_f64().unwrap() - gflops).abs() <= 1e-9 * gflops.max(1.0));
        let share = row["share_of_peak"].as_f64().unwrap();
        assert!(
            (share - gflops / peak).abs() <= 1e-9 * share.max(1.0),
            "{row}"
        );
    }
}

#[test]
fn bench_net_refuses_bad_thread_counts() {
    for (bad, says) in [("0", "--threads: at least 1"), ("two", "--threads")] {
        let (ok, _, stderr) = jungle(&["bench", "net", "--threads", bad, "--seconds", "0.01"]);
        assert!(!ok && stderr.contains(says), "{bad}: {stderr}");
    }
}

#[test]
fn average_writes_a_checkpoint_players_load_and_refuses_mixed_runs() {
    let dir = temp_dir("net-average");
    let (a, _) = net_init(&dir, "a", TINY_NET, &["--seed", "1"]);
    let (b, _) = net_init(&dir, "b", TINY_NET, &["--seed", "2"]);
    let out = dir.join("avg");
    let average = |inputs: &[&std::path::Path]| {
        let mut args = vec!["net", "average", "--out", out.to_str().unwrap()];
        args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
        jungle(&args)
    };
    let (ok, stdout, stderr) = average(&[&a, &b]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("mean of 2 checkpoints"), "{stdout}");
    // The average is a third network: it judges the start unlike either input.
    let value = |prefix: &std::path::Path| {
        let spec = format!("net:{}:1", prefix.display());
        json(&["analyze", "--player", &spec, "--json"])["value"]
            .as_f64()
            .unwrap()
    };
    let (va, vb, vm) = (value(&a), value(&b), value(&out));
    assert!(vm != va && vm != vb, "{va} {vb} {vm}");
    let v = json(&[
        "arena",
        "--a",
        &format!("net:{}:8", out.display()),
        "--b",
        "random",
        "--games",
        "2",
        "--json",
    ]);
    assert_eq!(v["games"], 2);

    // Another architecture, another rule set, no input: clear errors.
    let (wide, _) = net_init(
        &dir,
        "wide",
        &TINY_NET.replace("filters = 8", "filters = 16"),
        &[],
    );
    let (other, _) = net_init(&dir, "other", TINY_NET, &["--variant", "trap-attack"]);
    for (second, expected) in [(&wide, "filters"), (&other, "rules")] {
        let (ok, _, stderr) = average(&[&a, second]);
        assert!(!ok);
        assert!(stderr.contains(expected), "{stderr}");
        assert!(stderr.contains(&second.display().to_string()), "{stderr}");
    }
    let (ok, _, stderr) = average(&[]);
    assert!(!ok);
    assert!(stderr.contains("CHECKPOINTS"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `jungle bench net --no-burn` with `JUNGLE_KERNELS` set to `kernels`:
/// (exit status, stdout, stderr).
fn bench_on_kernels(kernels: &str) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jungle"))
        .env("JUNGLE_KERNELS", kernels)
        .args([
            "bench",
            "net",
            "--blocks",
            "1",
            "--filters",
            "8",
            "--batches",
            "2",
            "--train-batch",
            "4",
            "--seconds",
            "0.02",
            "--no-burn",
            "--json",
        ])
        .output()
        .expect("run jungle");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn jungle_kernels_forces_a_path_the_processor_has_and_refuses_others() {
    // The plain path runs everywhere; bench net names it and, with
    // --no-burn, leaves burn's columns empty.
    let (ok, stdout, stderr) = bench_on_kernels("plain");
    assert!(ok, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["kernels"], "plain");
    assert!(v["infer"][0]["pos_per_s"].as_f64().unwrap() > 0.0, "{v}");
    assert!(v["infer"][0]["burn_pos_per_s"].is_null(), "{v}");
    assert!(v["train_autodiff_samples_per_s"].is_null(), "{v}");
    let (ok, _, stderr) = bench_on_kernels("sse9");
    assert!(!ok);
    assert!(
        stderr.contains("JUNGLE_KERNELS=\"sse9\": expected plain, avx2 or avx512"),
        "{stderr}"
    );
    // Every other path: used where the processor has it, refused by name
    // where it has not.
    for path in ["avx2", "avx512"] {
        let (ok, stdout, stderr) = bench_on_kernels(path);
        if ok {
            let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            assert_eq!(v["kernels"], path);
        } else {
            assert!(
                stderr.contains(&format!(
                    "JUNGLE_KERNELS={path}: this processor cannot run it"
                )),
                "{stderr}"
            );
        }
    }
}
