//! `jungle serve`: a client that does not read its answer holds one thread,
//! not the server; paths that leave the folder, plainly, percent-encoded
//! or through a symlink, are not served; a request head past its bound is
//! answered 431; idle connections hold no one else up; HEAD and 405.

mod common;

use common::temp_dir;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Sends a GET for `path` on a new connection and returns the answer's
/// status line and body (the connection is closed after it).
fn get(port: u16, path: &str) -> (String, String) {
    let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        c,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    c.read_to_string(&mut text).unwrap();
    let status = text.lines().next().unwrap_or("").to_string();
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

#[test]
fn a_slow_client_holds_a_thread_not_the_server_and_paths_stay_inside() {
    let dir = temp_dir("serve");
    std::fs::write(dir.join("index.html"), "<p>hello</p>").unwrap();
    // Far more than the sockets' buffers hold.
    std::fs::write(dir.join("big.bin"), vec![7u8; 64 << 20]).unwrap();
    std::fs::write(
        dir.parent().unwrap().join("jungle-serve-secret.txt"),
        "secret",
    )
    .unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args([
            "serve",
            "--port",
            "0",
            "--bind",
            "127.0.0.1",
            "--dir",
            dir.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let port: u16 = first
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {first:?}"));
    // A client asks for the big file and never reads it.
    let mut stalled = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(stalled, "GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let started = std::time::Instant::now();
    let (status, body) = get(port, "/index.html");
    assert!(
        status.contains("200") && body == "<p>hello</p>",
        "{status} {body}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    for path in [
        "/../jungle-serve-secret.txt",
        "/%2e%2e/jungle-serve-secret.txt",
        "/%2E%2E%2Fjungle-serve-secret.txt",
    ] {
        let (status, body) = get(port, path);
        assert!(
            status.contains("404") && !body.contains("secret"),
            "{path}: {status} {body}"
        );
    }
    // A head without end is answered 431 once past its bound, and idle
    // connections (sending nothing) hold no one else up.
    let idle: Vec<TcpStream> = (0..20)
        .map(|_| TcpStream::connect(("127.0.0.1", port)).unwrap())
        .collect();
    let mut flood = TcpStream::connect(("127.0.0.1", port)).unwrap();
    flood
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let line = format!("GET / HTTP/1.1\r\nX-Pad: {}\r\n", "p".repeat(60_000));
    let _ = flood.write_all(line.as_bytes());
    let mut answer = String::new();
    let _ = flood.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer}");
    let started = std::time::Instant::now();
    let (status, _) = get(port, "/index.html");
    assert!(status.contains("200"), "{status}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // HEAD gets the length without the body; other methods are refused.
    let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(c, "HEAD /index.html HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut text = String::new();
    c.read_to_string(&mut text).unwrap();
    assert!(
        text.contains("Content-Length: 12") && text.ends_with("\r\n\r\n"),
        "{text}"
    );
    let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(c, "DELETE /index.html HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut text = String::new();
    c.read_to_string(&mut text).unwrap();
    assert!(text.starts_with("HTTP/1.1 405"), "{text}");
    drop(idle);
    drop(stalled);
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_file(dir.parent().unwrap().join("jungle-serve-secret.txt"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_bad_or_foreign_address_is_refused_by_name() {
    let dir = temp_dir("serve-bind");
    std::fs::write(dir.join("index.html"), "<p>hello</p>").unwrap();
    let d = dir.to_str().unwrap();
    let (ok, _, stderr) = common::jungle(&["serve", "--bind", "localhost:80", "--dir", d]);
    assert!(!ok && stderr.contains("--bind"), "{stderr}");
    // 192.0.2.1 (TEST-NET-1) belongs to no machine: nothing can listen there.
    let (ok, _, stderr) =
        common::jungle(&["serve", "--bind", "192.0.2.1", "--port", "0", "--dir", d]);
    assert!(
        !ok && stderr.contains("--bind 192.0.2.1 --port 0: cannot listen there"),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
