//! Game shards: `MAGIC`, a format version (u32, little endian), the
//! bincode body (the rule set, the game count, the games) and a CRC-32 of
//! everything before it. Written to a temporary name and renamed, so a
//! killed run leaves only whole shards; read all-or-nothing.

use crate::legacy::{LegacyBody, MoveRecordV1, MoveRecordV2};
use crate::record::GameRecord;
use jungle_rules::RuleMixture;
use jungle_rules::Rules;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The first bytes of every shard.
pub const MAGIC: &[u8; 8] = b"JZSHARD\0";
/// Version of the shard layout and of the records in it: 3 since the
/// records keep their search's draw probability (2: its surprise);
/// versions 1 and 2 are still read ([`crate::legacy`]).
pub const SHARD_VERSION: u32 = 3;

/// The most bytes the records of one shard may claim when read (1 GiB, some
/// 100,000 long games): a damaged length field is an error, not an
/// allocation of whatever size it says (found by fuzzing).
pub const MAX_DECODED_BYTES: usize = 1 << 30;

#[derive(Serialize, Deserialize)]
struct Body {
    rules: Rules,
    game_count: u32,
    games: Vec<GameRecord>,
}

/// A shard's contents.
#[derive(Clone, Debug, PartialEq)]
pub struct Shard {
    /// The rule set every game of the shard was played under.
    pub rules: Rules,
    /// The games.
    pub games: Vec<GameRecord>,
}

/// Why a shard could not be written or read; always names the file.
#[derive(Debug, thiserror::Error)]
#[error("shard `{path}`: {problem}")]
pub struct ShardError {
    /// The file.
    pub path: PathBuf,
    /// What was wrong.
    pub problem: String,
    /// Whether the file itself is bad (damaged, truncated, not a shard, of
    /// another rule set): set aside, it can be skipped. Otherwise the file
    /// system failed (a folder or file that cannot be read or written),
    /// which skipping would hide.
    pub damaged: bool,
}

/// An error of the file system at `path`.
fn err(path: &Path, problem: impl Into<String>) -> ShardError {
    ShardError {
        path: path.to_path_buf(),
        problem: problem.into(),
        damaged: false,
    }
}

/// An error of the file at `path` itself.
fn damaged(path: &Path, problem: impl Into<String>) -> ShardError {
    ShardError {
        damaged: true,
        ..err(path, problem)
    }
}

/// The bytes of a shard.
pub fn encode_shard(rules: &Rules, games: &[GameRecord]) -> Vec<u8> {
    let body = Body {
        rules: rules.clone(),
        game_count: games.len() as u32,
        games: games.to_vec(),
    };
    let mut bytes = Vec::with_capacity(1024 + games.len() * 4096);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&SHARD_VERSION.to_le_bytes());
    let encoded = bincode::serde::encode_to_vec(&body, bincode::config::standard())
        .expect("records always encode");
    bytes.extend_from_slice(&encoded);
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
}

/// Writes a shard atomically ([`jungle_files::write_atomically`]: a
/// temporary file flushed to disk, renamed, the folder flushed).
pub fn write_shard(path: &Path, rules: &Rules, games: &[GameRecord]) -> Result<(), ShardError> {
    let bytes = encode_shard(rules, games);
    jungle_files::write_atomically(path, &bytes).map_err(|e| err(path, e.to_string()))
}

/// Decodes shard bytes; `path` names the file in errors.
pub fn decode_shard(path: &Path, bytes: &[u8]) -> Result<Shard, ShardError> {
    let header = MAGIC.len() + 4;
    if bytes.len() < header + 4 {
        return Err(damaged(
            path,
            format!(
                "{} bytes is too short for a shard (truncated?)",
                bytes.len()
            ),
        ));
    }
    if &bytes[..MAGIC.len()] != MAGIC {
        return Err(damaged(path, "wrong magic: not a jungle-zero game shard"));
    }
    let version = u32::from_le_bytes(bytes[MAGIC.len()..header].try_into().expect("4 bytes"));
    if !(1..=SHARD_VERSION).contains(&version) {
        return Err(damaged(
            path,
            format!("format version {version}, expected 1 to {SHARD_VERSION}"),
        ));
    }
    let (content, tail) = bytes.split_at(bytes.len() - 4);
    let stored = u32::from_le_bytes(tail.try_into().expect("4 bytes"));
    let actual = crc32fast::hash(content);
    if stored != actual {
        return Err(damaged(
            path,
            format!("checksum mismatch (stored {stored:08x}, computed {actual:08x}): the file is damaged or truncated"),
        ));
    }
    let records = &content[header..];
    let legacy = |(rules, game_count, games)| Body {
        rules,
        game_count,
        games,
    };
    let body = match version {
        1 => legacy(decode_body::<LegacyBody<MoveRecordV1>>(path, records)?.into_parts()),
        2 => legacy(decode_body::<LegacyBody<MoveRecordV2>>(path, records)?.into_parts()),
        _ => decode_body(path, records)?,
    };
    if body.game_count as usize != body.games.len() {
        return Err(damaged(
            path,
            format!(
                "header says {} games, found {}",
                body.game_count,
                body.games.len()
            ),
        ));
    }
    Ok(Shard {
        rules: body.rules,
        games: body.games,
    })
}

/// Decodes the bincode body of a shard: all of `records`, nothing left over.
fn decode_body<B: serde::de::DeserializeOwned>(
    path: &Path,
    records: &[u8],
) -> Result<B, ShardError> {
    let (body, used): (B, usize) = bincode::serde::decode_from_slice(
        records,
        bincode::config::standard().with_limit::<MAX_DECODED_BYTES>(),
    )
    .map_err(|e| damaged(path, format!("malformed records: {e}")))?;
    if used != records.len() {
        return Err(damaged(path, "trailing bytes after the records"));
    }
    Ok(body)
}

/// The largest shard [`read_shard`] reads (a generation's shard is some
/// megabytes).
pub const MAX_SHARD_BYTES: u64 = 1 << 30;

/// Reads a shard; with `expected_rules`, a shard of another rule set is an error.
pub fn read_shard(path: &Path, expected_rules: Option<&Rules>) -> Result<Shard, ShardError> {
    let bytes =
        jungle_files::read_bounded(path, MAX_SHARD_BYTES).map_err(|e| err(path, e.to_string()))?;
    let shard = decode_shard(path, &bytes)?;
    if let Some(expected) = expected_rules {
        if &shard.rules != expected {
            return Err(damaged(
                path,
                format!(
                    "played under another rule set ({}) than expected ({})",
                    one_line(&shard.rules),
                    one_line(expected)
                ),
            ));
        }
    }
    Ok(shard)
}

/// Reads a shard of one of `mixture`'s rule sets; returns it with its rule
/// set's position in the mixture. A shard of any other rule set is an
/// error (as damaged: it does not belong to the run).
pub fn read_shard_among(path: &Path, mixture: &RuleMixture) -> Result<(Shard, usize), ShardError> {
    let shard = read_shard(path, None)?;
    match mixture.index_of(&shard.rules) {
        Some(variant) => Ok((shard, variant)),
        None => Err(damaged(
            path,
            format!(
                "played under a rule set ({}) that is not the run's ({})",
                one_line(&shard.rules),
                (0..mixture.len())
                    .map(|i| mixture.name(i))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// A rule set on one line, for messages.
fn one_line(rules: &Rules) -> String {
    rules.to_toml().lines().collect::<Vec<_>>().join(", ")
}

/// The shard files of a directory (`*.bin`), sorted by name.
pub fn shard_files(dir: &Path) -> Result<Vec<PathBuf>, ShardError> {
    let entries = std::fs::read_dir(dir).map_err(|e| err(dir, e.to_string()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "bin"))
        .collect();
    files.sort();
    Ok(files)
}

/// The shard files under `dir` and its subfolders (a run keeps one
/// folder per generation), sorted by path. A symlink to a folder is not
/// followed (a link to a parent would loop forever).
pub fn shard_files_within(dir: &Path) -> Result<Vec<PathBuf>, ShardError> {
    let mut files = shard_files(dir)?;
    let entries = std::fs::read_dir(dir).map_err(|e| err(dir, e.to_string()))?;
    for entry in entries {
        let entry = entry.map_err(|e| err(dir, e.to_string()))?;
        // `file_type` does not follow symlinks.
        let is_folder = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_folder {
            files.extend(shard_files_within(&entry.path())?);
        }
    }
    files.sort();
    Ok(files)
}

/// The next free shard number in `dir` (`shard-NNNNNN.bin`); 0 for a
/// folder that does not exist yet, an error for one that cannot be read.
pub fn next_shard_index(dir: &Path) -> Result<u64, ShardError> {
    if !dir.exists() {
        return Ok(0);
    }
    Ok(shard_files(dir)?
        .iter()
        .filter_map(|p| {
            p.file_stem()?
                .to_str()?
                .strip_prefix("shard-")?
                .parse::<u64>()
                .ok()
        })
        .max()
        .map_or(0, |n| n + 1))
}

/// Writes the games as a new shard in `dir`, numbered from `index` on:
/// a number another process took meanwhile is skipped, never replaced.
/// Returns the shard's path and the next free number.
pub fn write_new_shard(
    dir: &Path,
    mut index: u64,
    rules: &Rules,
    games: &[GameRecord],
) -> Result<(PathBuf, u64), ShardError> {
    let bytes = encode_shard(rules, games);
    loop {
        let path = shard_path(dir, index);
        match jungle_files::write_new(&path, &bytes) {
            Ok(()) => return Ok((path, index + 1)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => index += 1,
            Err(e) => return Err(err(&path, e.to_string())),
        }
    }
}

/// The path of shard number `index` in `dir`.
pub fn shard_path(dir: &Path, index: u64) -> PathBuf {
    dir.join(format!("shard-{index:06}.bin"))
}
