//! `jungle serve`: the browser page (`web/dist/`, built by
//! `scripts/build_web.sh`) served as static files on 127.0.0.1, for
//! playing the shipped network in a browser. Files only, under the folder,
//! read-only; nothing else is reachable.

use anyhow::{Context, Result};
use clap::Args;
use std::path::{Component, Path, PathBuf};
use tiny_http::{Header, Response, Server};

/// Arguments of `jungle serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// The port on 127.0.0.1 (0: any free port; the one taken is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The folder to serve.
    #[arg(long, default_value = "web/dist")]
    dir: PathBuf,
}

/// The content type of a file, by its extension (`application/wasm` lets
/// the browser compile WebAssembly while it downloads).
fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "wasm" => "application/wasm",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

/// Threads answering requests: a client that reads slowly holds one of
/// them, not the server.
const SERVE_THREADS: usize = 8;

/// The file under `root` a request's URL names (`/` is `index.html`), or
/// `None` for a path that leaves the folder (`..` components, written
/// plainly or percent-encoded, or a symlink that points outside it), is
/// not UTF-8 once decoded, or names no file.
fn file_for(root: &Path, url: &str) -> Option<PathBuf> {
    let raw = url.split(['?', '#']).next().unwrap_or("");
    let path = percent_encoding::percent_decode_str(raw)
        .decode_utf8()
        .ok()?;
    let relative = Path::new(path.trim_start_matches('/'));
    if relative
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return None;
    }
    let mut file = root.join(relative);
    if file.is_dir() {
        file = file.join("index.html");
    }
    // Symlinks are followed only where they stay inside the folder.
    let inside = file.canonicalize().ok()?;
    let root = root.canonicalize().ok()?;
    (inside.starts_with(&root) && inside.is_file()).then_some(inside)
}

/// Answers one request with the file its URL names, or 404.
fn answer(root: &Path, request: tiny_http::Request) {
    let answer = match file_for(root, request.url()) {
        Some(file) => match std::fs::File::open(&file) {
            Ok(opened) => {
                let header = Header::from_bytes("Content-Type", content_type(&file))
                    .expect("a valid header");
                request.respond(Response::from_file(opened).with_header(header))
            }
            Err(e) => request.respond(
                Response::from_string(format!("{}: {e}", file.display())).with_status_code(500),
            ),
        },
        None => request.respond(Response::from_string("not found").with_status_code(404)),
    };
    if let Err(e) = answer {
        eprintln!("a reply was not sent: {e}");
    }
}

/// Serves until the process is stopped.
pub fn run(args: &ServeArgs) -> Result<()> {
    let index = args.dir.join("index.html");
    if !index.is_file() {
        anyhow::bail!(
            "--dir {}: no index.html there; build the page with scripts/build_web.sh",
            args.dir.display()
        );
    }
    let server = Server::http(("127.0.0.1", args.port))
        .map_err(|e| anyhow::anyhow!("--port {}: cannot listen on 127.0.0.1: {e}", args.port))?;
    let port = server
        .server_addr()
        .to_ip()
        .context("the server's address")?
        .port();
    println!(
        "serving {} on http://127.0.0.1:{port}/ (Ctrl-C stops)",
        args.dir.display()
    );
    std::thread::scope(|scope| {
        for _ in 0..SERVE_THREADS {
            scope.spawn(|| {
                while let Ok(request) = server.recv() {
                    answer(&args.dir, request);
                }
            });
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_map_to_files_inside_the_folder_only() {
        let dir = std::env::temp_dir().join(format!("jungle-serve-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("pkg")).unwrap();
        std::fs::write(dir.join("index.html"), "<p>hi</p>").unwrap();
        std::fs::write(dir.join("pkg/a.wasm"), [0u8, 97, 115, 109]).unwrap();
        let real = dir.canonicalize().unwrap();
        assert_eq!(file_for(&dir, "/"), Some(real.join("index.html")));
        assert_eq!(
            file_for(&dir, "/pkg/a.wasm?x=1"),
            Some(real.join("pkg/a.wasm"))
        );
        assert_eq!(
            file_for(&dir, "/pkg/%61.wasm"),
            Some(real.join("pkg/a.wasm"))
        );
        assert_eq!(file_for(&dir, "/missing.js"), None);
        assert_eq!(file_for(&dir, "/../etc/passwd"), None);
        assert_eq!(file_for(&dir, "/pkg/../../x"), None);
        assert_eq!(file_for(&dir, "/%2e%2e/%2e%2e/etc/passwd"), None);
        assert_eq!(file_for(&dir, "/pkg/%ff"), None);
        // A symlink inside the folder is followed, one out of it is not.
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc/passwd", dir.join("out")).unwrap();
            std::os::unix::fs::symlink(dir.join("index.html"), dir.join("in.html")).unwrap();
            assert_eq!(file_for(&dir, "/out"), None);
            assert_eq!(file_for(&dir, "/in.html"), Some(real.join("index.html")));
        }
        assert_eq!(content_type(Path::new("a.wasm")), "application/wasm");
        assert_eq!(
            content_type(Path::new("a.mjs")),
            "text/javascript; charset=utf-8"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
