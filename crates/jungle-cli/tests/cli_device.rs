//! `--device` on the commands that run a network: the CPU works everywhere,
//! a GPU backend left out of the build is an error naming the feature to
//! build with, and an unknown device is refused with the accepted names.

mod common;
use common::{json, jungle, net_init, temp_dir, TINY_NET};

#[test]
fn the_engine_searches_with_its_network_on_the_cpu_device() {
    let dir = temp_dir("device-engine");
    let (net, _) = net_init(&dir, "net", TINY_NET, &[]);
    let spec = format!("net:{}:8", net.display());
    let (code, stdout, stderr) = common::jungle_with_input(
        &["engine", "--device", "cpu", "--player", &spec],
        b"go nodes 16\nisready\nquit\n",
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains("bestmove ") && !stdout.contains("(none)"),
        "{stdout}"
    );
}

#[test]
fn a_net_player_plays_on_the_cpu_device() {
    let dir = temp_dir("device-arena");
    let (net, _) = net_init(&dir, "net", TINY_NET, &[]);
    let spec = format!("net:{}:8", net.display());
    let v = json(&[
        "arena",
        "--device",
        "cpu",
        "--a",
        &spec,
        "--b",
        "random",
        "--games",
        "2",
        "--threads",
        "1",
        "--json",
    ]);
    let games: u64 = ["a_wins", "draws", "b_wins"]
        .iter()
        .map(|k| v[k].as_u64().unwrap())
        .sum();
    assert_eq!(games, 2, "{v}");
}

#[test]
fn bench_net_names_its_device_and_the_time_per_pass() {
    let v = json(&[
        "bench",
        "net",
        "--device",
        "cpu",
        "--blocks",
        "1",
        "--filters",
        "8",
        "--batches",
        "4",
        "--train-batch",
        "4",
        "--seconds",
        "0.01",
        "--json",
    ]);
    assert_eq!(v["device"], "cpu", "{v}");
    let ms = v["infer"][0]["burn_ms_per_pass"].as_f64().unwrap();
    assert!(ms > 0.0 && ms.is_finite(), "{v}");
}

#[test]
fn a_gpu_backend_left_out_of_the_build_is_named_with_its_feature() {
    for (device, built) in [
        ("cuda", cfg!(feature = "cuda")),
        ("wgpu", cfg!(feature = "wgpu")),
    ] {
        if built {
            continue;
        }
        for args in [
            vec!["arena", "--a", "greedy", "--b", "random", "--games", "2"],
            vec!["bench", "net", "--seconds", "0.01", "--batches", "1"],
            vec!["engine", "--player", "greedy"],
        ] {
            let mut args = args.clone();
            args.extend(["--device", device]);
            let (ok, _, stderr) = jungle(&args);
            assert!(!ok, "{args:?} ran without the `{device}` feature");
            assert!(
                stderr.contains(&format!("--features {device}")) && stderr.contains("docs/gpu.md"),
                "{args:?}: {stderr}"
            );
        }
        let dir = temp_dir(&format!("device-train-{device}"));
        let (ok, _, stderr) = jungle(&[
            "train",
            "--root",
            dir.to_str().unwrap(),
            "--device",
            device,
            "--set",
            "run.generations=1",
        ]);
        assert!(!ok);
        assert!(
            stderr.contains("[train]") && stderr.contains(&format!("--features {device}")),
            "{stderr}"
        );
    }
}

#[test]
fn an_unknown_device_is_refused_with_the_accepted_names() {
    let (ok, _, stderr) = jungle(&["arena", "--a", "greedy", "--b", "random", "--device", "tpu"]);
    assert!(!ok);
    assert!(
        stderr.contains("`tpu`") && stderr.contains("auto, cpu, cuda or wgpu"),
        "{stderr}"
    );
    let (ok, _, stderr) = jungle(&[
        "train",
        "--set",
        "train.device=\"tpu\"",
        "--root",
        "/nonexistent-root",
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("device") && stderr.contains("wgpu"),
        "{stderr}"
    );
}
