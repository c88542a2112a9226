//! Running the built `jungle` binary from tests.
#![allow(dead_code)]

use std::process::Command;

/// Runs `jungle` with `args`: (success, stdout, stderr).
pub fn jungle(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(args)
        .output()
        .expect("run jungle");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `jungle` with `args` and `stdin` piped in: (exit status, stdout,
/// stderr).
pub fn jungle_with_input(args: &[&str], stdin: &[u8]) -> (Option<i32>, String, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run jungle");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `jungle` with `args`, expects success and one JSON object on stdout.
pub fn json(args: &[&str]) -> serde_json::Value {
    let (ok, stdout, stderr) = jungle(args);
    assert!(ok, "{stderr}");
    serde_json::from_str(stdout.trim()).expect("one JSON object")
}

/// A fresh, empty scratch directory for one test.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A tiny network config (1 block x 8 filters).
pub const TINY_NET: &str =
    "blocks = 1\nfilters = 8\npolicy_filters = 4\nvalue_filters = 4\nvalue_hidden = 8\n";

/// Runs `jungle net init` for a network with config text `config` into
/// `dir/NAME` (extra arguments after), expects success; returns the
/// checkpoint prefix and stdout.
pub fn net_init(
    dir: &std::path::Path,
    name: &str,
    config: &str,
    extra: &[&str],
) -> (std::path::PathBuf, String) {
    let config_path = dir.join(format!("{name}.net.toml"));
    std::fs::write(&config_path, config).unwrap();
    let prefix = dir.join(name);
    let mut args = vec![
        "net",
        "init",
        "--out",
        prefix.to_str().unwrap(),
        "--config",
        config_path.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (ok, stdout, stderr) = jungle(&args);
    assert!(ok, "{stderr}");
    (prefix, stdout)
}

/// Two tiny networks in `dir`, `plain` and `head` (the same with the
/// survival head); their checkpoint prefixes.
pub fn plain_and_survival_nets(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let (plain, _) = net_init(dir, "plain", TINY_NET, &[]);
    let with_head = format!("{TINY_NET}survival_head = true\n");
    let (head, _) = net_init(dir, "head", &with_head, &[]);
    (plain, head)
}
