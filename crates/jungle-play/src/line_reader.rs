//! Line protocols read on their own thread (`jungle engine`, the analysis
//! server), so commands keep arriving while a search runs.

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver};

/// A line that is not UTF-8 text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotUtf8;

impl std::fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the line is not UTF-8 text")
    }
}

/// Reads `input` line by line on a new thread until it ends; `peek` sees
/// each text line as it is read, before it is queued (the engine sets its
/// `stop` flag there, so a running search hears it at once).
pub fn read_lines<R, F>(input: R, peek: F) -> Receiver<Result<String, NotUtf8>>
where
    R: BufRead + Send + 'static,
    F: Fn(&str) + Send + 'static,
{
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut input = input;
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match input.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = String::from_utf8(bytes.clone()).map_err(|_| NotUtf8);
            if let Ok(text) = &line {
                peek(text);
            }
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn every_line_arrives_in_order_and_bad_bytes_are_named() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let peeked = Arc::clone(&seen);
        let input = std::io::Cursor::new(b"one\n\xff\ntwo".to_vec());
        let lines: Vec<_> = read_lines(input, move |l| peeked.lock().unwrap().push(l.to_string()))
            .into_iter()
            .collect();
        assert_eq!(
            lines,
            [Ok("one\n".to_string()), Err(NotUtf8), Ok("two".to_string())]
        );
        assert_eq!(*seen.lock().unwrap(), ["one\n", "two"]);
    }
}
