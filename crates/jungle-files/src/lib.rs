//! # jungle-files
//!
//! Every file the workspace writes for later reading (checkpoints, shards,
//! `state.json`, plots, reports, the export) is published the same way, so
//! a reader, or a run resumed after a kill or a power cut, finds the old
//! file or the new one and never half of one: the content goes to a
//! temporary file in the same folder, which is flushed to disk (fsync),
//! renamed over the target, and the folder is flushed too so the rename
//! itself survives.

#![warn(missing_docs)]

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// A temporary name for `path`, in its folder (a rename across folders
/// could cross file systems and stop being atomic), ending in `.tmp` and
/// then `extension` if one is given (writers that pick their format by
/// the extension): `<path>.<pid>-<n>-<nonce>.tmp[.<extension>]`. The
/// process id, a counter and a nonce from the clock make it unique, so two
/// processes (or threads) writing one file never write through the same
/// temporary file, and a name planted in advance is unlikely to be hit
/// (and refused if it is: [`publish_via`] creates it exclusively).
pub fn temporary_path_with(path: &Path, extension: Option<&str>) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{}-{n}-{nonce:08x}.tmp", std::process::id()));
    if let Some(ext) = extension {
        name.push(format!(".{ext}"));
    }
    PathBuf::from(name)
}

/// [`temporary_path_with`] without an extension.
pub fn temporary_path(path: &Path) -> PathBuf {
    temporary_path_with(path, None)
}

/// Reads the bytes of `path`, refusing what is not a regular file (a FIFO
/// would block, a device could stream forever; looked at before it is
/// opened) and a file over `max_bytes` (the error says which and how big).
/// Reads at most `max_bytes + 1` bytes, so a file that grows while it is
/// read is refused too.
pub fn read_bounded(path: &Path, max_bytes: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let regular = |meta: &std::fs::Metadata| {
        if meta.is_file() {
            Ok(())
        } else {
            Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a regular file",
            ))
        }
    };
    regular(&std::fs::metadata(path)?)?;
    let file = File::open(path)?;
    let meta = file.metadata()?;
    regular(&meta)?;
    let too_big = |len: u64| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{len} bytes, over the {max_bytes} this file may hold"),
        )
    };
    if meta.len() > max_bytes {
        return Err(too_big(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// [`read_bounded`] for UTF-8 text.
pub fn read_text_bounded(path: &Path, max_bytes: u64) -> io::Result<String> {
    String::from_utf8(read_bounded(path, max_bytes)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// The most bytes a config, a rule set or a checkpoint's description
/// may hold (they are some kilobytes).
pub const MAX_SETTINGS_BYTES: u64 = 4 << 20;

/// Writes `bytes` to `path` atomically (see the crate's documentation).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    publish(path, |tmp| std::fs::write(tmp, bytes)).map_err(PublishError::into_io)
}

/// Writes `bytes` to `path` atomically, only if `path` does not exist: an
/// existing file is never replaced (the error's kind is then
/// [`io::ErrorKind::AlreadyExists`]). The temporary file is linked to its
/// name, which fails when the name is taken, even by a process racing
/// this one; where links are not supported, the name is checked and the
/// file renamed.
pub fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = temporary_path(path);
    let written = std::fs::write(&tmp, bytes)
        .and_then(|()| File::open(&tmp)?.sync_all())
        .and_then(|()| match std::fs::hard_link(&tmp, path) {
            Ok(()) => std::fs::remove_file(&tmp),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(e),
            Err(_) if path.exists() => Err(io::ErrorKind::AlreadyExists.into()),
            Err(_) => std::fs::rename(&tmp, path),
        })
        .and_then(|()| sync_folder(path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Why [`publish`] failed: the writer's own error, or the file system's
/// while flushing and renaming.
#[derive(Debug)]
pub enum PublishError<E> {
    /// The writer failed.
    Write(E),
    /// Flushing, renaming or flushing the folder failed.
    Io(io::Error),
}

impl<E> PublishError<E> {
    /// The writer's error as is, or `io` made one from the file system's.
    pub fn into_inner(self, io: impl FnOnce(io::Error) -> E) -> E {
        match self {
            PublishError::Write(e) => e,
            PublishError::Io(e) => io(e),
        }
    }
}

impl PublishError<io::Error> {
    /// Either way an I/O error.
    pub fn into_io(self) -> io::Error {
        self.into_inner(|e| e)
    }
}

/// Publishes `path` atomically: `write` creates the file at the temporary
/// path it is given (for writers that take a path, such as burn's
/// recorders); it is then flushed, renamed over `path`, and the folder
/// flushed. On an error the temporary file is removed and `path` is left
/// as it was.
pub fn publish<E>(
    path: &Path,
    write: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<(), PublishError<E>> {
    publish_via(path, &temporary_path(path), write)
}

/// [`publish`] through the temporary file `tmp`, for writers that need a
/// name of their own (an image encoder that reads the extension); `tmp`
/// must be in the folder of `path`. `tmp` is created exclusively before
/// `write` is called: an existing file or symlink of that name is an
/// error, never written through (nor removed).
pub fn publish_via<E>(
    path: &Path,
    tmp: &Path,
    write: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<(), PublishError<E>> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(tmp)
        .map_err(PublishError::Io)?;
    let result = write(tmp).map_err(PublishError::Write).and_then(|()| {
        File::open(tmp)
            .and_then(|f| f.sync_all())
            .and_then(|()| std::fs::rename(tmp, path))
            .and_then(|()| sync_folder(path))
            .map_err(PublishError::Io)
    });
    if result.is_err() {
        let _ = std::fs::remove_file(tmp);
    }
    result
}

/// Flushes the folder holding `path`, so a file created, renamed or
/// removed there stays so after a crash (a no-op where folders cannot be
/// opened, as on Windows).
pub fn sync_folder(path: &Path) -> io::Result<()> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if cfg!(unix) {
        File::open(folder)?.sync_all()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("jungle-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn temporary_names_are_unique_and_created_exclusively() {
        let dir = scratch("temporary");
        let path = dir.join("plot.png");
        let (a, b) = (
            temporary_path(&path),
            temporary_path_with(&path, Some("png")),
        );
        assert_ne!(a, temporary_path(&path));
        assert!(a.to_str().unwrap().ends_with(".tmp") && b.to_str().unwrap().ends_with(".tmp.png"));
        assert_eq!(a.parent(), path.parent());
        // A name taken in advance (here a symlink to a file that must not
        // be touched) is refused, not written through.
        let victim = dir.join("victim");
        std::fs::write(&victim, "keep").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&victim, &a).unwrap();
            let err = publish_via(&path, &a, |tmp| std::fs::write(tmp, "new")).unwrap_err();
            assert!(
                matches!(err, PublishError::Io(ref e) if e.kind() == io::ErrorKind::AlreadyExists)
            );
            assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
            assert!(!path.exists() && std::fs::symlink_metadata(&a).is_ok());
        }
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn bounded_reads_refuse_big_files_and_what_is_not_a_file() {
        let dir = scratch("bounded");
        let file = dir.join("a.json");
        std::fs::write(&file, "0123456789").unwrap();
        assert_eq!(read_text_bounded(&file, 10).unwrap(), "0123456789");
        let big = read_text_bounded(&file, 9).unwrap_err();
        assert!(big.to_string().contains("10 bytes, over the 9"), "{big}");
        let folder = read_text_bounded(&dir, 1 << 20).unwrap_err();
        assert!(
            folder.to_string().contains("not a regular file") || folder.raw_os_error().is_some(),
            "{folder}"
        );
        #[cfg(unix)]
        {
            let device = read_text_bounded(Path::new("/dev/zero"), 1 << 20).unwrap_err();
            assert!(
                device.to_string().contains("not a regular file"),
                "{device}"
            );
            // A FIFO is refused, not waited on (opening one blocks).
            let fifo = dir.join("fifo");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                let (tx, rx) = std::sync::mpsc::channel();
                let path = fifo.clone();
                std::thread::spawn(move || {
                    let _ = tx.send(read_text_bounded(&path, 100).map_err(|e| e.to_string()));
                });
                let read = rx
                    .recv_timeout(std::time::Duration::from_secs(10))
                    .expect("a FIFO is refused at once");
                assert!(read.unwrap_err().contains("not a regular file"));
            }
        }
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_written_file_replaces_the_old_one_and_leaves_no_temporary() {
        let dir = scratch("replace");
        let path = dir.join("state.json");
        write_atomically(&path, b"old").unwrap();
        write_atomically(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_removes_the_temporary() {
        let dir = scratch("fail");
        let path = dir.join("weights.bpk");
        write_atomically(&path, b"old").unwrap();
        let result = publish(&path, |tmp| {
            std::fs::write(tmp, b"half")?;
            Err(io::Error::other("disk full"))
        });
        assert_eq!(result.unwrap_err().into_io().to_string(), "disk full");
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary left"
        );
    }

    #[test]
    fn a_new_file_never_replaces_one_that_exists() {
        let dir = scratch("new");
        let path = dir.join("shard-000000.bin");
        write_new(&path, b"first").unwrap();
        let e = write_new(&path, b"second").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    }

    #[test]
    fn a_missing_folder_is_an_error() {
        let path = scratch("missing").join("no/such/folder/file");
        assert!(write_atomically(&path, b"x").is_err());
    }
}
