//! `jungle serve`: the browser page (`web/dist/`, built by
//! `scripts/build_web.sh`) served as static files on 127.0.0.1 (or the
//! address `--bind` names), for playing the shipped network in a browser. Files only, under the folder,
//! read-only; nothing else is reachable. HTTP/1.1 GET and HEAD on std's
//! sockets, each request's head bounded in size and time and parsed by
//! `httparse` (tiny_http, used before, bounds neither the head nor its
//! threads: tiny-http/tiny-http#56).

use anyhow::{Context, Result};
use clap::Args;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// Arguments of `jungle serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// The port (0: any free port; the one taken is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on: 127.0.0.1 (this machine only), or e.g.
    /// 0.0.0.0 for every interface (a container's published port, another
    /// machine on the network).
    #[arg(long, default_value = "127.0.0.1", value_name = "IP")]
    bind: std::net::IpAddr,
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

/// Connections answered at once, each on its own thread: a client that
/// reads slowly, or sends slowly, holds one of them, not the server; more
/// wait in the listener's backlog.
const MAX_CONNECTIONS: usize = 64;
/// The most bytes of a request's head (request line and headers; a
/// browser's are under 2 KiB); a longer one is answered 431.
const MAX_HEAD_BYTES: usize = 16 * 1024;
/// The most headers a request may have.
const MAX_HEADERS: usize = 64;
/// How long a client has to send its whole request head.
const HEAD_DEADLINE: Duration = Duration::from_secs(10);
/// How long a write to a client that does not read may wait before the
/// connection is dropped.
const WRITE_TIMEOUT: Duration = Duration::from_secs(60);

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

/// Why a request head was not read.
enum HeadError {
    /// Longer than [`MAX_HEAD_BYTES`].
    TooLong,
    /// The client closed, went quiet past [`HEAD_DEADLINE`] or the read
    /// failed: nothing to answer.
    Gone,
}

/// Reads a request head (through its blank line) of at most
/// [`MAX_HEAD_BYTES`], within [`HEAD_DEADLINE`].
fn read_head(stream: &mut TcpStream) -> Result<Vec<u8>, HeadError> {
    let deadline = Instant::now() + HEAD_DEADLINE;
    let mut head = Vec::new();
    let mut chunk = [0u8; 2048];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return Err(HeadError::Gone);
        }
        let n = match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return Err(HeadError::Gone),
            Ok(n) => n,
        };
        // The blank line may straddle two reads.
        let from = head.len().saturating_sub(3);
        head.extend_from_slice(&chunk[..n]);
        if let Some(end) = head[from..].windows(4).position(|w| w == b"\r\n\r\n") {
            head.truncate(from + end + 4);
            return Ok(head);
        }
        if head.len() > MAX_HEAD_BYTES {
            return Err(HeadError::TooLong);
        }
    }
}

/// Writes a status line and headers; the connection closes after the body.
fn write_head(
    stream: &mut TcpStream,
    status: &str,
    content_type: &str,
    length: u64,
) -> std::io::Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n"
    )
}

/// A short text answer.
fn write_text(stream: &mut TcpStream, status: &str, text: &str) -> std::io::Result<()> {
    write_head(
        stream,
        status,
        "text/plain; charset=utf-8",
        text.len() as u64,
    )?;
    stream.write_all(text.as_bytes())
}

/// Answers one connection's request (GET or HEAD) with the file its URL
/// names, or an error status; then closes it.
fn answer(root: &Path, mut stream: TcpStream) -> std::io::Result<()> {
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    let head = match read_head(&mut stream) {
        Ok(head) => head,
        Err(HeadError::TooLong) => {
            write_text(
                &mut stream,
                "431 Request Header Fields Too Large",
                &format!("a request head may hold at most {MAX_HEAD_BYTES} bytes"),
            )?;
            return linger(stream);
        }
        Err(HeadError::Gone) => return Ok(()),
    };
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    let (method, url) = match request.parse(&head) {
        Ok(httparse::Status::Complete(_)) => (
            request.method.unwrap_or_default(),
            request.path.unwrap_or_default(),
        ),
        Err(httparse::Error::TooManyHeaders) => {
            return write_text(
                &mut stream,
                "431 Request Header Fields Too Large",
                &format!("a request may have at most {MAX_HEADERS} headers"),
            )
        }
        _ => return write_text(&mut stream, "400 Bad Request", "not an HTTP request"),
    };
    if method != "GET" && method != "HEAD" {
        return write_text(&mut stream, "405 Method Not Allowed", "GET and HEAD only");
    }
    let Some(file) = file_for(root, url) else {
        return write_text(&mut stream, "404 Not Found", "not found");
    };
    match std::fs::File::open(&file) {
        Ok(mut opened) => {
            let length = opened.metadata()?.len();
            write_head(&mut stream, "200 OK", content_type(&file), length)?;
            if method == "GET" {
                std::io::copy(&mut opened, &mut stream)?;
            }
            stream.flush()
        }
        Err(e) => write_text(
            &mut stream,
            "500 Internal Server Error",
            &format!("{}: {e}", file.display()),
        ),
    }
}

/// Closes a connection whose client may still be sending: the answer
/// first, then what arrives in the next second (at most 1 MiB) is read and
/// dropped, so the client reads the answer instead of a reset.
fn linger(mut stream: TcpStream) -> std::io::Result<()> {
    stream.shutdown(std::net::Shutdown::Write)?;
    stream.set_read_timeout(Some(Duration::from_secs(1)))?;
    let _ = std::io::copy(&mut (&mut stream).take(1 << 20), &mut std::io::sink());
    Ok(())
}

/// Connections being answered, and the wait for a free place.
#[derive(Default)]
struct Places {
    taken: Mutex<usize>,
    freed: Condvar,
}

impl Places {
    /// Waits for a place and takes it.
    fn take(&self) {
        let mut taken = self.taken.lock().expect("no panic holds the lock");
        while *taken >= MAX_CONNECTIONS {
            taken = self.freed.wait(taken).expect("no panic holds the lock");
        }
        *taken += 1;
    }

    fn give_back(&self) {
        *self.taken.lock().expect("no panic holds the lock") -= 1;
        self.freed.notify_one();
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
    let listener = TcpListener::bind((args.bind, args.port)).with_context(|| {
        format!(
            "--bind {} --port {}: cannot listen there",
            args.bind, args.port
        )
    })?;
    let port = listener
        .local_addr()
        .context("the server's address")?
        .port();
    println!(
        "serving {} on http://{}:{port}/ (Ctrl-C stops)",
        args.dir.display(),
        args.bind
    );
    let places = Places::default();
    std::thread::scope(|scope| {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            places.take();
            let places = &places;
            scope.spawn(move || {
                if let Err(e) = answer(&args.dir, stream) {
                    eprintln!("a reply was not sent whole: {e}");
                }
                places.give_back();
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
