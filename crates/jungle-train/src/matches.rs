//! `matches.jsonl`: every evaluation game, one JSON object per line,
//! append-only; Elo is always refitted from it.

use crate::error::TrainError;
use jungle_play::arena::MatchGame;
use jungle_play::elo::RatedGame;
use jungle_rules::moves_text;
use serde::{Deserialize, Serialize};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

/// One evaluation game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchLine {
    /// Generation whose evaluation played it.
    pub generation: u32,
    /// Player A (a checkpoint `step:N` or an anchor spec).
    pub a: String,
    /// Player B.
    pub b: String,
    /// A's score: 1, 0.5 or 0.
    pub score_a: f64,
    /// Length in plies.
    pub plies: u32,
    /// End reason.
    pub reason: String,
    /// The rule set it was played under, by its name in `[run] variants`,
    /// in a run over a mixture; absent in a run of one rule set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// A's seat, `south` or `north` (absent in lines written before it
    /// was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_seat: Option<String>,
    /// Every move from the start, opening included, space separated: the
    /// game can be replayed (absent in lines written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<String>,
}

impl MatchLine {
    /// The line of `game` between `a` and `b`, played in `generation`
    /// (0 outside a training run) under the rule set named `variant`
    /// (`None` in a run of one rule set).
    pub fn of_game(
        generation: u32,
        a: &str,
        b: &str,
        game: &MatchGame,
        variant: Option<String>,
    ) -> MatchLine {
        MatchLine {
            generation,
            a: a.to_string(),
            b: b.to_string(),
            score_a: game.score_for_a(),
            plies: game.plies,
            reason: game.reason_name().to_string(),
            variant,
            a_seat: Some(game.a_side.name().to_string()),
            moves: Some(moves_text(&game.moves)),
        }
    }

    /// As an Elo fitting input.
    pub fn result(&self) -> RatedGame {
        RatedGame {
            a: self.a.clone(),
            b: self.b.clone(),
            score_a: self.score_a,
        }
    }
}

/// Appends `lines` with one write, so a match is appended whole or (if the
/// process is killed mid-write) leaves at most one unterminated line. Such
/// a torn last line is cut off first, back to the last newline, so the file
/// never holds a bad line between good ones.
pub fn append_matches(path: &Path, lines: &[MatchLine]) -> Result<(), TrainError> {
    let mut text = String::new();
    for line in lines {
        text.push_str(&serde_json::to_string(line).expect("serialises"));
        text.push('\n');
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)
        .map_err(TrainError::io(path))?;
    let mut old = Vec::new();
    file.read_to_end(&mut old).map_err(TrainError::io(path))?;
    let whole = old.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    file.set_len(whole as u64)
        .and_then(|_| file.seek(SeekFrom::Start(whole as u64)))
        .and_then(|_| file.write_all(text.as_bytes()))
        .and_then(|_| file.sync_data())
        .map_err(TrainError::io(path))
}

/// The largest `matches.jsonl` [`read_matches`] reads (a match is a
/// line of some hundred bytes).
pub const MAX_MATCHES_BYTES: u64 = 1 << 30;

/// Reads every line; a missing file is empty. A malformed line is an error
/// naming the file and line (a file of at most [`MAX_MATCHES_BYTES`]),
/// except an unterminated last line (a write cut
/// short by a kill), which is skipped and counted in the second value.
pub fn read_matches(path: &Path) -> Result<(Vec<MatchLine>, usize), TrainError> {
    let text = match jungle_files::read_text_bounded(path, MAX_MATCHES_BYTES) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), 0)),
        Err(e) => return Err(TrainError::io(path)(e)),
    };
    let mut out = Vec::new();
    let mut skipped = 0;
    let terminated = text.ends_with('\n');
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<MatchLine>(line) {
            Ok(m) => out.push(m),
            Err(_) if i + 1 == lines.len() && !terminated => skipped += 1,
            Err(source) => {
                return Err(TrainError::Json {
                    path: path.to_path_buf(),
                    line: Some(i + 1),
                    source,
                })
            }
        }
    }
    Ok((out, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_a_cut_last_line_is_skipped() {
        let dir = std::env::temp_dir().join(format!("jungle-matches-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("matches.jsonl");
        let _ = std::fs::remove_file(&path);
        let line = MatchLine {
            generation: 1,
            a: "step:10".into(),
            b: "random".into(),
            score_a: 1.0,
            plies: 40,
            reason: "den".into(),
            variant: None,
            a_seat: None,
            moves: None,
        };
        append_matches(&path, &[line.clone(), line.clone()]).unwrap();
        assert_eq!(
            read_matches(&path).unwrap(),
            (vec![line.clone(), line.clone()], 0)
        );
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        f.write_all(b"{\"generation\": 2, \"a\"").unwrap();
        assert_eq!(read_matches(&path).unwrap().1, 1);
        // The next append cuts the torn line off instead of writing after it.
        append_matches(&path, std::slice::from_ref(&line)).unwrap();
        assert_eq!(read_matches(&path).unwrap(), (vec![line.clone(); 3], 0));
        std::fs::write(&path, "{\"bad\": 1}\n").unwrap();
        assert!(read_matches(&path)
            .unwrap_err()
            .to_string()
            .contains("line 1"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
