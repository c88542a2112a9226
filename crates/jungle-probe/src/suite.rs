//! The position suite: a header line, then one labelled position a line
//! (JSON Lines). The standard suite (`suites/standard.jsonl`, made by
//! `jungle probe make`) is embedded in the binary; any other is read from
//! its file. Reading checks every line: the position parses, its legal
//! moves are as many as the label says, and every move named is legal.

use crate::error::SuiteError;
use crate::label::{LabellerSettings, Outcome};
use jungle_rules::{Move, Position, Rules};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The standard suite, as committed (`suites/standard.jsonl`).
pub const STANDARD_SUITE: &str = include_str!("../../../suites/standard.jsonl");
/// The name the embedded suite goes by in errors and reports.
pub const STANDARD_SUITE_NAME: &str = "suites/standard.jsonl (embedded)";
/// The largest suite file read, in bytes.
pub const MAX_SUITE_BYTES: u64 = 64 << 20;

/// The stage of the game a position comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Early in the game, nearly every animal on the board.
    Opening,
    /// Neither.
    Middle,
    /// Ten animals or fewer left (of sixteen).
    Ending,
}

impl Phase {
    /// Every phase, in game order.
    pub const ALL: [Phase; 3] = [Phase::Opening, Phase::Middle, Phase::Ending];

    /// The phase of a position `ply` plies into its game: an ending with 10
    /// animals or fewer on the board, an opening before ply 24 with 14 or
    /// more, a middle game otherwise.
    pub fn of(pos: &Position, ply: u32) -> Phase {
        let animals = pos.occupied_all().len();
        if animals <= 10 {
            Phase::Ending
        } else if ply < 24 && animals >= 14 {
            Phase::Opening
        } else {
            Phase::Middle
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Opening => "opening",
            Phase::Middle => "middle",
            Phase::Ending => "ending",
        }
    }
}

/// The suite's first line: what it is and how it was labelled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteHeader {
    /// Always `jungle-zero position suite`.
    pub suite: String,
    /// The rule set (a preset name) its positions and labels are under.
    pub rules: String,
    /// How many positions follow.
    pub positions: usize,
    /// The reference that labelled them.
    pub labeller: LabellerSettings,
    /// The games they were drawn from: one `A vs B` a pairing.
    pub pairings: Vec<String>,
    /// The command that made the file.
    pub command: String,
}

/// What every suite's header says it is.
pub const SUITE_MAGIC: &str = "jungle-zero position suite";

/// One position and its label.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabelledPosition {
    /// The position (FEN), taken without its game's history.
    pub fen: String,
    /// The stage of the game it came from.
    pub phase: Phase,
    /// Plies into its game.
    pub ply: u32,
    /// The pairing whose game it came from.
    pub source: String,
    /// Its number of legal moves.
    pub legal: u32,
    /// The reference's best move.
    pub best: String,
    /// Every move within the labeller's margin of the best (the best first).
    pub good: Vec<String>,
    /// The reference's score for the side to move, in points (a rat is
    /// about 300; a forced result is near +-1000000).
    pub score: i32,
    /// Its value in [-1, 1].
    pub value: f32,
    /// The outcome class for the side to move ([`Outcome::of_value`]).
    pub outcome: Outcome,
    /// The fewest own moves in which the solver proves a forced win for
    /// the side to move, if it does within its reach.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forced_win: Option<u32>,
    /// With `forced_win`, every move that keeps the forced win within that
    /// many moves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub winning: Vec<String>,
}

impl LabelledPosition {
    /// Whether the choice of move matters here: the good moves are at most
    /// half of the legal ones, so a blind pick misses more often than not.
    pub fn move_matters(&self) -> bool {
        self.good.len() * 2 <= self.legal as usize
    }
}

/// A position of the suite, parsed.
#[derive(Clone, Debug)]
pub struct SuiteEntry {
    /// The label as written.
    pub label: LabelledPosition,
    /// The position.
    pub position: Position,
    /// Its legal moves, in generation order.
    pub legal_moves: Vec<Move>,
    /// The good moves.
    pub good: Vec<Move>,
    /// The moves that keep the forced win.
    pub winning: Vec<Move>,
}

/// A whole suite.
#[derive(Clone, Debug)]
pub struct Suite {
    /// Where it was read from (a path, or the embedded suite's name).
    pub origin: PathBuf,
    /// Its header.
    pub header: SuiteHeader,
    /// Its positions.
    pub entries: Vec<SuiteEntry>,
    /// The rule set.
    pub rules: Rules,
}

impl Suite {
    /// The embedded standard suite.
    pub fn standard() -> Result<Suite, SuiteError> {
        Suite::parse(Path::new(STANDARD_SUITE_NAME), STANDARD_SUITE)
    }

    /// Reads a suite file (a regular file of at most [`MAX_SUITE_BYTES`]).
    pub fn read(path: &Path) -> Result<Suite, SuiteError> {
        let read = |source| SuiteError::Read {
            path: path.to_path_buf(),
            source,
        };
        let text = jungle_files::read_text_bounded(path, MAX_SUITE_BYTES).map_err(read)?;
        Suite::parse(path, &text)
    }

    /// Parses suite text; `origin` names it in errors.
    pub fn parse(origin: &Path, text: &str) -> Result<Suite, SuiteError> {
        let line_error = |line: usize, problem: String| SuiteError::Line {
            path: origin.to_path_buf(),
            line,
            problem,
        };
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let (_, first) = lines
            .next()
            .ok_or_else(|| line_error(1, "empty: expected the suite's header".into()))?;
        let header: SuiteHeader = serde_json::from_str(first)
            .map_err(|e| line_error(1, format!("expected the suite's header: {e}")))?;
        if header.suite != SUITE_MAGIC {
            return Err(line_error(
                1,
                format!("`suite` is `{}`, expected `{SUITE_MAGIC}`", header.suite),
            ));
        }
        let rules = Rules::preset(&header.rules).ok_or_else(|| {
            line_error(
                1,
                format!("`rules` is `{}`, expected a preset name", header.rules),
            )
        })?;
        let mut entries = Vec::with_capacity(header.positions.min(1 << 16));
        for (i, line) in lines {
            let label: LabelledPosition = serde_json::from_str(line)
                .map_err(|e| line_error(i + 1, format!("expected a labelled position: {e}")))?;
            let entry = SuiteEntry::new(label, &rules).map_err(|p| line_error(i + 1, p))?;
            entries.push(entry);
        }
        if entries.len() != header.positions {
            return Err(SuiteError::Count {
                path: origin.to_path_buf(),
                promised: header.positions,
                found: entries.len(),
            });
        }
        Ok(Suite {
            origin: origin.to_path_buf(),
            header,
            entries,
            rules,
        })
    }

    /// The suite as text: the header, then a position a line.
    pub fn to_text(header: &SuiteHeader, positions: &[LabelledPosition]) -> String {
        let mut text = serde_json::to_string(header).expect("serialises");
        text.push('\n');
        for p in positions {
            text.push_str(&serde_json::to_string(p).expect("serialises"));
            text.push('\n');
        }
        text
    }

    /// A fixed sub-suite of one position in `every` (rounded up): the
    /// positions drawn by a fixed pseudo-random order, so the sub-suite
    /// keeps the suite's mix of phases and pairings (the file lists them
    /// in turn, so a plain stride would take one pairing's alone), and
    /// listed in the file's order.
    pub fn every(&self, every: usize) -> Suite {
        let every = every.max(1);
        let n = self.entries.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| splitmix64(i as u64));
        let mut chosen: Vec<usize> = order[..n.div_ceil(every)].to_vec();
        chosen.sort_unstable();
        Suite {
            entries: chosen.iter().map(|&i| self.entries[i].clone()).collect(),
            ..self.clone()
        }
    }
}

/// SplitMix64's finaliser: a fixed, well-mixed order of the positions.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl SuiteEntry {
    /// Parses and checks a label under `rules`.
    fn new(label: LabelledPosition, rules: &Rules) -> Result<SuiteEntry, String> {
        let position = Position::from_fen(&label.fen).map_err(|e| format!("`fen`: {e}"))?;
        let legal_moves: Vec<Move> = position.legal_moves(rules).iter().copied().collect();
        if legal_moves.len() != label.legal as usize || legal_moves.is_empty() {
            return Err(format!(
                "`legal` is {}, the position has {} legal moves",
                label.legal,
                legal_moves.len()
            ));
        }
        let parse = |field: &str, texts: &[String]| -> Result<Vec<Move>, String> {
            texts
                .iter()
                .map(|t| {
                    position
                        .parse_move(t, rules)
                        .map_err(|e| format!("`{field}`: {e}"))
                })
                .collect()
        };
        let good = parse("good", &label.good)?;
        let winning = parse("winning", &label.winning)?;
        let best = parse("best", std::slice::from_ref(&label.best))?;
        if good.first() != best.first() {
            return Err("`good` must start with `best`".to_string());
        }
        if label.forced_win.is_some() == winning.is_empty() {
            return Err("`winning` lists moves exactly when `forced_win` is set".to_string());
        }
        Ok(SuiteEntry {
            label,
            position,
            legal_moves,
            good,
            winning,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_suite_is_whole_and_spread_over_the_game() {
        let suite = Suite::standard().unwrap();
        assert!(suite.entries.len() >= 5000, "{}", suite.entries.len());
        for phase in Phase::ALL {
            let n = suite
                .entries
                .iter()
                .filter(|e| e.label.phase == phase)
                .count();
            assert!(n >= 1500, "{} {phase:?} positions", n);
        }
        assert_eq!(suite.header.labeller, LabellerSettings::default());
        // A forced win is labelled a win, and its best move keeps it.
        for e in suite
            .entries
            .iter()
            .filter(|e| e.label.forced_win.is_some())
        {
            assert_eq!(e.label.outcome, Outcome::Win, "{}", e.label.fen);
            assert!(e.winning.contains(&e.good[0]), "{}", e.label.fen);
        }
        // A sub-suite keeps the mix of phases.
        let sixth = suite.every(6);
        assert_eq!(sixth.entries.len(), suite.entries.len().div_ceil(6));
        for phase in Phase::ALL {
            let share = |s: &Suite| {
                s.entries.iter().filter(|e| e.label.phase == phase).count() as f64
                    / s.entries.len() as f64
            };
            assert!((share(&sixth) - share(&suite)).abs() < 0.05, "{phase:?}");
        }
        // No position twice.
        let fens: std::collections::HashSet<&str> =
            suite.entries.iter().map(|e| e.label.fen.as_str()).collect();
        assert_eq!(fens.len(), suite.entries.len());
    }

    #[test]
    fn a_damaged_suite_names_the_line() {
        let header = STANDARD_SUITE.lines().next().unwrap();
        let line = STANDARD_SUITE.lines().nth(1).unwrap();
        let wrong_legal = line.replacen("\"legal\":", "\"legal\":9", 1);
        let text = format!("{header}\n{wrong_legal}\n");
        let e = Suite::parse(Path::new("x.jsonl"), &text)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("`x.jsonl`, line 2") && e.contains("legal"),
            "{e}"
        );
        let e = Suite::parse(Path::new("y.jsonl"), "{\"suite\": 1}\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("`y.jsonl`, line 1") && e.contains("header"),
            "{e}"
        );
    }
}
