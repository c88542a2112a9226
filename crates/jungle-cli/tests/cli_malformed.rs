//! The malformed-input corpus (`tests/data/malformed/`): every bad FEN,
//! move, player spec, config, variant file, shard, checkpoint and engine
//! line gets a clear error (exit status 1, or an `error` line from the
//! engine), never a panic (exit status 101).

mod common;

use common::{jungle_with_input, temp_dir};
use std::path::{Path, PathBuf};

fn corpus(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/malformed")
        .join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} is empty", dir.display());
    files
}

/// Each file of corpus `kind`, given to `jungle` by `args`, ends with
/// exit status 1 and an error message that contains what `names` says.
fn refused(
    kind: &str,
    args: impl Fn(&Path, &str) -> Vec<String>,
    names: impl Fn(&Path, &str) -> String,
) {
    let mut wrong = Vec::new();
    for path in corpus(kind) {
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let args = args(&path, &text);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, stderr) = jungle_with_input(&args, b"");
        let expected = names(&path, &text);
        if code != Some(1) || !stderr.contains("error") || !stderr.contains(&expected) {
            wrong.push(format!(
                "{}: exit {code:?}, expected `{expected}` in: {stderr}",
                path.display()
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

fn path_str(p: &Path) -> String {
    p.to_str().unwrap().to_string()
}

#[test]
fn bad_positions_moves_and_specs_are_errors() {
    refused(
        "fen",
        |_, fen| {
            ["perft", "--depth", "1", "--fen", fen]
                .map(String::from)
                .to_vec()
        },
        |_, _| "FEN".to_string(),
    );
    refused(
        "moves",
        |_, moves| {
            ["analyze", "--player", "random", "--moves", moves]
                .map(String::from)
                .to_vec()
        },
        |_, _| String::new(),
    );
    refused(
        "specs",
        |_, spec| ["analyze", "--player", spec].map(String::from).to_vec(),
        |_, _| String::new(),
    );
}

#[test]
fn bad_files_are_errors_that_name_the_file() {
    let dir = temp_dir("malformed");
    let root = path_str(&dir);
    refused(
        "configs",
        |p, _| {
            [
                "train",
                "--run",
                "m",
                "--root",
                &root,
                "--config",
                &path_str(p),
            ]
            .map(String::from)
            .to_vec()
        },
        |p, _| p.file_name().unwrap().to_string_lossy().into_owned(),
    );
    refused(
        "variants",
        |p, _| {
            ["perft", "--depth", "1", "--variant", &path_str(p)]
                .map(String::from)
                .to_vec()
        },
        |p, _| p.file_name().unwrap().to_string_lossy().into_owned(),
    );
    refused(
        "checkpoints",
        |p, _| {
            let out = path_str(&dir.join("out.onnx"));
            ["net", "onnx", "--checkpoint", &path_str(p), "--out", &out]
                .map(String::from)
                .to_vec()
        },
        |p, _| p.file_name().unwrap().to_string_lossy().into_owned(),
    );
    // A shard folder holding one bad shard.
    let shards = dir.join("shards");
    refused(
        "shards",
        |p, _| {
            let _ = std::fs::remove_dir_all(&shards);
            std::fs::create_dir_all(&shards).unwrap();
            std::fs::copy(p, shards.join("shard-000000.bin")).unwrap();
            ["shards", "stats", &path_str(&shards)]
                .map(String::from)
                .to_vec()
        },
        |_, _| "bad shard".to_string(),
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_engine_lines_get_error_lines_and_the_engine_goes_on() {
    let mut wrong = Vec::new();
    for path in corpus("engine") {
        let mut input = std::fs::read(&path).unwrap();
        input.extend_from_slice(b"isready\nquit\n");
        let (code, stdout, stderr) = jungle_with_input(&["engine"], &input);
        // `readyok` answers the `isready` after the file (at once when a
        // `go` of the file is still searching).
        let ready = stdout.lines().any(|l| l == "readyok");
        if code != Some(0) || !stdout.contains("error") || !ready {
            wrong.push(format!(
                "{}: exit {code:?}\n{stdout}\n{stderr}",
                path.display()
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn a_fifo_or_a_device_given_as_a_file_is_refused_at_once() {
    let dir = temp_dir("malformed-special");
    let fifo = dir.join("fifo.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let root = path_str(&dir);
    for special in [path_str(&fifo), "/dev/zero".to_string()] {
        let s = special.as_str();
        let mut commands = vec![
            vec!["train", "--run", "m", "--root", &root, "--config", s],
            vec!["perft", "--depth", "1", "--variant", s],
            vec!["probe", "--suite", s, "net:default"],
        ];
        if special.ends_with(".json") {
            // A checkpoint is named by its prefix: `fifo` reads `fifo.json`.
            let prefix = s.trim_end_matches(".json");
            commands.push(vec!["net", "onnx", "--checkpoint", prefix, "--out", &root]);
        }
        for args in commands {
            let started = std::time::Instant::now();
            let (code, _, stderr) = jungle_with_input(&args, b"");
            assert!(
                code == Some(1) && stderr.contains("not a regular file"),
                "{args:?}: exit {code:?}: {stderr}"
            );
            assert!(started.elapsed().as_secs() < 30, "{args:?} waited");
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}
