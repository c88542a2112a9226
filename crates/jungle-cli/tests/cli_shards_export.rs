//! `jungle shards export`: the .npz file holds the trainer's positions,
//! inputs and targets, read back here as numpy would read it.

mod common;

use common::{jungle, net_init, temp_dir, TINY_NET};
use jungle_net::encoding::{move_slot, Encoding, POLICY_SLOTS};
use jungle_net::SURVIVAL_OUTPUTS;
use jungle_selfplay::{read_shard, shard_files_within};
use jungle_train::config::TrainConfig;
use jungle_train::{
    game_positions, game_positions_where, game_positions_with, is_searched_move, ValueTargets,
};
use ndarray::{Array1, Array2, Array4, ArrayD, Axis};
use ndarray_npy::NpzReader;
use std::fs::File;
use std::path::Path;

const FAST_SELFPLAY: &str = "[selfplay]\nworkers = 1\ngames_in_flight = 4\nfull_simulations = 8\ncheap_simulations = 2\nmax_plies = 40\ngames_per_shard = 2\n";

/// Plays 3 games into `dir/shards/seed-0` and 2 more into `dir/shards/seed-1`.
fn shards(dir: &Path) -> std::path::PathBuf {
    let cfg = dir.join("sp.toml");
    std::fs::write(&cfg, FAST_SELFPLAY).unwrap();
    let (ck, _) = net_init(dir, "net", TINY_NET, &[]);
    let shards = dir.join("shards");
    for (seed, games) in [("0", "3"), ("1", "2")] {
        let out = shards.join(format!("seed-{seed}"));
        let (ok, _, stderr) = jungle(&[
            "selfplay",
            "--checkpoint",
            ck.to_str().unwrap(),
            "--games",
            games,
            "--seed",
            seed,
            "--out",
            out.to_str().unwrap(),
            "--config",
            cfg.to_str().unwrap(),
        ]);
        assert!(ok, "{stderr}");
    }
    shards
}

/// Row `i` of the `fen` array as text.
fn fen_of(fens: &Array2<u8>, i: usize) -> String {
    let bytes: Vec<u8> = fens
        .row(i)
        .iter()
        .copied()
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8(bytes).unwrap()
}

/// Runs `jungle shards export SHARDS --out OUT EXTRA...`.
fn run_export(shards: &Path, out: &Path, extra: &[&str]) -> (bool, String, String) {
    let mut args = vec![
        "shards",
        "export",
        shards.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    jungle(&args)
}

/// An export that must succeed: its `--json` report.
fn export(shards: &Path, out: &Path, extra: &[&str]) -> serde_json::Value {
    let (ok, stdout, stderr) = run_export(shards, out, &[extra, &["--json"]].concat());
    assert!(ok, "{stderr}");
    serde_json::from_str(stdout.trim()).expect("one JSON object")
}

#[test]
fn the_export_holds_the_trainers_positions_and_targets() {
    let dir = temp_dir("npz");
    let shards = shards(&dir);
    let out = dir.join("positions.npz");
    let report = export(&shards, &out, &["--encoding", "3"]);
    assert_eq!(report["games"], 5, "{report}");
    assert_eq!(report["files"], 3, "{report}");

    // The same positions through the trainer's own code, and the value
    // targets as the default config's trainer makes them.
    let targets = default_value_targets();
    let mut expected = Vec::new();
    let mut expected_values = Vec::new();
    for file in shard_files_within(&shards).unwrap() {
        let shard = read_shard(&file, None).unwrap();
        for game in &shard.games {
            expected.extend(game_positions(game, &shard.rules).unwrap());
            expected_values.extend(
                game_positions_with(game, &shard.rules, targets)
                    .unwrap()
                    .into_iter()
                    .map(|p| p.wdl),
            );
        }
    }
    let rules = read_shard(&shard_files_within(&shards).unwrap()[0], None)
        .unwrap()
        .rules;
    let n = expected.len();
    assert!(n > 10, "{n} positions");
    assert_eq!(report["rows"], n, "{report}");

    let mut npz = NpzReader::new(File::open(&out).unwrap()).unwrap();
    let planes: Array4<f32> = npz.by_name("planes").unwrap();
    let policy: Array2<f32> = npz.by_name("policy").unwrap();
    let legal: Array2<bool> = npz.by_name("legal").unwrap();
    let wdl: Array2<f32> = npz.by_name("wdl").unwrap();
    let plies_left: Array1<u32> = npz.by_name("plies_left").unwrap();
    let mirrored: Array1<bool> = npz.by_name("mirrored").unwrap();
    let fens: Array2<u8> = npz.by_name("fen").unwrap();
    let search_draw: Array1<f32> = npz.by_name("search_draw").unwrap();
    let survival: Array2<bool> = npz.by_name("survival").unwrap();
    let value_target: Array2<f32> = npz.by_name("value_target").unwrap();
    let short_term: Array2<f32> = npz.by_name("short_term_target").unwrap();
    let full_search: Array1<bool> = npz.by_name("full_search").unwrap();
    let metadata: ArrayD<u8> = npz.by_name("metadata").unwrap();
    assert_eq!(planes.shape(), &[n, 44, 9, 7]);
    assert!(full_search.iter().all(|&f| f));
    let lambda = TrainConfig::load(None, &[]).unwrap().train.value_td_lambda;
    assert_eq!(report["value_td_lambda"], lambda, "{report}");
    assert_eq!(meta_lambda(&mut npz), lambda);
    assert_eq!(policy.shape(), &[n, POLICY_SLOTS]);
    assert_eq!(legal.shape(), &[n, POLICY_SLOTS]);
    assert_eq!(wdl.shape(), &[n, 3]);
    assert_eq!(plies_left.len(), n);
    assert!(mirrored.iter().all(|m| !m));
    let meta: serde_json::Value =
        serde_json::from_slice(metadata.as_slice().unwrap()).expect("metadata is JSON");
    assert_eq!(meta["encoding"], 3);
    assert_eq!(meta["rows"], n);
    assert_eq!(meta["planes"].as_array().unwrap().len(), 44);
    assert_eq!(meta["rules"], rules.to_toml());

    for (i, p) in expected.iter().enumerate() {
        let mut want = vec![0.0; Encoding::Exchange.input_len()];
        Encoding::Exchange.encode(&p.position, p.repetitions, &rules, &mut want);
        let got: Vec<f32> = planes.index_axis(Axis(0), i).iter().copied().collect();
        assert_eq!(got, want, "planes of row {i}");
        let row = policy.row(i);
        assert!(
            (row.sum() - 1.0).abs() < 1e-4,
            "row {i} sums to {}",
            row.sum()
        );
        let mover = p.position.side_to_move();
        for &(mv, prob) in &p.target {
            assert_eq!(row[move_slot(mv, mover)], prob);
        }
        for slot in 0..POLICY_SLOTS {
            assert!(
                legal[[i, slot]] || row[slot] == 0.0,
                "row {i}: target on an illegal slot {slot}"
            );
        }
        let legal_count = legal.row(i).iter().filter(|&&l| l).count();
        let moves = p.position.legal_moves(&rules).len();
        assert!(legal_count > 0 && legal_count <= moves, "row {i}");
        assert_eq!(wdl.row(i).to_vec(), p.wdl.to_vec());
        assert_eq!(value_target.row(i).to_vec(), expected_values[i].to_vec());
        assert_eq!(short_term.row(i).to_vec(), p.short_term_wdl.to_vec());
        assert_eq!(plies_left[i] as f32 / 100.0, p.moves_left, "row {i}");
        assert_eq!(fen_of(&fens, i), p.position.to_fen(), "row {i}");
        assert_eq!(search_draw[i], p.search_draw, "row {i}");
        for k in 0..SURVIVAL_OUTPUTS {
            assert_eq!(
                survival[[i, k]],
                p.survival >> k & 1 == 1,
                "row {i}, output {k}"
            );
        }
    }

    // Mirror images follow their originals; the targets move with them.
    let mirrored_out = dir.join("mirrored.npz");
    let report = export(
        &shards,
        &mirrored_out,
        &["--mirror", "--encoding", "2", "--compress"],
    );
    assert_eq!(report["rows"], 2 * n, "{report}");
    let mut npz = NpzReader::new(File::open(&mirrored_out).unwrap()).unwrap();
    let planes: ArrayD<f32> = npz.by_name("planes").unwrap();
    let flags: Array1<bool> = npz.by_name("mirrored").unwrap();
    let policy: Array2<f32> = npz.by_name("policy").unwrap();
    let fens: Array2<u8> = npz.by_name("fen").unwrap();
    assert_eq!(planes.shape(), &[2 * n, 42, 9, 7]);
    for (i, p) in expected.iter().enumerate() {
        assert!(!flags[2 * i] && flags[2 * i + 1]);
        let mut want = vec![0.0; Encoding::Tactical.input_len()];
        Encoding::Tactical.encode(&p.position.mirrored(), p.repetitions, &rules, &mut want);
        let got: Vec<f32> = planes
            .index_axis(Axis(0), 2 * i + 1)
            .iter()
            .copied()
            .collect();
        assert_eq!(got, want, "planes of mirrored row {}", 2 * i + 1);
        let mover = p.position.side_to_move();
        for &(mv, prob) in &p.target {
            assert_eq!(policy[[2 * i + 1, move_slot(mv.mirrored(), mover)]], prob);
        }
        assert_eq!(fen_of(&fens, 2 * i + 1), p.position.mirrored().to_fen());
    }
}

/// The metadata's `value_td_lambda`.
fn meta_lambda(npz: &mut NpzReader<File>) -> f64 {
    let metadata: ArrayD<u8> = npz.by_name("metadata").unwrap();
    let meta: serde_json::Value = serde_json::from_slice(metadata.as_slice().unwrap()).unwrap();
    meta["value_td_lambda"].as_f64().unwrap()
}

/// The default config's value targets.
fn default_value_targets() -> ValueTargets {
    let config = TrainConfig::load(None, &[]).unwrap();
    ValueTargets {
        td_lambda: config.train.value_td_lambda as f32,
        search_weight: config.train.value_search_weight as f32,
    }
}

#[test]
fn all_positions_adds_the_cheap_searches_without_policy_targets() {
    let dir = temp_dir("npz-all");
    let shards = shards(&dir);
    let out = dir.join("all.npz");
    let report = export(&shards, &out, &["--all-positions", "--td-lambda", "1"]);
    let targets = ValueTargets {
        td_lambda: 1.0,
        ..default_value_targets()
    };
    let mut expected = Vec::new();
    let mut full = Vec::new();
    for file in shard_files_within(&shards).unwrap() {
        let shard = read_shard(&file, None).unwrap();
        for game in &shard.games {
            expected.extend(
                game_positions_where(game, &shard.rules, targets, is_searched_move).unwrap(),
            );
            full.extend(
                game.moves
                    .iter()
                    .filter(|m| is_searched_move(m))
                    .map(|m| m.full_search),
            );
        }
    }
    let n = expected.len();
    let fulls = full.iter().filter(|&&f| f).count();
    // The fast self-play makes both kinds (cheap searches at 2 simulations).
    assert!(fulls > 5 && fulls < n, "{fulls} full of {n}");
    assert_eq!(report["rows"], n, "{report}");
    assert_eq!(report["all_positions"], true, "{report}");
    let mut npz = NpzReader::new(File::open(&out).unwrap()).unwrap();
    let policy: Array2<f32> = npz.by_name("policy").unwrap();
    let wdl: Array2<f32> = npz.by_name("wdl").unwrap();
    let value_target: Array2<f32> = npz.by_name("value_target").unwrap();
    let short_term: Array2<f32> = npz.by_name("short_term_target").unwrap();
    let full_search: Array1<bool> = npz.by_name("full_search").unwrap();
    let fens: Array2<u8> = npz.by_name("fen").unwrap();
    assert_eq!(full_search.to_vec(), full);
    for (i, p) in expected.iter().enumerate() {
        let sum = policy.row(i).sum();
        match full[i] {
            true => assert!((sum - 1.0).abs() < 1e-4, "row {i} sums to {sum}"),
            false => assert_eq!(sum, 0.0, "cheap row {i}"),
        }
        assert_eq!(fen_of(&fens, i), p.position.to_fen(), "row {i}");
        // lambda 1: the value target is the result.
        assert_eq!(value_target.row(i).to_vec(), wdl.row(i).to_vec(), "row {i}");
        assert_eq!(value_target.row(i).to_vec(), p.wdl.to_vec(), "row {i}");
        // Cheap searches' rows have their short-term targets too.
        assert_eq!(
            short_term.row(i).to_vec(),
            p.short_term_wdl.to_vec(),
            "row {i}"
        );
    }
    let (ok, _, stderr) = run_export(&shards, &out, &["--td-lambda", "1.5"]);
    assert!(
        !ok && stderr.contains("--td-lambda 1.5") && stderr.contains("0 to 1"),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_export_requests_are_clear_errors_and_leave_no_file() {
    let dir = temp_dir("npz-bad");
    let out = dir.join("x.npz");
    let (ok, _, stderr) = run_export(&dir, &out, &[]);
    assert!(!ok && stderr.contains("no shard-*.bin"), "{stderr}");
    let shards = shards(&dir);
    let (ok, _, stderr) = run_export(&shards, &out, &["--checkpoint", "/no/such/net"]);
    assert!(
        !ok && stderr.contains("--checkpoint /no/such/net"),
        "{stderr}"
    );
    let (ok, _, stderr) = run_export(&shards, &out, &["--encoding", "9"]);
    assert!(
        !ok && stderr.contains("--encoding 9") && stderr.contains("1, 2, 3"),
        "{stderr}"
    );
    // A damaged shard is named, and nothing is written.
    let file = &shard_files_within(&shards).unwrap()[1];
    let mut bytes = std::fs::read(file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(file, bytes).unwrap();
    let (ok, _, stderr) = run_export(&shards, &out, &[]);
    assert!(!ok && stderr.contains(file.to_str().unwrap()), "{stderr}");
    assert!(!out.exists());
    let leftovers: Vec<_> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn the_encoding_is_the_networks_that_will_read_it() {
    let dir = temp_dir("npz-encoding");
    let shards = shards(&dir);
    let out = dir.join("x.npz");
    // Shards of no run: the default config's network.
    let default = TrainConfig::load(None, &[]).unwrap().net.encoding();
    let report = export(&shards, &out, &[]);
    assert_eq!(report["encoding"], default.version(), "{report}");
    assert_eq!(report["encoding_of"], "the default config's network");
    // A checkpoint's network.
    let ck = dir.join("net");
    let theirs = jungle_net::read_meta(&ck).unwrap().net.encoding();
    let report = export(&shards, &out, &["--checkpoint", ck.to_str().unwrap()]);
    assert_eq!(report["encoding"], theirs.version(), "{report}");
    // A run's shards: its network's (the tiny config reads encoding 1).
    let root = dir.join("root");
    let (ok, _, stderr) = jungle(&[
        "train",
        "--run",
        "r",
        "--root",
        root.to_str().unwrap(),
        "--config",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/tiny.toml"),
        "--set",
        "run.generations=1",
    ]);
    assert!(ok, "{stderr}");
    let report = export(&root.join("data").join("r"), &out, &[]);
    assert_eq!(report["encoding"], 1, "{report}");
    assert_eq!(report["encoding_of"], "run r's network");
    let tiny = TrainConfig::load(
        Some(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../configs/tiny.toml"
        ))),
        &[],
    )
    .unwrap();
    assert_eq!(
        report["value_td_lambda"], tiny.train.value_td_lambda,
        "{report}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
