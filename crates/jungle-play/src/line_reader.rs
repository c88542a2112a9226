//! Line protocols with bounds: one line read up to a length
//! ([`read_bounded_line`], used by the `jcei:` client on an engine's
//! output), and input read on its own thread ([`read_lines`]: `jungle
//! engine`, the analysis server), so commands keep arriving while a search
//! runs and neither a line without end nor a flood of lines fills memory.

use std::io::{BufRead, Read};
use std::sync::mpsc::{self, Receiver};

/// The longest command line `jungle engine` reads (its commands are some
/// hundred bytes; a `position` with a thousand moves is 5 KiB).
pub const MAX_COMMAND_LINE: usize = 64 * 1024;
/// Lines read by [`read_lines`] and not yet taken: the reader waits when
/// this many are queued, so a flood blocks its sender instead of filling
/// memory.
pub const MAX_QUEUED_LINES: usize = 1024;

/// Why a line read by [`read_lines`] was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The line is not UTF-8 text.
    #[error("the line is not UTF-8 text")]
    NotUtf8,
    /// The line is longer than the bound (the rest of it was skipped).
    #[error("the line is longer than {limit} bytes")]
    TooLong {
        /// The bound.
        limit: usize,
    },
}

/// One line of `input` without its line end (`\r\n` too), read up to
/// `limit` bytes; `None` at the end of the input (or on a read error).
/// A longer line is `Err` and only `limit + 1` bytes of it are read: the
/// rest is left in `input` ([`skip_line`] passes it).
pub fn read_bounded_line(
    input: &mut impl BufRead,
    limit: usize,
) -> Option<Result<Vec<u8>, LineError>> {
    let mut bytes = Vec::new();
    match input
        .by_ref()
        .take(limit as u64 + 1)
        .read_until(b'\n', &mut bytes)
    {
        Ok(0) | Err(_) => return None,
        Ok(_) => {}
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    } else if bytes.len() > limit {
        return Some(Err(LineError::TooLong { limit }));
    }
    Some(Ok(bytes))
}

/// Passes the rest of the current line (through its line end) without
/// keeping it; false at the end of the input.
pub fn skip_line(input: &mut impl BufRead) -> bool {
    loop {
        let (used, found) = match input.fill_buf() {
            Ok([]) | Err(_) => return false,
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            },
        };
        input.consume(used);
        if found {
            return true;
        }
    }
}

/// What [`read_lines`]'s `peek` makes of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peeked {
    /// Queue the line for the reader of the channel.
    Queue,
    /// The peek answered it: drop it.
    Answered,
}

/// Reads `input` line by line on a new thread until it ends, each line
/// (without its line end) bounded by `limit` bytes and at most
/// [`MAX_QUEUED_LINES`] queued. `peek` sees each text line as it is read,
/// before it is queued (the engine sets its `stop` flag there, so a
/// running search hears it at once, and answers `isready` there during a
/// search), and `None` once the input has ended.
pub fn read_lines<R, F>(input: R, limit: usize, peek: F) -> Receiver<Result<String, LineError>>
where
    R: BufRead + Send + 'static,
    F: Fn(Option<&str>) -> Peeked + Send + 'static,
{
    let (tx, rx) = mpsc::sync_channel(MAX_QUEUED_LINES);
    std::thread::spawn(move || {
        let mut input = input;
        while let Some(line) = read_bounded_line(&mut input, limit) {
            let line =
                line.and_then(|bytes| String::from_utf8(bytes).map_err(|_| LineError::NotUtf8));
            match &line {
                Ok(text) if peek(Some(text)) == Peeked::Answered => continue,
                Err(LineError::TooLong { .. }) if !skip_line(&mut input) => {
                    let _ = tx.send(line);
                    break;
                }
                _ => {}
            }
            if tx.send(line).is_err() {
                return;
            }
        }
        peek(None);
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn lines_are_read_whole_up_to_the_bound() {
        let limit = 100;
        let text = format!("jceiok\r\ninfo x\n{}\nlast", "a".repeat(limit));
        let mut input = std::io::Cursor::new(text.into_bytes());
        let mut next =
            || read_bounded_line(&mut input, limit).map(|l| String::from_utf8(l.unwrap()).unwrap());
        assert_eq!(next().unwrap(), "jceiok");
        assert_eq!(next().unwrap(), "info x");
        assert_eq!(next().unwrap().len(), limit);
        assert_eq!(next().unwrap(), "last");
        assert!(next().is_none());
        // One byte more, with or without a line end, is refused.
        let long = "b".repeat(limit + 1);
        for text in [format!("{long}\n"), long.clone()] {
            let mut input = std::io::Cursor::new(text.into_bytes());
            let e = read_bounded_line(&mut input, limit).unwrap();
            assert_eq!(e, Err(LineError::TooLong { limit }));
        }
    }

    #[test]
    fn every_line_arrives_in_order_and_bad_or_long_ones_are_named() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let peeked = Arc::clone(&seen);
        let text = format!("one\n?\n{}\ntwo\nanswered\nthree", "x".repeat(50));
        let mut bytes = text.into_bytes();
        bytes[4] = 0xff;
        let input = std::io::Cursor::new(bytes);
        let lines: Vec<_> = read_lines(input, 20, move |l| {
            peeked.lock().unwrap().push(l.map(str::to_string));
            match l {
                Some("answered") => Peeked::Answered,
                _ => Peeked::Queue,
            }
        })
        .into_iter()
        .collect();
        assert_eq!(
            lines,
            [
                Ok("one".to_string()),
                Err(LineError::NotUtf8),
                Err(LineError::TooLong { limit: 20 }),
                Ok("two".to_string()),
                Ok("three".to_string()),
            ]
        );
        let seen = seen.lock().unwrap();
        let seen: Vec<_> = seen.iter().map(|l| l.as_deref()).collect();
        assert_eq!(
            seen,
            [
                Some("one"),
                Some("two"),
                Some("answered"),
                Some("three"),
                None
            ]
        );
    }

    #[test]
    fn a_line_without_end_is_refused_with_bounded_memory() {
        // 10 MB with no line end: one error, then the end of the input.
        let input = std::io::Cursor::new(vec![b'z'; 10_000_000]);
        let lines: Vec<_> = read_lines(input, 1000, |_| Peeked::Queue)
            .into_iter()
            .collect();
        assert_eq!(lines, [Err(LineError::TooLong { limit: 1000 })]);
    }
}
